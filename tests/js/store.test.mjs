// The checks every stored record passes before the page uses it (static/store.js): settings,
// the engine's view of the game in progress, and the history's entries.
import assert from "node:assert/strict";
import test from "node:test";

import { readFileSync, readdirSync } from "node:fs";

import {
  browserLang, byDate, checkCurrent, checkEntry, checkHistory, checkView, cleanEntries, compile, historyChanges, knownView, migrateEntry, notIn, parse,
  settingsCheck, useSchema,
} from "../../src/kniffel/web/static/store.js?b=__BUILD__";

// The engine's description of its replies, the one the site's build hands the page.
const SCHEMA = JSON.parse(readFileSync(new URL("../../src/kniffel/browser/schema.json", import.meta.url), "utf8"));
useSchema(SCHEMA);

const players = (n) => Array.from({ length: n }, (_, i) => ({ name: `P${i + 1}`, kind: "human" }));
const settings = (n, extra = {}) => ({ version: 1, lang: "de",
  setup: { rules: "extreme", free_strike: false, mode: "pad", players: players(n) }, ...extra });

test("a page without a stored language speaks the first of the browser's languages it knows, else German", () => {
  assert.equal(browserLang(["en-US", "en", "de"]), "en");
  assert.equal(browserLang(["fr-FR", "en-GB", "de-DE"]), "en");
  assert.equal(browserLang(["fr-FR", "DE-at"]), "de");
  assert.equal(browserLang(["de-CH", "en-US"]), "de");
  assert.equal(browserLang(["fr-FR", "it"]), "de");
  assert.equal(browserLang([]), "de");
  assert.equal(browserLang(undefined), "de");
  assert.equal(browserLang(["fr"], "en"), "en");
});

test("settings pass with one to the engine's most players, and no more", () => {
  const check = settingsCheck(8);
  assert.equal(check(settings(1), ""), null);
  assert.equal(check(settings(8), ""), null);
  assert.match(check(settings(9), ""), /setup\.players: 9 items/);
  assert.match(check(settings(0), ""), /setup\.players: 0 items/);
  assert.match(settingsCheck(2)(settings(3), ""), /3 items/);
});

test("settings of another language, version or mode are refused, naming the field", () => {
  const check = settingsCheck(8);
  assert.match(check(settings(2, { lang: "fr" }), ""), /^lang: not one of de, en/);
  assert.match(check(settings(2, { version: 2 }), ""), /^version:/);
  const s = settings(2);
  s.setup.mode = "solo";
  assert.match(check(s, ""), /^setup\.mode:/);
  s.setup.mode = "dice";
  s.setup.players[1] = { name: "Bot", kind: "computer", strategy: "greedy" };
  assert.equal(check(s, ""), null);
  assert.match(check(null, ""), /not an object/);
});

const box = (id, upper) => ({ id, upper, name: { de: id, en: id }, rule: { de: "r", en: "r" }, max: 30 });
const column = (name) => ({ name, kind: "human", cells: { ones: { points: 3, struck: false } }, upper_sum: 3, bonus: 0,
  bonus_missing: 60, bonus_reachable: true, upper_complete: false, lower_sum: 0, extra_bonus: 0, total: 3,
  chips_left: 3, leader: true });
const view = () => ({
  format: "kniffel-view", version: 1, mode: "pad",
  rules: { name: "extreme", title: { de: "Kniffel Extreme" }, free_strike: false, d10: true, dice: 6, rolls: 3,
    chips: 3, bonus_threshold: 63, bonus_points: 35, boxes: [box("ones", true), box("chance", false)] },
  players: [{ name: "Anna", kind: "human" }, { name: "Ben", kind: "human" }],
  columns: [column("Anna"), column("Ben")],
  round: 1, rounds: 19, current: 1,
  turn: { player: 1, rolls_used: 0, rolls_allowed: 3, rolls_left: 3, chip_used: false, dice: null,
    can_throw: false, can_chip: true },
  options: [], over: false, winners: [], actions: 1, can_undo: true,
});

test("a view the page can draw passes; one whose parts do not fit together is refused", () => {
  assert.equal(checkView(view(), "view"), null);
  const missing = view();
  missing.columns.pop();
  assert.match(checkView(missing, "view"), /do not fit together/);
  const outside = view();
  outside.current = 2;
  assert.match(checkView(outside, "view"), /do not fit together/);
  const over = { ...view(), over: true, current: null, turn: null, winners: [] };
  assert.match(checkView(over, "view"), /do not fit together/);
  assert.equal(checkView({ ...over, winners: [0] }, "view"), null);
  const bad = view();
  bad.columns[0].cells.ones.points = 2.5;
  assert.match(checkView(bad, "view"), /^view\.columns\[0\]\.cells\.ones\.points: not a whole number/);
});

test("only a kniffel-view of version 1 is one the page draws itself", () => {
  assert.ok(knownView(view()));
  assert.ok(!knownView({ ...view(), version: 2 }));
  assert.ok(!knownView(null));
});

const game = (seed) => ({ players: [{ name: "Anna" }], actions: [{ type: "throw", seed }] });
const entry = (uid, when, seed) => ({ uid, started: when, finished_at: when, game: game(seed),
  summary: { rules: "extreme", title: { de: "Kniffel Extreme" }, mode: "dice", players: ["Anna"], totals: [300],
    bonus: [true], winners: [0], over: true, game: `key-${seed}`, identity: `identity-${seed}` } });

test("the stored game in progress needs its id, players and actions", () => {
  assert.equal(checkCurrent({ version: 1, id: "a", started: "2026-11-30T10:00:00Z", game: game(1) }, ""), null);
  assert.match(checkCurrent({ version: 1, id: "a", game: { players: [], actions: [] } }, ""), /game\.players: 0 items/);
  assert.match(checkCurrent({ version: 1, id: "a", started: "yesterday", game: game(1) }, ""), /^started: not a date/);
});

test("damaged and repeated history entries (the same uid, or the engine's same identity) are set aside, the others kept", () => {
  const good = entry("a", "2026-11-30T10:00:00Z", 1);
  const sameGame = { ...entry("b", "2026-11-30T11:00:00Z", 1) };
  const sameUid = entry("a", "2026-11-30T12:00:00Z", 2);
  const damaged = { ...entry("c", "2026-11-30T13:00:00Z", 3), summary: { ...good.summary, totals: [] } };
  const clean = cleanEntries([good, sameGame, sameUid, damaged, 7]);
  assert.deepEqual(clean.entries, [good]);
  assert.equal(clean.bad, 2);
  assert.equal(clean.repeated, 2);
  // entries of an older page without the engine's identity are never taken for one another
  const bare = (uid) => { const e = entry(uid, "2026-11-30T10:00:00Z", 1); delete e.summary.identity; return e; };
  assert.equal(cleanEntries([bare("x"), bare("y")]).entries.length, 2);
  assert.equal(checkHistory({ version: 1, entries: [1, 2] }, ""), null);
  assert.match(checkHistory({ version: 1, entries: {} }, ""), /^entries: not a list/);
});

test("an entry of an older page ({id, finished}) is read as one with a uid and its dates", () => {
  const old = { id: "x", finished: "2026-11-30T10:00:00Z", game: game(1), summary: entry("x", null, 1).summary };
  const now = migrateEntry(old);
  assert.equal(now.uid, "x");
  assert.equal(now.started, "2026-11-30T10:00:00Z");
  assert.equal(now.finished_at, "2026-11-30T10:00:00Z");
  assert.equal(checkEntry(now, "entry"), null);
  const unfinished = migrateEntry({ ...old, summary: { ...old.summary, over: false } });
  assert.equal(unfinished.finished_at, null);
});

test("entries sort oldest first, undated ones before all, equal dates in their order", () => {
  const a = entry("a", "2026-11-30T10:00:00Z", 1);
  const b = entry("b", "2026-11-29T10:00:00Z", 2);
  const c = { ...entry("c", null, 3), finished_at: null };
  const d = entry("d", "2026-11-30T10:00:00Z", 4);
  assert.deepEqual(byDate([a, b, c, d]).map((e) => e.uid), ["c", "b", "a", "d"]);
});

test("stored text that is not JSON reads as nothing", () => {
  assert.equal(parse("{"), undefined);
  assert.deepEqual(parse('{"a": 1}'), { a: 1 });
});

test("the schema's types check what they say, and an unknown type is an error at once", () => {
  const check = compile({ object: { n: "nat", when: { optional: "date" }, kind: { one_of: ["a", "b"] },
    list: { list: { ref: "pair" }, min: 1, max: 2 }, map: { dict: { nullable: "int" } } } },
  { pair: { list: "text", min: 2, max: 2 } });
  const ok = { n: 0, kind: "a", list: [["x", "y"]], map: { a: null, b: -3 } };
  assert.equal(check(ok, "v"), null);
  assert.match(check({ ...ok, n: -1 }, "v"), /^v\.n: not a whole number ≥ 0/);
  assert.match(check({ ...ok, when: "no date" }, "v"), /^v\.when: not a date/);
  assert.match(check({ ...ok, kind: "c" }, "v"), /^v\.kind: not one of a, b/);
  assert.match(check({ ...ok, list: [["x"]] }, "v"), /^v\.list\[0\]: 1 items/);
  assert.match(check({ ...ok, list: [] }, "v"), /^v\.list: 0 items/);
  assert.match(check({ ...ok, map: { a: 1.5 } }, "v"), /^v\.map\.a: not a whole number/);
  const share = compile({ list: "number" });
  assert.equal(share([0.25, 1, -3e-9], "w"), null);
  assert.match(share([0.5, "50 %"], "w"), /^w\[1\]: not a number/);
  assert.match(share([NaN], "w"), /^w\[0\]: not a number/);
  assert.throws(() => compile("float"), /no type float/);
  assert.throws(() => compile({ ref: "nothing" }, {}), /no type nothing/);
  assert.throws(() => compile({ tuple: [] }), /is no type/);
});

test("every operation the page asks the engine for is one the schema names", () => {
  const dir = new URL("../../src/kniffel/web/static/", import.meta.url);
  const asked = new Set();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
    for (const m of readFileSync(new URL(name, dir), "utf8").matchAll(/\bop: "([a-z_]+)"/g)) asked.add(m[1]);
  }
  assert.ok(asked.size >= 15, [...asked].join(", "));
  for (const op of asked) assert.ok(SCHEMA.ops.includes(op), op);
});

test("saving the history writes only the entries that are new or replaced and deletes the ones gone", () => {
  const a = { uid: "a" };
  const b = { uid: "b" };
  const c = { uid: "c" };
  const stored = new Map([["a", a], ["b", b], ["c", c]]);
  assert.deepEqual(historyChanges(stored, [a, b, c]), { put: [], del: [] });
  const b2 = { uid: "b", summary: "finished" };
  const d = { uid: "d" };
  const { put, del } = historyChanges(stored, [a, b2, d]);
  assert.deepEqual(put, [b2, d]); // b replaced by another object, d new
  assert.deepEqual(del, ["c"]);
  assert.deepEqual(historyChanges(new Map(), [a]), { put: [a], del: [] });
  // a damaged record, kept aside (its value null), is deleted with the next save
  assert.deepEqual(historyChanges(new Map([["x", null], ["a", a]]), [a]), { put: [], del: ["x"] });
});

test("entries added before the history was loaded stay, unless the loaded history has their uid", () => {
  const early = [{ uid: "new" }, { uid: "old", early: true }];
  assert.deepEqual(notIn(early, [{ uid: "old" }, null]), [{ uid: "new" }]);
  assert.deepEqual(notIn([], [{ uid: "old" }]), []);
});

test("a damaged stored entry is handed back as it was stored, to be kept aside", () => {
  const bad = { uid: "x", game: null };
  const { bad: n, damaged } = cleanEntries([bad]);
  assert.equal(n, 1);
  assert.deepEqual(damaged, [bad]);
});

// What the page keeps in localStorage, and the checks every stored record passes before use.
// Pure functions, no DOM and no storage access: app.js reads the raw text and decides what to
// keep aside. No rule lives here: a stored game is only checked for its shape; the engine
// replays its actions before it counts.

export const STORE_VERSION = 1;
export const KEY = {
  current: "kniffel.v1.current",
  history: "kniffel.v1.history",
  settings: "kniffel.v1.settings",
};
export const LANGS = ["de", "en"];
export const MAX_PLAYERS = 8;

// ------------------------------------------------------------------------ a small schema check
// A check is a function (value, path) -> null when fine, else the path and what is wrong.
const fail = (path, what) => `${path || "(record)"}: ${what}`;
const is = (test, what) => (v, path) => (test(v) ? null : fail(path, what));

export const isObj = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const str = is((v) => typeof v === "string", "not text");
const bool = is((v) => typeof v === "boolean", "not true/false");
const int = is((v) => Number.isSafeInteger(v), "not a whole number");
const nat = is((v) => Number.isSafeInteger(v) && v >= 0, "not a whole number ≥ 0");
const oneOf = (...values) => is((v) => values.includes(v), `not one of ${values.join(", ")}`);
const nullable = (check) => (v, path) => (v === null ? null : check(v, path));
const optional = (check) => (v, path) => (v === undefined ? null : check(v, path));

function arr(item, { min = 0, max = Infinity } = {}) {
  return (v, path) => {
    if (!Array.isArray(v)) return fail(path, "not a list");
    if (v.length < min || v.length > max) return fail(path, `${v.length} items`);
    for (let i = 0; i < v.length; i++) {
      const bad = item(v[i], `${path}[${i}]`);
      if (bad) return bad;
    }
    return null;
  };
}

// An object with these fields (others are allowed: a newer page may add some).
function obj(fields) {
  return (v, path) => {
    if (!isObj(v)) return fail(path, "not an object");
    for (const [k, check] of Object.entries(fields)) {
      const bad = check(v[k], path ? `${path}.${k}` : k);
      if (bad) return bad;
    }
    return null;
  };
}

// An object whose every value passes the check.
function dict(value) {
  return (v, path) => {
    if (!isObj(v)) return fail(path, "not an object");
    for (const [k, x] of Object.entries(v)) {
      const bad = value(x, `${path}.${k}`);
      if (bad) return bad;
    }
    return null;
  };
}

const all = (...checks) => (v, path) => {
  for (const c of checks) {
    const bad = c(v, path);
    if (bad) return bad;
  }
  return null;
};
const rule = (test, what) => (v, path) => (test(v) ? null : fail(path, what));

const texts = obj({ de: str, en: optional(str) });
const isoDate = is((v) => typeof v === "string" && !Number.isNaN(Date.parse(v)), "not a date");

// ------------------------------------------------------------------------ settings
const setupCheck = obj({
  rules: str,
  free_strike: bool,
  mode: oneOf("pad", "dice"),
  players: arr(obj({ name: str, kind: oneOf("human", "computer"), strategy: optional(nullable(str)) }),
    { min: 1, max: MAX_PLAYERS }),
});
export const checkSettings = obj({ version: oneOf(STORE_VERSION), lang: oneOf(...LANGS), setup: setupCheck });

// ------------------------------------------------------------------------ the current game
// The engine's view (kniffel.browser.view.game_view): only what the page draws from it.
const boxCheck = obj({ id: str, upper: bool, name: texts, rule: texts, max: nat });
const rulesCheck = obj({
  name: str, title: texts, free_strike: bool, d10: bool, dice: nat, rolls: nat, chips: nat,
  bonus_threshold: nat, bonus_points: nat, boxes: arr(boxCheck, { min: 1 }),
});
const columnCheck = obj({
  name: str, kind: str,
  cells: dict(obj({ points: int, struck: bool })),
  upper_sum: int, bonus: int, bonus_missing: int, bonus_reachable: bool, upper_complete: bool,
  lower_sum: int, extra_bonus: int, total: int, chips_left: nat, leader: bool,
});
const turnCheck = obj({
  player: nat, rolls_used: nat, rolls_allowed: nat, rolls_left: nat, chip_used: bool,
  dice: nullable(arr(obj({ value: int, d10: bool }))), can_throw: bool, can_chip: bool,
});
const optionCheck = obj({ box: str, points: int, strike: bool, bonus: int, action: obj({ type: str }) });

// The parts of a view that must agree with each other for the page to draw it.
function viewFits(v) {
  const n = v.columns.length;
  const inRange = (i) => Number.isSafeInteger(i) && i >= 0 && i < n;
  if (v.players.length !== n) return false;
  if (v.over) return v.winners.length > 0 && v.winners.every(inRange);
  return inRange(v.current) && v.turn !== null && inRange(v.turn.player)
    && v.winners.every(inRange);
}

export const checkView = all(obj({
  format: oneOf("kniffel-view"), version: oneOf(1),
  rules: rulesCheck, mode: oneOf("pad", "dice"),
  players: arr(obj({ name: str, kind: str }), { min: 1 }),
  columns: arr(columnCheck, { min: 1 }),
  round: nat, rounds: nat, current: nullable(nat), turn: nullable(turnCheck),
  options: arr(optionCheck), over: bool, winners: arr(nat), actions: nat, can_undo: bool,
}), rule(viewFits, "players, columns, turn and winners do not fit together"));

// Whether a view is one this page draws at all (another version is redrawn by the engine).
export const knownView = (v) => isObj(v) && v.format === "kniffel-view" && v.version === 1;

// The stored game itself; the view beside it is checked on its own (checkView).
export const checkCurrent = obj({
  version: oneOf(STORE_VERSION), id: str, started: optional(isoDate),
  game: obj({ players: arr(obj({}), { min: 1 }), actions: arr(obj({})) }),
});

// ------------------------------------------------------------------------ history
// The page's summary of a game (kniffel.browser.view.summary).
const summaryCheck = all(obj({
  rules: str, title: texts, mode: str,
  players: arr(str, { min: 1 }), totals: arr(int), bonus: arr(bool), winners: arr(nat), over: bool,
}), rule((s) => s.totals.length === s.players.length && s.bonus.length === s.players.length
  && s.winners.every((i) => i < s.players.length), "players, totals and bonus do not fit together"));

export const checkEntry = obj({
  uid: str, started: nullable(isoDate), finished_at: nullable(isoDate),
  game: obj({ players: arr(obj({}), { min: 1 }), actions: arr(obj({})) }),
  summary: summaryCheck,
});

export const checkHistory = obj({ version: oneOf(STORE_VERSION), entries: arr(rule(() => true, "")) });

// An entry as the page stored it before games had a uid and their own dates: {id, finished}.
export function migrateEntry(e) {
  if (!isObj(e) || e.uid !== undefined || typeof e.id !== "string") return e;
  const { id, finished, ...rest } = e;
  const when = typeof finished === "string" ? finished : null;
  const over = isObj(e.summary) && e.summary.over === true;
  return { uid: id, started: when, finished_at: over ? when : null, ...rest };
}

// The date a history entry is sorted and shown by.
export const entryDate = (e) => e.finished_at ?? e.started ?? "";

// Sort entries oldest first (stable; undated ones first).
export const byDate = (entries) => [...entries].sort((a, b) => entryDate(a).localeCompare(entryDate(b)));

// The good entries of a stored history and the number set aside (damaged or repeated games).
export function cleanEntries(entries) {
  const good = [];
  const seenUid = new Set();
  const seenGame = new Set();
  let bad = 0;
  let repeated = 0;
  for (const raw of entries) {
    const e = migrateEntry(raw);
    if (checkEntry(e, "entry")) {
      bad++;
      continue;
    }
    const game = JSON.stringify(e.game);
    if (seenUid.has(e.uid) || seenGame.has(game)) {
      repeated++;
      continue;
    }
    seenUid.add(e.uid);
    seenGame.add(game);
    good.push(e);
  }
  return { entries: good, bad, repeated };
}

// Parse stored text: the value, or undefined when it is not JSON.
export function parse(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

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

// The language of a page with none stored: the first of the browser's languages (``languages``,
// as navigator.languages lists them: "en-US", "de") that the page speaks (LANGS), else
// ``otherwise`` (German, the page's first language: state.lang's default).
export function browserLang(languages, otherwise = LANGS[0]) {
  for (const tag of languages ?? []) {
    const lang = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(lang)) return lang;
  }
  return otherwise;
}

// ------------------------------------------------------------------------ a small schema check
// A check is a function (value, path) -> null when fine, else the path and what is wrong.
const fail = (path, what) => `${path || "(record)"}: ${what}`;
const is = (test, what) => (v, path) => (test(v) ? null : fail(path, what));

export const isObj = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const str = is((v) => typeof v === "string", "not text");
const bool = is((v) => typeof v === "boolean", "not true/false");
const int = is((v) => Number.isSafeInteger(v), "not a whole number");
const nat = is((v) => Number.isSafeInteger(v) && v >= 0, "not a whole number ≥ 0");
const number = is((v) => Number.isFinite(v), "not a number");
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

const isoDate = is((v) => typeof v === "string" && !Number.isNaN(Date.parse(v)), "not a date");

// ------------------------------------------------------------------------ settings
// The check of stored settings, for games of at most ``maxPlayers`` players (the engine's limit).
export function settingsCheck(maxPlayers) {
  const setupCheck = obj({
    rules: str,
    free_strike: bool,
    mode: oneOf("pad", "dice"),
    players: arr(obj({ name: str, kind: oneOf("human", "computer"), strategy: optional(nullable(str)) }),
      { min: 1, max: maxPlayers }),
  });
  // (``lang``: only where the player chose one; else the browser's languages say it)
  return obj({ version: oneOf(STORE_VERSION), lang: optional(oneOf(...LANGS)), setup: setupCheck });
}

// ------------------------------------------------------------------------ the current game
// The engine's replies (its view of a game, a game's summary) are checked against the shape the
// engine describes once, kniffel/browser/schema.json: the page hands it in (useSchema).
const TYPES = { text: str, bool, int, nat, number, date: isoDate };

// The check of one type of the schema (see its "about"); ``defs`` are its named types.
export function compile(type, defs = {}) {
  if (typeof type === "string") {
    if (!(type in TYPES)) throw new Error(`schema: no type ${type}`);
    return TYPES[type];
  }
  if (!isObj(type)) throw new Error(`schema: ${JSON.stringify(type)} is no type`);
  const c = (t) => compile(t, defs);
  if ("ref" in type) {
    if (!(type.ref in defs)) throw new Error(`schema: no type ${type.ref} in defs`);
    let check = null; // compiled when first used: a named type may use one named after it
    return (v, path) => (check ??= compile(defs[type.ref], defs))(v, path);
  }
  if ("one_of" in type) return oneOf(...type.one_of);
  if ("list" in type) return arr(c(type.list), { min: type.min ?? 0, max: type.max ?? Infinity });
  if ("object" in type) return obj(Object.fromEntries(Object.entries(type.object).map(([k, t]) => [k, c(t)])));
  if ("dict" in type) return dict(c(type.dict));
  if ("nullable" in type) return nullable(c(type.nullable));
  if ("optional" in type) return optional(c(type.optional));
  throw new Error(`schema: ${JSON.stringify(type)} is no type`);
}

// The parts of a view that must agree with each other for the page to draw it.
function viewFits(v) {
  const n = v.columns.length;
  const inRange = (i) => Number.isSafeInteger(i) && i >= 0 && i < n;
  if (v.players.length !== n) return false;
  // the win chances (where the view has them): one per player, the leader one of them
  if (v.chances && (v.chances.players.length !== n || (v.chances.leader !== null && !inRange(v.chances.leader)))) return false;
  if (v.over) return v.winners.length > 0 && v.winners.every(inRange);
  return inRange(v.current) && v.turn !== null && inRange(v.turn.player)
    && v.winners.every(inRange);
}

// A game's summary: its players, totals and bonus agree.
const summaryFits = (s) => s.totals.length === s.players.length && s.bonus.length === s.players.length
  && s.winners.every((i) => i < s.players.length);

const refused = () => "no schema: useSchema was not called";
let checks = { view: refused, summary: refused };

// Take the engine's schema ({defs, view, summary, ops}): the checks below follow it.
export function useSchema(schema) {
  checks = {
    view: all(compile(schema.view, schema.defs), rule(viewFits, "players, columns, turn and winners do not fit together")),
    summary: all(compile(schema.summary, schema.defs), rule(summaryFits, "players, totals and bonus do not fit together")),
  };
}

// The engine's view (kniffel.browser.view.game_view): only what the page draws from it.
export const checkView = (v, path) => checks.view(v, path);

// Whether a view is one this page draws at all (another version is redrawn by the engine).
export const knownView = (v) => isObj(v) && v.format === "kniffel-view" && v.version === 1;

// The stored game itself; the view beside it is checked on its own (checkView).
export const checkCurrent = obj({
  version: oneOf(STORE_VERSION), id: str, started: optional(isoDate),
  game: obj({ players: arr(obj({}), { min: 1 }), actions: arr(obj({})) }),
});

// ------------------------------------------------------------------------ history
// The page's summary of a game (kniffel.browser.view.summary), by the engine's schema.
const summaryCheck = (v, path) => checks.summary(v, path);

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

// The good entries of a stored history and the number set aside (damaged or repeated games: the
// same uid, or the same game as played by the identity the engine wrote into its summary); the
// damaged ones themselves too, as they were stored (``damaged``).
export function cleanEntries(entries) {
  const good = [];
  const damaged = [];
  const seenUid = new Set();
  const seenGame = new Set();
  let bad = 0;
  let repeated = 0;
  for (const raw of entries) {
    const e = migrateEntry(raw);
    if (checkEntry(e, "entry")) {
      bad++;
      damaged.push(raw);
      continue;
    }
    const game = e.summary.identity;
    if (seenUid.has(e.uid) || (game !== undefined && seenGame.has(game))) {
      repeated++;
      continue;
    }
    seenUid.add(e.uid);
    if (game !== undefined) seenGame.add(game);
    good.push(e);
  }
  return { entries: good, bad, repeated, damaged };
}

// What saving the history ``list`` changes in a store that holds ``stored`` (a Map of uid to the
// entry last written): the entries to write (new, or another object than the one written) and
// the uids to delete (no longer in the list). An entry is replaced, never changed in place, so
// the same object is the same entry.
export function historyChanges(stored, list) {
  const put = [];
  const uids = new Set();
  for (const e of list) {
    uids.add(e.uid);
    if (stored.get(e.uid) !== e) put.push(e);
  }
  const del = [...stored.keys()].filter((uid) => !uids.has(uid));
  return { put, del };
}

// The entries of ``list`` whose uid none of ``have`` has: what a history loaded late keeps of
// the entries the page added before it was there.
export function notIn(list, have) {
  const uids = new Set(have.map((e) => e?.uid));
  return list.filter((e) => !uids.has(e.uid));
}

// Parse stored text: the value, or undefined when it is not JSON.
export function parse(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

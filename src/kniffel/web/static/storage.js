// The page's localStorage: reading (checked by store.js), writing, keeping damaged data aside.

import { notice } from "./dialogs.js?b=__BUILD__";
import { openDb, readAll, writeChanges } from "./historydb.js?b=__BUILD__";
import { awake, facts, play, redraw, state, timing } from "./state.js?b=__BUILD__";
import { browserLang, byDate, checkCurrent, checkHistory, checkView, cleanEntries, historyChanges, isObj, KEY, knownView, LANGS, notIn, parse, settingsCheck, STORE_VERSION } from "./store.js?b=__BUILD__";
import { count, tr } from "./words.js?b=__BUILD__";

// Stored data is checked before use (store.js); what fails is kept aside as a copy under
// `<key>.corrupt.<time>` (never overwritten), the user is told, and the app goes on clean.
const keptAside = new Set(); // key + raw text already copied in this page's life

export function keepCorruptCopy(key, raw, text) {
  const tag = `${key}\n${raw}`;
  if (!keptAside.has(tag)) {
    try {
      localStorage.setItem(`${key}.corrupt.${new Date().toISOString()}`, raw);
    } catch {
      notice(`${text} ${tr("page.storage.no_copy")}`, "warn");
      return false;
    }
    keptAside.add(tag);
  }
  notice(`${text} ${tr("page.storage.copy_kept")}`, "warn");
  return true;
}

function readRaw(key) {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    notice(tr("page.storage.off", { why: String(err) }), "warn"); // storage switched off
    return null;
  }
}

export function forget(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage switched off: nothing was stored either
  }
}

// The settings of a page that has none stored: two people on the score pad, the default rules.
export function defaultSetup() {
  return { rules: facts.default_rules, free_strike: false, mode: "pad",
    players: [{ name: tr("page.setup.player_n", { n: 1 }), kind: "human" }, { name: tr("page.setup.player_n", { n: 2 }), kind: "human" }] };
}

// Settings: language, the start screen, whether the screen stays on during a game and whether
// the sheet shows the win chances. The language and the screen settings survive damage elsewhere.
// The stored language always wins; without one the browser's languages say it (browserLang). The
// document's language is set here, before the first drawing of words.
export function loadSettings() {
  const raw = readRaw(KEY.settings);
  const data = raw === null ? null : parse(raw);
  // (only a language the player chose is stored: one the browser's languages gave follows them)
  state.langChosen = isObj(data) && LANGS.includes(data.lang);
  state.lang = state.langChosen ? data.lang : browserLang(navigator.languages ?? [navigator.language], state.lang);
  document.documentElement.lang = state.lang;
  if (raw === null) return;
  if (isObj(data) && typeof data.keep_awake === "boolean") awake.on = data.keep_awake; // else on
  if (isObj(data) && typeof data.show_chances === "boolean") state.showChances = data.show_chances; // else shown
  const bad = settingsCheck(facts.max_players)(data, "");
  if (!bad) {
    state.setup = data.setup;
    return;
  }
  console.warn("kniffel: stored settings", bad);
  if (keepCorruptCopy(KEY.settings, raw, tr("page.storage.corrupt_settings"))) {
    state.setup = defaultSetup();
    saveSettings(); // the language stays
  }
}

// ------------------------------------------------------------------------ the history
// The history lives in IndexedDB (historydb.js), one record per entry, so that years of games
// fit; where the browser has none (or refuses it) in localStorage as before, under KEY.history.
// It is loaded after the first screen is drawn (loadHistory: one promise, historyReady); what
// needs it waits for that promise (app.js marks the page ready only once it is there). Saving
// writes only what changed (historyChanges) in one transaction, one save after the other.
export const historyStore = {
  kind: null, // "idb" | "local" once loaded (null before)
  loaded: false,
  why: null, // why there is no IndexedDB ("local")
};
let db = null;
let stored = new Map(); // uid → the entry as last written to IndexedDB
let loading = null;
let saving = Promise.resolve(true);
let channel = null; // the other tabs of the site, told of each save (BroadcastChannel)

// For the tests and the benchmark: the promise of the saves under way, and where the history is.
globalThis.kniffelHistory = { saved: () => (loading ?? Promise.resolve()).then(() => saving), kind: () => historyStore.kind };

// Start loading the history (once); the promise of it.
export function loadHistory() {
  const start = performance.now();
  loading ??= openHistory().catch((err) => {
    console.error("kniffel: history", err);
    useLocal(String(err));
  }).finally(() => {
    historyStore.loaded = true;
    timing.historyMs = performance.now();
    timing.historyLoadMs = timing.historyMs - start;
    timing.historyEntries = state.history.length;
    if (state.screen === "history") redraw();
  });
  return loading;
}

// The promise of the loaded history (loadHistory).
export const historyReady = () => loadHistory();

// Take the loaded ``entries``: the ones the page added before they were there stay too.
function take(entries) {
  state.history = byDate([...entries, ...notIn(state.history, entries)]);
  state.stats = null;
  return entries.length !== state.history.length; // entries were added meanwhile: saved below
}

function useLocal(why) {
  db = null;
  historyStore.kind = "local";
  historyStore.why = why;
  const early = state.history;
  loadLocalHistory();
  state.history = byDate([...state.history, ...notIn(early, state.history)]);
  if (early.length) storeHistory();
}

// The database this page writes to. Another tab's upgrade, or the site's data cleared, closes it
// (versionchange): this page lets go at once and opens it again for its next read or save, which
// writes every entry anew (what was stored may be gone).
function useDb(opened) {
  db = opened;
  opened.onversionchange = () => {
    opened.close();
    if (db === opened) db = null;
    stored = new Map();
  };
}

// The database, opened again where another tab or the browser closed it; null (the history then
// stays in localStorage) where it opens no more.
async function liveDb() {
  if (db) return db;
  const opened = await openDb();
  if (!opened.db) {
    useLocal(opened.why);
    return null;
  }
  useDb(opened.db);
  return db;
}

async function openHistory() {
  const opened = await openDb();
  if (!opened.db) {
    console.warn("kniffel: the history stays in localStorage:", opened.why);
    useLocal(opened.why);
    return;
  }
  useDb(opened.db);
  historyStore.kind = "idb";
  const entries = await readStored();
  const moved = await moveFromLocal(entries);
  // (moved from localStorage, entries added meanwhile, repeated records to delete: saved now)
  if (take([...entries, ...moved]) || movedFrom !== null || stored.size > state.history.length) await storeHistory();
  if (typeof BroadcastChannel === "function") {
    channel = new BroadcastChannel("kniffel.history");
    channel.onmessage = async () => {
      // another tab stored a change: follow it (what this tab has not stored yet stays)
      const mine = notIn(state.history, [...stored.values()]);
      let now;
      try {
        now = await readStored();
      } catch (err) {
        console.warn("kniffel: the other tab's history could not be read", err);
        return; // this tab's own stays as it is
      }
      state.history = byDate([...now, ...notIn(mine, now)]);
      state.stats = null;
      redraw();
    };
  }
}

// The entries stored in IndexedDB, each checked (store.js); a damaged one is kept aside alone
// (as a copy in localStorage) and, once the copy is there, deleted; the others stay.
async function readStored() {
  const open = await liveDb();
  const records = open ? await readAll(open) : [];
  const clean = cleanEntries(records);
  stored = new Map(records.filter((r) => !clean.damaged.includes(r)).map((r) => [r.uid, r]));
  if (clean.damaged.length) {
    console.warn("kniffel: stored history", clean.damaged.length, "damaged");
    const raw = JSON.stringify({ version: STORE_VERSION, entries: clean.damaged });
    if (keepCorruptCopy(KEY.history, raw, count("page.storage.corrupt_entries", clean.bad))) {
      const uids = clean.damaged.filter((r) => isObj(r) && typeof r.uid === "string").map((r) => r.uid);
      for (const uid of uids) stored.set(uid, null); // not in the list: deleted by the next save
    }
  }
  return clean.entries;
}

// A history the page kept in localStorage (KEY.history, any of its shapes) moves into
// IndexedDB: its entries that are not there yet, returned to be saved; the localStorage copy is
// removed only once that save's transaction completed (saveHistory). A damaged one is kept
// aside as the localStorage history always was (loadLocalHistory).
let movedFrom = null; // the localStorage text whose entries the next save moves
async function moveFromLocal(have) {
  const raw = readRaw(KEY.history);
  if (raw === null) return [];
  const before = state.history;
  state.history = [];
  const kept = loadLocalHistory({ writeBack: false });
  const entries = notIn(state.history, have);
  state.history = before;
  if (kept) movedFrom = raw;
  return entries;
}

// The localStorage history: a damaged entry is set aside alone, the others stay. Whether the
// stored text may be replaced (false: a damaged entry could not be copied aside).
function loadLocalHistory({ writeBack = true } = {}) {
  const raw = readRaw(KEY.history);
  state.history = [];
  if (raw === null) return true;
  const data = parse(raw);
  const bad = checkHistory(data, "");
  if (bad) {
    console.warn("kniffel: stored history", bad);
    if (keepCorruptCopy(KEY.history, raw, tr("page.storage.corrupt_history"))) forget(KEY.history);
    return false;
  }
  const clean = cleanEntries(data.entries);
  if (clean.bad && !keepCorruptCopy(KEY.history, raw, count("page.storage.corrupt_entries", clean.bad))) {
    return false; // no room for the copy: leave the stored history alone and show none of it
  }
  state.history = byDate(clean.entries);
  // older pages' entries ({id, finished}) and repeated imports are written back cleaned
  if (writeBack && (clean.bad || clean.repeated || JSON.stringify(state.history) !== JSON.stringify(data.entries))) saveHistory();
  return true;
}

// The game in progress: {record, raw}. A record whose view cannot be drawn still has its game,
// which the engine replays once it runs (the view is only there to draw the sheet at once).
export function loadCurrent() {
  const raw = readRaw(KEY.current);
  if (raw === null) return null;
  const data = parse(raw);
  const bad = checkCurrent(data, "");
  if (bad) {
    console.warn("kniffel: stored game", bad);
    if (keepCorruptCopy(KEY.current, raw, tr("page.storage.corrupt_current"))) forget(KEY.current);
    return null;
  }
  if (knownView(data.view)) {
    const badView = checkView(data.view, "view");
    if (!badView) return { record: data, raw };
    console.warn("kniffel: stored game", badView);
    keepCorruptCopy(KEY.current, raw, tr("page.storage.corrupt_view"));
  }
  // a view of another version is drawn anew by the engine, no harm done
  return { record: { ...data, view: null }, raw };
}

// What a drawing that failed on stored data suspects, kept aside and forgotten: "current" (the
// game in progress, which the caller drops: game.js setCurrent), "history" or "settings"; null
// when there is nothing left to suspect.
export function setAsideSuspect() {
  const raw = (key) => readRaw(key) ?? JSON.stringify(key === KEY.history
    ? { version: STORE_VERSION, entries: state.history } : state.current);
  if (state.screen !== "history" && state.screen !== "setup" && state.current) {
    if (!state.ready && !state.pending) {
      // the stored view: the engine replays the game and draws it anew
      keepCorruptCopy(KEY.current, raw(KEY.current), tr("page.storage.corrupt_view"));
      state.pending = { record: { ...state.current, view: null }, raw: raw(KEY.current) };
    } else {
      keepCorruptCopy(KEY.current, raw(KEY.current), tr("page.storage.corrupt_current"));
      forget(KEY.current);
    }
    state.screen = "setup";
    return "current";
  }
  if (state.screen === "history" && state.history.length) {
    if (keepCorruptCopy(KEY.history, raw(KEY.history), tr("page.storage.corrupt_history"))) {
      forget(KEY.history);
      state.history = [];
      saveHistory(); // (IndexedDB: every entry deleted, their copy kept aside)
    } else {
      state.history = []; // (no room for a copy: the stored history stays as it is, not shown)
      stored = new Map();
    }
    state.stats = null;
    return "history";
  }
  if (readRaw(KEY.settings) !== null) {
    keepCorruptCopy(KEY.settings, readRaw(KEY.settings), tr("page.storage.corrupt_settings"));
    forget(KEY.settings);
    state.setup = defaultSetup();
    return "settings";
  }
  return null;
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (err) {
    notice(tr("page.storage.full", { why: String(err) }), "warn");
    return false;
  }
}

export function saveCurrent() {
  if (state.current) write(KEY.current, state.current);
  else forget(KEY.current);
}
// Store the history (state.history): in IndexedDB only what changed since the last save, in
// one transaction, one save after the other; true once stored. A full storage
// (QuotaExceededError) aborts the transaction: nothing stored changes, the page says so in one
// sentence and keeps the games in memory (to back up); the next save writes them again.
export function saveHistory() {
  if (!historyStore.loaded && loading) {
    // (before the history is there: the entries added meanwhile are saved once it is, take())
    return loading.then(() => saveHistory());
  }
  return storeHistory();
}

function storeHistory() {
  if (historyStore.kind !== "idb") {
    return Promise.resolve(write(KEY.history, { version: STORE_VERSION, entries: state.history }));
  }
  saving = saving.then(async () => {
    const { put, del } = historyChanges(stored, state.history);
    if (!put.length && !del.length && movedFrom === null) return true;
    const moving = movedFrom;
    const open = await liveDb();
    if (!open) return storeHistory(); // (kept in localStorage from here on)
    const result = await writeChanges(open, put, del);
    if (!result.ok) {
      console.warn("kniffel: history not stored", result.error);
      const full = result.error && result.error.name === "QuotaExceededError";
      notice(full ? tr("page.storage.history_full") : tr("page.storage.full", { why: String(result.error) }), "warn");
      return false;
    }
    for (const e of put) stored.set(e.uid, e);
    for (const uid of del) stored.delete(uid);
    if (moving !== null && movedFrom === moving) {
      movedFrom = null;
      if (readRaw(KEY.history) === moving) forget(KEY.history); // moved: its games are in IndexedDB now
    }
    if (channel) channel.postMessage("saved");
    return true;
  });
  return saving;
}
export function saveSettings() {
  write(KEY.settings, { version: STORE_VERSION, lang: state.langChosen ? state.lang : undefined, setup: state.setup, keep_awake: awake.on,
    show_chances: state.showChances });
}

export function newId() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return `${Date.now().toString(36)}-${a[0].toString(36)}${a[1].toString(36)}`;
}

// A history entry (CONTRACTS: uid, started, finished_at, game, summary) for the current game.
function entryOf(cur, finishedAt) {
  return { uid: cur.id, started: cur.started ?? null, finished_at: finishedAt, game: cur.game, summary: cur.summary };
}

// Keep the history in step with the current game: a finished game is in it, an unfinished
// (undone) one is not.
export function syncHistory(cur = state.current) {
  if (!cur) return;
  if (!historyStore.loaded) { loadHistory().then(() => syncHistory(cur)); return; }
  const i = state.history.findIndex((e) => e.uid === cur.id);
  if (cur.view.over) {
    const entry = entryOf(cur, i >= 0 && state.history[i].finished_at ? state.history[i].finished_at : new Date().toISOString());
    if (i >= 0) state.history[i] = entry;
    else state.history.push(entry);
    saveHistory();
    state.stats = null;
  } else if (i >= 0) {
    state.history.splice(i, 1);
    saveHistory();
    state.stats = null;
  }
}

// A game in progress that gets replaced goes into the history, unfinished, never lost.
export function shelveCurrent(cur = state.current) {
  if (!cur || cur.view.over || !cur.view.actions) return;
  if (!historyStore.loaded) { loadHistory().then(() => shelveCurrent(cur)); return; }
  if (!state.history.some((e) => e.uid === cur.id)) {
    state.history.push(entryOf(cur, null));
    saveHistory();
  }
}

const UI_KEY = "kniffel.v1.ui";

const isOption = (o) => isObj(o) && typeof o.box === "string" && Number.isInteger(o.points)
  && isObj(o.action);

export function saveUi() {
  const cur = state.current;
  try {
    localStorage.setItem(UI_KEY, JSON.stringify({ version: 1, id: cur ? cur.id : null,
      actions: cur ? cur.view.actions : null, padOpen: play.padOpen, padTyped: play.padTyped,
      padDice: state.padDice, order: play.order }));
  } catch {
    // not stored: the typed dice are simply not kept over a reload
  }
}

export function loadUi() {
  play.uiLoaded = true;
  try {
    const d = JSON.parse(localStorage.getItem(UI_KEY));
    const cur = state.current;
    if (!isObj(d) || d.version !== 1 || !cur || d.id !== cur.id || d.actions !== cur.view.actions) return;
    if (Array.isArray(d.padTyped) && d.padTyped.length <= 6
      && d.padTyped.every((x) => typeof x === "string" && x.length <= 2)) play.padTyped = d.padTyped;
    play.padOpen = d.padOpen === true;
    if (isObj(d.padDice) && Array.isArray(d.padDice.dice) && d.padDice.dice.every(Number.isInteger)
      && Array.isArray(d.padDice.options) && d.padDice.options.every(isOption)
      && Array.isArray(d.padDice.throws) && d.padDice.throws.every(Number.isInteger)
      && Number.isInteger(d.padDice.throw)) state.padDice = d.padDice;
    if (isObj(d.order) && d.order.actions === cur.view.actions && Array.isArray(d.order.slots)
      && d.order.slots.every(Number.isInteger)) play.order = { actions: d.order.actions, slots: d.order.slots };
  } catch {
    // unreadable: start without typed dice
  }
}

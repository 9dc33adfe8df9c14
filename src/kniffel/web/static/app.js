// The page: draws the engine's view and forwards what the user taps as actions.
// No rule lives here: every point, sum, legal choice and check comes from the Python engine
// (kniffel.browser.bridge in Pyodide, in worker.js). User text is only ever set with textContent.
// This module starts the page; the others, by job: state.js (what the page holds, and redraw()),
// words.js (words and numbers), dom.js (elements), store.js (checks of stored data), storage.js
// (localStorage), engine.js (the workers' client), screen.js (draw), game.js (actions and what
// they did), board.js (the game screen), sheet.js (the score sheet), chances.js (its win-chance
// row), dice.js (the dice bar), faces.js (the dice's faces), keep.js (which dice are kept, and
// where), pad.js, computer.js, expert.js (hints and reviews), setup.js, history.js, plot.js,
// dialogs.js (notices, panels), share.js (sharing, hand-off, links), system.js (wake lock and
// update). No module imports one that imports it back (tests/js/layers.test.mjs).

import { checkKept } from "./backup.js?b=__BUILD__";
import { keptChances, refreshChances } from "./chances.js?b=__BUILD__";
import { $, h } from "./dom.js?b=__BUILD__";
import { useStarts } from "./early.js?b=__BUILD__";
import { ask, engineReady, goEngine, startEngine } from "./engine.js?b=__BUILD__";
import { setCurrent } from "./game.js?b=__BUILD__";
import { draw, safeDraw } from "./screen.js?b=__BUILD__";
import { awake, BUILD, facts, onRedraw, play, state, timing } from "./state.js?b=__BUILD__";
import { defaultSetup, forget, historyReady, historyStore, keepCorruptCopy, loadCurrent, loadHistory, loadSettings, saveCurrent, saveSettings } from "./storage.js?b=__BUILD__";
import { byDate, checkCurrent, checkHistory, cleanEntries, KEY, parse, useSchema } from "./store.js?b=__BUILD__";
import { keepAwake, registerWorker, tellInsecureOnce } from "./system.js?b=__BUILD__";
import { addWords, refusal, sentence, tr, useWords, wordIn } from "./words.js?b=__BUILD__";

window.kniffelTiming = timing;
// Every change the other modules make ends in this drawing of the screen (state.js redraw).
onRedraw(draw);
// The page's words (from the catalog) and the engine's facts: the site's build writes them into
// index.html, so the first paint needs no request.
const pageData = JSON.parse($("page-words").textContent);
useWords(pageData.words);
useSchema(pageData.schema);
Object.assign(facts, { max_players: pageData.max_players, computers: pageData.computers,
  default_rules: pageData.default_rules });

// The history page's styles (history.css): the page's own stylesheet stays the layout's.
document.head.append(h("link", { rel: "stylesheet", href: new URL(`./history.css?b=${BUILD}`, import.meta.url).href }));

// A link with a game in it, opened in a running page: offered once the engine runs (dialogs.js).
window.addEventListener("hashchange", () => { if (state.ready) { play.linkChecked = false; draw(); } });

// The wake lock (system.js): a refusal is asked again when the page is shown anew.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") awake.refused = false;
  keepAwake();
});

// How long after the first screen a first visit's engine starts its interpreter when the player
// has entered nothing yet (a first entry starts it at once: game.js actEarly).
const GO_AFTER_MS = 1000;

function markReady() {
  state.ready = true;
  timing.interactiveMs = performance.now(); // since the navigation started
  safeDraw();
  document.documentElement.dataset.ready = "1";
  // Offline copy of the site: registered once the engine runs, so that storing the files does
  // not compete with the first start (they come from the HTTP cache by then).
  registerWorker(); // with the update notice: the wake lock and update section
  checkKept(); // whether the browser keeps the history for good (asked for when installed)
}

async function boot() {
  loadSettings(); // first: every notice after it speaks the user's language
  state.setup ??= defaultSetup();
  loadHistory(); // from IndexedDB, while the first screen is drawn and the engine starts
  const stored = loadCurrent();
  setCurrent(stored && stored.record.view ? stored.record : null);
  state.pending = stored && !stored.record.view ? stored : null; // replayed once the engine runs
  state.screen = state.current ? "game" : "setup";
  tellInsecureOnce(); // while the engine starts afresh: why it takes a while over this address
  $("lang").onclick = () => {
    const from = state.lang;
    state.lang = from === "de" ? "en" : "de";
    state.langChosen = true; // stored from now on (storage.js saveSettings)
    // default names the player never changed ("Spieler 2") follow the language ("Player 2")
    for (const [i, p] of (state.setup?.players ?? []).entries()) {
      if (p && p.name === wordIn(from, "page.setup.player_n", { n: i + 1 })) p.name = tr("page.setup.player_n", { n: i + 1 });
    }
    saveSettings(); draw();
  };
  $("nav-game").onclick = () => { state.screen = state.current ? "game" : "setup"; draw(); };
  $("nav-history").onclick = () => { state.screen = "history"; state.opened = null; state.deleted = null; draw(); };
  // The start screen's facts (meta.json: rule presets, the expert's status, the engine's words)
  // and the score pad's start (pad-start.json, early.js), as the site's build wrote them into
  // index.html: the first screen is usable with its first drawing, no request.
  const start = JSON.parse($("page-start").textContent);
  state.meta = start.meta;
  window.kniffelMeta = start.meta;
  addWords(start.meta.words); // the engine's words of hints, reviews and the expert: tr() speaks them now
  useStarts(start.starts);
  safeDraw(); // the stored sheet at once; controls wait for the engine
  timing.firstDrawMs = performance.now();
  timing.usableMs = timing.firstDrawMs;
  // The engine starts now, once the first screen is drawn: its files come side by side while the
  // player reads it (worker.js); a stored game it must replay (entries taken before it ran
  // included) waits for it anyway. Otherwise its interpreter starts with the first entry or
  // request, or GO_AFTER_MS after the first screen: the player's first taps do not share the CPU
  // with Pyodide's start.
  const replay = state.current && (!(state.current.view && state.current.view.early) || state.current.game.actions.length > 0);
  if (state.pending || replay) goEngine();
  else {
    setTimeout(startEngine, 0); // after this task: the first screen is painted first
    setTimeout(goEngine, GO_AFTER_MS);
  }
  await engineReady;
  let restore = state.current ? { record: state.current, raw: stored ? stored.raw : JSON.stringify(state.current) } : state.pending;
  while (restore) {
    // without the win chances: the stored view's stay until refreshChances (after the start)
    const tried = restore;
    const reply = await ask({ op: "load", game: tried.record.game, chances: false });
    const now = state.current;
    restore = null;
    if (reply.ok && now && now !== tried.record && now.view && now.view.early) {
      // entries queued (or a new pad game started) while the engine replayed: once more
      restore = { record: now, raw: JSON.stringify(now) };
      continue;
    }
    if (reply.ok) {
      if (!state.current && state.screen === "setup") state.screen = "game";
      const was = state.current ?? state.pending.record;
      setCurrent({ ...was, game: reply.game, view: keptChances(reply.view, was.view), summary: reply.summary });
      saveCurrent();
    } else {
      // the engine refuses the stored game: keep it aside, say so, start clean
      console.warn("kniffel: stored game refused", reply.error);
      if (keepCorruptCopy(KEY.current, tried.raw, tr("page.storage.refused_current", { why: sentence(refusal(reply.error)) }))) forget(KEY.current);
      setCurrent(null);
      if (state.screen === "game") state.screen = "setup";
    }
  }
  state.pending = null;
  // everything the engine's controls do with the history (its screen's statistics, imports, a
  // finished game, a table) waits for it: the page is ready once both are there
  const loadingAt = performance.now();
  await historyReady();
  timing.historyWaitMs = performance.now() - loadingAt;
  markReady();
  refreshChances(); // their values load now, not at the first entry
}

// The keyboard: the skip buttons at the top of the page jump to the sheet, the bar or the menu
// (while a game is shown); Escape closes the menu it opened and gives the focus back to it.
for (const b of document.querySelectorAll("#skip [data-skip]")) {
  b.addEventListener("click", () => {
    const where = b.dataset.skip;
    const first = (sel) => [...document.querySelectorAll(sel)].find((e) => !e.disabled && e.checkVisibility());
    const target = where === "sheet" ? first("#sheet button[tabindex='0']") || first("#sheet button") || $("sheet-wrap")
      : where === "bar" ? first(".game .bottom-bar :is(button, input, select)")
        : document.querySelector("#menu summary");
    if (target) target.focus();
  });
}
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  const menu = document.querySelector("details.menu[open]");
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary").focus();
  e.preventDefault();
});

// A computer's turn paused in a hidden tab goes on when the tab is shown again.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && state.ready && state.screen === "game") draw();
});

// Another tab changed the stored game or history: follow it, so no tab overwrites the other.
// (That tab checked the data before storing it; what does not pass here is simply not taken.)
window.addEventListener("storage", async (event) => {
  if (event.key === KEY.history && historyStore.kind === "local") {
    const data = parse(event.newValue ?? "null");
    if (data !== null && checkHistory(data, "")) return;
    state.history = data === null ? [] : byDate(cleanEntries(data.entries).entries);
    state.stats = null;
    draw();
  } else if (event.key === KEY.current && state.ready) {
    const cur = parse(event.newValue ?? "null");
    if (cur === null) {
      setCurrent(null);
      draw();
      return;
    }
    if (checkCurrent(cur, "")) return;
    const reply = await ask({ op: "load", game: cur.game });
    if (reply.ok) {
      state.epoch++;
      setCurrent({ ...cur, game: reply.game, view: reply.view, summary: reply.summary });
      state.keep.clear();
      state.padDice = null;
      draw();
    }
  }
});

boot();

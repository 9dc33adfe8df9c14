// The game in progress: sending actions to the engine, saying what they did, new games.

import { askToKeep } from "./backup.js?b=__BUILD__";
import { refreshIfStale } from "./chances.js?b=__BUILD__";
import { notice, showPicker } from "./dialogs.js?b=__BUILD__";
import { $, h } from "./dom.js?b=__BUILD__";
import { earlyAct, earlyGame, earlyGameOf, earlyStart } from "./early.js?b=__BUILD__";
import { ask, goEngine } from "./engine.js?b=__BUILD__";
import { keptAfter, keptAfterUndo, noteKeep } from "./keep.js?b=__BUILD__";
import { facts, play, redraw, state, timing } from "./state.js?b=__BUILD__";
import { newId, saveCurrent, saveHistory, saveUi, shelveCurrent, syncHistory } from "./storage.js?b=__BUILD__";
import { isObj, STORE_VERSION } from "./store.js?b=__BUILD__";
import { boxName, count, refusal, saidText, tr } from "./words.js?b=__BUILD__";

// The computer player ``name`` if the browser offers it, else the default one (the first).
export const computer = (name) => (facts.computers.includes(name) ? name : facts.computers[0]);

// The one way the game in progress changes (state.current: the record, or null for none): once
// the engine runs, a view whose chances came stale (they would have held it up) has the new ones
// follow (chances.js refreshIfStale); before, the start asks for them itself (app.js).
export function setCurrent(record) {
  state.current = record;
  if (state.ready) refreshIfStale(record && record.view);
}

// Where a table of phones is on (state.table, table.js), what the engine's reply says to send
// to the other phones goes to table.js's sender, registered here (game.js cannot import table.js,
// which imports it).
let tableSend = null;
export function onTableSend(fn) {
  tableSend = fn;
}

// Send a request about the current game; store and draw what comes back. Before the engine
// runs, a score pad's entry or undo is queued in the game's save (early.js). At a table the
// request goes through the table (table_act): the host applies it and sends the new state to
// every phone; a guest's goes to the host, and its state comes back as a message (table.js).
export async function act(request, { confirmed = false } = {}) {
  if (earlyGame() && !state.busy) return actEarly(request);
  if (!state.ready || state.busy) return null;
  if (!confirmed && otherColumn(request) !== null) return confirmOther(request);
  state.busy = true;
  if (request.op !== "computer_move") state.computerSay = null;
  if (request.op === "roll" || request.op === "computer_move") noteKeep(state.current && state.current.view);
  const carried = request.op === "roll" ? play.pendingKeep : null;
  const chip = request.op === "act" && request.action.type === "chip";
  const kept = new Set(state.keep);
  const order = play.order;
  const before = state.current && state.current.view;
  const started = performance.now();
  // at a table, with the table's change this page shows: a move made on it after another
  // phone's came in (not drawn yet) is refused, never made for the player to move now
  const reply = await ask(state.table ? { op: "table_act", request, rev: state.table.rev } : request);
  state.busy = false;
  if (reply.ok && reply.send && tableSend) tableSend(reply.send);
  if (reply.ok && reply.table && state.table) state.table = { ...state.table, ...reply.table };
  if (!reply.ok) {
    notice(refusal(reply.error), "warn");
    // drawn again without busy: a table's state that came in meanwhile was drawn while it was
    // (its sheet not live), and nothing else draws it once the refusal is said
    redraw();
    return reply;
  }
  if (reply.view) {
    takeReply(reply, { before, undo: request.op === "undo", told: request.op === "undo" || request.op === "act",
      carried, chip: chip ? { kept, order } : null, correct: request.op === "act" && request.action.type === "correct", said: reply.said ?? null });
    timing.lastActionMs = performance.now() - started;
  } else if (reply.pending) {
    redraw();
  }
  return reply;
}

// At a table where this phone's player has a column (state.mine), the column of another player
// that an entry, a chip, a correction or a throw ``request`` goes to, or whose entry an undo
// takes back (the last change this page said: state.confirm); else null (no column chosen: one
// phone entering for everyone, as on the paper pad passed around).
function otherColumn(request) {
  const view = state.current && state.current.view;
  if (!state.table || state.mine === null || state.mine === undefined || !view) return null;
  let player = null;
  if (request.op === "act") player = request.action.type === "correct" ? request.action.player : view.current;
  else if (request.op === "roll") player = view.current;
  else if (request.op === "undo" && state.confirm && !state.confirm.undo && state.confirm.actions === view.actions) player = state.confirm.player;
  return player === null || player === undefined || player === state.mine ? null : player;
}

// An entry in another player's column (or an undo of one), asked once more before it is made:
// who it is for, whose column this phone has; made with "Für Ben eintragen", else nothing.
function confirmOther(request) {
  const view = state.current.view;
  const name = view.columns[otherColumn(request)].name;
  const [ask1, go] = { undo: ["page.table.other_undo", "page.table.other_undo_go"],
    roll: ["page.table.other_roll", "page.table.other_roll_go"] }[request.op]
    ?? ["page.table.other_column", "page.table.other_column_go"];
  confirmStep(tr(ask1, { name }), tr("page.table.other_column_hint", { mine: view.columns[state.mine].name }),
    tr(go, { name }), () => act(request, { confirmed: true }));
  return null;
}

// A step asked once more: ``title``, ``why``, the button ``go`` that does ``then`` (the picker's
// cancel does nothing).
function confirmStep(title, why, go, then) {
  showPicker(title, why, [h("button", { type: "button", id: "table-other-go", class: "primary", onclick: () => {
    $("picker").close();
    then();
  } }, go)]);
}

// Whether another game would end the table's game in progress on every phone (asked first).
function tableGameRunning() {
  const cur = state.current;
  return Boolean(state.table && cur && !cur.view.over && cur.view.actions > 0);
}

function confirmReplace(then) {
  const v = state.current.view;
  confirmStep(tr("page.table.replace"), tr("page.table.replace_hint", { round: v.round, rounds: v.rounds }),
    tr("page.table.replace_go"), then);
}

// The game the engine answered with (``reply``: game, view, summary) becomes the one in
// progress, stored and drawn: what it changed said above the bar (``told``; at a table the
// engine's ``said``: who did what), the kept dice carried over a throw (``carried``) or a chip
// (``chip``: {kept, order}), the pad's typed dice cleared unless a chip or a correction keeps them.
export function takeReply(reply, { before, undo = false, told = false, carried = null, chip = null, correct = false, said = null }) {
  if (told || said) tell(before, reply.view, undo, said);
  setCurrent({ ...state.current, game: reply.game, view: reply.view, summary: reply.summary });
  state.keep = undo ? keptAfterUndo(reply.view) : keptAfter(reply.view, carried, chip ? chip.kept : null, chip ? chip.order : null);
  // the pad's typed dice stay over a chip (its throw re-throws some of them); their fields
  // over a correction too
  const padChip = Boolean(chip) && reply.view.mode === "pad";
  if (!padChip) state.padDice = null;
  state.hint = null;
  if (!padChip && !correct) { play.padTyped = []; play.padOpen = false; }
  saveCurrent();
  saveUi();
  syncHistory();
  // a finished game: the moment the browser grants keeping the data for good
  if (reply.view.over) askToKeep();
  redraw();
}

// A score pad's entry or undo before the engine runs: queued as the game's next action (or the
// last one taken back), stored at once, drawn with the sums waiting; the engine replays the
// save when it runs (app.js).
function actEarly(request) {
  const next = earlyAct(request);
  if (!next) return null;
  tell(state.current.view, next.view, request.op === "undo");
  setCurrent({ ...state.current, game: next.game, view: next.view });
  state.padDice = null;
  play.padTyped = [];
  play.padOpen = false;
  saveCurrent();
  saveUi();
  redraw();
  // the totals wait for the engine from now on: its interpreter starts once this is drawn
  requestAnimationFrame(() => setTimeout(goEngine, 0));
  return { ok: true, game: next.game, view: next.view };
}

// What an entry, a chip, a correction or an undo changed, in words (say(), in the page's language
// at the time it is read), and the cell it changed (so that the sheet can bring it into view);
// null where nothing a player reads changed.
function whatChanged(before, after, undo) {
  const said = (c, who, box) => (c.struck ? tr("page.confirm.strike", { name: who, box }) : count("page.confirm.score", c.points, { name: who, box }));
  const shown = (c) => (c.struck ? tr("page.game.struck") : String(c.points));
  for (let i = 0; i < after.columns.length; i++) {
    const was = before.columns[i];
    const now = after.columns[i];
    if (!was || !now) continue;
    for (const b of after.rules.boxes) {
      const a = was.cells[b.id];
      const z = now.cells[b.id];
      const box = () => boxName(after, b.id);
      const at = { player: i, box: b.id };
      if (!undo && !a && z) return { ...at, say: () => said(z, now.name, box()) };
      if (undo && a && !z) return { ...at, say: () => tr("page.confirm.undone", { what: said(a, now.name, box()) }) };
      if (a && z && (a.struck !== z.struck || a.points !== z.points)) {
        const line = () => tr("page.confirm.change", { name: now.name, box: box(), now: shown(z), was: shown(a) });
        return { ...at, say: () => (undo ? tr("page.confirm.undone", { what: line() }) : line()) };
      }
    }
    if (!undo && now.chips_left < was.chips_left) return { say: () => tr("page.confirm.chip", { name: now.name, chips: now.chips_left }) };
    if (undo && now.chips_left > was.chips_left) return { say: () => tr("page.confirm.undone", { what: tr("page.confirm.chip", { name: now.name, chips: was.chips_left }) }) };
  }
  if (!undo) return null;
  const throwBack = before.turn && after.turn && after.current === before.current
    && after.turn.rolls_left > before.turn.rolls_left;
  return { say: () => (throwBack ? tr("page.confirm.undone_throw") : tr("page.confirm.undone_move")) };
}

// The line above the bar after a person's move: what it did, with undo in it; on the score pad
// the first entry ever also tells that a filled box can be tapped to change it.
// At a table, ``said`` (the engine's {code, params}, or its text) says who did what instead.
const TIPS_KEY = "kniffel.v1.tips";
function tell(before, after, undo, said = null) {
  let told = before && after ? whatChanged(before, after, undo) : null;
  if (said) told = { ...(told ?? {}), say: () => saidText(said) };
  state.confirm = told ? { ...told, undo, id: state.current && state.current.id, actions: after.actions, fresh: true } : null;
  if (!told || undo || said || after.mode !== "pad" || told.box === undefined) return;
  try {
    const tips = JSON.parse(localStorage.getItem(TIPS_KEY) ?? "{}");
    if (isObj(tips) && tips.correct === true) return;
    localStorage.setItem(TIPS_KEY, JSON.stringify({ ...(isObj(tips) ? tips : {}), correct: true }));
    state.confirm.tip = true;
  } catch {
    // no storage: the tip is left out rather than shown on every entry
  }
}

export function confirmLine(view, live) {
  const c = state.confirm;
  if (!c || !state.current || c.id !== state.current.id || !(c.actions === view.actions || computerTurn(view))) return null;
  return h("div", { class: "confirm", id: "confirm", role: "status" },
    h("span", { class: "confirm-text" }, c.say()),
    c.undo ? null : h("button", { type: "button", id: "confirm-undo", class: "small", disabled: !live || !view.can_undo,
      onclick: () => act({ op: "undo" }) }, tr("page.game.undo")),
    c.tip ? h("span", { class: "confirm-tip" }, tr("page.confirm.tip")) : null);
}

// Whether the player to move is a computer (it plays by itself, virtual dice only).
export function computerTurn(view) {
  return Boolean(view && !view.over && view.mode === "dice" && view.current !== null
    && view.players[view.current].kind === "computer");
}

// A new game (the setup's start, a rematch) or one loaded (``uid``, ``started``: a history entry's,
// which leaves the history). At a table it is the whole table's, asked first where it ends the
// table's game in progress: the host starts it and sends it to every phone (a guest's comes back
// with the host's state, table.js).
async function begin(request, { uid = null, started = null, confirmed = false } = {}) {
  if (!state.ready || state.busy) return null;
  if (!confirmed && tableGameRunning()) {
    confirmReplace(() => begin(request, { uid, started, confirmed: true }));
    return null;
  }
  state.busy = true;
  const reply = await ask(state.table ? { op: "table_act", request, rev: state.table.rev } : request);
  state.busy = false;
  if (reply.ok && reply.table && state.table) state.table = { ...state.table, ...reply.table };
  if (!reply.ok) {
    if (request.op === "new") notice(refusal(reply.error), "warn");
    redraw();
    return reply;
  }
  if (reply.pending) { // a guest's: sent to the host, its state comes back
    if (tableSend) tableSend(reply.send);
    redraw();
    return reply;
  }
  shelveCurrent();
  if (uid !== null) {
    state.history = state.history.filter((e) => e.uid !== uid);
    saveHistory();
    state.stats = null;
  }
  becomeCurrent(reply, uid ?? newId(), started);
  if (reply.said) tell(null, reply.view, false, reply.said);
  if (reply.send && tableSend) tableSend(reply.send); // (after: the seat kept is the new game's)
  redraw();
  return reply;
}

// Another game in progress (``save``: resumed from the history with its entry's ``uid`` and
// ``started``, imported, opened from a hand-off): loaded by the engine and shown; at a table the
// whole table's (begin). The reply (refused: ``ok`` false, for the caller's sentence).
export function loadGame(save, { uid = null, started = null } = {}) {
  return begin({ op: "load", game: save }, { uid, started });
}

// The setup of a new game at a table: the table's rule set, mode and players (the new game is
// theirs, on every phone), not the setup this phone used last.
export function tableSetup() {
  const g = state.current && state.current.game;
  if (!state.table || !g) return;
  state.setup = { ...state.setup, rules: g.rules.name, free_strike: g.rules.free_strike, mode: g.mode,
    players: g.players.map((p) => (p.kind === "computer" ? { name: p.name, kind: "computer", strategy: computer(p.strategy) }
      : { name: p.name, kind: "human" })) };
}

// A game the engine has just loaded becomes the one in progress (the caller has shelved the
// old one): no kept or typed dice carry over from the game before.
export function becomeCurrent(reply, id, started = null) {
  // at a table, this phone's player keeps their column where the new game has them (by name)
  const mineName = state.mine !== null && state.mine !== undefined && state.current ? state.current.view.columns[state.mine]?.name : null;
  const mine = mineName ? reply.view.columns.findIndex((c) => c.name === mineName) : -1;
  state.mine = mine >= 0 ? mine : null;
  state.epoch++;
  state.computerSay = null;
  state.hint = null;
  setCurrent({ version: STORE_VERSION, id, started: started ?? new Date().toISOString(),
    game: reply.game, view: reply.view, summary: reply.summary });
  state.keep.clear();
  state.padDice = null;
  state.screen = "game";
  saveCurrent();
}

export function startGame() {
  const s = state.setup;
  const early = state.ready || state.busy ? null : earlyStart(s);
  if (early) {
    // the score pad starts before the engine runs, from the engine's own new game (early.js)
    shelveCurrent();
    becomeCurrent(earlyGameOf(early, s.players), newId());
    redraw();
    return null;
  }
  return begin({ op: "new", rules: s.rules, free_strike: s.free_strike, mode: s.mode,
    players: s.players.map((p) => (s.mode === "dice" && p.kind === "computer"
      ? { name: p.name, kind: "computer", strategy: computer(p.strategy) }
      : { name: p.name, kind: "human" })) });
}

export function rematch() {
  const g = state.current.game;
  return begin({ op: "new", rules: g.rules.name, free_strike: g.rules.free_strike, mode: g.mode,
    players: g.players });
}

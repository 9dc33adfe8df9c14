// The score pad before the engine runs: a family writes the first throws down at once, while
// Python still loads. Nothing here knows a rule: the site's build wrote, from the engine
// (kniffel.browser.view.pad_start, in pad-start.json), a new pad game of each rule set — its save,
// its view with every number each box can hold, its summary — and the engine's order of play
// (whose turn and which round after each number of entries). An entry is queued as the next
// action of the game's save, stored like any game, and the engine replays the save the moment it
// runs (app.js): from there the totals, chances and everything else are the engine's. Until
// then the sheet says that they wait (view.early).

import { h } from "./dom.js?b=__BUILD__";
import { state } from "./state.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

// A line next to controls that wait for the engine: why, and how far its start is (the catalog's
// ``code`` with the percentage; screen.js keeps it up to date as state.boot changes).
export function bootWait(code, id) {
  return h("p", { class: "hint boot-wait", id, role: "status", "data-boot-wait": code },
    tr(code, { percent: state.boot.percent }));
}

// pad-start.json, as index.html holds it (read at the page's start: app.js).
let starts = null;
export function useStarts(data) {
  starts = data;
}

// The key of a rule set in pad-start.json: the preset, "/free" for the free-strike house rule
// where the preset offers it (as the expert's status in meta.json).
function startKey(rules, freeStrike) {
  const presets = state.meta ? state.meta.presets : [];
  const preset = presets.find((p) => p.name === rules);
  return `${rules}${preset && preset.free_strike_option && freeStrike ? "/free" : ""}`;
}

// The engine's new pad game of the start screen's rule set, or null where there is none yet (the
// data not here yet, or a game with dice: those need the engine).
export function earlyStart(setup) {
  // a stored game the engine has yet to replay (state.pending) is not to be replaced unseen
  if (!starts || !state.meta || setup.mode !== "pad" || state.pending) return null;
  return starts[startKey(setup.rules, setup.free_strike)] ?? null;
}

// Whether the game on the screen takes its entries before the engine runs.
export function earlyGame() {
  return !state.ready && Boolean(state.current && state.current.view && state.current.view.early)
    && starts !== null && state.meta !== null;
}

function randomSeed() {
  // a whole number below 2**53, as the engine's own new games have (kniffel.browser.bridge)
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return (a[0] % 2 ** 21) * 2 ** 32 + a[1];
}

// A new game of the engine's pad start ``start`` for the start screen's players: its save, view
// and summary, as the engine gives them, each player a copy of the one player's fresh column.
export function earlyGameOf(start, players) {
  const people = players.map((p) => ({ name: p.name, kind: "human", strategy: null }));
  const game = { ...start.game, seed: randomSeed(), players: people, actions: [],
    scores: people.map(() => 0) };
  const summary = { ...start.summary, players: people.map((p) => p.name), totals: people.map(() => 0),
    bonus: people.map(() => false) };
  return { game, view: earlyView(start, game), summary };
}

// The view of ``game`` (an engine's pad start with queued entries): the engine's fresh columns
// with the queued entries written in, whose turn it is from the engine's order of play, and
// the fresh options of the boxes still open for that player. Sums stay the fresh ones and are
// drawn as waiting (early); chips, chances and corrections wait for the engine.
export function earlyView(start, game) {
  const base = start.view;
  const n = game.players.length;
  const order = start.order[n - 1];
  const k = Math.min(game.actions.length, order.length - 1);
  const columns = game.players.map((p) => ({ ...base.columns[0], name: p.name, cells: {} }));
  game.actions.forEach((a, i) => {
    const [who] = order[Math.min(i, order.length - 1)];
    if (who === null) return;
    columns[who].cells[a.box] = a.type === "strike" ? { points: 0, struck: true } : { points: a.points, struck: false };
  });
  const [current, round] = order[k];
  const open = current === null ? [] : base.options.filter((o) => !columns[current].cells[o.box]);
  return { ...base, players: game.players, columns, current, round: round ?? base.rounds,
    turn: current === null ? null : { ...base.turn, player: current, can_chip: false },
    options: open, actions: game.actions.length, can_undo: game.actions.length > 0,
    chances: null, early: true };
}

// Queue an entry (an option's action from the view: enter or strike) or take back the last one;
// returns the game's new save and view, or null where the request is none of those.
export function earlyAct(request) {
  const cur = state.current;
  const start = starts[startKey(cur.game.rules.name, cur.game.rules.free_strike)];
  if (!start) return null;
  let actions;
  if (request.op === "undo") {
    if (!cur.game.actions.length) return null;
    actions = cur.game.actions.slice(0, -1);
  } else if (request.op === "act" && ["enter", "strike"].includes(request.action.type)
    && cur.view.options.some((o) => JSON.stringify(o.action) === JSON.stringify(request.action))) {
    actions = [...cur.game.actions, request.action];
  } else {
    return null;
  }
  const game = { ...cur.game, actions };
  return { game, view: earlyView(start, game) };
}

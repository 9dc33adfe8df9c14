// The page's state: what it shows and what it keeps besides the game; plain data, no DOM.

export const BUILD = "__BUILD__";

// Milliseconds between two visible steps of a computer's turn (tests set window.kniffelPace).
export const pace = () => window.kniffelPace ?? 900;
// What the page measured, for the console, the tests and the benchmark (window.kniffelTiming):
// milliseconds since the navigation started unless named a duration; unset until measured.
export const timing = {
  build: BUILD, // the build of the site the page runs
  interactiveMs: undefined, // the page's controls answer (app.js)
  firstDrawMs: undefined, // the first screen is drawn (app.js)
  usableMs: undefined, // the engine runs and holds the current game (app.js)
  historyMs: undefined, // the history loaded (storage.js), from IndexedDB or localStorage
  historyLoadMs: undefined, // duration: the history's loading, from its start (storage.js)
  historyWaitMs: undefined, // duration: how long the running engine waited for the history (app.js)
  historyEntries: undefined, // how many entries the loaded history holds (storage.js)
  engineStartMs: undefined, // the worker was started (engine.js)
  engineGoMs: undefined, // its interpreter was told to start (engine.js goEngine)
  steps: undefined, // the worker's start: [[step, ms, at, detail?], …] (engine.js)
  bootPath: undefined, // "snapshot" or "fresh": how the worker started (engine.js)
  engineMs: undefined, // duration: the worker's start (engine.js)
  expertSteps: undefined, // the expert's start: [[step, ms], …] (engine.js)
  expertReadyMs: undefined, // duration: the expert's start (engine.js)
  expertWarm: undefined, // {rules: at or error code}: the expert's tables warmed (expert.js)
  coachWarm: undefined, // {rules: at or error code}: the pad's coach warmed (coach.js)
  lastActionMs: undefined, // duration: the last move's answer from the engine (game.js)
  lastDrawMs: undefined, // duration: the last drawing of the screen (screen.js)
  draws: undefined, // count: the drawings of the screen so far (screen.js)
  lastHintMs: undefined, // duration: the last hint (expert.js)
  lastReviewMs: undefined, // duration: the last review (expert.js)
  lastReviewWinsMs: undefined, // duration: the last review's chances to win (expert.js)
  lastWarmTurnMs: undefined, // duration or error code: the last turn's chances to win warmed (expert.js)
  warmTurns: undefined, // how many turns' chances to win were warmed (expert.js)
  lastPadHintMs: undefined, // duration: the last tip on the pad (coach.js)
  lastPadReviewMs: undefined, // duration: the last review of a pad game (coach.js)
  tableOfferBytes: undefined, // the bytes of the last offer code of a table (table.js)
  tableAnswerBytes: undefined, // the bytes of the last answer code of a table (table.js)
  tableJoinStarted: undefined, // when this phone last began to join a table (table.js)
  tableStateAt: undefined, // when the table's game last arrived from another phone (table.js)
  transfer: undefined, // the history's transfer: messages and bytes both ways, chunks in (transfer.js)
  transferStarted: undefined, // when the last transfer of a history began here (transfer.js)
  transferEnded: undefined, // when it ended here (transfer.js)
  transferMergeMs: undefined, // duration: the games that arrived merged into the history (transfer.js)
  tableMessages: undefined, // {sent, received, opened}: the table's messages and channels of this page (table.js)
};

// The engine's facts the page draws by (kniffel.browser.view.page_data, in index.html): the most
// players of a game (max_players), the computer players offered, the first the default
// (computers), the rule set a new page starts with (default_rules).
export const facts = { max_players: 1, computers: [], default_rules: "" };

// The one way a change reaches the screen: the page registers its drawing (screen.js draw,
// app.js) with onRedraw, and every module that changed what is shown calls redraw(), which draws
// at once: the new screen is there when it returns. redraw("boot") draws only what the engine's
// start changed (state.boot), redraw("notices") only the notices. Before the registration nothing
// is drawn.
let redrawer = null;

export function onRedraw(fn) {
  redrawer = fn;
}

export function redraw(part) {
  if (redrawer) redrawer(part);
}

export const state = {
  lang: "de", // the language the page speaks: "de" | "en"
  langChosen: false, // whether the player chose it (stored), or the browser's languages gave it
  screen: "game", // "game" | "setup" | "history" | "review"
  ready: false, // the engine is up and holds the current game
  // the engine's start (engine.js, drawn by screen.js): how far it is (percent, 100 once it runs),
  // the code of the line that says so, why it failed (and that it did)
  boot: { percent: 5, code: "page.boot.starting", why: null, failed: false },
  busy: false, // a move (the person's or a computer's) is on its way to the engine
  current: null, // {version, id, started, game, view, summary}
  history: [], // [{uid, started, finished_at, game, summary}] (storage.js: in IndexedDB)
  pending: null, // {record, raw}: a stored game without its view, replayed once the engine runs
  meta: null, // meta.json: the rule presets, the expert's tables, the engine's words, handed to words.js (app.js)
  setup: null, // {rules, free_strike, mode, players: [{name, kind, strategy}]}
  computerSay: null, // what the computer to move just did, shown in the status line
  confirm: null, // what the person's last move did: {say, id, actions, player, box, undo, tip, fresh}
  epoch: 0, // counts games started, loaded and undone: a computer's turn stops when it changes
  keep: new Set(), // dice positions the player wants to keep
  padDice: null, // {dice, options} after "enter dice"
  showChances: true, // the setting: the win-chance row under the totals (chances.js)
  restoring: null, // a restore under way: {done, total} of the new games checked (history.js)
  stats: null, // the history's statistics: {loading: true} while asked, then the engine's reply
  notices: [], // the notices shown, newest last: [{id, text, kind}] (dialogs.js)
  hint: null, // the expert's hint: {id, actions, loading} while asked, then {id, actions, data}
  review: null, // the review shown (screen "review"): {game, title, from, loading, data, player}
  opened: null, // a history entry's final sheet: {entry, view, scrollY, buttonTop}
  deleted: null, // the last deletion in the history, to be undone: {entries}
  foldOpen: false, // the group of older unfinished games in the history is unfolded
  // the table of phones this page sits at (table.js), null for none: the engine's table
  // ({id, me, host, peers}) and the page's own: how many channels are open (phones)
  table: null,
  mine: null, // the sheet's column of this phone's player at a table (first and marked), null for none
  seatLost: false, // the page sat at a table with this game and is not connected again (table.js)
};

// What the game screen keeps besides the game: the dice entered on the pad, the place of each
// die on the table, the sheet's scroll position. Kept in its own key so that a reload brings the
// typed dice back; anything odd in it is ignored.

export const play = {
  uiLoaded: false, // the stored part of this object was read (storage.js loadUi)
  padOpen: false, // the pad's dice entry is open
  padTyped: [], // what is typed into the dice fields (text)
  order: null, // {actions, slots: engine dice positions in display order}
  pendingKeep: null, // {from: actions, kept: [[slot, value, d10], …]} while a throw is on its way
  rolled: null, // {actions, slots: Set} the dice that were just thrown (animated once)
  scroll: null, // {top, left}: the sheet's scroll position, kept over a redraw
  reveal: null, // {player, box}: a computer's entry, brought into view by the next drawing
  strikeOpen: null, // the actions count at which the person asked to see the strikes
  lastCurrent: null, // the player to move at the last drawing: a change scrolls the sheet to them
  linkChecked: false, // the address's link (#…) was read (dialogs.js checkLink)
};

// The wake lock (system.js): wanted by the setting (on), held (lock), asked for, refused.
export const awake = { on: true, lock: null, asking: false, refused: false };

// A new build of the site waiting to take over (system.js) and its notice.
export const update = { reg: null, shown: null, dismissed: false, asked: false };

// The page's state: what it shows and what it keeps besides the game; plain data, no DOM.

export const BUILD = "__BUILD__";

// Milliseconds between two visible steps of a computer's turn (tests set window.kniffelPace).
export const pace = () => window.kniffelPace ?? 900;
export const timing = { build: BUILD };

// The engine's facts the page draws by (kniffel.browser.view.page_data, in index.html): the most
// players of a game (max_players), the computer players offered, the first the default
// (computers), the rule set a new page starts with (default_rules).
export const facts = { max_players: 1, computers: [], default_rules: "" };

export const state = {
  lang: "de",
  screen: "game", // "game" | "setup" | "history"
  ready: false, // the engine is up and holds the current game
  bootPercent: 5, // how far the engine's start is (engine.js), 100 once it runs
  busy: false,
  current: null, // {version, id, started, game, view, summary}
  history: [], // [{id, finished, game, summary}]
  meta: null,
  setup: null, // {rules, free_strike, mode, players: [{name, kind, strategy}]}
  computerSay: null, // what the computer to move just did, shown in the status line
  confirm: null, // what the person's last move did: {say, id, actions, player, box, undo, tip, fresh}
  epoch: 0, // counts games started, loaded and undone: a computer's turn stops when it changes
  keep: new Set(), // dice positions the player wants to keep
  padDice: null, // {dice, options} after "enter dice"
  showChances: true, // the setting: the win-chance row under the totals (chances.js)
  stats: null,
  notices: [],
};

// What the game screen keeps besides the game: the dice entered on the pad, the place of each
// die on the table, the sheet's scroll position. Kept in its own key so that a reload brings the
// typed dice back; anything odd in it is ignored.

export const play = {
  uiLoaded: false,
  padOpen: false, // the pad's dice entry is open
  padTyped: [], // what is typed into the dice fields (text)
  order: null, // {actions, slots: engine dice positions in display order}
  pendingKeep: null, // {from: actions, kept: [[slot, value, d10], …]} while a throw is on its way
  rolled: null, // {actions, slots: Set} the dice that were just thrown (animated once)
  scroll: null,
  reveal: null, // {player, box}: a computer's entry, brought into view by the next drawing
  strikeOpen: null, // the actions count at which the person asked to see the strikes
  lastCurrent: null,
  linkChecked: false,
};

// The wake lock (system.js): wanted by the setting (on), held (lock), asked for, refused.
export const awake = { on: true, lock: null, asking: false, refused: false };

// A new build of the site waiting to take over (system.js) and its notice.
export const update = { reg: null, shown: null, dismissed: false, asked: false };

// The page: draws the engine's view and forwards what the user taps as actions.
// No rule lives here: every point, sum, legal choice and check comes from the Python engine
// (kniffel.browser.bridge in Pyodide, in worker.js). User text is only ever set with textContent.

import { KEY, LANGS, STORE_VERSION, byDate, checkCurrent, checkHistory, checkSettings, checkView, cleanEntries,
  entryDate, isObj, knownView, parse } from "./store.js?b=__BUILD__";

const BUILD = "__BUILD__";
const MAX_PLAYERS = 8;
// The computer players the browser offers (the engine refuses any other); the first is the default.
const COMPUTERS = ["greedy", "random", "expert"];
// Milliseconds between two visible steps of a computer's turn (tests set window.kniffelPace).
const pace = () => window.kniffelPace ?? 900;
export const timing = { build: BUILD };
window.kniffelTiming = timing;

// ---------------------------------------------------------------------------------- texts
const TEXT = {
  de: {
    nav_game: "Spiel", nav_history: "Verlauf", booting: "Die Spiel-Engine startet …",
    boot_snapshot: "Engine wird aus dem Speicher geladen …", boot_pyodide: "Python wird gestartet …",
    boot_package: "Regeln werden geladen …", boot_failed: "Die Engine konnte nicht starten: ",
    setup: "Neues Spiel", rules: "Regelwerk", free_strike: "Freies Streichen (Hausregel)",
    mode: "Modus", mode_pad: "Block (echte Würfel)", mode_dice: "Spiel (virtuelle Würfel)",
    players: "Spieler", player_n: (n) => `Spieler ${n}`, add_player: "Spieler hinzufügen",
    up: (n) => `${n} nach oben`, down: (n) => `${n} nach unten`, remove: (n) => `${n} entfernen`,
    name_of: (n) => `Name von Spieler ${n}`, human: "Mensch", start: "Spiel starten",
    box: "Feld", upper_sum: "Summe oben", bonus: "Bonus", bonus_missing: (n) => `noch ${n}`,
    bonus_lost: "verfehlt", lower_sum: "Summe unten", extra: "Extra-Kniffel",
    total: "Gesamt", turn_of: (n) => `${n} ist dran`, round: (r, m) => `Runde ${r} von ${m}`,
    chips: "Chips", chips_left: (n, c) => `${n}: ${c} Chips übrig`, use_chip: "Chip abgeben",
    chip_4th: "Chip für einen 4. Wurf", roll: "Würfeln", rolls_left: (n) => `noch ${n}`,
    keep: "halten", kept: "gehalten", die: (i, v, d10) => `${d10 ? "Zehner-Würfel" : `Würfel ${i}`}: ${v}`,
    pick_box: "Wähle ein Feld.", roll_first: "Würfle zuerst.", undo: "Rückgängig",
    strike: "Streichen", struck: "gestrichen", enter_for: (b, n) => `${b} für ${n}`,
    points: (p) => `${p} Punkte`, enter_dice: "Würfel eingeben", show_boxes: "Felder zeigen",
    d6: (i) => `Würfel ${i}`, d10: "Zehner", pad_clear: "Würfel löschen",
    pad_pick: (d) => `Wurf ${d}: jedes offene Feld zeigt seine Punkte.`, cancel: "Abbrechen", leader: "führt",
    winner: (names, pts) => `Gewonnen: ${names} mit ${pts} Punkten!`, rematch: "Revanche",
    new_game: "Neues Spiel", export_game: "Spiel exportieren", export_history: "Verlauf exportieren",
    import: "Importieren", imported_game: "Spiel importiert.", imported_history: (n) => `${n} Spiele importiert.`,
    import_bad: "Import abgelehnt, nichts wurde geändert: ", history: "Verlauf", stats: "Statistik",
    games: "Spiele", wins: "Siege", best: "Bestes", average: "Schnitt", bonus_rate: "Bonus-Quote",
    no_games: "Noch keine beendeten Spiele.", unfinished: "nicht beendet", resume: "Fortsetzen",
    plot: "Gesamtpunkte je Spiel", corrupt: (k) => `Gespeicherte Daten (${k}) waren beschädigt oder aus einer unbekannten Version. Eine Kopie wurde aufbewahrt (${k}.corrupt…); es geht mit einem leeren Stand weiter.`,
    refused: "Nicht möglich: ", storage_full: "Der Speicher des Browsers ist voll: ",
    storage_off: "Der Speicher des Browsers ist nicht verfügbar, nichts wird gespeichert: ", no_game: "Kein laufendes Spiel.",
    saved_note: "Der Spielstand bleibt in deinem Browser gespeichert – kein Konto, keine Übertragung.",
    ready_in: (s, snap) => `Engine bereit nach ${s} s${snap ? " (aus dem Snapshot)" : ""}.`,
    dismiss: "Schließen", player_col: (n, c, cur) => `${n}${cur ? " (am Zug)" : ""}, ${c} Chips`,
    kind_of: (n) => `Wer spielt ${n}?`, kind_greedy: "Computer (gierig)", kind_random: "Computer (zufällig)",
    computer_col: "Computer", computers_dice_only: "Computerspieler gibt es nur im Spiel mit virtuellen Würfeln.",
    c_thinking: (n) => `${n} überlegt …`, c_roll: (n) => `${n} würfelt.`,
    c_keep: (n, d) => `${n} hält ${d || "nichts"} und würfelt nochmal …`, c_chip: (n) => `${n} gibt einen Chip ab.`,
    c_score: (n, b, p) => `${n} trägt ${p} Punkte bei ${b} ein.`, c_strike: (n, b) => `${n} streicht ${b}.`,
    // the screen kept on during a game, a new version of the app (the wake lock and update section)
    keep_awake: "Bildschirm anlassen während eines Spiels", update_ready: "Neue Version – neu laden",
  },
  en: {
    nav_game: "Game", nav_history: "History", booting: "The game engine is starting …",
    boot_snapshot: "Loading the engine from storage …", boot_pyodide: "Starting Python …",
    boot_package: "Loading the rules …", boot_failed: "The engine could not start: ",
    setup: "New game", rules: "Rule set", free_strike: "Free strike (house rule)",
    mode: "Mode", mode_pad: "Score pad (real dice)", mode_dice: "Game (virtual dice)",
    players: "Players", player_n: (n) => `Player ${n}`, add_player: "Add player",
    up: (n) => `Move ${n} up`, down: (n) => `Move ${n} down`, remove: (n) => `Remove ${n}`,
    name_of: (n) => `Name of player ${n}`, human: "Human", start: "Start game",
    box: "Box", upper_sum: "Upper sum", bonus: "Bonus", bonus_missing: (n) => `${n} to go`,
    bonus_lost: "missed", lower_sum: "Lower sum", extra: "Extra Kniffel",
    total: "Total", turn_of: (n) => `${n}'s turn`, round: (r, m) => `Round ${r} of ${m}`,
    chips: "Chips", chips_left: (n, c) => `${n}: ${c} chips left`, use_chip: "Hand in a chip",
    chip_4th: "Chip for a 4th throw", roll: "Roll", rolls_left: (n) => `${n} left`,
    keep: "keep", kept: "kept", die: (i, v, d10) => `${d10 ? "d10" : `Die ${i}`}: ${v}`,
    pick_box: "Pick a box.", roll_first: "Roll the dice first.", undo: "Undo",
    strike: "Strike", struck: "struck", enter_for: (b, n) => `${b} for ${n}`,
    points: (p) => `${p} points`, enter_dice: "Enter dice", show_boxes: "Show boxes",
    d6: (i) => `Die ${i}`, d10: "d10", pad_clear: "Clear dice",
    pad_pick: (d) => `Roll ${d}: every open box shows its points.`, cancel: "Cancel", leader: "leads",
    winner: (names, pts) => `Winner: ${names} with ${pts} points!`, rematch: "Rematch",
    new_game: "New game", export_game: "Export game", export_history: "Export history",
    import: "Import", imported_game: "Game imported.", imported_history: (n) => `${n} games imported.`,
    import_bad: "Import refused, nothing was changed: ", history: "History", stats: "Statistics",
    games: "Games", wins: "Wins", best: "Best", average: "Average", bonus_rate: "Bonus rate",
    no_games: "No finished games yet.", unfinished: "unfinished", resume: "Resume",
    plot: "Total per game", corrupt: (k) => `Stored data (${k}) was corrupt or from an unknown version. A copy was kept (${k}.corrupt…); starting clean.`,
    refused: "Not possible: ", storage_full: "The browser's storage is full: ",
    storage_off: "The browser's storage is not available, nothing is saved: ", no_game: "No game in progress.",
    saved_note: "The game stays saved in your browser – no account, nothing sent anywhere.",
    ready_in: (s, snap) => `Engine ready after ${s} s${snap ? " (from the snapshot)" : ""}.`,
    dismiss: "Close", player_col: (n, c, cur) => `${n}${cur ? " (to play)" : ""}, ${c} chips`,
    kind_of: (n) => `Who plays ${n}?`, kind_greedy: "Computer (greedy)", kind_random: "Computer (random)",
    computer_col: "computer", computers_dice_only: "Computer players play only with virtual dice.",
    c_thinking: (n) => `${n} is thinking …`, c_roll: (n) => `${n} rolls.`,
    c_keep: (n, d) => `${n} keeps ${d || "nothing"} and rolls again …`, c_chip: (n) => `${n} hands in a chip.`,
    c_score: (n, b, p) => `${n} enters ${p} points in ${b}.`, c_strike: (n, b) => `${n} strikes ${b}.`,
    // the screen kept on during a game, a new version of the app (the wake lock and update section)
    keep_awake: "Keep the screen on during a game", update_ready: "New version – reload",
  },
};

// Words of the game screen on a phone: the score pad's bar, the dice, corrections, sharing.
const TEXT_PLAY = {
  de: {
    turn_of: (n) => `Am Zug: ${n}`, points: (p) => (p === 1 ? "1 Punkt" : `${p} Punkte`),
    bonus_row: (b, t) => `Bonus ${b} ab ${t}`, bonus_got: (b) => `+${b}`, menu: "Menü",
    dice_bar: "Würfel", enter_dice: "Würfel eingeben", close_dice: "Abbrechen",
    enter_in: (p) => `Eintragen für ${p}`, choices: "Felder für diesen Wurf, die besten zuerst",
    no_choice: "Dieser Wurf passt in kein offenes Feld – streiche eines.",
    change: (b, n) => `${b} von ${n} ändern`, now: (v) => `jetzt: ${v}`, info: (b) => `${b}: was zählt?`,
    max_points: (m) => `höchstens ${m} Punkte`, close: "Schließen", tap_to_change: "Tippe ein Feld, um es zu ändern.",
    share: "Ergebnis teilen", share_running: "Stand teilen", shared: "Ergebnis in die Zwischenablage kopiert.",
    handoff: "Auf anderem Gerät fortsetzen", handoff_hint: "Scanne den Code mit dem anderen Gerät oder öffne den Link dort. Das Spiel steckt im Link – kein Server, kein Konto.",
    copy_link: "Link kopieren", copied: "Link kopiert.", link: "Link zum Spiel",
    load_link: "Spiel aus dem Link laden?", load_link_text: (names, r, m) => `${names} – Runde ${r} von ${m}.`,
    load_link_keep: "Das laufende Spiel bleibt im Verlauf und kann fortgesetzt werden.", load: "Laden", dont_load: "Nicht laden",
    link_bad: "Der Link enthält kein lesbares Spiel.", win_badge: "Sieg",
    err_IllegalMoveError: "Das ist so nicht möglich.", err_InvalidGameError: "Diese Angaben passen nicht (zum Beispiel zwei gleiche Namen).",
    err_CorruptSaveError: "Die Daten sind beschädigt.", err_generic: "Das hat nicht geklappt.",
    d10_label: "W10", die_d10: (v) => `${v} W10 (Zehner-Würfel)`,
    // a hand-off link of this device only, and typed dice the die cannot show (issue 20)
    handoff_local: (host) => `Diese Adresse (${host}) erreicht nur dieses Gerät, ein anderes Handy kann sie nicht öffnen: starte die App mit „kniffel web --host 0.0.0.0“ und öffne hier die Adresse, die sie unter „Im lokalen Netz“ nennt.`,
    pad_bad: (die, typed, lo, hi) => `${die}: „${typed}“ gibt es nicht, nur ${num(lo)} bis ${num(hi)}.`,
    pad_missing: (die) => `${die} fehlt noch.`, d10_name: "Zehner-Würfel (W10)",
    // what an entry, a chip or an undo just did (the line above the bar, with undo in it)
    did_score: (n, b, p) => `${n}: ${p === 1 ? "1 Punkt" : `${p} Punkte`} bei ${b}`,
    did_strike: (n, b) => `${n}: ${b} gestrichen`,
    did_change: (n, b, now, was) => `${n}: ${b} jetzt ${now} statt ${was}`,
    did_chip: (n, c) => `${n} gibt einen Chip ab (noch ${c})`,
    undone: (what) => `Zurückgenommen – ${what}`, undone_throw: "Zurückgenommen – der letzte Wurf",
    undone_move: "Der letzte Zug ist zurückgenommen", tip_correct: "Tipp: Ein ausgefülltes Feld antippen, um es zu ändern.",
    always_points: (m) => `immer ${m} Punkte`, shared_running: "Stand in die Zwischenablage kopiert.",
    ranking: "Endstand", rank: (r) => `${r}.`,
  },
  en: {
    turn_of: (n) => `${n}'s turn`, points: (p) => (p === 1 ? "1 point" : `${p} points`),
    bonus_row: (b, t) => `Bonus ${b} at ${t}`, bonus_got: (b) => `+${b}`, menu: "Menu",
    dice_bar: "Dice", enter_dice: "Enter dice", close_dice: "Cancel",
    enter_in: (p) => `Enter for ${p}`, choices: "Boxes for this roll, best first",
    no_choice: "This roll fits no open box – strike one.",
    change: (b, n) => `Change ${n}'s ${b}`, now: (v) => `now: ${v}`, info: (b) => `${b}: what counts?`,
    max_points: (m) => `at most ${m} points`, close: "Close", tap_to_change: "Tap a box to change it.",
    share: "Share result", share_running: "Share standings", shared: "Result copied to the clipboard.",
    handoff: "Continue on another device", handoff_hint: "Scan the code with the other device or open the link there. The game travels in the link – no server, no account.",
    copy_link: "Copy link", copied: "Link copied.", link: "Link to the game",
    load_link: "Load the game from the link?", load_link_text: (names, r, m) => `${names} – round ${r} of ${m}.`,
    load_link_keep: "The game in progress stays in the history and can be resumed.", load: "Load", dont_load: "Don't load",
    link_bad: "The link holds no readable game.", win_badge: "won",
    err_IllegalMoveError: "That is not possible.", err_InvalidGameError: "These entries do not fit (two equal names, for example).",
    err_CorruptSaveError: "The data is damaged.", err_generic: "That did not work.",
    d10_label: "d10", die_d10: (v) => `${v} d10`,
    // a hand-off link of this device only, and typed dice the die cannot show (issue 20)
    handoff_local: (host) => `This address (${host}) reaches only this device, another phone cannot open it: start the app with "kniffel web --host 0.0.0.0" and open here the address it names under "On the local network".`,
    pad_bad: (die, typed, lo, hi) => `${die}: there is no "${typed}", only ${num(lo)} to ${num(hi)}.`,
    pad_missing: (die) => `${die} is still missing.`, d10_name: "The d10",
    did_score: (n, b, p) => `${n}: ${p === 1 ? "1 point" : `${p} points`} in ${b}`,
    did_strike: (n, b) => `${n}: ${b} struck`,
    did_change: (n, b, now, was) => `${n}: ${b} now ${now} instead of ${was}`,
    did_chip: (n, c) => `${n} hands in a chip (${c} left)`,
    undone: (what) => `Taken back – ${what}`, undone_throw: "Taken back – the last throw",
    undone_move: "The last move is taken back", tip_correct: "Tip: tap a filled box to change it.",
    always_points: (m) => `always ${m} points`, shared_running: "Standings copied to the clipboard.",
    ranking: "Final standings", rank: (r) => `${r}.`,
  },
};
Object.assign(TEXT.de, TEXT_PLAY.de);
Object.assign(TEXT.en, TEXT_PLAY.en);

// ---------------------------------------------------------------------------------- state
const state = {
  lang: "de",
  screen: "game", // "game" | "setup" | "history"
  ready: false, // the engine is up and holds the current game
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
  stats: null,
  notices: [],
};

const $ = (id) => document.getElementById(id);
const tr = (key, ...args) => {
  const v = TEXT[state.lang][key];
  return typeof v === "function" ? v(...args) : v;
};
const num = (n) => Number(n).toLocaleString(state.lang);
// A number with ``digits`` decimals, as a reader of the page's language writes it.
const dec = (n, digits = 1) => Number(n).toLocaleString(state.lang,
  { minimumFractionDigits: digits, maximumFractionDigits: digits });
// The engine's words for hints, reviews and the expert (the message catalog, via meta.json).
const w = (code) => {
  const words = state.meta && state.meta.words && state.meta.words[code];
  return words ? words[state.lang] ?? words.de : "";
};
const label = (texts) => (texts ? texts[state.lang] ?? texts.de : "");

// Build an element; children are nodes or strings (set as text, never as HTML).
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// ---------------------------------------------------------------------------------- storage
function notice(text, kind = "info") {
  if (state.notices.some((n) => n.text === text)) return; // said already
  state.notices.push({ text, kind });
  if (state.notices.length === 1) drawNotices();
}

// Words of stored data and the history page (merged into TEXT).
const DATA_TEXT = {
  de: {
    copy_kept: "Eine Kopie der Daten bleibt im Browser aufbewahrt.",
    corrupt_current: "Das gespeicherte laufende Spiel war beschädigt und wurde beiseitegelegt; es geht mit einem neuen Spiel weiter, der Verlauf bleibt erhalten.",
    corrupt_view: "Die gespeicherte Anzeige des laufenden Spiels war beschädigt; das Spiel wird aus seinen Zügen wiederhergestellt.",
    refused_current: (why) => `Das gespeicherte laufende Spiel ließ sich nicht wiederherstellen: ${sentence(why)} Es wurde beiseitegelegt; es geht mit einem neuen Spiel weiter.`,
    corrupt_settings: "Die gespeicherten Einstellungen waren beschädigt und wurden zurückgesetzt.",
    corrupt_history: "Der gespeicherte Verlauf war beschädigt und wurde beiseitegelegt; es geht mit einem leeren Verlauf weiter.",
    corrupt_entries: (n) => (n === 1 ? "Ein Spiel im Verlauf war beschädigt und wurde beiseitegelegt; die übrigen sind erhalten."
      : `${n} Spiele im Verlauf waren beschädigt und wurden beiseitegelegt; die übrigen sind erhalten.`),
    no_copy: "Für eine Kopie ist im Browser kein Platz mehr; die Daten bleiben unverändert liegen.",
    import_result: (added, skipped) => `${added === 1 ? "1 neues Spiel" : `${added} neue Spiele`} importiert`
      + (skipped ? `, ${skipped === 1 ? "1 Spiel war" : `${skipped} Spiele waren`} schon im Verlauf.` : "."),
    import_known: "Dieses Spiel ist schon im Verlauf.",
    open_entry: "Ansehen", delete_entry: "Löschen", back: "Zurück zum Verlauf", undo_delete: "Rückgängig",
    deleted: (what) => `Gelöscht: ${what}.`, no_date: "ohne Datum", started_at: (d) => `begonnen ${d}`,
    plot_title: "Gesamtpunkte je Spiel", axis_points: "Punkte", axis_games: "Spiele nach Datum",
    stat_player: "Name", stat_bonus: "Bonus", opened_title: (t, d) => `${t} · ${d}`,
    history_empty: "Noch keine Spiele im Verlauf. Beendete Spiele landen hier von selbst.",
    // the list's older unfinished games and the plot (issue 20)
    unfinished_group: (n) => (n === 1 ? "1 älteres nicht beendetes Spiel" : `${num(n)} ältere nicht beendete Spiele`),
    unfinished_group_hint: (days, keep) => `Nicht beendete Spiele, die älter als ${num(days)} Tage sind oder nach den ${num(keep)} neuesten kommen, warten hier. Jedes lässt sich fortsetzen, ansehen oder löschen.`,
    delete_unfinished: (n) => (n === 1 ? "Dieses Spiel löschen" : `Alle ${num(n)} löschen`),
    deleted_many: (n) => `${num(n)} nicht beendete Spiele gelöscht.`,
    axis_times: (d) => `Spiele am ${d} nach Uhrzeit`,
    plot_alt: (n, from, to, names) => (n === 1 ? `Gesamtpunkte eines Spiels (${from}): ${names}`
      : `Gesamtpunkte von ${num(n)} Spielen, ${from} bis ${to}: ${names}`),
  },
  en: {
    copy_kept: "A copy of the data is kept in the browser.",
    corrupt_current: "The stored game in progress was damaged and was set aside; starting a new game, the history is kept.",
    corrupt_view: "The stored display of the game in progress was damaged; the game is restored from its moves.",
    refused_current: (why) => `The stored game in progress could not be restored: ${sentence(why)} It was set aside; starting a new game.`,
    corrupt_settings: "The stored settings were damaged and were reset.",
    corrupt_history: "The stored history was damaged and was set aside; starting with an empty history.",
    corrupt_entries: (n) => (n === 1 ? "One game in the history was damaged and was set aside; the others are kept."
      : `${n} games in the history were damaged and were set aside; the others are kept.`),
    no_copy: "There is no room left in the browser for a copy; the data stays where it is.",
    import_result: (added, skipped) => `${added === 1 ? "1 new game" : `${added} new games`} imported`
      + (skipped ? `; ${skipped === 1 ? "1 game was" : `${skipped} games were`} already in the history.` : "."),
    import_known: "This game is already in the history.",
    open_entry: "Open", delete_entry: "Delete", back: "Back to the history", undo_delete: "Undo",
    deleted: (what) => `Deleted: ${what}.`, no_date: "no date", started_at: (d) => `started ${d}`,
    plot_title: "Total per game", axis_points: "Points", axis_games: "Games by date",
    stat_player: "Name", stat_bonus: "Bonus", opened_title: (t, d) => `${t} · ${d}`,
    history_empty: "No games in the history yet. Finished games come here by themselves.",
    // the list's older unfinished games and the plot (issue 20)
    unfinished_group: (n) => (n === 1 ? "1 older unfinished game" : `${num(n)} older unfinished games`),
    unfinished_group_hint: (days, keep) => `Unfinished games older than ${num(days)} days or beyond the ${num(keep)} newest wait here. Each can be resumed, opened or deleted.`,
    delete_unfinished: (n) => (n === 1 ? "Delete this game" : `Delete all ${num(n)}`),
    deleted_many: (n) => `${num(n)} unfinished games deleted.`,
    axis_times: (d) => `Games on ${d} by time`,
    plot_alt: (n, from, to, names) => (n === 1 ? `Totals of one game (${from}): ${names}`
      : `Totals of ${num(n)} games, ${from} to ${to}: ${names}`),
  },
};
for (const lang of LANGS) Object.assign(TEXT[lang], DATA_TEXT[lang]);

// Stored data is checked before use (store.js); what fails is kept aside as a copy under
// `<key>.corrupt.<time>` (never overwritten), the user is told, and the app goes on clean.
const keptAside = new Set(); // key + raw text already copied in this page's life

function keepCorruptCopy(key, raw, text) {
  const tag = `${key}\n${raw}`;
  if (!keptAside.has(tag)) {
    try {
      localStorage.setItem(`${key}.corrupt.${new Date().toISOString()}`, raw);
    } catch {
      notice(`${text} ${tr("no_copy")}`, "warn");
      return false;
    }
    keptAside.add(tag);
  }
  notice(`${text} ${tr("copy_kept")}`, "warn");
  return true;
}

function readRaw(key) {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    notice(tr("storage_off") + String(err), "warn"); // storage switched off
    return null;
  }
}

function forget(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage switched off: nothing was stored either
  }
}

// Settings: language, the start screen and whether the screen stays on during a game. The
// language and the screen setting survive damage elsewhere.
function loadSettings() {
  const raw = readRaw(KEY.settings);
  if (raw === null) return;
  const data = parse(raw);
  if (isObj(data) && LANGS.includes(data.lang)) state.lang = data.lang;
  if (isObj(data) && typeof data.keep_awake === "boolean") awake.on = data.keep_awake; // else on
  const bad = checkSettings(data, "");
  if (!bad) {
    state.setup = data.setup;
    return;
  }
  console.warn("kniffel: stored settings", bad);
  if (keepCorruptCopy(KEY.settings, raw, tr("corrupt_settings"))) {
    state.setup = defaultSetup();
    saveSettings(); // the language stays
  }
}

// The history: a damaged entry is set aside alone, the others stay.
function loadHistory() {
  const raw = readRaw(KEY.history);
  state.history = [];
  if (raw === null) return;
  const data = parse(raw);
  const bad = checkHistory(data, "");
  if (bad) {
    console.warn("kniffel: stored history", bad);
    if (keepCorruptCopy(KEY.history, raw, tr("corrupt_history"))) forget(KEY.history);
    return;
  }
  const clean = cleanEntries(data.entries);
  if (clean.bad && !keepCorruptCopy(KEY.history, raw, tr("corrupt_entries", clean.bad))) {
    return; // no room for the copy: leave the stored history alone and show none of it
  }
  state.history = byDate(clean.entries);
  // older pages' entries ({id, finished}) and repeated imports are written back cleaned
  if (clean.bad || clean.repeated || JSON.stringify(state.history) !== JSON.stringify(data.entries)) saveHistory();
}

// The game in progress: {record, raw}. A record whose view cannot be drawn still has its game,
// which the engine replays once it runs (the view is only there to draw the sheet at once).
function loadCurrent() {
  const raw = readRaw(KEY.current);
  if (raw === null) return null;
  const data = parse(raw);
  const bad = checkCurrent(data, "");
  if (bad) {
    console.warn("kniffel: stored game", bad);
    if (keepCorruptCopy(KEY.current, raw, tr("corrupt_current"))) forget(KEY.current);
    return null;
  }
  if (knownView(data.view)) {
    const badView = checkView(data.view, "view");
    if (!badView) return { record: data, raw };
    console.warn("kniffel: stored game", badView);
    keepCorruptCopy(KEY.current, raw, tr("corrupt_view"));
  }
  // a view of another version is drawn anew by the engine, no harm done
  return { record: { ...data, view: null }, raw };
}

// The first screen is drawn from stored data: an error while drawing it counts as damaged data.
// The suspect (the stored game shown, else the history shown, else the settings) is kept aside
// and the screen drawn again.
function safeDraw() {
  for (let tries = 0; ; tries++) {
    try {
      draw();
      return;
    } catch (err) {
      console.error("kniffel: drawing failed", err);
      if (tries > 3 || !setAsideSuspect()) throw err;
    }
  }
}

function setAsideSuspect() {
  const raw = (key) => readRaw(key) ?? JSON.stringify(key === KEY.history
    ? { version: STORE_VERSION, entries: state.history } : state.current);
  if (state.screen !== "history" && state.screen !== "setup" && state.current) {
    if (!state.ready && !state.pending) {
      // the stored view: the engine replays the game and draws it anew
      keepCorruptCopy(KEY.current, raw(KEY.current), tr("corrupt_view"));
      state.pending = { record: { ...state.current, view: null }, raw: raw(KEY.current) };
    } else {
      keepCorruptCopy(KEY.current, raw(KEY.current), tr("corrupt_current"));
      forget(KEY.current);
    }
    state.current = null;
    state.screen = "setup";
    return true;
  }
  if (state.screen === "history" && state.history.length) {
    keepCorruptCopy(KEY.history, raw(KEY.history), tr("corrupt_history"));
    forget(KEY.history);
    state.history = [];
    state.stats = null;
    return true;
  }
  if (readRaw(KEY.settings) !== null) {
    keepCorruptCopy(KEY.settings, readRaw(KEY.settings), tr("corrupt_settings"));
    forget(KEY.settings);
    state.setup = defaultSetup();
    return true;
  }
  return false;
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (err) {
    notice(tr("storage_full") + String(err), "warn");
    return false;
  }
}

function saveCurrent() {
  if (state.current) write(KEY.current, state.current);
  else forget(KEY.current);
}
function saveHistory() {
  write(KEY.history, { version: STORE_VERSION, entries: state.history });
}
function saveSettings() {
  write(KEY.settings, { version: STORE_VERSION, lang: state.lang, setup: state.setup, keep_awake: awake.on });
}

function newId() {
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
function syncHistory() {
  const cur = state.current;
  if (!cur) return;
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
function shelveCurrent() {
  const cur = state.current;
  if (!cur || cur.view.over || !cur.view.actions) return;
  if (!state.history.some((e) => e.uid === cur.id)) {
    state.history.push(entryOf(cur, null));
    saveHistory();
  }
}

// ---------------------------------------------------------------------------------- engine
const worker = new Worker(new URL(`./worker.js?b=${BUILD}`, import.meta.url), { type: "module" });
const waiting = new Map();
let nextId = 1;
let resolveEngine;
const engineReady = new Promise((r) => { resolveEngine = r; });

worker.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "progress") {
    (timing.steps ??= []).push([msg.step, msg.ms, Math.round(performance.now()), ...(msg.detail === undefined ? [] : [msg.detail])]);
    if (msg.step.endsWith("-failed") || msg.step.endsWith("-not-saved")) console.warn("kniffel:", msg.step, msg.detail);
    const steps = { snapshot: [40, "boot_snapshot"], pyodide: [20, "boot_pyodide"], package: [75, "boot_package"] };
    if (steps[msg.step]) {
      const [value, key] = steps[msg.step];
      $("boot-progress").value = value;
      $("boot-text").textContent = tr(key);
    }
    timing.bootPath = msg.step === "snapshot" ? "snapshot" : timing.bootPath ?? "fresh";
    if (msg.step === "pyodide" || msg.step === "snapshot-failed") timing.bootPath = "fresh";
  } else if (msg.type === "ready") {
    timing.engineMs = msg.ms;
    resolveEngine();
  } else if (msg.type === "failed") {
    $("boot-text").textContent = tr("boot_failed") + msg.message;
    $("boot-progress").removeAttribute("value");
  } else if (msg.type === "reply") {
    const done = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (done) done(msg.reply);
  }
};

function ask(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    worker.postMessage({ id, request: { lang: state.lang, ...request } });
  });
}

// The expert's own engine (a second worker.js): hints, reviews and the sheets of a review are
// computed there, so the game's engine never waits for them. Started when a dice game or a
// review first needs it (from the same memory snapshot as the game's engine); it builds the
// expert of the game's rule set at once (warmExpert), and a request asked meanwhile waits.
let expertWorker = null;
const expertWaiting = new Map();
function expertEngine() {
  if (expertWorker) return expertWorker;
  expertWorker = new Worker(new URL(`./worker.js?b=${BUILD}&expert=1`, import.meta.url), { type: "module" });
  expertWorker.onmessage = (event) => {
    const msg = event.data;
    if (msg.type === "progress") (timing.expertSteps ??= []).push([msg.step, msg.ms]);
    else if (msg.type === "ready") timing.expertReadyMs = msg.ms;
    else if (msg.type === "failed") console.warn("kniffel: the expert's engine could not start:", msg.message);
    else if (msg.type === "reply") {
      const done = expertWaiting.get(msg.id);
      expertWaiting.delete(msg.id);
      if (done) done(msg.reply);
    }
  };
  return expertWorker;
}

function askExpert(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    expertWaiting.set(id, resolve);
    expertEngine().postMessage({ id, request: { lang: state.lang, ...request } });
  });
}

// Send a request about the current game; store and draw what comes back.
async function act(request) {
  if (!state.ready || state.busy) return null;
  state.busy = true;
  if (request.op !== "computer_move") state.computerSay = null;
  if (request.op === "roll" || request.op === "computer_move") noteKeep(state.current && state.current.view);
  const carried = request.op === "roll" ? play.pendingKeep : null;
  const chip = request.op === "act" && request.action.type === "chip";
  const kept = new Set(state.keep);
  const order = play.order;
  const before = state.current && state.current.view;
  const started = performance.now();
  const reply = await ask(request);
  state.busy = false;
  if (!reply.ok) {
    notice(refusal(reply.error), "warn");
    return reply;
  }
  if (reply.view) {
    if (request.op === "undo" || request.op === "act") tell(before, reply.view, request.op === "undo");
    state.current = { ...state.current, game: reply.game, view: reply.view, summary: reply.summary };
    state.keep = keptAfter(reply.view, carried, chip ? kept : null, chip ? order : null);
    state.padDice = null;
    state.hint = null;
    if (request.op !== "act" || request.action.type !== "correct") { play.padTyped = []; play.padOpen = false; }
    saveCurrent();
    saveUi();
    syncHistory();
    draw();
    timing.lastActionMs = performance.now() - started;
  }
  return reply;
}

// What an entry, a chip, a correction or an undo changed, in words (say(), in the page's language
// at the time it is read), and the cell it changed (so that the sheet can bring it into view);
// null where nothing a player reads changed.
function whatChanged(before, after, undo) {
  const said = (c, who, box) => (c.struck ? tr("did_strike", who, box) : tr("did_score", who, box, c.points));
  const shown = (c) => (c.struck ? tr("struck") : String(c.points));
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
      if (undo && a && !z) return { ...at, say: () => tr("undone", said(a, now.name, box())) };
      if (a && z && (a.struck !== z.struck || a.points !== z.points)) {
        const line = () => tr("did_change", now.name, box(), shown(z), shown(a));
        return { ...at, say: () => (undo ? tr("undone", line()) : line()) };
      }
    }
    if (!undo && now.chips_left < was.chips_left) return { say: () => tr("did_chip", now.name, now.chips_left) };
    if (undo && now.chips_left > was.chips_left) return { say: () => tr("undone", tr("did_chip", now.name, was.chips_left)) };
  }
  if (!undo) return null;
  const throwBack = before.turn && after.turn && after.current === before.current
    && after.turn.rolls_left > before.turn.rolls_left;
  return { say: () => (throwBack ? tr("undone_throw") : tr("undone_move")) };
}

// The line above the bar after a person's move: what it did, with undo in it; on the score pad
// the first entry ever also tells that a filled box can be tapped to change it.
const TIPS_KEY = "kniffel.v1.tips";
function tell(before, after, undo) {
  const told = before && after ? whatChanged(before, after, undo) : null;
  state.confirm = told ? { ...told, undo, id: state.current && state.current.id, actions: after.actions, fresh: true } : null;
  if (!told || undo || after.mode !== "pad" || told.box === undefined) return;
  try {
    const tips = JSON.parse(localStorage.getItem(TIPS_KEY) ?? "{}");
    if (isObj(tips) && tips.correct === true) return;
    localStorage.setItem(TIPS_KEY, JSON.stringify({ ...(isObj(tips) ? tips : {}), correct: true }));
    state.confirm.tip = true;
  } catch {
    // no storage: the tip is left out rather than shown on every entry
  }
}

function confirmLine(view, live) {
  const c = state.confirm;
  if (!c || !state.current || c.id !== state.current.id || !(c.actions === view.actions || computerTurn(view))) return null;
  return h("div", { class: "confirm", id: "confirm", role: "status" },
    h("span", { class: "confirm-text" }, c.say()),
    c.undo ? null : h("button", { type: "button", id: "confirm-undo", class: "small", disabled: !live || !view.can_undo,
      onclick: () => act({ op: "undo" }) }, tr("undo")),
    c.tip ? h("span", { class: "confirm-tip" }, tr("tip_correct")) : null);
}

// ---------------------------------------------------------------------------------- drawing
// What the game screen keeps besides the game: the dice entered on the pad, the place of each
// die on the table, the sheet's scroll position. Kept in its own key so that a reload brings the
// typed dice back; anything odd in it is ignored.
const UI_KEY = "kniffel.v1.ui";
const play = {
  uiLoaded: false,
  padOpen: false, // the pad's dice entry is open
  padTyped: [], // what is typed into the dice fields (text)
  order: null, // {actions, slots: engine dice positions in display order}
  pendingKeep: null, // {from: actions, kept: [[slot, value, d10], …]} while a throw is on its way
  rolled: null, // {actions, slots: Set} the dice that were just thrown (animated once)
  scroll: null,
  strikeOpen: null, // the actions count at which the person asked to see the strikes
  lastCurrent: null,
  linkChecked: false,
};

const isOption = (o) => isObj(o) && typeof o.box === "string" && Number.isInteger(o.points)
  && isObj(o.action);

function saveUi() {
  const cur = state.current;
  try {
    localStorage.setItem(UI_KEY, JSON.stringify({ version: 1, id: cur ? cur.id : null,
      actions: cur ? cur.view.actions : null, padOpen: play.padOpen, padTyped: play.padTyped,
      padDice: state.padDice, order: play.order }));
  } catch {
    // not stored: the typed dice are simply not kept over a reload
  }
}

function loadUi() {
  play.uiLoaded = true;
  try {
    const d = JSON.parse(localStorage.getItem(UI_KEY));
    const cur = state.current;
    if (!isObj(d) || d.version !== 1 || !cur || d.id !== cur.id || d.actions !== cur.view.actions) return;
    if (Array.isArray(d.padTyped) && d.padTyped.length <= 6
      && d.padTyped.every((x) => typeof x === "string" && x.length <= 2)) play.padTyped = d.padTyped;
    play.padOpen = d.padOpen === true;
    if (isObj(d.padDice) && Array.isArray(d.padDice.dice) && d.padDice.dice.every(Number.isInteger)
      && Array.isArray(d.padDice.options) && d.padDice.options.every(isOption)) state.padDice = d.padDice;
    if (isObj(d.order) && d.order.actions === cur.view.actions && Array.isArray(d.order.slots)
      && d.order.slots.every(Number.isInteger)) play.order = { actions: d.order.actions, slots: d.order.slots };
  } catch {
    // unreadable: start without typed dice
  }
}

// One notice at a time: the next waits until this one is closed or has gone by itself.
let noticeTimer = null;
function drawNotices() {
  const box = $("notices");
  const n = state.notices[0];
  clearTimeout(noticeTimer);
  if (!n) { box.replaceChildren(); return; }
  const next = () => { state.notices.shift(); drawNotices(); };
  box.replaceChildren(h("p", { class: `notice ${n.kind}` },
    h("span", { text: n.text }), " ",
    h("button", { type: "button", class: "link", "aria-label": tr("dismiss"), onclick: next }, "✕")));
  noticeTimer = setTimeout(next, n.kind === "warn" ? 12000 : 5000);
}

// What the player reads when the engine refuses: its message in their language (error.text),
// else a short phrase for the kind of refusal; the developer's text goes to the console only.
// A message as a sentence of its own: ends with a full stop unless it ends with one already.
function sentence(text) {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function refusal(error) {
  if (error && typeof error.message === "string") console.debug("kniffel:", error.type, error.message);
  if (error && typeof error.text === "string" && error.text) return error.text;
  const key = `err_${error && error.type}`;
  return key in TEXT[state.lang] ? tr(key) : tr("err_generic");
}

function draw() {
  const t0 = performance.now();
  document.documentElement.lang = state.lang;
  $("lang").textContent = state.lang === "de" ? "EN" : "DE";
  $("lang").setAttribute("lang", state.lang === "de" ? "en" : "de");
  $("lang").setAttribute("aria-label", state.lang === "de" ? "EN – English" : "DE – Deutsch");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = tr(el.dataset.i18n);
  const onHistory = state.screen === "history" || (state.screen === "review" && state.review && state.review.from === "history");
  $("nav-game").setAttribute("aria-current", !onHistory ? "page" : "false");
  $("nav-history").setAttribute("aria-current", onHistory ? "page" : "false");
  let screen;
  const playing = !["history", "setup", "review"].includes(state.screen) && Boolean(state.current);
  if (state.screen === "review" && state.review) screen = drawReview(state.review);
  else if (state.screen === "history") screen = drawHistory();
  else if (!playing) screen = drawSetup();
  else {
    if (!play.uiLoaded) loadUi();
    screen = drawGame(state.current.view);
  }
  document.body.classList.toggle("playing", playing);
  const refocus = focusKey();
  const oldWrap = $("sheet-wrap");
  if (oldWrap) play.scroll = { top: oldWrap.scrollTop, left: oldWrap.scrollLeft };
  $("screen").replaceChildren(screen);
  drawNotices();
  if (refocus) restoreFocus(refocus);
  if (playing) placeSheet(state.current.view); // the one layout of the new screen
  timing.lastDrawMs = performance.now() - t0; // for the console and the benchmark
  keepAwake(); // the wake lock and update section
  drawUpdate();
  if (state.ready && !play.linkChecked) checkLink();
  if (state.ready && playing) warmExpert(state.current);
  if (state.ready && state.screen === "game" && state.current && computerTurn(state.current.view)) runComputer();
}

// The sheet keeps its scroll position over a redraw; when the turn passes, the column of the
// player to move is scrolled into view.
function placeSheet(view) {
  const wrap = $("sheet-wrap");
  if (!wrap) return;
  if (play.scroll) {
    wrap.scrollTop = play.scroll.top;
    wrap.scrollLeft = play.scroll.left;
  }
  const c = state.confirm;
  if (c && c.fresh && c.box !== undefined) {
    c.fresh = false;
    const td = wrap.querySelector(`td[data-player="${c.player}"][data-box="${c.box}"]`);
    const headH = wrap.querySelector("thead") ? wrap.querySelector("thead").offsetHeight : 0;
    const footH = wrap.querySelector("tfoot") ? wrap.querySelector("tfoot").offsetHeight : 0;
    if (td) {
      const top = td.offsetTop;
      if (top - headH < wrap.scrollTop) wrap.scrollTop = Math.max(0, top - headH);
      else if (top + td.offsetHeight > wrap.scrollTop + wrap.clientHeight - footH) {
        wrap.scrollTop = top + td.offsetHeight - wrap.clientHeight + footH;
      }
      td.classList.add("just");
    }
  }
  if (view.current !== play.lastCurrent) {
    play.lastCurrent = view.current;
    const th = wrap.querySelector("thead th.current");
    const corner = wrap.querySelector("thead th.corner");
    if (th && corner) {
      const left = th.offsetLeft - corner.offsetWidth;
      if (left < wrap.scrollLeft || th.offsetLeft + th.offsetWidth > wrap.scrollLeft + wrap.clientWidth) {
        wrap.scrollLeft = Math.max(0, left);
      }
    }
  }
}

// Keyboard users keep their place when the screen is drawn anew: the same control if it is
// still there, else the next useful one.
function focusKey() {
  const el = document.activeElement;
  const inScreen = el && ($("screen").contains(el) || $("picker").contains(el));
  if (!inScreen || el === document.body) return null;
  if (el.id && !$("picker").contains(el)) return `#${el.id}`;
  if (el.dataset.pos !== undefined) return `.die[data-pos="${el.dataset.pos}"]`;
  if (el.dataset.player !== undefined && el.tagName === "INPUT") return `input[data-player="${el.dataset.player}"]`;
  if (el.dataset.die !== undefined) return `input[data-die="${el.dataset.die}"]`;
  if (el.dataset.kind !== undefined) return `select[data-kind="${el.dataset.kind}"]`;
  if (el.dataset.info !== undefined) return `button[data-info="${el.dataset.info}"]`;
  if (el.dataset.player !== undefined && el.dataset.box !== undefined) {
    return `button[data-player="${el.dataset.player}"][data-box="${el.dataset.box}"]`;
  }
  return "*";
}

function restoreFocus(key) {
  const usable = (sel) => [...document.querySelectorAll(sel)].find((e) => !e.disabled);
  const el = (key !== "*" && usable(key)) || usable("#roll") || usable("#sheet td.current button")
    || usable("#rematch") || usable("#screen button");
  if (el) el.focus({ preventScroll: true });
}

// Whether the player to move is a computer (it plays by itself, virtual dice only).
function computerTurn(view) {
  return Boolean(view && !view.over && view.mode === "dice" && view.current !== null
    && view.players[view.current].kind === "computer");
}

function drawGame(view) {
  const computer = computerTurn(view);
  const live = state.ready && !state.busy && !computer;
  const wrap = h("section", { class: `game ${view.mode}`, "aria-labelledby": "game-title",
    "data-actions": view.actions, "data-live": live ? "1" : "0", "data-computer": computer ? "1" : "0" });
  const cur = view.current;
  const curName = cur === null ? null : view.columns[cur].name;
  const head = h("div", { class: "game-head" });
  const status = h("p", { id: "status", class: "status", "aria-live": "polite" });
  if (view.over) {
    const names = view.winners.map((i) => view.columns[i].name).join(", ");
    status.textContent = tr("winner", names, view.columns[view.winners[0]].total);
    status.classList.add("winner");
  } else {
    status.textContent = tr("turn_of", curName);
  }
  head.append(h("div", { class: "head-text" },
    h("h2", { id: "game-title" }, label(view.rules.title),
      view.over ? null : h("span", { id: "round" }, ` · ${tr("round", view.round, view.rounds)}`)),
    status));
  head.append(drawMenu(view));
  wrap.append(head);
  const say = typeof state.computerSay === "function" ? state.computerSay() : state.computerSay;
  wrap.append(h("p", { id: "computer-say", class: "hint", "aria-live": "polite" }, say ?? ""));
  wrap.append(drawSheet(view, live));
  if (view.over) wrap.append(drawResultBar(view, live));
  else if (view.mode === "dice") wrap.append(drawDice(view, live));
  else wrap.append(drawPadTools(view, live));
  return wrap;
}

function drawMenu(view) {
  const close = (fn) => () => { $("menu").open = false; fn(); };
  return h("details", { id: "menu", class: "menu" }, h("summary", {}, "⋯ ", tr("menu")),
    h("div", { class: "menu-items" },
      h("button", { type: "button", id: "new-game", onclick: close(() => { state.screen = "setup"; draw(); }) }, tr("new_game")),
      h("button", { type: "button", id: "share", disabled: !state.ready, onclick: close(shareResult) },
        view.over ? tr("share") : tr("share_running")),
      h("button", { type: "button", id: "handoff", disabled: !state.ready || view.over, onclick: close(handoff) }, tr("handoff")),
      h("button", { type: "button", id: "export-game", onclick: close(exportGame) }, tr("export_game")),
      h("p", { class: "note" }, tr("saved_note"))));
}

function undoButton(view, live) {
  return h("button", { type: "button", id: "undo", class: "icon", disabled: !live || !view.can_undo,
    "aria-label": tr("undo"), title: tr("undo"), onclick: () => act({ op: "undo" }) }, "↶");
}

// Every player by final total, the best first; equal totals share a place.
function ranking(view) {
  if (view.columns.length < 2) return null;
  const order = view.columns.map((c, i) => ({ ...c, i })).sort((a, b) => b.total - a.total || a.i - b.i);
  return h("ol", { class: "ranking", id: "ranking", "aria-label": tr("ranking") }, order.map((c) => {
    const place = 1 + view.columns.filter((x) => x.total > c.total).length;
    return h("li", { class: place === 1 ? "first" : "", "data-place": place },
      h("span", { class: "place" }, tr("rank", place)), " ", h("span", { class: "rname" }, c.name), " ",
      h("strong", {}, num(c.total)));
  }));
}

function drawResultBar(view, live) {
  return h("div", { class: "bottom-bar result-bar" }, confirmLine(view, live), ranking(view), h("div", { class: "controls" },
    h("button", { type: "button", id: "rematch", class: "primary", disabled: !state.ready, onclick: rematch }, tr("rematch")),
    h("button", { type: "button", id: "share-result", disabled: !state.ready, onclick: shareResult }, tr("share")),
    view.mode === "dice" ? h("button", { type: "button", id: "review", disabled: !state.ready,
      onclick: () => openReview(state.current.game, label(view.rules.title), "game") }, w("web.review.button")) : null,
    undoButton(view, live)),
  view.mode === "pad" ? h("p", { class: "hint" }, tr("tap_to_change")) : null);
}

// --- dice ---------------------------------------------------------------------------------
const PIPS = { 1: [[2, 2]], 2: [[1, 3], [3, 1]], 3: [[1, 3], [2, 2], [3, 1]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]],
  5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] };

function svgEl(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

// A d6 with its pips, or the d10: a kite with its number and the label W10/d10.
function dieFace(value, d10) {
  if (d10) {
    return svgEl("svg", { viewBox: "0 0 40 40", class: "face", "aria-hidden": "true" },
      svgEl("polygon", { points: "20,1 38,15 20,39 2,15", class: "body" }),
      // one text, "5 W10" (the die's name holds it): the number and the label on two lines
      svgEl("text", {}, svgEl("tspan", { x: 20, y: 24, class: "num" }, String(value)), " ",
        svgEl("tspan", { x: 20, y: 33, class: "lbl" }, tr("d10_label"))));
  }
  return svgEl("svg", { viewBox: "0 0 40 40", class: "face", "aria-hidden": "true" },
    svgEl("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, class: "body" }),
    ...(PIPS[value] ?? []).map(([c, r]) => svgEl("circle", { cx: c * 10, cy: r * 10, r: 3.6, class: "pip" })));
}

const validSlots = (slots, n) => Array.isArray(slots) && slots.length === n
  && [...slots].sort((a, b) => a - b).every((v, i) => v === i);

// The dice in display order: after a throw the kept dice stay in their places and the new dice
// take the others (the engine's order is sorted; only the drawing order differs).
function diceOrder(view) {
  const dice = view.turn && view.turn.dice;
  if (!dice) { play.order = null; return []; }
  const n = dice.length;
  if (play.order && play.order.actions === view.actions && validSlots(play.order.slots, n)) return play.order.slots;
  let slots = dice.map((_, i) => i);
  const pk = play.pendingKeep;
  if (pk && pk.from + 2 === view.actions && pk.kept.length) {
    const placed = new Array(n).fill(null);
    const used = new Set();
    for (const [slot, value, d10] of pk.kept) {
      const pos = dice.findIndex((d, i) => !used.has(i) && d.value === value && d.d10 === d10);
      if (pos >= 0 && slot < n) { placed[slot] = pos; used.add(pos); }
    }
    const rest = slots.filter((i) => !used.has(i));
    for (let s = 0; s < n; s++) if (placed[s] === null) placed[s] = rest.shift();
    if (validSlots(placed, n)) slots = placed;
  }
  if (pk && pk.from + 2 === view.actions) {
    const keptSlots = new Set(pk.kept.map((k) => k[0]));
    play.rolled = { actions: view.actions, slots: new Set(slots.map((_, s) => s).filter((s) => !keptSlots.has(s))) };
  }
  play.pendingKeep = null;
  play.order = { actions: view.actions, slots };
  saveUi();
  return slots;
}

// Kept dice stay kept until tapped: after a throw the dice that were kept (in the places they
// lie), after a chip the same dice as before; after anything else none.
function keptAfter(view, carried, keptBefore, orderBefore) {
  const dice = view.turn && view.turn.dice;
  if (!dice) return new Set();
  if (keptBefore) {
    if (orderBefore && validSlots(orderBefore.slots, dice.length)) play.order = { actions: view.actions, slots: orderBefore.slots };
    return new Set([...keptBefore].filter((i) => i < dice.length));
  }
  if (!carried || !carried.kept.length) return new Set();
  const slots = diceOrder(view);
  return new Set(carried.kept.flatMap(([slot, value, d10]) => {
    const pos = slots[slot];
    return pos !== undefined && dice[pos].value === value && dice[pos].d10 === d10 ? [pos] : [];
  }));
}

// Before a throw: which dice stay, and where they lie.
function noteKeep(view) {
  if (!view || !view.turn) return;
  const dice = view.turn.dice;
  const slots = dice ? diceOrder(view) : [];
  play.pendingKeep = { from: view.actions, kept: slots.flatMap((pos, slot) => (state.keep.has(pos)
    ? [[slot, dice[pos].value, dice[pos].d10]] : [])) };
}

// The ways to enter the roll, best first (the engine's points; strikes last).
function ranked(options) {
  return [...options].sort((a, b) => (a.strike - b.strike) || (b.points + b.bonus - a.points - a.bonus));
}

function drawDice(view, live) {
  const turn = view.turn;
  const panel = h("div", { class: "bottom-bar dice-panel", role: "group", "aria-label": tr("dice_bar") });
  panel.append(confirmLine(view, live) ?? "");
  const hint = currentHint(view);
  const tip = hint && hint.data ? hint.data.options[0] : null;
  if (hint) panel.append(drawHintBox(view, hint, live));
  if (turn.dice && view.options.length) {
    const best = ranked(view.options);
    const fits = best.some((o) => !o.strike);
    // while throws are left a strike is a deliberate choice behind its own button, never the prompt
    const strikesHidden = turn.can_throw && play.strikeOpen !== view.actions;
    const shown = strikesHidden ? best.filter((o) => !o.strike) : best;
    const tipStrike = Boolean(tip && tip.kind === "strike");
    // "nothing fits" is a line of its own above the choices, not squeezed in beside them
    if (!fits) panel.append(h("p", { class: "hint no-fit" }, turn.can_throw ? w("web.play.no_fit_roll") : tr("no_choice")));
    panel.append(h("div", { class: "choices", id: "choices", role: "group", "aria-label": tr("choices"), tabindex: live ? null : "0" },
      shown.map((o) => {
        const b = optionButton(view, o, live, true);
        if (tip && tip.box === o.box && tipStrike === o.strike) b.classList.add("suggested");
        return b;
      }),
      strikesHidden && best.some((o) => o.strike) ? h("button", { type: "button", id: "strike-open",
        class: `small strike-open${tipStrike ? " suggested" : ""}`, disabled: !live,
        onclick: () => { play.strikeOpen = view.actions; draw(); focusSel("#choices button[data-strike='1']"); } },
      w("web.play.strike_open")) : null));
  } else {
    // nothing to tell the person while a computer plays (its moves are said above the sheet)
    panel.append(h("p", { class: "hint choices-hint" }, computerTurn(view) ? "" : turn.dice ? tr("pick_box") : tr("roll_first")));
  }
  const row = h("div", { class: "dice" });
  if (turn.dice) {
    const rolled = play.rolled && play.rolled.actions === view.actions ? play.rolled.slots : new Set();
    play.rolled = null;
    diceOrder(view).forEach((i, slot) => {
      const d = turn.dice[i];
      const kept = state.keep.has(i);
      const suggested = tip && tip.keep && tip.keep.includes(i);
      row.append(h("button", {
        type: "button", class: `die${d.d10 ? " d10" : ""}${kept ? " kept" : ""}${rolled.has(slot) ? " rolling" : ""}${suggested ? " suggested" : ""}`,
        "data-pos": i, "aria-pressed": kept ? "true" : "false", disabled: !live || !turn.can_throw,
        "aria-label": `${d.d10 ? tr("die_d10", d.value) : tr("die", slot + 1, d.value, false)}${kept ? `, ${tr("kept")}` : ""}`,
        onclick: () => { kept ? state.keep.delete(i) : state.keep.add(i); draw(); focusSel(`[data-pos="${i}"]`); },
      }, dieFace(d.value, d.d10), h("span", { class: "sr" }, String(d.value))));
    });
  }
  panel.append(row);
  const buttons = h("div", { class: "controls" });
  buttons.append(h("button", {
    type: "button", id: "roll", class: "primary", disabled: !live || !turn.can_throw,
    onclick: () => act({ op: "roll", keep: [...state.keep].sort() }),
  }, `${tr("roll")} (${tr("rolls_left", turn.rolls_left)})`));
  if (turn.can_chip) {
    buttons.append(h("button", { type: "button", id: "chip", disabled: !live, class: tip && tip.kind === "chip" ? "suggested" : null,
      onclick: () => act({ op: "act", action: { type: "chip" } }) }, tr("chip_4th")));
  }
  if (turn.dice) {
    buttons.append(h("button", { type: "button", id: "hint", disabled: !live || Boolean(hint && hint.loading),
      "aria-label": w("web.hint.button_label"), "aria-expanded": hint && hint.data ? "true" : "false",
      onclick: askHint }, w("web.hint.button")));
  }
  buttons.append(undoButton(view, live));
  panel.append(buttons);
  return panel;
}

// --- score pad ----------------------------------------------------------------------------
// Typed dice are checked by the page before the engine sees them: a value the die cannot show
// (7 on a d6, 10 on the d10, a letter) or a missing one is told next to the fields in the page's
// language (not by the browser's own bubble), the field keeps the focus, and nothing is entered.
let padProblem = null; // {die, text}: what the fields say is wrong, kept over a redraw

function padFault(input) {
  const raw = input.value.trim();
  const isD10 = input.classList.contains("d10");
  const [lo, hi] = isD10 ? [0, 9] : [1, 6];
  const die = isD10 ? tr("d10_name") : tr("d6", Number(input.dataset.die) + 1);
  if (raw === "") return tr("pad_missing", die);
  if (!/^[0-9]+$/.test(raw) || Number(raw) < lo || Number(raw) > hi) return tr("pad_bad", die, raw, lo, hi);
  return null;
}

function showPadFault(form, input, text) {
  padProblem = text ? { die: Number(input.dataset.die), text } : null;
  for (const i of form.querySelectorAll("input")) i.removeAttribute("aria-invalid");
  const said = form.querySelector("#pad-error");
  said.textContent = text ?? "";
  said.hidden = !text;
  if (text) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
}

function askPadChoices(form) {
  const fields = [...form.querySelectorAll("input")];
  for (const input of fields) {
    const fault = padFault(input);
    if (fault) { showPadFault(form, input, fault); return; }
  }
  showPadFault(form, fields[0], null);
  const dice = fields.map((i) => Number(i.value));
  if (!state.ready || state.busy) return;
  state.busy = true;
  ask({ op: "pad_choices", dice }).then((reply) => {
    state.busy = false;
    if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
    state.padDice = reply;
    saveUi();
    draw();
  });
}

function drawPadTools(view, live) {
  const turn = view.turn;
  const panel = h("div", { class: "bottom-bar pad-bar", id: "pad-bar" });
  panel.append(confirmLine(view, live) ?? "");
  const n = view.rules.dice;
  if (play.padOpen) {
    const form = h("form", { id: "pad-dice", class: "pad-dice", novalidate: true,
      onsubmit: (e) => { e.preventDefault(); askPadChoices(form); } });
    const fs = h("fieldset", {}, h("legend", { class: "sr" }, tr("enter_dice")));
    for (let i = 0; i < n; i++) {
      const isD10 = view.rules.d10 && i === n - 1;
      fs.append(h("input", { type: "text", inputmode: "numeric", autocomplete: "off", maxlength: 2,
        class: isD10 ? "d10" : "", "data-die": i, value: play.padTyped[i] ?? "",
        "aria-label": isD10 ? tr("d10") : tr("d6", i + 1), "aria-describedby": "pad-error",
        "aria-invalid": padProblem && padProblem.die === i ? "true" : null,
        oninput: (e) => {
          play.padTyped[i] = e.target.value.slice(0, 2);
          saveUi();
          const fault = e.target.value.trim() === "" ? null : padFault(e.target);
          showPadFault(form, e.target, fault);
          // one digit per die: on to the next field, unless the die cannot show it
          if (!fault && e.target.value.length === 1 && i < n - 1) form.querySelector(`input[data-die="${i + 1}"]`).focus();
        } }));
    }
    fs.append(h("button", { type: "submit", id: "show-boxes", class: "primary", disabled: !live }, tr("show_boxes")));
    form.append(fs, h("p", { id: "pad-error", class: "pad-error", role: "alert", hidden: !padProblem },
      padProblem ? padProblem.text : ""));
    panel.append(form);
  }
  if (state.padDice) {
    panel.append(h("div", { class: "choices", id: "pad-options", role: "group",
      "aria-label": tr("pad_pick", state.padDice.dice.join(" ")) },
    h("button", { type: "button", class: "icon", id: "pad-clear", "aria-label": tr("pad_clear"), title: tr("pad_clear"),
      onclick: () => { state.padDice = null; saveUi(); draw(); } }, "✕"),
    ranked(state.padDice.options).map((o) => optionButton(view, o, live, true))));
  }
  const buttons = h("div", { class: "controls" });
  buttons.append(h("button", { type: "button", id: "enter-dice", "aria-expanded": play.padOpen ? "true" : "false",
    onclick: () => { play.padOpen = !play.padOpen; padProblem = null; saveUi(); draw(); if (play.padOpen) focusSel("input[data-die='0']"); } },
  play.padOpen ? tr("close_dice") : tr("enter_dice")));
  if (view.rules.chips) {
    buttons.append(h("button", { type: "button", id: "chip", disabled: !live || !turn.can_chip,
      onclick: () => act({ op: "act", action: { type: "chip" } }) },
    `${tr("use_chip")} (${view.columns[turn.player].chips_left})`));
  }
  buttons.append(undoButton(view, live));
  panel.append(buttons);
  return panel;
}

function boxOf(view, id) {
  return view.rules.boxes.find((x) => x.id === id);
}

function boxName(view, id) {
  const b = boxOf(view, id);
  return b ? label(b.name) : id;
}

function shortName(view, id) {
  const b = boxOf(view, id);
  return b ? label(b.short ?? b.name) : id;
}

// Whether the words ``shown`` are in ``name`` (case, spaces and signs aside): a control's name
// holds the words it shows, so one who says what they see (speech input) reaches it.
function holds(name, shown) {
  const words = (x) => x.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  return words(name).includes(words(shown));
}

function optionButton(view, o, live, withName) {
  const name = boxName(view, o.box);
  const text = o.strike ? tr("strike") : (o.bonus ? `${o.points} +${o.bonus}` : String(o.points));
  const said = o.strike ? `${name}: ${tr("strike")}` : tr("enter_for", name, tr("points", o.points));
  const shown = withName ? `${shortName(view, o.box)} ${text}` : text;
  return h("button", {
    type: "button", class: `option${o.strike ? " strike" : ""}`, disabled: !live,
    "data-box": o.box, "data-points": o.points, "data-strike": o.strike ? "1" : "0",
    "aria-label": holds(said, shown) ? said : `${shown} – ${said}`,
    onclick: () => { $("picker").open && $("picker").close(); act({ op: "act", action: o.action }); },
  }, withName ? h("span", { class: "oname" }, shortName(view, o.box)) : null, withName ? " " : null,
  withName ? h("strong", {}, text) : text);
}

function showPicker(title, rule, options) {
  $("picker-title").textContent = title;
  $("picker-rule").textContent = rule;
  $("picker-options").replaceChildren(...options);
  $("picker-cancel").textContent = options.length ? tr("cancel") : tr("close");
  if (!$("picker").open) $("picker").showModal();
}

function openPicker(view, boxId) {
  const b = boxOf(view, boxId);
  const opts = view.options.filter((o) => o.box === boxId);
  showPicker(`${boxName(view, boxId)} · ${view.columns[view.current].name}`,
    `${label(b.rule)} · ${tr(b.flat ? "always_points" : "max_points", b.max)}`,
    opts.map((o) => optionButton(view, o, state.ready && !state.busy, false)));
}

// A filled box of any player: every other value it can hold, or striking it (from the engine).
async function openCorrection(view, player, boxId) {
  if (!state.ready || state.busy) return;
  state.busy = true;
  const reply = await ask({ op: "corrections", player, box: boxId });
  state.busy = false;
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  const cell = view.columns[player].cells[boxId];
  const b = boxOf(view, boxId);
  const now = cell.struck ? tr("struck") : tr("points", cell.points);
  showPicker(tr("change", boxName(view, boxId), view.columns[player].name),
    `${tr("now", now)} · ${label(b.rule)}`,
    reply.options.map((o) => optionButton(view, o, state.ready, false)));
}

function openInfo(view, boxId) {
  const b = boxOf(view, boxId);
  showPicker(label(b.name), `${label(b.rule)} · ${tr(b.flat ? "always_points" : "max_points", b.max)}`, []);
}

function drawSheet(view, live) {
  const table = h("table", { class: "sheet", id: "sheet" });
  table.style.setProperty("--players", String(view.columns.length));
  const cur = view.current;
  const pad = view.mode === "pad";
  table.append(h("caption", { class: "sr" }, label(view.rules.title)));
  const head = h("tr", {}, h("th", { scope: "col", class: "corner" }, tr("box")));
  view.columns.forEach((c, i) => {
    const won = view.over && view.winners.includes(i);
    head.append(h("th", { scope: "col", class: `${i === cur ? "current" : ""}${won ? " won" : ""}`, "data-player": i,
      "aria-label": `${tr("player_col", c.name, c.chips_left, i === cur)}${c.kind === "computer" ? `, ${tr("computer_col")}` : ""}` },
    h("span", { class: "pname" }, c.name),
    c.kind === "computer" ? h("span", { class: "pkind" }, tr("computer_col")) : null,
    h("span", { class: "pmeta", "aria-hidden": "true" },
      view.rules.chips ? h("span", { class: "chips" }, "●".repeat(c.chips_left) + "○".repeat(view.rules.chips - c.chips_left)) : null,
      c.leader && !view.over ? h("span", { class: "badge", title: tr("leader") }, "★") : null,
      won ? h("span", { class: "badge", title: tr("win_badge") }, "★") : null)));
  });
  table.append(h("thead", {}, head));
  const body = h("tbody");
  const byBox = new Map();
  // while throws are left a strike hides in the sheet as in the bar, until "Streichen …"
  const strikesHidden = !pad && view.turn && view.turn.can_throw && play.strikeOpen !== view.actions;
  const shown = pad && state.padDice ? state.padDice.options
    : view.options.filter((o) => !(strikesHidden && o.strike));
  for (const o of shown) {
    if (!byBox.has(o.box)) byBox.set(o.box, []);
    byBox.get(o.box).push(o);
  }
  const sumRow = (cls, title, cell) => h("tr", { class: `sum ${cls}` }, h("th", { scope: "row" }, title),
    view.columns.map((c, i) => h("td", { class: i === cur ? "current" : "" }, cell(c))));
  const boxRow = (b) => {
    const row = h("tr", { "data-row": b.id }, h("th", { scope: "row" },
      h("button", { type: "button", class: "box-info", "data-info": b.id,
        "aria-label": label(b.short ?? b.name) === label(b.name) ? tr("info", label(b.name))
          : `${label(b.short)} – ${tr("info", label(b.name))}`,
        onclick: () => openInfo(view, b.id) },
      h("span", { class: "bfull" }, label(b.name)), h("span", { class: "bshort" }, label(b.short ?? b.name)),
      h("span", { class: "q", "aria-hidden": "true" }, "?"))));
    view.columns.forEach((c, i) => {
      const cell = c.cells[b.id];
      const td = h("td", { class: i === cur ? "current" : "", "data-player": i, "data-box": b.id });
      if (cell) {
        const shownCell = cell.struck ? "—" : String(cell.points);
        if (pad) {
          td.append(h("button", { type: "button", class: `filled${cell.struck ? " struck" : ""}`, disabled: !state.ready || state.busy,
            "data-player": i, "data-box": b.id,
            "aria-label": `${label(b.name)}, ${c.name}: ${cell.struck ? tr("struck") : tr("points", cell.points)}. ${tr("tap_to_change")}`,
            onclick: () => openCorrection(view, i, b.id) }, shownCell));
        } else {
          td.append(cell.struck ? h("span", { class: "struck", role: "img", "aria-label": tr("struck") }, shownCell)
            : h("span", { class: "points" }, shownCell));
        }
      } else if (i === cur && byBox.has(b.id)) {
        const opts = byBox.get(b.id);
        if (pad && !state.padDice) {
          td.append(h("button", { type: "button", class: "open", disabled: !live, "data-box": b.id,
            "aria-label": `${label(b.name)}, ${c.name}: ${label(b.hint ?? b.rule)}`, onclick: () => openPicker(view, b.id) },
          h("span", { class: "need" }, label(b.hint ?? b.rule))));
        } else {
          if (opts.length > 1) td.classList.add("many");
          td.append(...opts.map((o) => optionButton(view, o, live, false)));
        }
      }
      row.append(td);
    });
    return row;
  };
  body.append(...view.rules.boxes.filter((b) => b.upper).map(boxRow));
  body.append(sumRow("upper", tr("upper_sum"), (c) => String(c.upper_sum)));
  body.append(sumRow("bonus", tr("bonus_row", view.rules.bonus_points, view.rules.bonus_threshold),
    (c) => (c.bonus ? tr("bonus_got", c.bonus) : c.upper_complete ? "0"
      : h("span", { class: "hint" }, c.bonus_reachable ? tr("bonus_missing", c.bonus_missing) : tr("bonus_lost")))));
  body.append(...view.rules.boxes.filter((b) => !b.upper).map(boxRow));
  body.append(sumRow("lower", tr("lower_sum"), (c) => String(c.lower_sum)));
  if (view.columns.some((c) => c.extra_bonus)) body.append(sumRow("extra", tr("extra"), (c) => String(c.extra_bonus)));
  table.append(body);
  table.append(h("tfoot", {}, sumRow("total", tr("total"), (c) => h("strong", { "data-total": c.name }, String(c.total)))));
  return h("div", { class: "sheet-wrap", id: "sheet-wrap" }, table);
}

function focusSel(sel) {
  const el = document.querySelector(sel);
  if (el) el.focus();
}

// --- taking the game along ------------------------------------------------------------------
function showPanel(title, ...body) {
  $("panel").classList.remove("wide");
  $("panel-title").textContent = title;
  $("panel-body").replaceChildren(...body.flat().filter((c) => c !== null && c !== undefined && c !== false));
  $("panel-close").textContent = tr("close");
  if (!$("panel").open) $("panel").showModal();
  // a dialog opens at its top with its title focused, not scrolled down to its first field
  $("panel-title").setAttribute("tabindex", "-1");
  $("panel-title").focus({ preventScroll: true });
  $("panel").scrollTop = 0;
}

// The sheet as text: the system's share sheet where there is one, else the clipboard, else shown.
async function shareResult() {
  const reply = await ask({ op: "share" });
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  const title = label(state.current.view.rules.title);
  if (navigator.share) {
    try {
      await navigator.share({ title, text: reply.text });
      return;
    } catch (err) {
      if (err && err.name === "AbortError") return; // the player changed their mind
    }
  }
  try {
    await navigator.clipboard.writeText(reply.text);
    notice(state.current && state.current.view.over ? tr("shared") : tr("shared_running"));
  } catch {
    showPanel(tr("share"), h("textarea", { id: "share-text", readonly: true, rows: 12, wrap: "off", "aria-label": tr("share"), text: reply.text }));
  }
}

// The game in a link (and its QR code) for another device; nothing leaves this one.
async function handoff() {
  const base = location.href.split("#")[0];
  const reply = await ask({ op: "handoff", base });
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  const q = reply.qr;
  const code = svgEl("svg", { viewBox: `0 0 ${q.size} ${q.size}`, id: "qr", class: "qr", role: "img",
    "aria-label": tr("handoff"), "shape-rendering": "crispEdges" },
  svgEl("rect", { width: q.size, height: q.size, fill: "#fff" }), svgEl("path", { d: q.path, fill: "#000" }));
  const link = h("input", { type: "text", id: "handoff-link", readonly: true, value: reply.url, "aria-label": tr("link") });
  // a page of this device's own address (kniffel web's default): the other phone cannot reach it
  const local = ["localhost", "127.0.0.1", "[::1]", "::1"].includes(location.hostname) || location.hostname.endsWith(".localhost");
  showPanel(tr("handoff"), local ? h("p", { class: "notice warn", id: "handoff-local", role: "note" },
    tr("handoff_local", location.hostname)) : null, code, h("p", { class: "hint" }, tr("handoff_hint")), link,
    h("button", { type: "button", id: "copy-link", onclick: async () => {
      try { await navigator.clipboard.writeText(reply.url); notice(tr("copied")); } catch { link.select(); }
    } }, tr("copy_link")));
}

// A page opened from such a link offers to load its game; it never replaces one unasked.
async function checkLink() {
  play.linkChecked = true;
  const m = /^#g=([A-Za-z0-9._-]+)$/.exec(location.hash);
  if (!m) return;
  const forget = () => history.replaceState(null, "", location.href.split("#")[0]);
  const reply = await ask({ op: "unpack", fragment: m[1] });
  if (!reply.ok) { forget(); notice(tr("link_bad"), "warn"); return; }
  const v = reply.view;
  const cur = state.current;
  const load = async () => {
    $("panel").close();
    forget();
    const loaded = await ask({ op: "load", game: reply.game });
    if (!loaded.ok) { notice(refusal(loaded.error), "warn"); return; }
    shelveCurrent();
    becomeCurrent(loaded, newId());
    draw();
  };
  showPanel(tr("load_link"),
    h("p", {}, label(v.rules.title), ": ", tr("load_link_text", v.columns.map((c) => c.name).join(", "), v.round, v.rounds)),
    cur && !cur.view.over && cur.view.actions ? h("p", { class: "hint" }, tr("load_link_keep")) : null,
    h("div", { class: "controls" },
      h("button", { type: "button", id: "link-load", class: "primary", onclick: load }, tr("load")),
      h("button", { type: "button", id: "link-skip", onclick: () => { $("panel").close(); forget(); } }, tr("dont_load"))));
}

window.addEventListener("hashchange", () => { if (state.ready) { play.linkChecked = false; draw(); } });

// ---------------------------------------------------------------------------------- computers
// A computer's turn, one visible step at a time: the engine plans (the dice it keeps are shown
// first), then makes the move; the page only waits between the steps. It stops when the game
// changes (new, loaded, another tab) or the screen does, and goes on when the game is shown again.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let computerEpoch = null;

function describeMove(name, move, before, after) {
  const box = move.box ? boxName(after, move.box) : "";
  if (move.type === "throw") return tr("c_roll", name);
  if (move.type === "chip") return tr("c_chip", name);
  if (move.type === "strike") return tr("c_strike", name, box);
  const cell = after.columns[before.current].cells[move.box];
  return tr("c_score", name, box, cell ? cell.points : 0);
}

async function runComputer() {
  const epoch = state.epoch;
  if (computerEpoch === epoch) return; // already playing this game
  computerEpoch = epoch;
  // a hidden tab leaves the turn to the visible one (both would play the same moves)
  const on = () => state.ready && !document.hidden && state.epoch === epoch && state.screen === "game"
    && state.current && computerTurn(state.current.view);
  const idle = async () => { while (state.busy) await sleep(20); };
  try {
    while (on()) {
      await sleep(pace());
      await idle();
      if (!on()) break;
      const before = state.current.view;
      const name = before.players[before.current].name;
      if (!before.turn.dice) {
        // a new turn; the first one in a session builds the player's tables (seconds in Extreme)
        state.computerSay = () => tr("c_thinking", name);
        draw();
      }
      state.busy = true;
      const plan = await ask({ op: "computer_plan" });
      state.busy = false;
      if (!plan.ok) { notice(refusal(plan.error), "warn"); break; }
      if (!on()) break;
      if (plan.keep) {
        // show the dice it keeps before it throws the others
        state.keep = new Set(plan.keep);
        // the d10 as hints write it ("W10=4"), so that a kept 0 is not read as a die
        state.computerSay = () => tr("c_keep", name, plan.keep.map((i) => {
          const d = before.turn.dice[i];
          return d.d10 ? `${tr("d10_label")}=${d.value}` : String(d.value);
        }).join(" "));
        draw();
        await sleep(pace());
        await idle();
        if (!on()) break;
      }
      const reply = await act({ op: "computer_move" });
      if (!reply || !reply.ok) break;
      const after = state.current.view;
      state.computerSay = () => describeMove(name, reply.move, before, after);
      draw();
    }
  } finally {
    if (computerEpoch === epoch) computerEpoch = null;
  }
}

// ---------------------------------------------------------------------------------- expert
// Hints and reviews come from the engine's expert (kniffel.engine.expert, in the worker): every choice
// with its expected final score, every decision with its loss. The page only shows them. A hint
// never holds the controls: the player may roll on while the expert thinks, and a hint that
// arrives for another moment of the game is dropped.

// The expert's status for the rule set on the start screen (from meta.json): {ready, note}.
function expertStatus(s) {
  const presets = state.meta ? state.meta.presets : [];
  const preset = presets.find((p) => p.name === s.rules);
  const key = `${s.rules}${preset && preset.free_strike_option && s.free_strike ? "/free" : ""}`;
  return state.meta && state.meta.expert ? state.meta.expert[key] ?? null : null;
}

function expertReady(s) {
  const st = expertStatus(s);
  return !st || st.ready;
}

// A dice game on the screen gets the expert of its rule set ready, once per session and rule set:
// in the expert's engine (for hints), and when the expert plays in it, in the game's engine too
// (its first move is then quick). The expert's tables are too large for the memory snapshot.
const warmed = new Set();
function warmExpert(cur) {
  const view = cur.view;
  if (view.mode !== "dice" || view.over) return;
  const key = `${view.rules.name}${view.rules.free_strike ? "/free" : ""}`;
  const request = { op: "warm_expert", rules: view.rules.name, free_strike: view.rules.free_strike };
  if (!warmed.has(`expert ${key}`)) {
    warmed.add(`expert ${key}`);
    // with the game, so the turn a hint is asked for next is computed already
    askExpert({ ...request, game: cur.game }).then((reply) => {
      (timing.expertWarm ??= {})[key] = reply.ok ? Math.round(performance.now()) : reply.error.code;
    });
  }
  if (!warmed.has(`engine ${key}`) && view.players.some((p) => p.kind === "computer" && p.strategy === "expert")) {
    warmed.add(`engine ${key}`);
    ask(request);
  }
}

// The hint of this moment of the game in progress, if one was asked for.
function currentHint(view) {
  const hint = state.hint;
  return hint && state.current && hint.id === state.current.id && hint.actions === view.actions ? hint : null;
}

async function askHint() {
  const cur = state.current;
  if (!state.ready || !cur) return;
  const mark = { id: cur.id, actions: cur.view.actions };
  state.hint = { ...mark, loading: true };
  draw();
  const t0 = performance.now();
  const reply = await askExpert({ op: "hint", game: cur.game });
  timing.lastHintMs = performance.now() - t0;
  const now = state.current;
  if (!now || now.id !== mark.id || now.view.actions !== mark.actions) return; // the game went on
  if (!reply.ok) {
    state.hint = null;
    notice(refusal(reply.error), "warn");
  } else {
    state.hint = { ...mark, data: reply.hint };
  }
  draw();
  if (state.hint) focusSel("#hint-best");
}

function drawHintBox(view, hint, live) {
  const box = h("div", { class: "hint-box", id: "hint-box", role: "status", "aria-live": "polite" });
  if (hint.loading) {
    box.append(h("span", { class: "hint" }, w("web.hint.thinking")), h("progress", { class: "thinking" }));
    return box;
  }
  const best = hint.data.options[0];
  box.append(h("span", { class: "tip-badge", "aria-hidden": "true" }, w("web.hint.suggested")),
    h("span", { class: "tip-text", id: "hint-best", tabindex: "-1" }, h("strong", {}, label(best.text)), " · ",
      h("span", { class: "tip-expected" }, label(hint.data.expected_text))));
  const tools = h("span", { class: "tip-tools" });
  if (best.keep && best.keep.length) {
    tools.append(h("button", { type: "button", id: "hint-keep", class: "small", disabled: !live,
      onclick: () => { state.keep = new Set(best.keep); draw(); focusSel("#roll"); } }, w("web.hint.keep_these")));
  }
  tools.append(h("button", { type: "button", id: "hint-all", class: "small",
    onclick: () => showHintTable(view, hint.data) }, w("web.hint.all")));
  box.append(tools);
  return box;
}

// Every choice of the hint, best first, with its expected final score and its loss.
function showHintTable(view, data) {
  const rows = data.options.map((o, i) => h("tr", { class: i === 0 ? "best" : "", "data-kind": o.kind },
    h("td", {}, label(o.text)), h("td", { class: "num" }, dec(o.expected)),
    h("td", { class: "num" }, i === 0 ? "" : dec(o.loss, 2))));
  showPanel(label(data.title),
    h("p", { class: "hint", id: "hint-source" }, label(data.source_text), " ", w("web.hint.explain")),
    h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "hint-table", id: "hint-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, w("web.hint.col_choice")),
        h("th", { scope: "col", class: "num" }, w("web.hint.col_expected")),
        h("th", { scope: "col", class: "num" }, w("web.hint.col_loss")))),
      h("tbody", {}, rows))));
  $("panel").classList.add("wide");
}

// --- the review of a finished game -----------------------------------------------------------
async function openReview(game, title, from) {
  if (!state.ready) return;
  const review = { game, title, from, loading: true, data: null, player: null };
  state.review = review;
  state.screen = "review";
  draw();
  focusSel("#review-back");
  const t0 = performance.now();
  const reply = await askExpert({ op: "review", game });
  timing.lastReviewMs = performance.now() - t0;
  if (state.review !== review) return;
  review.loading = false;
  if (!reply.ok) {
    notice(refusal(reply.error), "warn");
    closeReview();
    return;
  }
  review.data = reply.review;
  const players = reply.review.players;
  const human = players.find((p) => p.kind === "human" && p.count);
  review.player = (human ?? players.find((p) => p.count) ?? players[0]).player;
  if (state.screen === "review") draw();
}

function closeReview() {
  const from = state.review ? state.review.from : "game";
  state.review = null;
  state.screen = from === "history" ? "history" : state.current ? "game" : "setup";
  draw();
}

function miniDice(dice, d10) {
  return h("span", { class: "mini-dice", role: "img", "aria-label": dice.map((v, i) => (d10 && i === dice.length - 1 ? tr("die_d10", v) : v)).join(", ") },
    dice.map((v, i) => h("span", { class: `die mini${d10 && i === dice.length - 1 ? " d10" : ""}` }, dieFace(v, d10 && i === dice.length - 1))));
}

// A decision's loss: "−2,96"; nothing for the best move, "0,00" for one just as good.
function lossText(d) {
  if (d.best_taken) return "";
  if (d.loss < 0.005) return dec(0, 2);
  return `−${dec(d.loss, d.loss < 0.1 ? 2 : 1)}`;
}

// "Taken: …", "Better: …" (or "That was the best move."), from the engine's words.
function decisionLines(d) {
  const [taken, better] = d.lines[state.lang] ?? d.lines.de;
  return [h("span", { class: "taken" }, taken), h("span", { class: d.best_taken ? "was-best" : "better" }, better)];
}

function drawReview(review) {
  const wrap = h("section", { class: "review", id: "review-screen", "aria-labelledby": "review-title" });
  wrap.append(h("h2", { id: "review-title" }, w("web.review.title"), review.title ? ` · ${review.title}` : ""));
  wrap.append(h("p", { class: "controls" }, h("button", { type: "button", id: "review-back", onclick: closeReview }, "← ", w("web.review.back"))));
  if (review.loading) {
    wrap.setAttribute("aria-busy", "true");
    wrap.append(h("p", { class: "review-running", role: "status" }, h("progress", { class: "thinking" }), " ", w("web.review.running")));
    return wrap;
  }
  const data = review.data;
  const d10 = review.game.rules.name === "extreme";
  wrap.append(h("p", { class: "hint", id: "review-source" }, label(data.source_text)));
  if (data.players.length > 1) {
    wrap.append(h("div", { class: "controls review-players", role: "group" }, data.players.map((p) =>
      h("button", { type: "button", "data-review-player": p.player, "aria-pressed": p.player === review.player ? "true" : "false",
        onclick: () => { review.player = p.player; draw(); focusSel(`[data-review-player="${p.player}"]`); } },
      p.name, " ", p.loss < 0.05 ? h("span", { class: "loss none" }, dec(0)) : h("span", { class: "loss" }, `−${dec(p.loss)}`)))));
  }
  const p = data.players.find((x) => x.player === review.player) ?? data.players[0];
  wrap.append(h("p", { class: "review-summary", id: "review-summary" }, label(p.summary)));
  const mine = data.decisions.filter((d) => d.player === p.player);
  if (p.costliest.length) {
    wrap.append(h("h3", {}, w("web.review.costliest")));
    wrap.append(h("ol", { class: "costliest", id: "review-costliest" }, p.costliest.map((k) => {
      const d = data.decisions[k];
      return h("li", { "data-index": d.index },
        h("div", { class: "when" }, label(d.when)),
        h("div", { class: "costly-main" }, miniDice(d.dice, d10), h("strong", { class: "loss" }, lossText(d))),
        ...decisionLines(d),
        h("button", { type: "button", class: "small", "data-moment": d.index, onclick: () => showMoment(review, d) }, w("web.review.show")));
    })));
  }
  wrap.append(h("h3", {}, w("web.review.all")));
  // one line per decision: when (opens the sheet of that moment), the dice, the loss; below it
  // what was taken and what was better
  wrap.append(h("ol", { class: "decisions", id: "review-list" }, mine.map((d) => h("li", {
    class: d.best_taken ? "best" : d.loss >= 0.05 ? "lost" : "", "data-index": d.index },
  h("div", { class: "dhead" },
    h("button", { type: "button", class: "link", "data-moment": d.index, onclick: () => showMoment(review, d) }, label(d.when)),
    miniDice(d.dice, d10),
    h("span", { class: "sr" }, `${w("web.review.col_loss")} ${dec(d.best_taken ? 0 : d.loss, 2)}`),
    h("span", { class: "loss", "aria-hidden": "true" }, lossText(d))),
  h("div", { class: "dlines" }, ...decisionLines(d))))));
  return wrap;
}

// The sheet as it was when the decision was made (the engine replays the game up to it).
async function showMoment(review, d) {
  const reply = await askExpert({ op: "moment", game: review.game, index: d.index });
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  const view = { ...reply.view, options: [] };
  const sheet = drawSheet(view, false);
  for (const b of sheet.querySelectorAll("td button")) b.replaceWith(h("span", { class: "points" }, b.textContent));
  sheet.classList.add("moment-sheet");
  showPanel(`${view.columns[d.player].name} · ${label(d.when)}`,
    h("div", { class: "moment-head" }, miniDice(d.dice, view.rules.d10), h("strong", { class: "loss" }, lossText(d))),
    h("p", { class: "moment-lines" }, ...decisionLines(d).flatMap((x) => [x, h("br")])),
    h("p", { class: "hint" }, (d.lines[state.lang] ?? d.lines.de)[2]),
    h("div", { class: "moment-wrap", id: "moment-sheet" }, sheet));
  $("panel").classList.add("wide");
}

// ---------------------------------------------------------------------------------- setup
function defaultSetup() {
  return { rules: "extreme", free_strike: false, mode: "pad",
    players: [{ name: tr("player_n", 1), kind: "human" }, { name: tr("player_n", 2), kind: "human" }] };
}

function drawSetup() {
  const s = state.setup;
  const presets = state.meta ? state.meta.presets : [];
  const form = h("form", { id: "setup", class: "setup", onsubmit: (e) => { e.preventDefault(); startGame(); } });
  form.append(h("h2", {}, tr("setup")));
  const select = h("select", { id: "rules", onchange: (e) => { s.rules = e.target.value; saveSettings(); draw(); } },
    presets.map((p) => h("option", { value: p.name, selected: p.name === s.rules }, label(p.title))));
  form.append(h("label", { class: "field" }, h("span", {}, tr("rules")), select));
  const preset = presets.find((p) => p.name === s.rules);
  if (preset && preset.free_strike_option) {
    form.append(h("label", { class: "check" }, h("input", { type: "checkbox", id: "free-strike", checked: s.free_strike,
      onchange: (e) => { s.free_strike = e.target.checked; saveSettings(); } }), tr("free_strike")));
  }
  const modes = h("fieldset", {}, h("legend", {}, tr("mode")));
  for (const m of ["pad", "dice"]) {
    modes.append(h("label", { class: "check" }, h("input", { type: "radio", name: "mode", value: m, id: `mode-${m}`,
      checked: s.mode === m, onchange: () => { s.mode = m; saveSettings(); draw(); } }), tr(`mode_${m}`)));
  }
  form.append(modes);
  const players = h("fieldset", { id: "players" }, h("legend", {}, tr("players")));
  const dice = s.mode === "dice";
  s.players.forEach((p, i) => {
    const name = p.name || tr("player_n", i + 1);
    const kind = p.kind === "computer" ? `computer:${COMPUTERS.includes(p.strategy) ? p.strategy : COMPUTERS[0]}` : "human";
    // computer players only with virtual dice: on the score pad every row is a person
    const kindSelect = dice ? h("select", { class: "kind", "data-kind": i, "aria-label": tr("kind_of", name),
      onchange: (e) => {
        const [k, strategy] = e.target.value.split(":");
        p.kind = k;
        p.strategy = strategy ?? null;
        saveSettings();
        draw();
      } },
    h("option", { value: "human", selected: kind === "human" }, tr("human")),
    COMPUTERS.map((c) => h("option", { value: `computer:${c}`, selected: kind === `computer:${c}`,
      disabled: c === "expert" && !expertReady(s) && kind !== "computer:expert" },
    c === "expert" ? w("web.expert.kind") : tr(`kind_${c}`)))) : null;
    players.append(h("div", { class: "player-row" },
      h("input", { type: "text", value: p.name, maxlength: 40, required: true, "aria-label": tr("name_of", i + 1),
        "data-player": i, oninput: (e) => { p.name = e.target.value; saveSettings(); },
        // Enter in a name goes on to the next name, it does not start the game
        onkeydown: (e) => {
          if (e.key !== "Enter") return;
          e.preventDefault();
          focusSel(`input[data-player="${i + 1}"]`);
        } }),
      kindSelect,
      h("button", { type: "button", disabled: i === 0, "aria-label": tr("up", name),
        onclick: () => { s.players.splice(i - 1, 0, s.players.splice(i, 1)[0]); saveSettings(); draw(); } }, "↑"),
      h("button", { type: "button", disabled: i === s.players.length - 1, "aria-label": tr("down", name),
        onclick: () => { s.players.splice(i + 1, 0, s.players.splice(i, 1)[0]); saveSettings(); draw(); } }, "↓"),
      h("button", { type: "button", disabled: s.players.length === 1, "aria-label": tr("remove", name),
        onclick: () => { s.players.splice(i, 1); saveSettings(); draw(); } }, "✕")));
  });
  players.append(h("button", { type: "button", id: "add-player", disabled: s.players.length >= MAX_PLAYERS,
    onclick: () => { s.players.push({ name: tr("player_n", s.players.length + 1), kind: "human" }); saveSettings(); draw(); focusSel(`[data-player="${s.players.length - 1}"]`); } }, tr("add_player")));
  if (!dice) players.append(h("p", { class: "hint", id: "computers-note" }, tr("computers_dice_only")));
  const expertNote = dice ? expertStatus(s) : null;
  if (expertNote && !expertNote.ready && expertNote.note) {
    const chosen = s.players.some((p) => p.kind === "computer" && p.strategy === "expert");
    players.append(h("p", { class: chosen ? "notice warn inline" : "hint", id: "expert-note" }, label(expertNote.note)));
  }
  form.append(players);
  if (canKeepAwake()) form.append(h("label", { class: "check" }, h("input", { type: "checkbox", id: "keep-awake", checked: awake.on,
    onchange: (e) => { awake.on = e.target.checked; awake.refused = false; saveSettings(); keepAwake(); } }), tr("keep_awake")));
  form.append(h("button", { type: "submit", id: "start", class: "primary", disabled: !state.ready || state.busy }, tr("start")));
  return form;
}

async function begin(request) {
  if (!state.ready || state.busy) return;
  state.busy = true;
  const reply = await ask(request);
  state.busy = false;
  if (!reply.ok) {
    notice(refusal(reply.error), "warn");
    draw();
    return;
  }
  shelveCurrent();
  becomeCurrent(reply, newId());
  draw();
}

// A game the engine has just loaded becomes the one in progress (the caller has shelved the
// old one): no kept or typed dice carry over from the game before.
function becomeCurrent(reply, id, started = null) {
  state.epoch++;
  state.computerSay = null;
  state.hint = null;
  state.current = { version: STORE_VERSION, id, started: started ?? new Date().toISOString(),
    game: reply.game, view: reply.view, summary: reply.summary };
  state.keep.clear();
  state.padDice = null;
  state.screen = "game";
  saveCurrent();
}

function startGame() {
  const s = state.setup;
  return begin({ op: "new", rules: s.rules, free_strike: s.free_strike, mode: s.mode,
    players: s.players.map((p) => (s.mode === "dice" && p.kind === "computer"
      ? { name: p.name, kind: "computer", strategy: COMPUTERS.includes(p.strategy) ? p.strategy : COMPUTERS[0] }
      : { name: p.name, kind: "human" })) });
}

function rematch() {
  const g = state.current.game;
  return begin({ op: "new", rules: g.rules.name, free_strike: g.rules.free_strike, mode: g.mode,
    players: g.players });
}

// ---------------------------------------------------------------------------------- history
// The history page: statistics, the plot of totals, and every stored game (newest first), which
// can be opened (its final sheet, read-only), resumed when unfinished, and deleted (with undo).
// Its styles live in history.css, loaded here so the page's own stylesheet stays the layout's.
document.head.append(h("link", { rel: "stylesheet", href: new URL(`./history.css?b=${BUILD}`, import.meta.url).href }));

const when = (iso, withTime = true) => {
  const d = new Date(iso ?? "");
  if (isNaN(d)) return tr("no_date");
  return withTime ? d.toLocaleString(state.lang, { dateStyle: "medium", timeStyle: "short" })
    : d.toLocaleDateString(state.lang, { dateStyle: "medium" });
};

// "Kniffel Extreme · 30.11.2026" and "Anna 836 · Ben 51" of an entry.
const entryTitle = (e) => `${label(e.summary.title) || e.summary.rules} · ${when(entryDate(e) || null, false)}`;
const entryNames = (e) => e.summary.players.map((n, i) => `${n} ${num(e.summary.totals[i])}`).join(" · ");

function drawHistory() {
  const wrap = h("section", { class: "history", "aria-labelledby": "history-title" });
  if (state.opened) return drawOpened(wrap, state.opened);
  wrap.append(h("h2", { id: "history-title" }, tr("history")));
  if (state.deleted) {
    const { entries } = state.deleted;
    const what = entries.length === 1 ? tr("deleted", `${entryTitle(entries[0])} – ${entryNames(entries[0])}`)
      : tr("deleted_many", entries.length);
    wrap.append(h("p", { class: "notice deleted", id: "deleted", role: "status" },
      h("span", { text: what }), " ",
      h("button", { type: "button", id: "undo-delete", onclick: undoDelete }, "↶ ", tr("undo_delete"))));
  }
  const tools = h("div", { class: "controls" });
  tools.append(h("button", { type: "button", id: "export-history", onclick: exportHistory, disabled: !state.ready }, tr("export_history")));
  const file = h("input", { type: "file", id: "import-file", accept: "application/json,.json", class: "sr",
    onchange: (e) => importFile(e.target) });
  tools.append(h("label", { class: "button", for: "import-file" }, tr("import")), file);
  wrap.append(tools);
  const ordered = byDate(state.history);
  if (!ordered.length) {
    wrap.append(h("p", { id: "history-empty" }, tr("history_empty")));
    return wrap;
  }
  wrap.append(h("h3", {}, tr("stats")));
  const stats = state.stats;
  if (!stats) {
    if (state.ready) loadStats(ordered);
  } else if (stats.loading) {
    // the engine is counting
  } else if (!stats.games) {
    wrap.append(h("p", {}, tr("no_games")));
  } else {
    wrap.append(h("p", { id: "stats-summary" }, `${tr("games")}: ${num(stats.games)} · ${tr("best")}: ${num(stats.best)} · ${tr("average")}: ${num(stats.average)}`));
    const table = h("table", { class: "stats", id: "stats" },
      h("thead", {}, h("tr", {}, [tr("stat_player"), tr("games"), tr("wins"), tr("best"), tr("average"), tr("stat_bonus")]
        .map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, stats.players.map((p) => h("tr", {}, h("th", { scope: "row" }, h("span", { class: "pname", title: p.name }, p.name)),
        h("td", {}, num(p.games)), h("td", {}, num(p.wins)), h("td", {}, num(p.best)),
        h("td", {}, num(p.average)), h("td", {}, `${num(Math.round(p.bonus_rate * 100))} %`)))));
    wrap.append(h("div", { class: "stats-wrap" }, table));
    wrap.append(plot(stats, stats.order ?? ordered));
  }
  wrap.append(h("h3", {}, tr("games")));
  const { listed, folded } = foldUnfinished([...ordered].reverse());
  wrap.append(entryList(h("ol", { class: "games", id: "history-list" }), listed));
  if (folded.length) wrap.append(drawFolded(folded));
  return wrap;
}

// Unfinished games (the one in play is never among them: it is not in the history) stay in the
// list while they are recent and among the newest few; the others wait in a closed group below
// the list, where each can be resumed, opened or deleted, and all deleted at once (with undo).
const KEEP_UNFINISHED = 3;
const UNFINISHED_DAYS = 14;

function foldUnfinished(newestFirst, now = Date.now()) {
  const listed = [];
  const folded = [];
  let kept = 0;
  for (const e of newestFirst) {
    const t = Date.parse(entryDate(e));
    const recent = !isNaN(t) && now - t < UNFINISHED_DAYS * 86400000;
    if (e.summary.over || (recent && kept++ < KEEP_UNFINISHED)) listed.push(e);
    else folded.push(e);
  }
  return { listed, folded };
}

function entryList(list, entries) {
  for (const e of entries) {
    try {
      list.append(drawEntry(e));
    } catch (err) {
      // an entry the page cannot show is set aside alone (the checks in store.js should stop it first)
      console.error("kniffel: history entry", err);
      keepCorruptCopy(KEY.history, JSON.stringify({ version: STORE_VERSION, entries: [e] }), tr("corrupt_entries", 1));
      state.history = state.history.filter((x) => x !== e);
      saveHistory();
      state.stats = null;
    }
  }
  return list;
}

function drawFolded(folded) {
  const group = h("details", { class: "unfinished-group", id: "unfinished-group", open: Boolean(state.foldOpen),
    ontoggle: (ev) => { state.foldOpen = ev.target.open; } },
  h("summary", { id: "unfinished-summary" }, tr("unfinished_group", folded.length)),
  h("p", { class: "hint" }, tr("unfinished_group_hint", UNFINISHED_DAYS, KEEP_UNFINISHED)));
  group.append(entryList(h("ol", { class: "games", id: "unfinished-list" }), folded),
    h("p", { class: "controls" }, h("button", { type: "button", id: "delete-unfinished",
      onclick: () => deleteEntries(folded) }, tr("delete_unfinished", folded.length))));
  return group;
}

function drawEntry(e) {
  const s = e.summary;
  const names = h("span", { class: "names" });
  s.players.forEach((n, i) => {
    if (i) names.append(" · ");
    names.append(h(s.over && s.winners.includes(i) ? "strong" : "span", {}, `${n} ${num(s.totals[i])}`));
  });
  const buttons = h("span", { class: "entry-tools" },
    s.over ? null : h("button", { type: "button", class: "small", "data-resume": e.uid, disabled: !state.ready,
      "aria-label": `${tr("resume")}: ${entryTitle(e)}`, onclick: () => resume(e) }, tr("resume")),
    h("button", { type: "button", class: "small", "data-open": e.uid, disabled: !state.ready,
      "aria-label": `${tr("open_entry")}: ${entryTitle(e)}`, onclick: () => openEntry(e) }, tr("open_entry")),
    h("button", { type: "button", class: "small", "data-delete": e.uid,
      "aria-label": `${tr("delete_entry")}: ${entryTitle(e)}`, onclick: () => deleteEntry(e) }, tr("delete_entry")));
  return h("li", { "data-uid": e.uid },
    h("span", { class: "entry-head" }, h("span", { class: "when" }, when(entryDate(e) || null)), " ",
      h("span", { class: "etitle" }, label(s.title) || s.rules),
      s.over ? null : h("span", { class: "badge" }, ` (${tr("unfinished")})`)),
    names, buttons);
}

// An entry's final sheet, read-only: the engine replays the game without touching the one in play.
async function openEntry(e) {
  const reply = await ask({ op: "import", text: JSON.stringify(e.game) });
  if (!reply.ok) { notice(tr("refused") + refusal(reply.error), "warn"); return; }
  // the sheet is shown from its top, its heading read first; "back" returns to where the list was
  state.opened = { entry: e, view: { ...reply.view, options: [], current: null }, scrollY: window.scrollY };
  draw();
  window.scrollTo(0, 0);
  const title = $("history-title");
  if (title) title.focus({ preventScroll: true });
}

function closeEntry() {
  const { entry, scrollY } = state.opened;
  state.opened = null;
  draw();
  window.scrollTo(0, scrollY ?? 0);
  const button = document.querySelector(`[data-open="${CSS.escape(entry.uid)}"]`);
  if (button) button.focus({ preventScroll: true });
}

function drawOpened(wrap, { entry, view }) {
  wrap.classList.add("opened");
  wrap.append(h("h2", { id: "history-title", tabindex: "-1" }, entryTitle(entry)));
  wrap.append(h("p", { class: "controls" }, h("button", { type: "button", id: "history-back",
    onclick: closeEntry }, "← ", tr("back")),
  view.mode === "dice" && view.over ? h("button", { type: "button", id: "history-review", disabled: !state.ready,
    onclick: () => openReview(entry.game, entryTitle(entry), "history") }, w("web.review.button")) : null));
  const s = entry.summary;
  wrap.append(h("p", { class: "hint", id: "opened-when" }, entry.started ? tr("started_at", when(entry.started)) : "",
    s.over ? null : ` (${tr("unfinished")})`));
  if (view.over) {
    const names = view.winners.map((i) => view.columns[i].name).join(", ");
    wrap.append(h("p", { class: "status winner" }, tr("winner", names, view.columns[view.winners[0]].total)));
  }
  const sheet = drawSheet(view, false);
  // read-only: what the sheet offers to tap in a cell (an entry, a correction) becomes text
  for (const b of sheet.querySelectorAll("td button")) {
    b.replaceWith(b.classList.contains("open") ? "" : h("span", { class: "points" }, b.textContent));
  }
  wrap.append(h("div", { class: "opened-sheet", id: "opened-sheet" }, sheet));
  return wrap;
}

function deleteEntry(e) {
  deleteEntries([e]);
}

// Delete entries (one, or the group of older unfinished games); the last deletion can be undone.
function deleteEntries(entries) {
  const gone = entries.filter((e) => state.history.includes(e));
  if (!gone.length) return;
  state.history = state.history.filter((e) => !gone.includes(e));
  state.deleted = { entries: gone };
  saveHistory();
  state.stats = null;
  draw();
  focusSel("#undo-delete");
}

function undoDelete() {
  const d = state.deleted;
  state.deleted = null;
  const back = d ? d.entries.filter((e) => !state.history.some((x) => x.uid === e.uid)) : [];
  if (back.length) {
    state.history = byDate([...state.history, ...back]);
    saveHistory();
    state.stats = null;
  }
  draw();
  const first = back[0] && document.querySelector(`[data-open="${CSS.escape(back[0].uid)}"]`);
  if (first && first.checkVisibility()) first.focus();
}

// The plot of each player's totals over the games in date order (numbers from the engine's
// statistics). Drawn at the width it is shown, so its text has real pixel sizes on a phone.
// Every player has a colour of the Okabe–Ito palette (history.css, light and dark) and a mark
// of their own shape, so no two look alike even without colour; marks on the same spot are
// set side by side, and the plot keeps a margin, so every mark is whole.
const MARKS = ["circle", "square", "triangle", "diamond", "down", "pentagon", "plus", "star"];

// The outline of the mark ``kind`` of radius ``r`` around (x, y), as an SVG path.
function markPath(kind, x, y, r) {
  const at = (list) => `M${list.map(([a, b]) => `${(x + a * r).toFixed(1)},${(y + b * r).toFixed(1)}`).join("L")}Z`;
  const ring = (n, turn, k, inner = 0) => at(Array.from({ length: inner ? 2 * n : n }, (_, i) => {
    const t = turn + (Math.PI * i) / (inner ? n : n / 2);
    const s = inner && i % 2 ? inner : k;
    return [s * Math.sin(t), -s * Math.cos(t)];
  }));
  const q = 0.36;
  switch (kind) {
    case "square": return at([[-0.85, -0.85], [0.85, -0.85], [0.85, 0.85], [-0.85, 0.85]]);
    case "triangle": return ring(3, 0, 1.3);
    case "down": return ring(3, Math.PI, 1.3);
    case "diamond": return ring(4, 0, 1.25);
    case "pentagon": return ring(5, 0, 1.1);
    case "plus": return at([[-q, -1.1], [q, -1.1], [q, -q], [1.1, -q], [1.1, q], [q, q], [q, 1.1], [-q, 1.1],
      [-q, q], [-1.1, q], [-1.1, -q], [-q, -q]]);
    case "star": return ring(5, 0, 1.35, 0.6);
    default: return at([[0, -1], [1, 0], [0, 1], [-1, 0]]);
  }
}

// A player's mark: a circle for the first, a path of its own shape for each other.
function mark(i, x, y, r, cls) {
  const kind = MARKS[i % MARKS.length];
  return kind === "circle" ? svgEl("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r, class: cls })
    : svgEl("path", { d: markPath(kind, x, y, r), class: cls });
}

// The x axis' words for the games' dates: times for games of one day, day and month within a
// year, else with the year; and the axis' title that goes with them.
function dateLabels(dates) {
  const known = dates.filter(Boolean);
  const day = (d) => d.toDateString();
  const oneDay = known.length > 0 && known.every((d) => day(d) === day(known[0]));
  const oneYear = known.every((d) => d.getFullYear() === (known[0] ?? d).getFullYear());
  const text = (d) => {
    if (!d) return tr("no_date");
    if (oneDay) return d.toLocaleTimeString(state.lang, { hour: "2-digit", minute: "2-digit" });
    return d.toLocaleDateString(state.lang, oneYear ? { day: "numeric", month: "numeric" }
      : { day: "numeric", month: "numeric", year: "2-digit" });
  };
  const title = oneDay ? tr("axis_times", known[0].toLocaleDateString(state.lang, { dateStyle: "medium" }))
    : tr("axis_games");
  return { labels: dates.map(text), title };
}

function plot(stats, ordered) {
  const W = Math.round(Math.max(280, Math.min(720, $("screen").clientWidth || 360)));
  const H = Math.round(Math.max(210, Math.min(300, W * 0.62)));
  const L = 52, R = 18, T = 18, B = 52; // room for the axes' numbers and titles
  const series = stats.players.slice(0, MARKS.length);
  const games = [...new Set(series.flatMap((p) => p.totals.map((t) => t[0])))].sort((a, b) => a - b);
  const rank = new Map(games.map((g, i) => [g, i]));
  const maxY = Math.max(1, ...series.flatMap((p) => p.totals.map((t) => t[1])));
  const step = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => maxY / s <= 5) ?? 2000;
  const top = Math.ceil(maxY / step) * step;
  const n = games.length;
  const r = n === 1 ? 6 : n > 40 ? 3.5 : 4.5;
  const pad = 2 * r + 4; // the first and the last game's marks stay clear of the axis and the edge
  const x = (g) => (n === 1 ? (L + W - R) / 2 : L + pad + (rank.get(g) / (n - 1)) * (W - L - R - 2 * pad));
  const y = (v) => H - B - (v / top) * (H - T - B);
  const dates = games.map((g) => {
    const d = new Date(ordered[g] ? entryDate(ordered[g]) : "");
    return isNaN(d) ? null : d;
  });
  const { labels, title } = dateLabels(dates);
  const labelOf = new Map(games.map((g, i) => [g, labels[i]]));
  const names = series.map((p) => p.name).join(", ");
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "plot", id: "plot",
    "aria-labelledby": "plot-title" });
  const el = (tag, attrs, text) => {
    const e = svgEl(tag, attrs);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  el("title", { id: "plot-title" }, tr("plot_alt", n, labels[0], labels[n - 1], names));
  for (let v = 0; v <= top; v += step) {
    el("line", { x1: L, y1: y(v), x2: W - R, y2: y(v), class: v ? "grid" : "axis" });
    el("text", { x: L - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, num(v));
  }
  el("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" });
  // labels under the x axis: as many as fit without touching, never two alike, the first and
  // the last game's always (the one before the last gives way)
  const width = (t) => t.length * 7.4;
  const ticks = [];
  games.forEach((g, i) => {
    const text = labels[i];
    if (ticks.some((t) => t.text === text)) return;
    const at = Math.min(Math.max(x(g), width(text) / 2 + 2), W - width(text) / 2 - 2);
    const prev = ticks[ticks.length - 1];
    if (prev && at - width(text) / 2 < prev.at + width(prev.text) / 2 + 8) {
      if (i !== n - 1 || ticks.length < 2) return;
      ticks.pop();
    }
    ticks.push({ g, text, at });
  });
  for (const t of ticks) {
    el("line", { x1: x(t.g), y1: H - B, x2: x(t.g), y2: H - B + 5, class: "axis" });
    el("text", { x: t.at.toFixed(1), y: H - B + 19, class: "tick", "text-anchor": "middle" }, t.text);
  }
  el("text", { x: (L + W - R) / 2, y: H - 8, class: "axis-title", "text-anchor": "middle" }, title);
  el("text", { x: 14, y: (T + H - B) / 2, class: "axis-title", "text-anchor": "middle",
    transform: `rotate(-90 14 ${(T + H - B) / 2})` }, tr("axis_points"));
  // marks of one game that would cover each other are set side by side
  const spot = new Map(); // "series:game" -> x
  for (const g of games) {
    const here = series.map((p, i) => ({ i, t: p.totals.find((t) => t[0] === g) })).filter((m) => m.t)
      .sort((a, b) => a.t[1] - b.t[1]);
    for (let k = 0; k < here.length;) {
      let j = k + 1;
      while (j < here.length && y(here[k].t[1]) - y(here[j].t[1]) < 2 * r) j++;
      here.slice(k, j).forEach((m, q) => {
        const dx = (q - (j - k - 1) / 2) * 2.2 * r;
        spot.set(`${m.i}:${g}`, Math.min(Math.max(x(g) + dx, L + 1.5 * r + 1), W - 1.5 * r - 1));
      });
      k = j;
    }
  }
  series.forEach((p, i) => {
    if (p.totals.length > 1) {
      el("polyline", { points: p.totals.map((t) => `${spot.get(`${i}:${t[0]}`).toFixed(1)},${y(t[1]).toFixed(1)}`).join(" "),
        class: `line series-${i}` });
    }
  });
  series.forEach((p, i) => {
    for (const t of p.totals) {
      const dot = mark(i, spot.get(`${i}:${t[0]}`), y(t[1]), r, `dot series-${i}`);
      dot.append(svgEl("title", {}, `${p.name}: ${num(t[1])} (${labelOf.get(t[0])})`));
      svg.append(dot);
    }
  });
  const legend = h("ul", { class: "legend", id: "plot-legend" }, series.map((p, i) =>
    h("li", {}, svgEl("svg", { class: "swatch", viewBox: "0 0 18 18", width: 18, height: 18, "aria-hidden": "true" },
      mark(i, 9, 9, 5.5, `dot series-${i}`)), p.name)));
  return h("figure", { class: "plot-figure" }, h("figcaption", {}, tr("plot_title")), svg, legend);
}

async function loadStats(ordered) {
  state.stats = { loading: true }; // asked once per change of the history
  const reply = await ask({ op: "stats", summaries: ordered.map((e) => e.summary) });
  if (reply.ok) {
    state.stats = { ...reply.stats, order: ordered };
    if (state.screen === "history") draw();
  } else {
    state.stats = null;
  }
}

async function resume(entry) {
  const reply = await ask({ op: "load", game: entry.game });
  if (!reply.ok) { notice(tr("refused") + refusal(reply.error), "warn"); return; }
  shelveCurrent();
  state.history = state.history.filter((e) => e.uid !== entry.uid);
  saveHistory();
  state.stats = null;
  becomeCurrent(reply, entry.uid, entry.started);
  draw();
}

function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function exportGame() {
  if (state.current) download(`kniffel-${state.current.id}.json`, state.current.game);
}

async function exportHistory() {
  const reply = await ask({ op: "export_history", entries: byDate(state.history) });
  if (reply.ok) download("kniffel-verlauf.json", reply.file);
}

// Add imported entries that are not stored yet (same uid, or the very same game): how many were
// new and how many already there.
function addEntries(entries) {
  const uids = new Set(state.history.map((e) => e.uid));
  const games = new Set(state.history.map((e) => JSON.stringify(e.game)));
  let added = 0;
  for (const e of entries) {
    const game = JSON.stringify(e.game);
    if (uids.has(e.uid) || games.has(game)) continue;
    uids.add(e.uid);
    games.add(game);
    state.history.push({ uid: e.uid, started: e.started ?? null, finished_at: e.finished_at ?? null,
      game: e.game, summary: e.summary });
    added++;
  }
  state.history = byDate(state.history);
  if (added) saveHistory();
  return { added, skipped: entries.length - added };
}

async function importFile(input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file || !state.ready) return;
  const text = await file.text();
  const reply = await ask({ op: "import", text, name: file.name });
  if (!reply.ok) {
    // the engine's sentence names the file and says that nothing was changed
    const own = reply.error && String(reply.error.code).startsWith("web.import_");
    notice(own ? refusal(reply.error) : tr("import_bad") + refusal(reply.error), "warn");
    return;
  }
  state.deleted = null;
  state.opened = null;
  const uid = reply.uid ?? newId();
  if (reply.kind === "history") {
    const { added, skipped } = addEntries(reply.entries);
    notice(tr("import_result", added, skipped));
  } else if (reply.view.over) {
    const { added } = addEntries([{ uid, started: null, finished_at: null, game: reply.game, summary: reply.summary }]);
    notice(added ? tr("imported_game") : tr("import_known"));
  } else {
    // an unfinished game continues here; the one in progress goes to the history
    const loaded = await ask({ op: "load", game: reply.game });
    if (!loaded.ok) { notice(tr("import_bad") + refusal(loaded.error), "warn"); return; }
    shelveCurrent();
    becomeCurrent(loaded, uid);
    notice(tr("imported_game"));
  }
  state.stats = null;
  draw();
}

// ---------------------------------------------------------------------------------- wake lock and update
// --- wake lock: the table stays awake. While a game is in progress and the page is shown, the
// screen is kept on (Screen Wake Lock API), unless the setting says no. The lock goes when the
// page is hidden or the game is over, and is asked for again when the page shows while the game
// still runs. Where the API is missing or the browser refuses (no user gesture, low battery),
// the screen simply dims as it always does: nothing is shown, and a refusal is not asked again
// until the page is shown anew.
const awake = { on: true, lock: null, asking: false, refused: false };
const canKeepAwake = () => Boolean(navigator.wakeLock && typeof navigator.wakeLock.request === "function");

function keepAwake() {
  const cur = state.current;
  const want = awake.on && canKeepAwake() && document.visibilityState === "visible"
    && Boolean(cur && cur.view && !cur.view.over);
  if (want && !awake.lock && !awake.asking && !awake.refused) {
    awake.asking = true;
    Promise.resolve().then(() => navigator.wakeLock.request("screen")).then((lock) => {
      awake.asking = false;
      awake.lock = lock;
      // the browser lets go by itself when the page is hidden
      lock.addEventListener("release", () => { if (awake.lock === lock) awake.lock = null; });
      keepAwake(); // the game may have ended, or the page gone, meanwhile
    }, () => { awake.asking = false; awake.refused = true; });
  } else if (!want && awake.lock) {
    const lock = awake.lock;
    awake.lock = null;
    Promise.resolve().then(() => lock.release()).catch(() => {});
  }
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") awake.refused = false;
  keepAwake();
});

// --- update: a new build's service worker waits (sw.js) until the page's notice asks it to take
// over; then every page of the app reloads into it. The game and the history are in
// localStorage and carry over. On the first visit (no worker yet) nothing is announced.
const update = { reg: null, shown: null, dismissed: false, asked: false };

function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const sw = navigator.serviceWorker;
  const hadController = Boolean(sw.controller);
  // a page that ran under an older build reloads once a newer one is in charge
  sw.addEventListener("controllerchange", () => { if (hadController || update.asked) reloadWhenIdle(); });
  sw.register("sw.js").then((reg) => {
    const offer = () => {
      if (!reg.waiting || !sw.controller) return;
      update.reg = reg;
      drawUpdate();
    };
    offer();
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      if (worker) worker.addEventListener("statechange", () => { if (worker.state === "installed") offer(); });
    });
    // a page left open looks for a new build when it is shown again, and every hour
    const look = () => reg.update().catch(() => {}); // offline: no new build to find
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") look(); });
    setInterval(look, 3_600_000);
  }).catch(() => {});
}

function reloadWhenIdle() {
  if (state.busy) setTimeout(reloadWhenIdle, 100); // an answer of the engine on its way is kept
  else location.reload();
}

function reloadIntoUpdate() {
  const waiting = update.reg && update.reg.waiting;
  update.asked = true;
  if (waiting) waiting.postMessage("skipWaiting"); // the reload follows on controllerchange
  else reloadWhenIdle(); // it is in charge already
}

// The notice above the screen: drawn when a new build waits, again when the language changes.
function drawUpdate() {
  let box = $("update");
  if (!update.reg || update.dismissed) {
    if (box) box.remove();
    return;
  }
  if (box && update.shown === state.lang) return;
  if (!box) {
    box = h("div", { id: "update", role: "status" });
    $("app").insertBefore(box, $("screen"));
  }
  update.shown = state.lang;
  box.replaceChildren(h("p", { class: "notice info inline" },
    h("button", { type: "button", id: "update-reload", class: "primary", onclick: reloadIntoUpdate }, tr("update_ready")),
    h("button", { type: "button", class: "link", "aria-label": tr("dismiss"),
      onclick: () => { update.dismissed = true; drawUpdate(); } }, "✕")));
}

// ---------------------------------------------------------------------------------- start
function markReady() {
  state.ready = true;
  $("app").setAttribute("aria-busy", "false");
  $("boot").hidden = true;
  timing.interactiveMs = performance.now(); // since the navigation started
  safeDraw();
  document.documentElement.dataset.ready = "1";
  // Offline copy of the site: registered once the engine runs, so that storing the files does
  // not compete with the first start (they come from the HTTP cache by then).
  registerWorker(); // with the update notice: the wake lock and update section
}

async function boot() {
  loadSettings(); // first: every notice after it speaks the user's language
  state.setup ??= defaultSetup();
  loadHistory();
  const stored = loadCurrent();
  state.current = stored && stored.record.view ? stored.record : null;
  state.pending = stored && !stored.record.view ? stored : null; // replayed once the engine runs
  state.screen = state.current ? "game" : "setup";
  $("boot-text").textContent = tr("booting");
  $("lang").onclick = () => {
    const from = state.lang;
    state.lang = from === "de" ? "en" : "de";
    // default names the player never changed ("Spieler 2") follow the language ("Player 2")
    for (const [i, p] of (state.setup?.players ?? []).entries()) {
      if (p && p.name === TEXT[from].player_n(i + 1)) p.name = tr("player_n", i + 1);
    }
    saveSettings(); draw();
  };
  $("nav-game").onclick = () => { state.screen = state.current ? "game" : "setup"; draw(); };
  $("nav-history").onclick = () => { state.screen = "history"; state.opened = null; state.deleted = null; draw(); };
  safeDraw(); // the stored sheet at once; controls wait for the engine
  timing.firstDrawMs = performance.now();
  fetch("meta.json").then((r) => r.json()).then((m) => { state.meta = m; window.kniffelMeta = m; safeDraw(); });
  await engineReady;
  const restore = state.current ? { record: state.current, raw: stored.raw } : state.pending;
  if (restore) {
    const reply = await ask({ op: "load", game: restore.record.game });
    if (reply.ok) {
      if (!state.current && state.screen === "setup") state.screen = "game";
      state.current = { ...restore.record, game: reply.game, view: reply.view, summary: reply.summary };
      saveCurrent();
    } else {
      // the engine refuses the stored game: keep it aside, say so, start clean
      console.warn("kniffel: stored game refused", reply.error);
      if (keepCorruptCopy(KEY.current, restore.raw, tr("refused_current", refusal(reply.error)))) forget(KEY.current);
      state.current = null;
      if (state.screen === "game") state.screen = "setup";
    }
  }
  state.pending = null;
  markReady();
}

// A computer's turn paused in a hidden tab goes on when the tab is shown again.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && state.ready && state.screen === "game") draw();
});

// Another tab changed the stored game or history: follow it, so no tab overwrites the other.
// (That tab checked the data before storing it; what does not pass here is simply not taken.)
window.addEventListener("storage", async (event) => {
  if (event.key === KEY.history) {
    const data = parse(event.newValue ?? "null");
    if (data !== null && checkHistory(data, "")) return;
    state.history = data === null ? [] : byDate(cleanEntries(data.entries).entries);
    state.stats = null;
    draw();
  } else if (event.key === KEY.current && state.ready) {
    const cur = parse(event.newValue ?? "null");
    if (cur === null) {
      state.current = null;
      draw();
      return;
    }
    if (checkCurrent(cur, "")) return;
    const reply = await ask({ op: "load", game: cur.game });
    if (reply.ok) {
      state.epoch++;
      state.current = { ...cur, game: reply.game, view: reply.view, summary: reply.summary };
      state.keep.clear();
      state.padDice = null;
      draw();
    }
  }
});

boot();

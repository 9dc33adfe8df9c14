// The history page: statistics, the stored games, import and export.

import { drawKeeping, restoreSettings } from "./backup.js?b=__BUILD__";
import { openPadReview, padReviewButton } from "./coach.js?b=__BUILD__";
import { notice } from "./dialogs.js?b=__BUILD__";
import { $, focusSel, h } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { openReview } from "./expert.js?b=__BUILD__";
import { loadGame } from "./game.js?b=__BUILD__";
import { plot } from "./plot.js?b=__BUILD__";
import { drawSheet } from "./sheet.js?b=__BUILD__";
import { openTransfer } from "./transfer.js?b=__BUILD__";
import { redraw, state } from "./state.js?b=__BUILD__";
import { historyStore, keepCorruptCopy, newId, saveHistory } from "./storage.js?b=__BUILD__";
import { byDate, entryDate, KEY, STORE_VERSION } from "./store.js?b=__BUILD__";
import { count, dateText, num, percent, refusal, tr } from "./words.js?b=__BUILD__";

// The history page: statistics, the plot of totals, and every stored game (newest first), which
// can be opened (its final sheet, read-only), resumed when unfinished, and deleted (with undo).
// Its styles live in history.css (app.js loads it), so the page's own stylesheet stays the layout's.

const when = (iso, withTime = true) => {
  const d = new Date(iso ?? "");
  if (isNaN(d)) return tr("page.history.no_date");
  return dateText(d, withTime);
};

// "Kniffel Extreme · 30.11.2026" and "Anna 836 · Ben 51" of an entry.
const entryTitle = (e) => `${tr(e.summary.title) || e.summary.rules} · ${when(entryDate(e) || null, false)}`;
const entryNames = (e) => e.summary.players.map((n, i) => `${n} ${num(e.summary.totals[i])}`).join(" · ");

export function drawHistory() {
  const wrap = h("section", { class: "history", "aria-labelledby": "history-title" });
  if (state.opened) return drawOpened(wrap, state.opened);
  wrap.append(h("h2", { id: "history-title" }, tr("page.history.title")));
  if (state.deleted) {
    const { entries } = state.deleted;
    const what = entries.length === 1 ? tr("page.history.deleted", { what: `${entryTitle(entries[0])} – ${entryNames(entries[0])}` })
      : tr("page.history.deleted_many", { n: num(entries.length) });
    wrap.append(h("p", { class: "notice deleted", id: "deleted", role: "status" },
      h("span", { text: what }), " ",
      h("button", { type: "button", id: "undo-delete", onclick: undoDelete }, "↶ ", tr("page.history.undo_delete"))));
  }
  const tools = h("div", { class: "controls" });
  tools.append(h("button", { type: "button", id: "export-history", onclick: exportHistory, disabled: !state.ready }, tr("page.history.export")));
  tools.append(h("button", { type: "button", id: "export-csv", onclick: exportCsv, disabled: !state.ready }, tr("page.history.export_csv")));
  const file = h("input", { type: "file", id: "import-file", accept: "application/json,.json", class: "sr",
    onchange: (e) => importFile(e.target) });
  tools.append(h("label", { class: "button", for: "import-file" }, tr("page.history.import")), file);
  tools.append(h("button", { type: "button", id: "transfer-open", onclick: () => openTransfer(addEntries), disabled: !state.ready }, tr("page.transfer.open")));
  wrap.append(tools);
  if (state.restoring) {
    wrap.append(h("p", { class: "hint", id: "restore-progress", role: "status" },
      tr("page.history.restore_progress", { done: num(state.restoring.done), total: num(state.restoring.total) })));
  }
  if (!historyStore.loaded) {
    wrap.append(h("p", { id: "history-loading", role: "status" }, tr("page.history.loading")));
    return wrap;
  }
  wrap.append(drawKeeping());
  const ordered = byDate(state.history);
  if (!ordered.length) {
    wrap.append(h("p", { id: "history-empty" }, tr("page.history.empty")));
    return wrap;
  }
  wrap.append(h("h3", {}, tr("page.history.stats")));
  const stats = state.stats;
  if (!stats) {
    if (state.ready) loadStats(ordered);
  } else if (stats.loading) {
    // the engine is counting
  } else if (!stats.games) {
    wrap.append(h("p", {}, tr("page.history.no_games")));
  } else {
    // one part per rule set (the engine's): Kniffel Extreme's totals and classic Kniffel's are
    // never averaged together, nor joined by one line in the plot
    if (stats.evening) wrap.append(drawEvening(stats.evening));
    stats.rule_sets.forEach((part, k) => wrap.append(drawRuleSetStats(part, k, stats.order ?? ordered)));
  }
  wrap.append(h("h3", {}, tr("page.history.games")));
  const { listed, folded } = foldUnfinished([...ordered].reverse());
  wrap.append(entryList(h("ol", { class: "games", id: "history-list" }), listed));
  if (folded.length) wrap.append(drawFolded(folded));
  return wrap;
}

// The statistics of one rule set: its name, games, best and average total, a row per player,
// the plot of their totals. The first part's elements keep the plain ids (#stats, #plot), the
// others' are numbered.
function drawRuleSetStats(part, k, ordered) {
  const id = (name) => (k ? `${name}-${k + 1}` : name);
  const table = h("table", { class: "stats", id: id("stats") },
    h("thead", {}, h("tr", {}, [tr("page.history.stat_player"), tr("page.history.games"), tr("page.history.wins"), tr("page.history.best"), tr("page.history.average"), tr("page.history.stat_bonus")]
      .map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, part.players.map((p) => h("tr", {}, h("th", { scope: "row" }, h("span", { class: "pname", title: p.name }, p.name)),
      h("td", {}, num(p.games)), h("td", {}, num(p.wins)), h("td", {}, num(p.best)),
      h("td", {}, num(p.average)), h("td", {}, percent(p.bonus_rate))))));
  return h("section", { class: "rule-set-stats", "data-rules": part.rules, "aria-labelledby": id("stats-title") },
    h("h4", { id: id("stats-title") }, tr(part.title)),
    h("p", { id: id("stats-summary") }, `${tr("page.history.games")}: ${num(part.games)} · ${tr("page.history.best")}: ${num(part.best)} · ${tr("page.history.average")}: ${num(part.average)}`),
    h("div", { class: "stats-wrap" }, table),
    part.head_to_head?.length ? drawHeadToHead(part.head_to_head, id) : null,
    plot(part, ordered, id));
}

// Head to head (the engine's, kniffel.engine.standings): per pair of players who played each
// other on this rule set, their games, each one's wins, the ties, and who was ahead on average.
function drawHeadToHead(pairs, id) {
  // (names on lines of their own: a narrow phone wraps them instead of cutting them)
  const margin = (p) => (p.margin === 0 ? [tr("page.history.even")]
    : [p.margin > 0 ? p.first : p.second, h("br"), `+${num(Math.abs(p.margin))}`]);
  // the ties' column only where there was a tie: a narrow phone keeps the room for the names
  const ties = pairs.some((p) => p.ties > 0);
  return h("div", { class: "stats-wrap" }, h("table", { class: "stats h2h", id: id("h2h") },
    h("caption", {}, tr("page.history.h2h")),
    h("thead", {}, h("tr", {}, [tr("page.history.pair"), tr("page.history.games"), tr("page.history.wins"), ties ? tr("page.history.ties") : null, tr("page.history.margin")]
      .filter((x) => x !== null).map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, pairs.map((p) => h("tr", {},
      h("th", { scope: "row", class: "pair" }, p.first, h("br"), `– ${p.second}`),
      h("td", {}, num(p.games)), h("td", {}, `${num(p.first_wins)} : ${num(p.second_wins)}`),
      ties ? h("td", {}, num(p.ties)) : null, h("td", { class: "pair" }, ...margin(p)))))));
}

// The last evening's standings: the games of the same players on one rule set on one day.
function drawEvening(evening) {
  const day = dateText(new Date(`${evening.day}T12:00:00`), false);
  return h("section", { class: "evening", id: "evening", "aria-labelledby": "evening-title" },
    h("h4", { id: "evening-title" }, tr("page.history.evening", { day, rules: tr(evening.title), games: num(evening.games) })),
    h("div", { class: "stats-wrap" }, h("table", { class: "stats", id: "evening-table" },
      h("thead", {}, h("tr", {}, ["#", tr("page.history.stat_player"), tr("page.history.wins"), tr("page.history.points"), tr("page.history.avg_place")]
        .map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, evening.standings.map((s, i) => h("tr", {}, h("td", {}, num(i + 1)),
        h("th", { scope: "row" }, h("span", { class: "pname", title: s.name }, s.name)),
        h("td", {}, num(s.wins)), h("td", {}, num(s.points)), h("td", {}, num(s.average_place))))))));
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
      keepCorruptCopy(KEY.history, JSON.stringify({ version: STORE_VERSION, entries: [e] }), count("page.storage.corrupt_entries", 1));
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
  h("summary", { id: "unfinished-summary" }, count("page.history.unfinished_group", folded.length)),
  h("p", { class: "hint" }, tr("page.history.unfinished_hint", { days: num(UNFINISHED_DAYS), keep: num(KEEP_UNFINISHED) })));
  group.append(entryList(h("ol", { class: "games", id: "unfinished-list" }), folded),
    h("p", { class: "controls" }, h("button", { type: "button", id: "delete-unfinished",
      onclick: () => deleteEntries(folded) }, count("page.history.delete_unfinished", folded.length))));
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
      "aria-label": `${tr("page.history.resume")}: ${entryTitle(e)}`, onclick: () => resume(e) }, tr("page.history.resume")),
    h("button", { type: "button", class: "small", "data-open": e.uid, disabled: !state.ready,
      "aria-label": `${tr("page.history.open")}: ${entryTitle(e)}`, onclick: () => openEntry(e) }, tr("page.history.open")),
    h("button", { type: "button", class: "small", "data-delete": e.uid,
      "aria-label": `${tr("page.history.delete")}: ${entryTitle(e)}`, onclick: () => deleteEntry(e) }, tr("page.history.delete")));
  return h("li", { "data-uid": e.uid },
    h("span", { class: "entry-head" }, h("span", { class: "when" }, when(entryDate(e) || null)), " ",
      h("span", { class: "etitle" }, tr(s.title) || s.rules),
      s.over ? null : h("span", { class: "badge" }, ` (${tr("page.history.unfinished")})`)),
    names, buttons);
}

// An entry's final sheet, read-only: the engine replays the game without touching the one in play.
async function openEntry(e) {
  const reply = await ask({ op: "import", text: JSON.stringify(e.game) });
  if (!reply.ok) { notice(tr("page.history.refused", { why: refusal(reply.error) }), "warn"); return; }
  // the sheet is shown from its top, its heading read first; "back" returns to where the list was:
  // the entry's button where it was on the screen, even if the statistics above it came in meanwhile
  const button = openButton(e);
  state.opened = { entry: e, view: { ...reply.view, options: [], current: null }, scrollY: window.scrollY,
    buttonTop: button ? button.getBoundingClientRect().top : null };
  redraw();
  window.scrollTo(0, 0);
  const title = $("history-title");
  if (title) title.focus({ preventScroll: true });
}

function openButton(entry) {
  return document.querySelector(`[data-open="${CSS.escape(entry.uid)}"]`);
}

function closeEntry() {
  const { entry, scrollY, buttonTop } = state.opened;
  state.opened = null;
  redraw();
  window.scrollTo(0, scrollY ?? 0);
  const button = openButton(entry);
  if (!button) return;
  if (buttonTop !== null) window.scrollBy(0, button.getBoundingClientRect().top - buttonTop);
  button.focus({ preventScroll: true });
}

function drawOpened(wrap, { entry, view }) {
  wrap.classList.add("opened");
  wrap.append(h("h2", { id: "history-title", tabindex: "-1" }, entryTitle(entry)));
  wrap.append(h("p", { class: "controls" }, h("button", { type: "button", id: "history-back",
    onclick: closeEntry }, "← ", tr("page.history.back")),
  view.mode === "dice" && view.over ? h("button", { type: "button", id: "history-review", disabled: !state.ready,
    onclick: () => openReview(entry.game, entryTitle(entry), "history") }, tr("web.review.button"))
    : view.mode === "pad" && view.over ? padReviewButton("history-pad-review", () => openPadReview(entry.game, view.rules.d10)) : null));
  const s = entry.summary;
  wrap.append(h("p", { class: "hint", id: "opened-when" }, entry.started ? tr("page.history.started_at", { date: when(entry.started) }) : "",
    s.over ? null : ` (${tr("page.history.unfinished")})`));
  if (view.over) {
    const names = view.winners.map((i) => view.columns[i].name).join(", ");
    wrap.append(h("p", { class: "status winner" }, tr("page.game.winner", { names, points: view.columns[view.winners[0]].total })));
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
  redraw();
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
  redraw();
  const first = back[0] && openButton(back[0]);
  if (first && first.checkVisibility()) first.focus();
}

async function loadStats(ordered) {
  state.stats = { loading: true }; // asked once per change of the history
  const reply = await ask({ op: "stats", summaries: ordered.map((e) => e.summary),
    dates: ordered.map((e) => entryDate(e) || null), zone: new Date().getTimezoneOffset() });
  if (reply.ok) {
    state.stats = { ...reply.stats, order: ordered };
    if (state.screen === "history") redraw();
  } else {
    state.stats = null;
  }
}

// The entry's game in progress again (at a table: the whole table's, game.js loadGame).
async function resume(entry) {
  const reply = await loadGame(entry.game, { uid: entry.uid, started: entry.started });
  if (reply && !reply.ok) notice(tr("page.history.refused", { why: refusal(reply.error) }), "warn");
}

function download(name, data, type = "application/json") {
  const blob = new Blob([type === "application/json" ? JSON.stringify(data, null, 1) : data], { type });
  const a = h("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function exportGame() {
  if (state.current) download(`kniffel-${state.current.id}.json`, state.current.game);
}

async function exportHistory() {
  const reply = await ask({ op: "export_history", entries: byDate(state.history) });
  if (reply.ok) download("kniffel-verlauf.json", reply.file);
}

// The history as a table for spreadsheets (kniffel.engine.history_csv): one row per player and
// finished game, its dates in this browser's time zone.
async function exportCsv() {
  const reply = await ask({ op: "export_history", entries: byDate(state.history), csv: true,
    zone: new Date().getTimezoneOffset() });
  if (reply.ok) download("kniffel-verlauf.csv", reply.csv, "text/csv;charset=utf-8");
  else notice(tr("page.history.refused", { why: refusal(reply.error) }), "warn");
}

// Add imported entries that are not stored yet: the engine says which (the same uid, or the same
// game as played: kniffel.engine.identity); how many were new and how many already there, and
// whether they were stored (``saved``: false where the storage is full; then the history is left
// as it was, in memory too). Null when the engine refused (its sentence is shown).
// (the identity the engine wrote into a summary where there is one: no game is sent, nothing hashed)
const known = (e) => (typeof e.summary?.identity === "string" ? { uid: e.uid, identity: e.summary.identity } : { uid: e.uid, game: e.game });

export async function addEntries(entries) {
  const reply = await ask({ op: "merge_history", have: state.history.map(known), entries: entries.map(known) });
  if (!reply.ok) { notice(tr("page.history.import_bad", { why: refusal(reply.error) }), "warn"); return null; }
  const before = state.history;
  state.history = [...before];
  for (const i of reply.add) {
    const e = entries[i];
    state.history.push({ uid: e.uid, started: e.started ?? null, finished_at: e.finished_at ?? null,
      game: e.game, summary: e.summary });
  }
  state.history = byDate(state.history);
  const saved = reply.add.length ? (await saveHistory()) !== false : true;
  if (!saved) state.history = before;
  return { added: reply.add.length, skipped: reply.known, saved };
}

// What an import of a history added: "2 neue Spiele importiert, 1 Spiel war schon im Verlauf."
function importResult(added, skipped) {
  const words = count("page.history.new_games", added);
  return skipped ? tr("page.history.import_result_known", { added: words, known: count("page.history.known_games", skipped) })
    : tr("page.history.import_result", { added: words });
}

// How many new games of a restore the engine checks per request: the line shows the progress
// between them.
const RESTORE_PART = 25;

// The new games of a restore (the engine's plan: reply.new), replayed and checked part by part
// (bridge import_part), as entries to add; null when one is refused (its sentence is shown,
// nothing is stored).
async function checkNew(plan, name) {
  const entries = [];
  const total = plan.new.length;
  try {
    for (let i = 0; i < total; i += RESTORE_PART) {
      state.restoring = { done: i, total };
      if (state.screen === "history") redraw();
      const part = await ask({ op: "import_part", restore: plan.restore, indices: plan.new.slice(i, i + RESTORE_PART), name });
      if (!part.ok) {
        const own = part.error && String(part.error.code).startsWith("web.import_");
        notice(own ? refusal(part.error) : tr("page.history.import_bad", { why: refusal(part.error) }), "warn");
        return null;
      }
      entries.push(...part.entries);
    }
  } finally {
    state.restoring = null;
    if (state.screen === "history") redraw();
  }
  return entries;
}

async function importFile(input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file || !state.ready) return;
  const text = await file.text();
  const reply = await ask({ op: "import", text, name: file.name, have: state.history.map(known) });
  if (!reply.ok) {
    // the engine's sentence names the file and says that nothing was changed
    const own = reply.error && String(reply.error.code).startsWith("web.import_");
    notice(own ? refusal(reply.error) : tr("page.history.import_bad", { why: refusal(reply.error) }), "warn");
    return;
  }
  state.deleted = null;
  state.opened = null;
  const uid = reply.uid ?? newId();
  if (reply.kind === "history") {
    // the games already here are known by the engine at once; only the new ones are replayed
    // and checked, part by part, the line above the list saying how far it is
    const checked = await checkNew(reply, file.name);
    if (!checked) return;
    const merged = await addEntries(checked);
    if (!merged || !merged.saved) return; // (a full storage: said by storage.js, nothing changed)
    restoreSettings(text); // a backup's names, on a phone that has none of its own
    notice(importResult(merged.added, merged.skipped + reply.known));
  } else if (reply.view.over) {
    const merged = await addEntries([{ uid, started: null, finished_at: null, game: reply.game, summary: reply.summary }]);
    if (!merged || !merged.saved) return;
    notice(merged.added ? tr("page.history.imported_game") : tr("page.history.import_known"));
  } else {
    // an unfinished game continues here; the one in progress goes to the history
    const loaded = await loadGame(reply.game, { uid });
    if (!loaded) return; // asked first at a table, or the engine busy
    if (!loaded.ok) { notice(tr("page.history.import_bad", { why: refusal(loaded.error) }), "warn"); return; }
    notice(tr("page.history.imported_game"));
  }
  state.stats = null;
  redraw();
}

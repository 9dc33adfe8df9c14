// The win chances under the totals: each player's chance to win if everyone plays well from
// here, the engine's (view.chances: kniffel.engine.chances, after every entry), the leader
// marked; a tap on the row's name explains it, with each player's expected total and range.
// The setting (state.showChances, kept with the settings) hides the row. Nothing is worked out
// here: the page only writes the engine's numbers as percentages and points.

import { showPanel } from "./dialogs.js?b=__BUILD__";
import { h } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { redraw, state } from "./state.js?b=__BUILD__";
import { saveCurrent, saveSettings } from "./storage.js?b=__BUILD__";
import { num, percent, tr } from "./words.js?b=__BUILD__";

// Whether the sheet of ``view`` shows the row: the engine gave chances for its players, the
// game runs, there is somebody to beat, and the setting does not hide it.
export function chancesShown(view) {
  const c = view.chances;
  return Boolean(state.showChances && c && !view.over && view.columns.length > 1
    && c.players.length === view.columns.length);
}

// A chance as a whole percentage; a chance that is neither none nor certain never reads as
// "0 %" or "100 %".
export function chanceText(win) {
  const shown = Math.round(win * 100);
  if (win > 0 && shown === 0) return tr("page.chances.below", { share: percent(0.01) });
  if (win < 1 && shown === 100) return tr("page.chances.above", { share: percent(0.99) });
  return percent(win);
}

// The setting: show or hide the row (kept with the settings), the screen drawn anew.
export function setChancesShown(on) {
  state.showChances = on;
  saveSettings();
  redraw();
}

// The row under the totals: a cell per player with their chance, the leader's marked by a sign
// and in bold (and said to a screen reader), not by colour alone.
export function chancesRow(view, order = view.columns.map((_, i) => i)) {
  const c = view.chances;
  const cur = view.current;
  const name = tr("page.chances.row");
  // a stale row (the engine still computes the new chances: Kniffel Extreme's exact last two
  // boxes) shows the last ones, muted and busy, for the moment until refreshIfStale's answer
  return h("tr", { class: c.stale ? "sum chances stale" : "sum chances", id: "chances", "aria-busy": c.stale ? "true" : null },
    // named by what it shows (and a question for a screen reader): no label of its own
    h("th", { scope: "row" }, h("button", { type: "button", class: "box-info", id: "chances-info",
      onclick: () => explainChances(view) },
    h("span", { class: "bshort" }, name), h("span", { class: "sr" }, ` – ${tr("page.chances.explain_label")}`),
    h("span", { class: "q", "aria-hidden": "true" }, "?"))),
    order.map((i) => {
      const p = c.players[i];
      const lead = c.leader === i;
      const text = chanceText(p.win);
      return h("td", { class: `${i === cur ? "current" : ""}${lead ? " lead" : ""}`, "data-chance": i,
        "data-win": p.win },
      lead ? h("span", { class: "mark", "aria-hidden": "true", title: tr("page.chances.leader") }, "▲") : null,
      lead ? h("strong", {}, text) : text,
      lead ? h("span", { class: "sr" }, `, ${tr("page.chances.leader")}`) : null);
    }));
}

// What ★ (the most points, on the sheet's names) and ▲ (the best chance, in this row) mean, said
// under the game's status while they stand by different players (the chances shown).
export function marksLegend(view) {
  const c = view.chances;
  if (view.over || !c || !chancesShown(view) || c.leader === null) return null;
  const ahead = view.columns.findIndex((col) => col.leader);
  if (ahead < 0 || ahead === c.leader) return null;
  return h("p", { class: "hint marks-legend", id: "marks-legend" },
    h("span", {}, tr("page.chances.legend_points")), " · ", h("span", {}, tr("page.chances.legend_chance")));
}

// The explanation: what the chance means, every player's chance, expected total and range, and
// where the numbers come from; with the setting's switch.
export function explainChances(view) {
  const c = view.chances;
  const items = c.players.map((p, i) => {
    const who = view.columns[i].name;
    const win = chanceText(p.win);
    const line = p.finished
      ? tr("page.chances.player_done", { name: who, win, total: num(view.columns[i].total) })
      : tr("page.chances.player", { name: who, win, expected: num(Math.round(p.expected)),
        low: num(p.low), high: num(p.high) });
    return h("li", { "data-chance": i, class: c.leader === i ? "lead" : "" },
      c.leader === i ? h("strong", {}, line) : line,
      c.leader === i ? h("span", {}, ` (${tr("page.chances.leader")})`) : null);
  });
  showPanel(tr("page.chances.title"),
    h("p", { id: "chances-explain" }, tr("page.chances.explain", { share: percent(c.coverage) })),
    h("ul", { id: "chances-list", class: "chances-list" }, items),
    h("p", { id: "chances-marks" }, tr("page.chances.marks")),
    h("p", { class: "note" }, tr(`page.chances.source.${c.source === "table" ? "table" : "model"}`)),
    h("div", { class: "controls" }, h("button", { type: "button", id: "chances-hide",
      onclick: () => { document.getElementById("panel").close(); setChancesShown(false); } }, tr("page.chances.hide"))));
}

// The view the engine gave at the start (without chances, so that loading their values does not
// hold the start up) with the chances of the stored view of the same game, until refreshChances.
export function keptChances(view, stored) {
  return { ...view, chances: stored && stored.actions === view.actions ? stored.chances ?? null : null };
}

// A view whose chances came stale (they would have held the sheet up): the new ones follow.
export function refreshIfStale(view) {
  if (view && view.chances && view.chances.stale) refreshChances();
}

// After the start: the engine's chances of the game on the screen (its values loaded once, now
// rather than at the first entry); without a game, the values of the start screen's rule set.
// An answer for a moment the game has left meanwhile is dropped.
export async function refreshChances() {
  const cur = state.current;
  const mark = cur ? { id: cur.id, actions: cur.view.actions } : null;
  const s = state.setup;
  const reply = await ask(cur ? { op: "chances" } : { op: "chances", rules: s.rules, free_strike: s.free_strike });
  const now = state.current;
  if (!reply.ok || !mark || !now || now.id !== mark.id || now.view.actions !== mark.actions) return;
  now.view = { ...now.view, chances: reply.chances };
  saveCurrent();
  redraw();
}

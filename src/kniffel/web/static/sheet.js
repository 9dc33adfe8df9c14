// The score sheet: its boxes and sums, the choices of a box, corrections on the score pad.

import { chancesRow, chancesShown } from "./chances.js?b=__BUILD__";
import { notice, showPicker } from "./dialogs.js?b=__BUILD__";
import { $, h } from "./dom.js?b=__BUILD__";
import { earlyGame } from "./early.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { act } from "./game.js?b=__BUILD__";
import { play, state } from "./state.js?b=__BUILD__";
import { boxName, boxOf, count, holds, refusal, tr } from "./words.js?b=__BUILD__";

export function undoButton(view, live) {
  return h("button", { type: "button", id: "undo", class: "icon", disabled: !live || !view.can_undo,
    "aria-label": tr("page.game.undo"), title: tr("page.game.undo"), onclick: () => act({ op: "undo" }) }, "↶");
}

function shortName(view, id) {
  const b = boxOf(view, id);
  return b ? tr(b.short ?? b.name) : id;
}

export function optionButton(view, o, live, withName) {
  const name = boxName(view, o.box);
  const text = o.strike ? tr("page.game.strike") : (o.bonus ? `${o.points} +${o.bonus}` : String(o.points));
  const said = o.strike ? `${name}: ${tr("page.game.strike")}` : tr("page.game.enter_for", { box: name, points: count("page.game.points", o.points) });
  const shown = withName ? `${shortName(view, o.box)} ${text}` : text;
  return h("button", {
    type: "button", class: `option${o.strike ? " strike" : ""}`, disabled: !live,
    "data-box": o.box, "data-points": o.points, "data-strike": o.strike ? "1" : "0",
    "aria-label": holds(said, shown) ? said : `${shown} – ${said}`,
    onclick: () => { $("picker").open && $("picker").close(); act({ op: "act", action: o.action }); },
  }, withName ? h("span", { class: "oname" }, shortName(view, o.box)) : null, withName ? " " : null,
  withName ? h("strong", {}, text) : text);
}

function openPicker(view, boxId) {
  const b = boxOf(view, boxId);
  const opts = view.options.filter((o) => o.box === boxId);
  showPicker(`${boxName(view, boxId)} · ${view.columns[view.current].name}`,
    `${tr(b.rule)} · ${tr(b.flat ? "page.sheet.always_points" : "page.sheet.max_points", { points: b.max })}`,
    opts.map((o) => optionButton(view, o, (state.ready || earlyGame()) && !state.busy, false)));
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
  const now = cell.struck ? tr("page.game.struck") : count("page.game.points", cell.points);
  showPicker(tr("page.pad.change", { box: boxName(view, boxId), name: view.columns[player].name }),
    `${tr("page.pad.now", { value: now })} · ${tr(b.rule)}`,
    reply.options.map((o) => optionButton(view, o, state.ready, false)));
}

function openInfo(view, boxId) {
  const b = boxOf(view, boxId);
  showPicker(tr(b.name), `${tr(b.rule)} · ${tr(b.flat ? "page.sheet.always_points" : "page.sheet.max_points", { points: b.max })}`, []);
}

function sumWaits() {
  return h("span", { class: "hint sum-wait", title: tr("page.boot.sum_wait") }, "…",
    h("span", { class: "sr" }, tr("page.boot.sum_wait")));
}

// The sheet's columns in the order drawn: the players' order, except that at a table the column
// of this phone's player (state.mine) comes first.
export function columnOrder(view) {
  const order = view.columns.map((_, i) => i);
  const mine = state.table ? state.mine : null;
  return mine !== null && mine < order.length ? [mine, ...order.filter((i) => i !== mine)] : order;
}

// A column's classes: the player to move's, and this phone's player's at a table.
const colClass = (view, i) => [i === view.current ? "current" : "", state.table && state.mine === i ? "mine" : ""].filter(Boolean).join(" ");

export function drawSheet(view, live) {
  const table = h("table", { class: "sheet", id: "sheet" });
  table.style.setProperty("--players", String(view.columns.length));
  const cur = view.current;
  const pad = view.mode === "pad";
  const order = columnOrder(view);
  table.append(h("caption", { class: "sr" }, tr(view.rules.title)));
  const head = h("tr", {}, h("th", { scope: "col", class: "corner" }, tr("page.sheet.box")));
  order.forEach((i) => {
    const c = view.columns[i];
    const won = view.over && view.winners.includes(i);
    head.append(h("th", { scope: "col", class: `${colClass(view, i)}${won ? " won" : ""}`, "data-player": i,
      "aria-label": `${tr(i === cur ? "page.sheet.player_col_current" : "page.sheet.player_col", { name: c.name, chips: c.chips_left })}${c.kind === "computer" ? `, ${tr("page.sheet.computer")}` : ""}` },
    h("span", { class: "pname" }, c.name),
    c.kind === "computer" ? h("span", { class: "pkind" }, tr("page.sheet.computer")) : null,
    h("span", { class: "pmeta", "aria-hidden": "true" },
      view.rules.chips ? h("span", { class: "chips" }, "●".repeat(c.chips_left) + "○".repeat(view.rules.chips - c.chips_left)) : null,
      c.leader && !view.over ? h("span", { class: "badge", title: tr("page.sheet.leader") }, "★") : null,
      won ? h("span", { class: "badge", title: tr("page.sheet.won") }, "★") : null)));
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
  // before the engine runs (a queued entry: view.early) the sums wait for it, and say so
  const sumRow = (cls, title, cell) => h("tr", { class: `sum ${cls}` }, h("th", { scope: "row" }, title),
    order.map((i) => h("td", { class: colClass(view, i) }, view.early ? sumWaits() : cell(view.columns[i]))));
  const boxRow = (b) => {
    const row = h("tr", { "data-row": b.id }, h("th", { scope: "row" },
      h("button", { type: "button", class: "box-info", "data-info": b.id,
        "aria-label": tr(b.short ?? b.name) === tr(b.name) ? tr("page.sheet.info", { box: tr(b.name) })
          : `${tr(b.short)} – ${tr("page.sheet.info", { box: tr(b.name) })}`,
        onclick: () => openInfo(view, b.id) },
      h("span", { class: "bfull" }, tr(b.name)), h("span", { class: "bshort" }, tr(b.short ?? b.name)),
      h("span", { class: "q", "aria-hidden": "true" }, "?"))));
    order.forEach((i) => {
      const c = view.columns[i];
      const cell = c.cells[b.id];
      const td = h("td", { class: colClass(view, i), "data-player": i, "data-box": b.id });
      if (cell) {
        const shownCell = cell.struck ? "—" : String(cell.points);
        if (pad) {
          td.append(h("button", { type: "button", class: `filled${cell.struck ? " struck" : ""}`, disabled: !state.ready || state.busy,
            "data-player": i, "data-box": b.id,
            "aria-label": `${tr(b.name)}, ${c.name}: ${cell.struck ? tr("page.game.struck") : count("page.game.points", cell.points)}. ${tr("page.pad.tap_to_change")}`,
            onclick: () => openCorrection(view, i, b.id) }, shownCell));
        } else {
          td.append(cell.struck ? h("span", { class: "struck", role: "img", "aria-label": tr("page.game.struck") }, shownCell)
            : h("span", { class: "points" }, shownCell));
        }
      } else if (i === cur && byBox.has(b.id)) {
        const opts = byBox.get(b.id);
        if (pad && !state.padDice) {
          td.append(h("button", { type: "button", class: "open", disabled: !live, "data-box": b.id,
            "aria-label": `${tr(b.name)}, ${c.name}: ${tr(b.hint ?? b.rule)}`, onclick: () => openPicker(view, b.id) },
          h("span", { class: "need" }, tr(b.hint ?? b.rule))));
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
  body.append(sumRow("upper", tr("page.sheet.upper_sum"), (c) => String(c.upper_sum)));
  body.append(sumRow("bonus", tr("page.sheet.bonus_row", { points: view.rules.bonus_points, threshold: view.rules.bonus_threshold }),
    (c) => (c.bonus ? tr("page.sheet.bonus_got", { points: c.bonus }) : c.upper_complete ? "0"
      : h("span", { class: "hint" }, c.bonus_reachable ? tr("page.sheet.bonus_missing", { n: c.bonus_missing }) : tr("page.sheet.bonus_lost")))));
  body.append(...view.rules.boxes.filter((b) => !b.upper).map(boxRow));
  body.append(sumRow("lower", tr("page.sheet.lower_sum"), (c) => String(c.lower_sum)));
  if (view.columns.some((c) => c.extra_bonus)) body.append(sumRow("extra", tr("page.sheet.extra"), (c) => String(c.extra_bonus)));
  table.append(body);
  const chances = chancesShown(view) ? chancesRow(view, order) : null;
  table.append(h("tfoot", { class: chances ? "with-chances" : "" },
    sumRow("total", tr("page.sheet.total"), (c) => h("strong", { "data-total": c.name }, String(c.total))), chances));
  return h("div", { class: "sheet-wrap", id: "sheet-wrap" }, table);
}

// The sheet is one stop of the Tab key (keyboard users reach the bar and the menu without
// passing every box): the box last focused, else the first open box of the player to move,
// takes the Tab; the arrow keys move between the sheet's buttons, row by row, column by column.
export function arrowKeys(wrap) {
  if (!wrap) return;
  const buttons = () => [...wrap.querySelectorAll("#sheet button")].filter((b) => !b.disabled);
  const all = buttons();
  if (!all.length) return;
  const start = all.find((b) => b === document.activeElement) || all.find((b) => b.closest("td.current")) || all[0];
  const only = (one) => { for (const b of buttons()) b.tabIndex = b === one ? 0 : -1; };
  only(start);
  wrap.addEventListener("focusin", (e) => { if (e.target.matches("#sheet button")) only(e.target); });
  const at = (b) => { const c = b.closest("td, th"); return [c.parentElement.rowIndex, c.cellIndex, b]; };
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  wrap.addEventListener("keydown", (e) => {
    const d = step[e.key];
    if (!d || !e.target.matches("#sheet button") || e.altKey || e.ctrlKey || e.metaKey) return;
    const [r, c, self] = at(e.target);
    // the nearest button that way in the same column (row), else in the nearest column (row)
    let best = null;
    let bestKey = null;
    for (const b of buttons()) {
      if (b === self) continue;
      const [r2, c2] = at(b);
      const along = d[0] ? (r2 - r) * d[0] : (c2 - c) * d[1];
      if (along <= 0) continue;
      const across = d[0] ? Math.abs(c2 - c) : Math.abs(r2 - r);
      const key = [across, along];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) { best = b; bestKey = key; }
    }
    e.preventDefault();
    if (best) { best.focus(); best.scrollIntoView({ block: "nearest", inline: "nearest" }); }
  });
}

// The game screen: its head and menu, the score sheet (sheet.js), the bar below it: the dice
// (dice.js), the score pad (pad.js) or the result.

import { marksLegend, setChancesShown } from "./chances.js?b=__BUILD__";
import { openPadReview, padReviewButton } from "./coach.js?b=__BUILD__";
import { drawDice } from "./dice.js?b=__BUILD__";
import { $, h } from "./dom.js?b=__BUILD__";
import { bootWait, earlyGame } from "./early.js?b=__BUILD__";
import { openReview } from "./expert.js?b=__BUILD__";
import { computerTurn, confirmLine, rematch, tableSetup } from "./game.js?b=__BUILD__";
import { exportGame } from "./history.js?b=__BUILD__";
import { drawPadTools } from "./pad.js?b=__BUILD__";
import { handoff, shareResult } from "./share.js?b=__BUILD__";
import { drawSheet, undoButton } from "./sheet.js?b=__BUILD__";
import { redraw, state } from "./state.js?b=__BUILD__";
import { tableLine, tableMenuItems } from "./table.js?b=__BUILD__";
import { num, tr } from "./words.js?b=__BUILD__";

export function drawGame(view) {
  const computer = computerTurn(view);
  // a score pad takes its entries before the engine runs (early.js)
  const live = (state.ready || earlyGame()) && !state.busy && !computer;
  const wrap = h("section", { class: `game ${view.mode}`, "aria-labelledby": "game-title",
    "data-actions": view.actions, "data-live": live ? "1" : "0", "data-computer": computer ? "1" : "0" });
  const cur = view.current;
  const curName = cur === null ? null : view.columns[cur].name;
  const head = h("div", { class: "game-head" });
  const status = h("p", { id: "status", class: "status", "aria-live": "polite" });
  if (view.over) {
    const names = view.winners.map((i) => view.columns[i].name).join(", ");
    status.textContent = tr("page.game.winner", { names, points: view.columns[view.winners[0]].total });
    status.classList.add("winner");
  } else {
    status.textContent = tr("page.game.turn_of", { name: curName });
  }
  head.append(h("div", { class: "head-text" },
    h("h2", { id: "game-title" }, tr(view.rules.title),
      view.over ? null : h("span", { id: "round" }, ` · ${tr("page.game.round", { round: view.round, rounds: view.rounds })}`)),
    status, tableLine(), marksLegend(view)));
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
  // a redraw (the engine ready, the win chances in, another window's move) keeps an open menu open
  const open = Boolean($("menu")?.open);
  return h("details", { id: "menu", class: "menu", open }, h("summary", {}, "⋯ ", tr("page.menu.title")),
    h("div", { class: "menu-items" },
      h("button", { type: "button", id: "new-game", onclick: close(() => { tableSetup(); state.screen = "setup"; redraw(); }) }, tr("page.menu.new_game")),
      h("button", { type: "button", id: "share", disabled: !state.ready, onclick: close(shareResult) },
        view.over ? tr("page.share.result") : tr("page.share.running")),
      h("button", { type: "button", id: "handoff", disabled: !state.ready || view.over, onclick: close(handoff) }, tr("page.handoff.title")),
      tableMenuItems(close),
      h("button", { type: "button", id: "export-game", onclick: close(exportGame) }, tr("page.menu.export_game")),
      view.chances && !view.over ? h("button", { type: "button", id: "chances-toggle",
        onclick: close(() => setChancesShown(!state.showChances)) }, tr(state.showChances ? "page.chances.hide" : "page.chances.show")) : null,
      view.mode === "pad" ? padReviewButton("pad-review-menu", close(openPadReview)) : null,
      h("p", { class: "note" }, tr("page.menu.saved_note")),
      // sharing and the hand-off wait for the engine: why, and how far its start is
      state.ready ? null : bootWait("page.boot.menu_wait", "menu-wait")));
}

// Every player by final total, the best first; equal totals share a place.
function ranking(view) {
  if (view.columns.length < 2) return null;
  const order = view.columns.map((c, i) => ({ ...c, i })).sort((a, b) => b.total - a.total || a.i - b.i);
  return h("ol", { class: "ranking", id: "ranking", "aria-label": tr("page.game.ranking") }, order.map((c) => {
    const place = 1 + view.columns.filter((x) => x.total > c.total).length;
    return h("li", { class: place === 1 ? "first" : "", "data-place": place },
      h("span", { class: "place" }, tr("page.game.rank", { place })), " ", h("span", { class: "rname" }, c.name), " ",
      h("strong", {}, num(c.total)));
  }));
}

function drawResultBar(view, live) {
  return h("div", { class: "bottom-bar result-bar" }, confirmLine(view, live), ranking(view), h("div", { class: "controls" },
    h("button", { type: "button", id: "rematch", class: "primary", disabled: !state.ready, onclick: rematch }, tr("page.game.rematch")),
    h("button", { type: "button", id: "share-result", disabled: !state.ready, onclick: shareResult }, tr("page.share.result")),
    view.mode === "dice" ? h("button", { type: "button", id: "review", disabled: !state.ready,
      onclick: () => openReview(state.current.game, tr(view.rules.title), "game") }, tr("web.review.button"))
      : padReviewButton("pad-review"),
    undoButton(view, live)),
  view.mode === "pad" ? h("p", { class: "hint" }, tr("page.pad.tap_to_change")) : null);
}

// Drawing the screen: the one draw() every change ends in (state.js redraw, registered by
// app.js), the sheet's place, the focus.

import { runComputer } from "./computer.js?b=__BUILD__";
import { drawGame } from "./board.js?b=__BUILD__";
import { drawNotices } from "./dialogs.js?b=__BUILD__";
import { $ } from "./dom.js?b=__BUILD__";
import { drawReview, warmExpert } from "./expert.js?b=__BUILD__";
import { computerTurn, setCurrent } from "./game.js?b=__BUILD__";
import { drawHistory } from "./history.js?b=__BUILD__";
import { drawSetup } from "./setup.js?b=__BUILD__";
import { checkLink } from "./share.js?b=__BUILD__";
import { arrowKeys } from "./sheet.js?b=__BUILD__";
import { checkTableLink } from "./table.js?b=__BUILD__";
import { play, state, timing } from "./state.js?b=__BUILD__";
import { loadUi, setAsideSuspect } from "./storage.js?b=__BUILD__";
import { drawUpdate, keepAwake } from "./system.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

// The first screen is drawn from stored data: an error while drawing it counts as damaged data.
// The suspect (the stored game shown, else the history shown, else the settings) is kept aside
// and the screen drawn again.
export function safeDraw() {
  for (let tries = 0; ; tries++) {
    try {
      draw();
      return;
    } catch (err) {
      console.error("kniffel: drawing failed", err);
      const suspect = tries > 3 ? null : setAsideSuspect();
      if (!suspect) throw err;
      if (suspect === "current") setCurrent(null);
    }
  }
}

// The engine's start (state.boot, engine.js): the boot section while it starts (the page busy
// till then), its bar and line, and the lines next to the controls that wait for it (early.js:
// bootWait), "page.boot.early" becoming "page.boot.early_done" once it runs.
function drawBoot() {
  const boot = state.boot;
  $("app").setAttribute("aria-busy", state.ready ? "false" : "true");
  $("boot").hidden = state.ready;
  if (boot.failed) $("boot-progress").removeAttribute("value");
  else $("boot-progress").value = boot.percent;
  $("boot-text").textContent = tr(boot.code, { why: boot.why });
  for (const el of document.querySelectorAll("[data-boot-wait]")) {
    if (boot.percent >= 100 && el.dataset.bootWait === "page.boot.early") el.dataset.bootWait = "page.boot.early_done";
    el.textContent = tr(el.dataset.bootWait, { percent: boot.percent });
  }
}

// The screen drawn anew from the state; ``part`` "boot" or "notices": only that part.
export function draw(part) {
  if (part === "boot") {
    drawBoot();
    return;
  }
  if (part === "notices") {
    drawNotices();
    return;
  }
  const t0 = performance.now();
  document.documentElement.lang = state.lang;
  $("lang").textContent = tr("page.lang.switch");
  $("lang").setAttribute("lang", state.lang === "de" ? "en" : "de");
  $("lang").setAttribute("aria-label", tr("page.lang.switch_label"));
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = tr(el.dataset.i18n);
  drawBoot();
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
  else watchRows(null);
  if (playing) arrowKeys($("sheet-wrap"));
  // a table that scrolls sideways (large text, a narrow phone) and holds nothing to focus is a
  // stop of the Tab key itself, so that the keyboard can scroll it
  for (const el of $("screen").querySelectorAll(".stats-wrap, .table-wrap")) {
    if (el.scrollWidth > el.clientWidth + 1 && !el.querySelector("button, a, input, select")) el.tabIndex = 0;
  }
  $("skip").setAttribute("aria-label", tr("page.skip.label"));
  timing.lastDrawMs = performance.now() - t0; // for the console and the benchmark
  timing.draws = (timing.draws ?? 0) + 1; // how often the screen was drawn (the tests)
  keepAwake(); // the wake lock and update section
  drawUpdate();
  if (state.ready && !play.linkChecked) { checkLink(); checkTableLink(); }
  if (state.ready && playing) warmExpert(state.current);
  // at a table the computer plays on the phone that holds the game, and the others see its moves
  const holds = (!state.table || state.table.host === state.table.me) && !state.seatLost;
  if (state.ready && holds && state.screen === "game" && state.current && computerTurn(state.current.view)) runComputer();
}

// The sheet shows whole rows between its fixed head and totals: where it scrolls, its height is
// cut down to the rows that fit (the room left lies between it and the bar) and a scroll comes to
// rest at a row's edge (style.css: scroll-snap under the head, --sheet-head), so that no row lies
// half behind the totals. Fitted again whenever the game's room or the sheet's size changes.
let rowFitter = null;

function fitRows(wrap) {
  const head = wrap.querySelector("thead th");
  const foot = wrap.querySelector("tfoot tr th"); // the fixed cells: where the rows end
  const row = wrap.querySelector("tbody tr");
  if (!head || !foot || !row) return;
  wrap.style.maxHeight = "";
  wrap.style.setProperty("--sheet-head", `${head.offsetHeight}px`);
  const rowHigh = row.getBoundingClientRect().height;
  if (wrap.scrollHeight <= wrap.clientHeight + 1 || rowHigh <= 0) return; // every row in view
  const room = foot.getBoundingClientRect().top - head.getBoundingClientRect().bottom;
  const rows = Math.max(1, Math.floor((room + 0.5) / rowHigh));
  wrap.style.maxHeight = `${wrap.offsetHeight - (room - rows * rowHigh)}px`;
}

function watchRows(wrap) {
  if (rowFitter) rowFitter.disconnect();
  rowFitter = null;
  if (!wrap) return;
  fitRows(wrap);
  rowFitter = new ResizeObserver(() => fitRows(wrap));
  rowFitter.observe(wrap.parentElement);
  rowFitter.observe(wrap.querySelector("table"));
}

// The sheet keeps its scroll position over a redraw; when the turn passes, the column of the
// player to move is scrolled into view.
function placeSheet(view) {
  const wrap = $("sheet-wrap");
  watchRows(wrap);
  if (!wrap) return;
  if (play.scroll) {
    wrap.scrollTop = play.scroll.top;
    wrap.scrollLeft = play.scroll.left;
  }
  // the box a person's move changed, or a computer's entry (play.reveal, computer.js)
  let c = state.confirm && state.confirm.fresh && state.confirm.box !== undefined ? state.confirm : null;
  if (c) c.fresh = false;
  if (play.reveal) [c, play.reveal] = [play.reveal, null];
  if (c) {
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

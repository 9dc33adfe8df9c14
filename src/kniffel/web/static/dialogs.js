// Notices, the box picker, the panel.

import { $, h } from "./dom.js?b=__BUILD__";
import { redraw, state } from "./state.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

// Notices stack: each shows at once, the newest last, and goes by itself after its own time (a
// refusal 12 s, anything else 5 s) or when closed, so a good result never waits behind an old
// refusal; at most three at a time (the oldest gives way). The state holds them as data
// (state.notices: {id, text, kind}), drawn through redraw("notices"); each is added to the live
// region by itself, so a screen reader reads only the new one; a redraw of the page leaves them be.
const MOST_NOTICES = 3;
let nextNotice = 1;
const timers = new Map(); // notice id -> its timer
const elements = new Map(); // notice id -> its element, once drawn

// (``stays``: until dismissed or no longer true, unsay: a state the player must act on)
export function notice(text, kind = "info", stays = false) {
  const said = state.notices.find((n) => n.text === text);
  if (said) forgetNotice(said); // said again: it comes back as the newest, its time afresh
  const n = { id: nextNotice++, text, kind };
  state.notices = [...state.notices, n];
  while (state.notices.length > MOST_NOTICES) forgetNotice(state.notices[0]);
  if (!stays) timers.set(n.id, setTimeout(() => dismissNotice(n), kind === "warn" ? 12000 : 5000));
  redraw("notices");
}

// A notice no longer true (a phone that sits at its table again): gone at once.
export function unsay(text) {
  const said = state.notices.filter((n) => n.text === text);
  for (const n of said) forgetNotice(n);
  if (said.length) redraw("notices");
}

function forgetNotice(n) {
  clearTimeout(timers.get(n.id));
  timers.delete(n.id);
  state.notices = state.notices.filter((x) => x.id !== n.id);
}

function dismissNotice(n) {
  forgetNotice(n);
  redraw("notices");
}

// The notices of the state (they live outside the screen): an element for each new one, added
// last; the elements of those gone removed; those still due left where they are.
export function drawNotices() {
  const box = $("notices");
  // where the game's head is (a phone sideways puts the notices under it, not over its menu:
  // style.css): its bottom edge in the window
  const head = document.querySelector(".game-head");
  if (head && state.notices.length) document.body.style.setProperty("--head-bottom", `${Math.round(head.getBoundingClientRect().bottom)}px`);
  const due = new Set(state.notices.map((n) => n.id));
  for (const [id, el] of elements) {
    if (!due.has(id)) {
      el.remove();
      elements.delete(id);
    }
  }
  for (const n of state.notices) {
    if (!elements.has(n.id)) {
      elements.set(n.id, h("p", { class: `notice ${n.kind}` }, h("span", { text: n.text }), " ",
        h("button", { type: "button", class: "link", "aria-label": tr("page.dialog.dismiss"), onclick: () => dismissNotice(n) }, "✕")));
    }
    const el = elements.get(n.id);
    if (el.parentNode !== box) box.append(el);
  }
}

export function showPicker(title, rule, options) {
  $("picker-title").textContent = title;
  $("picker-rule").textContent = rule;
  $("picker-options").replaceChildren(...options);
  $("picker-cancel").textContent = options.length ? tr("page.dialog.cancel") : tr("page.dialog.close");
  if (!$("picker").open) $("picker").showModal();
}

export function showPanel(title, ...body) {
  $("panel").classList.remove("wide");
  $("panel-title").textContent = title;
  $("panel-body").replaceChildren(...body.flat().filter((c) => c !== null && c !== undefined && c !== false));
  $("panel-close").textContent = tr("page.dialog.close");
  if (!$("panel").open) $("panel").showModal();
  // a dialog opens at its top with its title focused, not scrolled down to its first field
  $("panel-title").setAttribute("tabindex", "-1");
  $("panel-title").focus({ preventScroll: true });
  $("panel").scrollTop = 0;
}

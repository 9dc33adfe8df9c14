// Notices, the box picker, the panel.

import { $, h } from "./dom.js?b=__BUILD__";
import { state } from "./state.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

// Notices stack: each shows at once, the newest last, and goes by itself after its own time (a
// refusal 12 s, anything else 5 s) or when closed, so a good result never waits behind an old
// refusal; at most three at a time (the oldest gives way). Each is added to the live region by
// itself, so a screen reader reads only the new one; a redraw of the page leaves them be.
const MOST_NOTICES = 3;

export function notice(text, kind = "info") {
  const said = state.notices.find((n) => n.text === text);
  if (said) dismissNotice(said); // said again: it comes back as the newest, its time afresh
  const n = { text, kind, el: null, timer: null };
  n.el = h("p", { class: `notice ${kind}` },
    h("span", { text }), " ",
    h("button", { type: "button", class: "link", "aria-label": tr("page.dialog.dismiss"), onclick: () => dismissNotice(n) }, "✕"));
  state.notices.push(n);
  while (state.notices.length > MOST_NOTICES) dismissNotice(state.notices[0]);
  $("notices").append(n.el);
  n.timer = setTimeout(() => dismissNotice(n), kind === "warn" ? 12000 : 5000);
}

function dismissNotice(n) {
  clearTimeout(n.timer);
  n.el.remove();
  state.notices = state.notices.filter((x) => x !== n);
}

// After a redraw: every notice still due is shown (the notices live outside the screen).
export function drawNotices() {
  const box = $("notices");
  for (const n of state.notices) if (n.el.parentNode !== box) box.append(n.el);
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

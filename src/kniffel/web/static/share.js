// Taking the game along: the sheet as text, the game in a link for another device, and a page
// opened from such a link.

import { notice, showPanel } from "./dialogs.js?b=__BUILD__";
import { $, h, svgEl } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { loadGame } from "./game.js?b=__BUILD__";
import { play, redraw, state } from "./state.js?b=__BUILD__";
import { secureContext } from "./system.js?b=__BUILD__";
import { refusal, tr } from "./words.js?b=__BUILD__";

// The sheet as text: the system's share sheet where there is one, else the clipboard, else shown.
export async function shareResult() {
  const reply = await ask({ op: "share" });
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  const title = tr(state.current.view.rules.title);
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
    notice(state.current && state.current.view.over ? tr("page.share.copied_result") : tr("page.share.copied_running"));
  } catch {
    showPanel(tr("page.share.result"), h("textarea", { id: "share-text", readonly: true, rows: 12, wrap: "off", "aria-label": tr("page.share.result"), text: reply.text }));
  }
}

// A QR code the engine drew (``q``: {size, path}, segno's modules as one SVG path), named ``label``.
export function qrImage(q, label, id = "qr") {
  return svgEl("svg", { viewBox: `0 0 ${q.size} ${q.size}`, id, class: "qr", role: "img",
    "aria-label": label, "shape-rendering": "crispEdges" },
  svgEl("rect", { width: q.size, height: q.size, fill: "#fff" }), svgEl("path", { d: q.path, fill: "#000" }));
}

// The game in a link (and its QR code) for another device; nothing leaves this one.
export async function handoff() {
  const base = location.href.split("#")[0];
  const reply = await ask({ op: "handoff", base });
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  const code = qrImage(reply.qr, tr("page.handoff.title"));
  const link = h("input", { type: "text", id: "handoff-link", readonly: true, value: reply.url, "aria-label": tr("page.handoff.link") });
  // a page of this device's own address (kniffel web's default): the other phone cannot reach it
  const local = localAddress();
  // over plain http (the LAN address, or what the local warning recommends) the other phone
  // gets the game but not the offline copy, the saved start or the wake lock: said, not hidden
  const plain = local || !secureContext();
  showPanel(tr("page.handoff.title"), local ? h("p", { class: "notice warn", id: "handoff-local", role: "note" },
    tr("page.handoff.local", { host: location.hostname })) : null,
  plain ? h("p", { class: "hint", id: "handoff-lan-limits" }, tr("page.handoff.lan_limits")) : null, code, h("p", { class: "hint" }, tr("page.handoff.hint")), link,
    h("button", { type: "button", id: "copy-link", onclick: async () => {
      try { await navigator.clipboard.writeText(reply.url); notice(tr("page.handoff.copied")); } catch { link.select(); }
    } }, tr("page.handoff.copy")));
}

// Whether this page's address is this device's own (kniffel web's default): no other phone
// can open a link to it.
export function localAddress() {
  return ["localhost", "127.0.0.1", "[::1]", "::1"].includes(location.hostname) || location.hostname.endsWith(".localhost");
}

// A page opened from such a link offers to load its game; it never replaces one unasked.
export async function checkLink() {
  play.linkChecked = true;
  const m = /^#g=([A-Za-z0-9._-]+)$/.exec(location.hash);
  if (!m) return;
  const forget = () => history.replaceState(null, "", location.href.split("#")[0]);
  const reply = await ask({ op: "unpack", fragment: m[1] });
  if (!reply.ok) { forget(); notice(tr("page.link.bad"), "warn"); return; }
  const v = reply.view;
  const cur = state.current;
  const load = async () => {
    $("panel").close();
    forget();
    const loaded = await loadGame(reply.game);
    if (loaded && !loaded.ok) notice(refusal(loaded.error), "warn");
  };
  showPanel(tr("page.link.title"),
    h("p", {}, tr(v.rules.title), ": ", tr("page.link.text", { names: v.columns.map((c) => c.name).join(", "), round: v.round, rounds: v.rounds })),
    cur && !cur.view.over && cur.view.actions ? h("p", { class: "hint" }, tr("page.link.keep")) : null,
    h("div", { class: "controls" },
      h("button", { type: "button", id: "link-load", class: "primary", onclick: load }, tr("page.link.load")),
      h("button", { type: "button", id: "link-skip", onclick: () => { $("panel").close(); forget(); } }, tr("page.link.skip"))));
}

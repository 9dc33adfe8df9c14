// Two phones connected with no server (issues 34 and 40): what the table of phones (table.js) and
// the history's transfer to another phone (transfer.js) share. A WebRTC connection with no ICE
// server at all (`iceServers: []`); the players carry the signalling: one phone shows an offer
// code (QR code and text), the other reads it (camera or paste) and shows an answer code, the
// first reads that. The codes are the engine's (kniffel.browser.table, the bridge's table_code and
// table_sdp): a code says what it connects for (``purpose``: a "table", or a history's
// "transfer"), so that each panel refuses the other's code in one sentence.

import { h } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { qrImage } from "./share.js?b=__BUILD__";
import { scanCode } from "./tablescan.js?b=__BUILD__";
import { timing } from "./state.js?b=__BUILD__";
import { refusal, tr } from "./words.js?b=__BUILD__";

// How long a read code may wait for its connection before the page says the phones cannot
// reach each other (no candidate pair on this network; tests shorten it: window.kniffelConnectMs),
// and how long ICE gathering may take (host candidates only: it ends in milliseconds; past this
// the candidates found so far go).
export const connectMs = () => window.kniffelConnectMs ?? 10000;
const GATHER_MS = 5000;

// A new connection with no ICE server.
export const newConnection = () => new RTCPeerConnection({ iceServers: [] });

// The ICE gathering of ``pc`` finished (non-trickle: the code carries every candidate).
export function gathered(pc) {
  return new Promise((done) => {
    if (pc.iceGatheringState === "complete") { done(); return; }
    const timer = setTimeout(done, GATHER_MS);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") { clearTimeout(timer); done(); }
    });
  });
}

// The offer of ``pc`` (its data channel made before) as a code: the engine's table_code reply
// ({code, qr, bytes, link}) for the id ``name``, the offer's number ``offer``, ``purpose`` and
// the page's address ``base`` (for a link; optional).
export async function offerCode(pc, { name, offer, purpose = "table", base }) {
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return ask({ op: "table_code", kind: "offer", sdp: pc.localDescription.sdp, table: name, offer, purpose, base });
}

// The answer of ``pc`` to the offer ``read`` (a table_sdp reply) as a code: the table_code reply.
export async function answerCode(pc, read) {
  await pc.setRemoteDescription({ type: "offer", sdp: read.sdp });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return ask({ op: "table_code", kind: "answer", sdp: pc.localDescription.sdp, table: read.table,
    offer: read.offer, purpose: read.purpose ?? "table" });
}

// The session description a pasted or scanned code carries (the engine's table_sdp reply),
// where it is one of ``kind`` ("offer" or "answer") for ``purpose``; else {fault}: the sentence
// why (an empty field, a code that is none, the other panel's code, the other kind of code:
// ``words``, the codes of the sentences for a code of another purpose and of the other kind).
export async function readCode(text, kind, purpose, words) {
  if (!text.trim()) return { fault: tr("page.table.empty") };
  const read = await ask({ op: "table_sdp", code: text.trim() });
  if (!read.ok) return { fault: refusal(read.error) };
  if ((read.purpose ?? "table") !== purpose) return { fault: tr(words.purpose) };
  if (read.kind !== kind) return { fault: tr(words[kind]) };
  return read;
}

// A code to show: its QR code with what it is written under it (the two whole in the window's
// height: the other phone's camera reads it in one look), the code as text (one line that
// scrolls) and its copy button (``copied``: told when the code is on the clipboard).
export function codeBlock(prefix, made, label, copied) {
  const field = h("input", { type: "text", id: `${prefix}-code`, readonly: true, value: made.code, "aria-label": label, "data-bytes": made.bytes });
  return [h("figure", { class: "qr-code" }, qrImage(made.qr, label, `${prefix}-qr`),
    h("figcaption", { "aria-hidden": "true" }, label)),
    field,
    h("button", { type: "button", id: `${prefix}-copy`, onclick: async () => {
      try { await navigator.clipboard.writeText(made.code); copied(); } catch { field.select(); }
    } }, tr("page.table.copy"))];
}

// The camera's button: the code it reads (tablescan.js, the box above the fields; none read:
// cancelled, closed, refused) goes to ``then`` as a pasted one does.
export function scanButton(id, then) {
  return h("button", { type: "button", id, onclick: async () => {
    const code = await scanCode(timing);
    if (code !== null) then(code);
  } }, tr("page.table.scan"));
}

// The history to another phone (issue 40): the history screen's panel that connects this phone
// with another as the table of phones does (peer.js: an offer code, an answer code, a WebRTC data
// channel, no server of any kind), after which either phone may send its whole history to the
// other. The messages, their checks, the chunks and every sentence are the engine's
// (kniffel.browser.history_transfer, the bridge's transfer_* requests): this module moves their
// text, counts the games on the screen, and merges the games that arrived into the history
// (history.js addEntries, the engine's identity of a game) when a transfer ends, whole or not.

import { showPanel, unsay } from "./dialogs.js?b=__BUILD__";
import { $, h } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { answerCode, codeBlock, connectMs, newConnection, offerCode, readCode, scanButton } from "./peer.js?b=__BUILD__";
import { redraw, state, timing } from "./state.js?b=__BUILD__";
import { count, num, refusal, tr } from "./words.js?b=__BUILD__";

// The connection: {pc, channel, open, timer} (null: none); the codes made for it.
let link = null;
let offer = null; // this phone's offer code: {code, qr, bytes} (or {preparing: true})
let answer = null; // this phone's answer code
let progress = null; // the transfer under way: {role: "sending" | "receiving", games, arrived}
let result = null; // how the last transfer ended: {said: {de, en}, warn}
let note = null; // the panel's line: {text or code, warn}
let arrived = []; // the games received (checked by the engine), merged when the transfer ends
let inbox = Promise.resolve(); // the channel's messages, one after the other
let merge = null; // history.js's addEntries

// What the channel carried (for the benchmark and the tests): messages and bytes both ways.
const counted = () => (timing.transfer ??= { sent: 0, received: 0, bytesSent: 0, bytesReceived: 0, chunksReceived: 0 });

// The panel, opened from the history screen (``addEntries``: how arriving games join the history).
export function openTransfer(addEntries) {
  merge = addEntries;
  showPanel(tr("page.transfer.title"), h("div", { id: "transfer-panel" }));
  refresh();
}

function say(text, warn = true) {
  note = { text, warn };
  refresh();
}

function inTurn(step) {
  inbox = inbox.then(step).catch((err) => console.error("kniffel: a transfer step failed", err));
}

// ------------------------------------------------------------------------------- the connection

function forget() {
  if (link) {
    clearTimeout(link.timer);
    if (link.channel) link.channel.onclose = null;
    link.pc.close();
  }
  link = null;
  offer = null;
  answer = null;
}

function bind(channel) {
  link.channel = channel;
  const here = link;
  channel.onopen = () => {
    here.open = true;
    clearTimeout(here.timer);
    note = null;
    refresh();
  };
  channel.onmessage = (event) => {
    // (the tests cut the channel after so many chunks, window.kniffelTransferCut: nothing after
    // them comes in)
    if (here.cut) return;
    if (typeof event.data === "string" && event.data.startsWith('{"t":"transfer.chunk"')) {
      const c = counted();
      if (window.kniffelTransferCut !== undefined && c.chunksReceived >= window.kniffelTransferCut) {
        here.cut = true;
        channel.close();
        return;
      }
      c.chunksReceived++;
    }
    inTurn(() => received(event.data));
  };
  channel.onclose = () => inTurn(() => closed(here));
  if (channel.readyState === "open") channel.onopen();
}

function cannotConnect(here) {
  if (here !== link || here.open) return;
  forget();
  note = { code: "page.transfer.no_connection", warn: true };
  refresh();
}

function connection() {
  forget();
  const pc = newConnection();
  link = { pc, channel: null, open: false, timer: null };
  const here = link;
  pc.addEventListener("connectionstatechange", () => {
    if (!here.open && pc.connectionState === "failed") cannotConnect(here);
  });
  return pc;
}

// This phone's offer: a new connection with its channel, the code of its offer.
async function showOffer() {
  const pc = connection();
  bind(pc.createDataChannel("kniffel-history", { ordered: true }));
  offer = { preparing: true };
  note = null;
  refresh();
  const reply = await offerCode(pc, { name: newTransferId(), offer: 0, purpose: "transfer" });
  if (!link || link.pc !== pc) return;
  if (!reply.ok) { say(refusal(reply.error)); return; }
  offer = { code: reply.code, qr: reply.qr, bytes: reply.bytes };
  refresh();
}

const WORDS = { purpose: "page.transfer.not_transfer", offer: "page.transfer.not_offer", answer: "page.transfer.not_answer" };

// The other phone's offer code read here: this phone's answer code to show.
async function readOffer(text) {
  const read = await readCode(text, "offer", "transfer", WORDS);
  if (read.fault) { say(read.fault); return; }
  const pc = connection();
  pc.ondatachannel = (event) => bind(event.channel);
  answer = { preparing: true };
  note = null;
  refresh();
  const coded = await answerCode(pc, read);
  if (!link || link.pc !== pc) return;
  if (!coded.ok) { say(refusal(coded.error)); return; }
  answer = { code: coded.code, qr: coded.qr, bytes: coded.bytes };
  link.timer = setTimeout(() => cannotConnect(link), connectMs() * 3); // (the other phone reads it first)
  refresh();
}

// The other phone's answer code read here: the connection completes.
async function readAnswer(text) {
  if (!link || !offer || offer.preparing) return;
  const read = await readCode(text, "answer", "transfer", WORDS);
  if (read.fault) { say(read.fault); return; }
  const here = link;
  here.timer = setTimeout(() => cannotConnect(here), connectMs());
  note = { code: "page.table.connecting", warn: false };
  refresh();
  await here.pc.setRemoteDescription({ type: "answer", sdp: read.sdp });
}

function newTransferId() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// ------------------------------------------------------------------------------- the transfer

function put(texts) {
  if (!link || !link.open || link.channel.readyState !== "open") return;
  const c = counted();
  for (const text of texts ?? []) {
    link.channel.send(text);
    c.sent++;
    c.bytesSent += new TextEncoder().encode(text).length;
  }
}

// Send this phone's whole history.
async function sendHistory() {
  if (!link || !link.open || progress) return;
  result = null;
  note = null;
  const reply = await ask({ op: "transfer_send", entries: state.history, transfer: newTransferId() });
  if (!reply.ok) { say(refusal(reply.error)); return; }
  progress = { role: "sending", games: reply.games, arrived: 0 };
  timing.transferStarted = performance.now();
  put(reply.send);
  refresh();
}

async function received(data) {
  const c = counted();
  c.received++;
  c.bytesReceived += new TextEncoder().encode(data).length;
  const reply = await ask({ op: "transfer_message", data });
  if (!reply.ok) { say(refusal(reply.error)); return; } // (a newer app's hello: its sentence)
  put(reply.send);
  if (reply.ignored) return;
  if (reply.stop && !reply.role) { say(reply.stop.text); return; } // (a newer app's: refused whole)
  if (reply.entries) arrived.push(...reply.entries);
  progress = { role: reply.role, games: reply.games, arrived: reply.arrived };
  if (reply.role === "receiving" && arrived.length === 0 && reply.arrived === 0) {
    result = null;
    timing.transferStarted = performance.now();
  }
  if (reply.ended && reply.role === "receiving") await finish();
  else if (reply.ended) end(reply);
  refresh();
}

// The transfer received has ended (whole, refused, or cut off): the games that came join the
// history, and the engine says how it ended (to this phone, and to the sender).
async function finish() {
  const entries = arrived.splice(0);
  const started = performance.now();
  const merged = entries.length ? await merge(entries) : { added: 0, skipped: 0, saved: true };
  timing.transferMergeMs = performance.now() - started;
  if (merged && !merged.saved) {
    // (storage.js said it is full, the engine's sentence says what that means here: one sentence)
    for (const n of state.notices.filter((n) => n.text.startsWith(tr("page.storage.full", { why: "" })))) unsay(n.text);
  }
  const reply = await ask({ op: "transfer_finish", added: merged?.added ?? 0, known: merged?.skipped ?? entries.length,
    stored: merged ? merged.saved : false });
  if (!reply.ok) { say(refusal(reply.error)); return; }
  put(reply.send);
  end(reply);
  if (merged && merged.added && merged.saved) {
    state.stats = null;
    redraw();
  }
}

function end(reply) {
  progress = null;
  result = { said: reply.said, warn: Boolean(reply.warn) };
  timing.transferEnded = performance.now();
}

// The channel closed (the other phone gone, or it closed the panel's connection).
async function closed(here) {
  if (here !== link) return;
  clearTimeout(here.timer);
  const was = here.open;
  link = null;
  offer = null;
  answer = null;
  const reply = await ask({ op: "transfer_lost" });
  if (reply.ok && reply.ended && reply.role === "receiving") await finish();
  else if (reply.ok && reply.ended) end(reply);
  progress = null;
  if (was) note = { code: "page.transfer.lost", warn: true };
  refresh();
}

// ------------------------------------------------------------------------------- the panel

function refresh() {
  const body = $("transfer-panel");
  if (!body || !$("panel").open) return;
  const typed = Object.fromEntries([...body.querySelectorAll("textarea")].map((t) => [t.id, t.value]));
  body.replaceChildren(...[
    ...(link && link.open ? connectedPart() : link && offer ? offerPart() : link && answer ? answerPart() : startPart()),
    result ? h("p", { id: "transfer-result", class: result.warn ? "notice warn inline" : "status", role: "status" }, tr(result.said)) : null,
    note ? h("p", { id: "transfer-note", class: note.warn ? "notice warn inline" : "hint", role: "status" }, note.text ?? tr(note.code)) : null,
  ].filter((part) => part !== null));
  for (const [id, value] of Object.entries(typed)) if ($(id)) $(id).value = value;
  if (note && note.warn) $("transfer-note")?.scrollIntoView({ block: "nearest" });
}

function startPart() {
  const field = h("textarea", { id: "transfer-code-in", rows: 3, "aria-label": tr("page.transfer.code") });
  return [h("p", { class: "hint" }, tr("page.transfer.intro")),
    h("div", { class: "controls" }, h("button", { type: "button", id: "transfer-offer", class: "primary", onclick: showOffer }, tr("page.transfer.offer"))),
    h("p", {}, tr("page.transfer.or_read")),
    h("label", { for: "transfer-code-in" }, tr("page.transfer.code")), field,
    h("div", { class: "controls" },
      h("button", { type: "button", id: "transfer-read", onclick: () => readOffer(field.value) }, tr("page.transfer.read")),
      scanButton("transfer-scan", (code) => { field.value = code; readOffer(code); }))];
}

function offerPart() {
  if (offer.preparing) return [h("p", { class: "hint", id: "transfer-preparing" }, tr("page.table.preparing"))];
  const field = h("textarea", { id: "transfer-answer-in", rows: 3, "aria-label": tr("page.transfer.answer") });
  return [h("p", { class: "hint" }, tr("page.transfer.offer_hint")),
    ...codeBlock("transfer-offer", offer, tr("page.transfer.my_code"), () => say(tr("page.table.copied"), false)),
    h("div", {}, h("label", { for: "transfer-answer-in" }, tr("page.transfer.answer"))), field,
    h("div", { class: "controls" },
      h("button", { type: "button", id: "transfer-connect", class: "primary", onclick: () => readAnswer(field.value) }, tr("page.transfer.read")),
      scanButton("transfer-scan", (code) => { field.value = code; readAnswer(code); })),
    restartButton()];
}

function answerPart() {
  if (answer.preparing) return [h("p", { class: "hint", id: "transfer-preparing" }, tr("page.table.preparing"))];
  return [h("p", { class: "hint" }, tr("page.transfer.answer_hint")),
    ...codeBlock("transfer-answer", answer, tr("page.transfer.my_answer"), () => say(tr("page.table.copied"), false)),
    restartButton()];
}

function connectedPart() {
  const parts = [h("p", { class: "status", id: "transfer-connected", role: "status" }, tr("page.transfer.connected"))];
  if (progress) {
    const words = count(progress.role === "sending" ? "page.transfer.sending" : "page.transfer.receiving", progress.games, { done: num(progress.arrived) });
    parts.push(h("p", { id: "transfer-progress-text", role: "status", "data-role": progress.role, "data-arrived": progress.arrived, "data-games": progress.games }, words),
      h("progress", { id: "transfer-progress", max: Math.max(progress.games, 1), value: progress.arrived, "aria-label": tr("page.transfer.progress") }));
  } else {
    parts.push(h("p", { class: "hint", id: "transfer-send-hint" }, count("page.transfer.send_hint", state.history.length)),
      h("div", { class: "controls" }, h("button", { type: "button", id: "transfer-send", class: "primary", disabled: !state.ready, onclick: sendHistory }, tr("page.transfer.send"))));
  }
  return parts;
}

function restartButton() {
  return h("div", { class: "controls" }, h("button", { type: "button", id: "transfer-restart",
    onclick: () => { forget(); note = null; refresh(); } }, tr("page.transfer.restart")));
}

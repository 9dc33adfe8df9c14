// The table of phones (issue 34): this page's peer connections and data channels, nothing else.
// Every phone connects to the one that holds the game (the host; a star): WebRTC data channels
// with no server at all (no STUN, no TURN, no signalling server: `iceServers: []`). The players
// carry the signalling: the host shows an offer code (QR, text, link), the guest reads it and
// shows an answer code, the host reads that. The protocol, the codes, the order of actions and
// every word are the engine's (kniffel.browser.table, through the bridge's table_* requests):
// this module moves their bytes. An incoming message goes to table_message; what a reply says to
// send (reply.send: [[peer, message], …]) goes out on that peer's channel; a reply with a game
// is stored and drawn as an action's is (game.js takeReply).

import { notice, showPanel, unsay } from "./dialogs.js?b=__BUILD__";
import { $, h } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { becomeCurrent, onTableSend, takeReply } from "./game.js?b=__BUILD__";
import { answerCode, codeBlock as peerCodeBlock, connectMs, newConnection, offerCode, readCode as readPeerCode, scanButton } from "./peer.js?b=__BUILD__";
import { handoff, localAddress } from "./share.js?b=__BUILD__";
import { redraw, state, timing } from "./state.js?b=__BUILD__";
import { newId, saveHistory, shelveCurrent } from "./storage.js?b=__BUILD__";
import { count, refusal, saidText, tr } from "./words.js?b=__BUILD__";

// How long a read code may wait for its connection (peer.js, shared with the history's transfer).
export { connectMs };
// How long a connection may stay interrupted (ICE "disconnected": a phone asleep, out of the
// Wi-Fi) before its phone counts as gone; "failed" or "closed" counts at once.
const DISCONNECT_MS = 5000;

// This page's peer id: random per page (a reload is a new phone to the table, its game the same).
export function newPeerId() {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
export const me = newPeerId();

// The links to other phones: {pc, channel, peer (null until its first message names it), open,
// out: messages waiting for the channel to open, timer}. A guest has one (to the host).
export const links = [];
let offer = null; // the host's offer for the next phone: {link, code, qr, bytes} (null while made)
let answer = null; // a guest's answer code for the host: {code, qr, bytes}
let inbox = Promise.resolve(); // incoming messages, one after the other
let note = null; // the panel's line: {code, handoff} (connecting, cannot connect)

const host = () => Boolean(state.table) && state.table.host === state.table.me;
const phones = () => 1 + links.filter((l) => l.open).length;

// The engine's table (reply.table) with the page's count of open channels.
function setTable(table) {
  state.table = table ? { ...table, phones: phones() } : null;
  keepSeat();
}

// The table this page sits at with its game, kept over a reload (SEAT_KEY): a page opened again
// has no channel, and is told so (checkSeat) rather than taking entries the table never sees.
const SEAT_KEY = "kniffel.v1.table";

function keepSeat() {
  try {
    if (state.table && state.current) {
      localStorage.setItem(SEAT_KEY, JSON.stringify({ version: 1, game: state.current.id, table: state.table.id, mine: state.mine ?? null }));
    } else localStorage.removeItem(SEAT_KEY);
  } catch {
    // not kept: a reload simply does not say that the page sat at a table
  }
}

// A page opened again on the game it played at a table (the page closed or reloaded, the phone
// restarted): it sits there no more; said, with the field for the table's code.
function checkSeat() {
  let seat = null;
  try { seat = JSON.parse(localStorage.getItem(SEAT_KEY)); } catch { seat = null; }
  const cur = state.current;
  if (state.table || !seat || typeof seat !== "object" || seat.version !== 1) return;
  if (!cur || seat.game !== cur.id || cur.view.over) { keepSeat(); return; }
  // the player's column stays this phone's when it sits down again
  if (Number.isInteger(seat.mine) && seat.mine < cur.view.columns.length) state.mine = seat.mine;
  // until it sits down again (or plays on alone): said, and no computer plays here its own dice
  state.seatLost = true;
  notice(tr("page.table.seat_lost"), "warn", true);
  showTable(true);
}

// The seat given up: this phone plays the game on alone (its entries its own from now on).
function playAlone() {
  state.seatLost = false;
  unsay(tr("page.table.seat_lost"));
  keepSeat();
  $("panel").close();
  redraw();
}

// ---------------------------------------------------------------------------------- sending

// Send what an engine's reply says to send: each message to its peer's channel; a guest has one
// channel, to the host, and sends everything there. A channel not open yet keeps it till it opens.
export function sendAll(list) {
  for (const [to, message] of list ?? []) {
    // a guest's first messages go to "host", the phone it joined through (named by its answer)
    const link = links.find((l) => l.peer === to) ?? (!host() && links[0] && (to === "host" || links[0].peer === null) ? links[0] : null);
    if (!link) continue; // a peer gone, or a new host not connected yet: its catch-up is the engine's (hello)
    if (link.open && link.channel.readyState === "open") put(link.channel, message);
    else if (!link.open) link.out.push(message);
    // (a channel closing: the message is not for it any more; its loss comes in turn)
  }
}
// (game.js sends what its moves and new games say to send; a new game at the table is the seat's)
onTableSend((list) => { sendAll(list); keepSeat(); });

// ---------------------------------------------------------------------------------- channels

// How many messages this page sent and received, and channels it opened (for the tests' reports).
const counted = (what) => {
  timing.tableMessages ??= { sent: 0, received: 0, opened: 0, resent: 0 };
  timing.tableMessages[what]++;
};

function put(channel, message) {
  channel.send(JSON.stringify(message));
  counted("sent");
}

function addLink(pc) {
  const link = { pc, channel: null, peer: null, open: false, out: [], timer: null, gone: null, retry: null, heard: false };
  links.push(link);
  pc.addEventListener("connectionstatechange", () => {
    const now = pc.connectionState;
    if (!link.open) {
      if (now === "failed") cannotConnect(link);
      return;
    }
    clearTimeout(link.gone);
    if (now === "failed" || now === "closed") lose(link);
    else if (now === "disconnected") link.gone = setTimeout(() => lose(link), DISCONNECT_MS);
  });
  return link;
}

// The next step of the table, after those before it (messages and losses in the order they
// came); one that fails is said on the console and the next still runs.
function inTurn(step) {
  inbox = inbox.then(step).catch((err) => console.error("kniffel: a table step failed", err));
}

// A connection gone (its channel closed, or its phone no longer answers): once, in turn with
// the messages.
function lose(link) {
  inTurn(() => closed(link));
}

// A page closed (or put away) closes its connections, so that the other phones know at once
// rather than when their connection checks fail. A guest that was hidden (the phone asleep)
// when it lost the host does not start a host change: the host is likely still there, and the
// guest sits down again by its code (kniffel.browser.table: a host change is for a host gone).
let slept = false;
if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => { for (const link of links) link.pc.close(); });
  document.addEventListener("visibilitychange", () => { if (document.hidden) slept = true; });
}

function bindChannel(link, channel) {
  link.channel = channel;
  const opened = () => {
    if (link.open) return;
    link.open = true;
    slept = false;
    clearTimeout(link.timer);
    note = null;
    counted("opened");
    state.seatLost = false;
    for (const code of ["page.table.seat_lost", "page.table.rejoin"]) unsay(tr(code));
    const first = link.out.splice(0);
    for (const m of first) put(channel, m);
    // a guest's hello goes again until the host answers (seen lost in Chromium under load; the
    // engine takes a hello twice as once): every 1.5 s, five times at most
    let tries = 0;
    if (!host() && first.length) {
      link.retry = setInterval(() => {
        if (link.heard || !link.open || ++tries > 5) { clearInterval(link.retry); return; }
        for (const m of first) put(channel, m);
        counted("resent");
      }, 1500);
    }
    refresh(); // the engine says who joined, once its hello is in
    redraw();
  };
  channel.onopen = opened;
  channel.onmessage = (event) => inTurn(() => received(link, event.data));
  channel.onclose = () => lose(link);
  // a guest's channel may be open already when it is announced (its open event gone by)
  if (channel.readyState === "open") opened();
}

// One message from a peer: to the engine, and what it answers out and onto the screen.
async function received(link, data) {
  counted("received");
  link.heard = true;
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return; // not ours
  }
  // a channel's peer is named by its first message: a guest's hello, the host's state
  link.peer ??= message.peer ?? message.host ?? null;
  const before = state.current && state.current.view;
  const reply = await ask({ op: "table_message", from: link.peer, message });
  if (!reply.ok) {
    console.warn("kniffel: a table message refused", reply.error);
    return;
  }
  const hostBefore = state.table && state.table.host;
  sendAll(reply.send);
  if (reply.table) setTable(reply.table);
  // this phone's move refused by the host; a change without a game's (a phone left)
  if (reply.refused) notice(refusal(reply.refused.error), "warn");
  if (reply.game && reply.view) arrive(reply, before);
  else if (state.table && hostBefore !== state.table.host && hostBefore === link.peer) {
    await hostGone(reply); // the host left (its bye): the table moves to another phone
  } else {
    if (reply.said) notice(saidText(reply.said));
    refresh();
    redraw();
  }
}

// The table's game, as the engine holds it after a message: the game in progress (another game
// that was in progress here is kept in the history first), what it changed said by who did it;
// a box's choices open on this phone closed.
function arrive(reply, before) {
  // the choices open for a box were the game before's moves: tapped now, one would be made on
  // the new state, for the player to move there (another column); they close
  if ($("picker").open) $("picker").close();
  const cur = state.current;
  const same = cur && sameGame(cur.summary, reply.summary);
  if (!same) {
    shelveCurrent();
    // a game of this phone's history (the table went back to it): that entry, not a second copy
    const kept = state.history.find((e) => sameGame(e.summary, reply.summary));
    if (kept) {
      state.history = state.history.filter((e) => e !== kept);
      saveHistory();
      state.stats = null;
    }
    becomeCurrent(reply, kept ? kept.uid : newId(), kept ? kept.started : null);
    state.confirm = null;
    if (reply.said) takeReply(reply, { before: null, said: reply.said });
  } else {
    // (a catch-up without words, a phone sitting down again, says nothing: it made no move)
    takeReply(reply, { before, told: Boolean(reply.said), undo: Boolean(before) && reply.view.actions < before.actions, said: reply.said ?? null });
  }
  timing.tableStateAt = performance.now();
  keepSeat(); // a new game at the table: the seat is this one's
  refresh();
  redraw();
}

// Whether two games' summaries are of one game, however far each was played (the engine's
// key of the game, kniffel.engine.identity.game_key): the table's game arriving again replaces
// its older state; any other game is kept aside first.
export function sameGame(a, b) {
  return typeof a?.game === "string" && a.game === b?.game;
}

async function closed(link) {
  const at = links.indexOf(link);
  if (at < 0) return;
  links.splice(at, 1);
  clearTimeout(link.timer);
  clearTimeout(link.gone);
  if (!state.table || !link.peer) { refresh(); return; }
  const wasHost = state.table.host === link.peer;
  if (wasHost && slept) {
    notice(tr("page.table.rejoin"), "warn");
    showTable(); // the field for the table's code: the same table, sat down at again
    redraw();
    return;
  }
  const reply = await ask({ op: "table_lost", peer: link.peer });
  if (!reply.ok) {
    notice(tr("page.table.lost"), "warn");
    refresh();
    redraw();
    return;
  }
  sendAll(reply.send);
  setTable(reply.table ?? state.table);
  if (wasHost) { await hostGone(reply); return; }
  // a guest gone is news (the table plays on); nothing said: it had left already (its bye)
  if (reply.said) notice(saidText(reply.said), "info");
  refresh();
  redraw();
}

// The host gone (lost, or it left): said as a warning (the table moves); the phone that holds
// the game now shows its code, the others the field for it.
async function hostGone(reply) {
  notice(reply.said ? saidText(reply.said) : tr("page.table.lost"), "warn");
  showTable();
  redraw();
  if (host() && !offer) await prepareOffer();
}

// The phones found no way to each other: said in one sentence, the hand-off offered instead.
function cannotConnect(link) {
  if (link.open) return;
  clearTimeout(link.timer);
  const at = links.indexOf(link);
  if (at >= 0) links.splice(at, 1);
  link.pc.close();
  note = { code: "page.table.no_connection", handoff: true };
  refresh();
}

// ---------------------------------------------------------------------------------- the host

// Open a table for the game in progress (or show the one this page sits at).
export async function openTable() {
  if (!state.table) {
    const reply = await ask({ op: "table_open", me, name: myName() });
    if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
    setTable(reply.table);
  }
  showTable();
  if (host() && !offer) await prepareOffer();
}

// The number of the host's next offer, one byte as a code carries it (it wraps after 255): each
// code carries its offer's number and each answer the number of the offer it answers, so an answer
// to an offer already used is known at once. It starts at a random byte, so that the codes of
// another page (an earlier host) rarely share the current one's number.
const offerCount = crypto.getRandomValues(new Uint8Array(1));

// The offer code for the next phone: a new connection with its channel, the code of its offer.
async function prepareOffer() {
  const number = offerCount[0]++;
  const pc = newConnection();
  const link = addLink(pc);
  bindChannel(link, pc.createDataChannel("kniffel", { ordered: true }));
  const reply = await offerCode(pc, { name: state.table.id, offer: number, base: location.href.split("#")[0] });
  if (!state.table) { pc.close(); return; }
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  offer = { link, number, code: reply.code, qr: reply.qr, bytes: reply.bytes, url: reply.link };
  timing.tableOfferBytes = reply.bytes;
  refresh();
}

// The session description a pasted or scanned code carries (the engine's table_sdp reply), where
// it is one of ``kind`` ("offer": the table's code, "answer": a guest's); else null, the panel
// saying why (an empty field, a code that is none, the other kind of code).
// (a code of the history's transfer: said so, it belongs in the history's panel)
async function readCode(text, kind) {
  const read = await readPeerCode(text, kind, "table",
    { purpose: "page.table.not_table", offer: "page.table.not_offer", answer: "page.table.not_answer" });
  if (read.fault) { say(read.fault); return null; }
  return read;
}

// A guest's answer code, read on the host: its connection completes; the next offer is made. An
// answer to another offer (one already used: a code passed on in a group chat) is said at once,
// and the current offer stays for that phone to read; an answer without a number (a page before
// the numbers) is taken as it comes.
async function takeAnswer(text) {
  if (!offer) return;
  const reply = await readCode(text, "answer");
  if (!reply || !offer) return;
  if (reply.offer != null && reply.offer !== offer.number) { say(tr("page.table.used_code")); return; }
  const { link } = offer;
  offer = null;
  // "connecting" and its time limit before the answer is set: on the loopback the channel may
  // open (and clear both) before setRemoteDescription's promise comes back
  link.timer = setTimeout(() => cannotConnect(link), connectMs());
  note = { code: "page.table.connecting" };
  refresh();
  await link.pc.setRemoteDescription({ type: "answer", sdp: reply.sdp });
  await prepareOffer();
}

// ---------------------------------------------------------------------------------- a guest

// Join a table from its offer code: the answer for the host, this phone's hello to it.
export async function joinTable(text) {
  const started = performance.now();
  const read = await readCode(text, "offer");
  if (!read) return;
  // another table is left; the same one is joined anew (the engine keeps counting this phone's moves)
  if (state.table && state.table.id !== read.table) await leaveTable(true);
  else dropLinks();
  const pc = newConnection();
  const link = addLink(pc);
  pc.ondatachannel = (event) => bindChannel(link, event.channel);
  const coded = await answerCode(pc, read);
  if (!coded.ok) { say(refusal(coded.error)); return; }
  const joined = await ask({ op: "table_join", table: read.table, me, name: myName() });
  if (!joined.ok) { say(refusal(joined.error)); return; }
  setTable(joined.table);
  sendAll(joined.send); // the hello, sent once the channel opens
  answer = { code: coded.code, qr: coded.qr, bytes: coded.bytes };
  timing.tableAnswerBytes = coded.bytes;
  timing.tableJoinStarted = started;
  refresh();
  redraw();
}

// Every connection closed, quietly (left, not lost), and the codes made for them forgotten.
function dropLinks() {
  for (const link of links.splice(0)) {
    clearTimeout(link.timer);
    if (link.channel) link.channel.onclose = null;
    link.pc.close();
  }
  offer = null;
  answer = null;
  note = null;
}

// Leave the table: the channels closed, the engine told; the game stays stored on this phone.
export async function leaveTable(quiet = false) {
  const was = state.table;
  if (was) {
    const reply = await ask({ op: "table_leave" });
    if (reply.ok) sendAll(reply.send); // the bye
  }
  state.table = null;
  keepSeat();
  dropLinks();
  if (!was) return;
  state.mine = null;
  if (!quiet) {
    notice(tr("page.table.left"));
    if ($("panel").open && $("table-panel")) $("panel").close();
    redraw();
  }
}

// A page opened from a table's link (#t=CODE) shows the join panel and joins with its code.
export async function checkTableLink() {
  const m = /^#t=([^#]+)$/.exec(location.hash);
  if (!m) { checkSeat(); return; }
  history.replaceState(null, "", location.href.split("#")[0]);
  showTable(true);
  await joinTable(decodeURIComponent(m[1]));
}

// The name this phone gives the table (who did what: "Anna (Bens Handy)"): the one its player
// typed, kept on this phone; else the one it has at the table (named after its player's column,
// "Handy von Ben"); else "Handy" and the start of its peer id.
const NAME_KEY = "kniffel.v1.table_name";
function keptName() {
  try {
    const kept = localStorage.getItem(NAME_KEY);
    return kept && kept.trim() ? kept.trim().slice(0, 40) : null;
  } catch {
    return null; // no storage: no name kept
  }
}

function myName() {
  const seat = state.table && Array.isArray(state.table.peers) ? state.table.peers.find((p) => p.peer === me) : null;
  return keptName() ?? seat?.name ?? tr("page.table.phone_n", { id: me.slice(0, 4) });
}

// (``onlyTyped``: not the made-up name the field showed, untouched)
function keepName(name, onlyTyped = false) {
  if (onlyTyped && name.trim() === tr("page.table.phone_n", { id: me.slice(0, 4) })) return;
  try {
    if (name.trim()) localStorage.setItem(NAME_KEY, name.trim().slice(0, 40));
  } catch {
    // no storage: the name holds for this table only
  }
}

// ---------------------------------------------------------------------------------- the panel

// The table's panel: its status, the player's column, and the codes: on the host the offer for
// the next phone and the field for its answer; on a guest the field for the table's code and the
// answer to show. ``joining``: the guest's panel before any table.
export function showTable(joining = false) {
  const body = h("div", { id: "table-panel", "data-joining": joining ? "1" : "0" });
  showPanel(tr("page.table.title"), body);
  refresh();
}

// The panel's line: a refusal or a failure (``warn``: marked as one, as the notices are), or news.
function say(text, warn = true) {
  note = { text, warn };
  refresh();
}

// The panel drawn anew from the table (where it is open); the fields keep what is typed.
function refresh() {
  if (state.table) state.table = { ...state.table, phones: phones() };
  const body = $("table-panel");
  if (!body || !$("panel").open) return;
  const typed = Object.fromEntries([...body.querySelectorAll("textarea, #table-name")].map((t) => [t.id, t.value]));
  const joining = !state.table || (!host() && !links.length);
  // (what is not there is left out: replaceChildren would write a null as the text "null")
  body.replaceChildren(...[
    state.table ? h("p", { id: "table-status", class: "status", role: "status" }, tableStatus()) : null,
    state.table && state.current ? minePicker(state.current.view) : null,
    state.table ? nameField(rename) : null,
    joining ? joinPart() : host() ? offerPart() : answerPart(),
    note ? h("p", { id: "table-note", class: note.handoff || note.warn ? "notice warn inline" : "hint", role: "status" },
      note.text ?? tr(note.code)) : null,
    note && note.handoff ? h("button", { type: "button", id: "table-handoff", onclick: () => { $("panel").close(); handoff(); } }, tr("page.handoff.title")) : null,
    state.table ? h("button", { type: "button", id: "table-leave", onclick: () => leaveTable() }, tr("page.table.leave")) : null,
  ].filter((part) => part !== null));
  for (const [id, value] of Object.entries(typed)) if ($(id)) $(id).value = value;
  // a refusal or a failure is read where it is (below the fields: on a sideways phone out of view)
  if (note && (note.text || note.handoff)) $("table-note")?.scrollIntoView({ block: "nearest" });
}

// "Table: 3 phones, this phone holds the game."
export function tableStatus() {
  const t = state.table;
  // a guest whose connection is not up yet (its answer not read, or lost): not at the table yet
  if (t.host !== t.me && !links.some((l) => l.open)) return tr("page.table.not_seated");
  const n = Array.isArray(t.peers) && t.peers.length ? t.peers.length : t.phones ?? 1;
  return tr("page.table.status", { phones: count("page.table.phones", n),
    host: t.host === t.me ? tr("page.table.this_phone") : tr("page.table.other_phone") });
}

function minePicker(view) {
  const select = h("select", { id: "table-mine", onchange: () => {
    state.mine = select.value === "" ? null : Number(select.value);
    // a phone nobody named is named after its player ("Handy von Ben")
    if (state.mine !== null && !keptName()) rename(tr("page.table.phone_of", { name: view.columns[state.mine].name }));
    keepSeat();
    redraw();
  } }, h("option", { value: "" }, tr("page.table.mine_none")),
  view.columns.map((c, i) => h("option", { value: i, selected: state.mine === i }, c.name)));
  return h("label", { class: "field" }, tr("page.table.mine"), " ", select);
}

// A code to show (peer.js): its QR code, the code as text and its copy button.
function codeBlock(prefix, made, label) {
  return peerCodeBlock(prefix, made, label, () => say(tr("page.table.copied"), false));
}

function offerPart() {
  if (!offer) return h("p", { class: "hint", id: "table-preparing" }, tr("page.table.preparing"));
  const url = offer.url ?? `${location.href.split("#")[0]}#t=${encodeURIComponent(offer.code)}`;
  const field = h("textarea", { id: "table-answer", rows: 3, "aria-label": tr("page.table.answer") });
  return h("div", { id: "table-offer" },
    h("p", { class: "hint" }, tr("page.table.offer_hint")),
    codeBlock("table-offer", offer, tr("page.table.code")),
    h("input", { type: "text", id: "table-link", readonly: true, value: url, "aria-label": tr("page.table.link") }),
    localAddress() ? h("p", { class: "hint", id: "table-link-local" }, tr("page.table.link_local", { host: location.hostname })) : null,
    h("label", { for: "table-answer" }, tr("page.table.answer")), field,
    h("div", { class: "controls" },
      h("button", { type: "button", id: "table-connect", class: "primary", onclick: () => takeAnswer(field.value) }, tr("page.table.connect")),
      scanButton("table-scan", (code) => { field.value = code; takeAnswer(code); })));
}

// The field for this phone's name at the table (who did what: "Anna (Bens Handy)"): kept on this
// phone; at a table, ``then`` tells the table.
function nameField(then = null) {
  const name = h("input", { type: "text", id: "table-name", maxlength: 40, value: myName(),
    onchange: () => { keepName(name.value); if (then && name.value.trim()) then(name.value); } });
  return h("label", { class: "field" }, tr("page.table.name"), " ", name);
}

// This phone's new name, told to the table (the host sends it on to every phone).
async function rename(name) {
  const reply = await ask({ op: "table_name", name });
  if (!reply.ok) { say(refusal(reply.error)); return; }
  sendAll(reply.send);
  setTable(reply.table);
}

function joinPart() {
  const field = h("textarea", { id: "table-offer-in", rows: 3, "aria-label": tr("page.table.code") });
  return h("div", { id: "table-join" },
    h("p", { class: "hint" }, tr("page.table.join_hint")),
    state.table ? null : nameField(),
    h("label", { for: "table-offer-in" }, tr("page.table.code")), field,
    h("div", { class: "controls" },
      h("button", { type: "button", id: "table-join-go", class: "primary", onclick: () => {
        if ($("table-name")) keepName($("table-name").value, true);
        joinTable(field.value);
      } }, tr("page.table.join_go")),
      scanButton("table-scan", (code) => { field.value = code; joinTable(code); })),
    state.seatLost && !state.table ? h("button", { type: "button", id: "table-alone", onclick: playAlone }, tr("page.table.play_alone")) : null);
}

function answerPart() {
  if (links.some((l) => l.open)) return h("p", { class: "status", id: "table-seated" }, tr("page.table.seated"));
  if (!answer) return h("p", { class: "hint", id: "table-preparing" }, tr("page.table.preparing"));
  // (the host may say this phone read a used code: it reads the table's current one instead)
  return h("div", { id: "table-answer-out" },
    h("p", { class: "hint" }, tr("page.table.answer_hint")),
    codeBlock("table-answer", answer, tr("page.table.my_answer")),
    h("button", { type: "button", id: "table-reread", onclick: () => { dropLinks(); refresh(); } }, tr("page.table.reread")));
}


// The game's menu: the table's item (opening it, or showing the one this page sits at) and the
// join item; the status line under the game's head while a table is on.
export function tableMenuItems(close) {
  return [h("button", { type: "button", id: "table-open", disabled: !state.ready, onclick: close(openTable) },
    state.table ? tr("page.table.menu") : tr("page.table.open")),
  state.table ? null : h("button", { type: "button", id: "table-join-open", disabled: !state.ready,
    onclick: close(() => showTable(true)) }, tr("page.table.join"))];
}

export function tableLine() {
  if (!state.table) return null;
  return h("p", { id: "table-line", class: "hint" }, h("button", { type: "button", class: "link", onclick: () => showTable() }, tableStatus()));
}

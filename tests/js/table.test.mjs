// The table of phones' transport (static/table.js): peer ids, which channel a message goes out
// on, and game.js's act() going through the table while one is on. The engine is a fake worker
// that answers as the bridge's table_* requests do (the contract of issue 34).
import assert from "node:assert/strict";
import test from "node:test";

const asked = [];
let answer = () => ({ ok: true });
globalThis.Worker = class {
  postMessage({ id, request }) {
    asked.push(request);
    setTimeout(() => this.onmessage({ data: { type: "reply", id, reply: answer(request) } }), 0);
  }
};

const table = await import("../../src/kniffel/web/static/table.js?b=__BUILD__");
const { act } = await import("../../src/kniffel/web/static/game.js?b=__BUILD__");
const { state } = await import("../../src/kniffel/web/static/state.js?b=__BUILD__");

// A data channel that records what is sent on it.
function channel(readyState = "open") {
  return { sent: [], readyState, send(text) {
    if (this.readyState !== "open") throw new Error("InvalidStateError: the channel is not open");
    this.sent.push(JSON.parse(text));
  } };
}
function link(peer, open = true) {
  return { pc: { close() {} }, channel: channel(), peer, open, out: [], timer: null };
}

test("a page's peer id is 16 random hex digits, new for every page", () => {
  assert.match(table.me, /^[0-9a-f]{16}$/);
  const ids = new Set(Array.from({ length: 50 }, () => table.newPeerId()));
  assert.equal(ids.size, 50);
});

test("the host sends each message on its peer's channel, keeps it for one not open yet, drops it for one gone", () => {
  const [a, b, c] = [link("a"), link("b"), link("c", false)];
  table.links.splice(0, table.links.length, a, b, c);
  state.table = { id: "t", me: "h", host: "h", peers: [] };
  table.sendAll([["b", { t: "state", v: 1, n: 1 }], ["a", { t: "state", v: 1, n: 2 }],
    ["c", { t: "state", v: 1, n: 3 }], ["gone", { t: "state", v: 1, n: 4 }]]);
  assert.deepEqual(a.channel.sent.map((m) => m.n), [2]);
  assert.deepEqual(b.channel.sent.map((m) => m.n), [1]);
  assert.deepEqual(c.channel.sent, []);
  assert.deepEqual(c.out.map((m) => m.n), [3]);
  table.links.splice(0);
  state.table = null;
});

test("a guest sends everything on its one channel, to the host, whatever peer it is addressed to", () => {
  const toHost = link(null);
  table.links.splice(0, table.links.length, toHost);
  state.table = { id: "t", me: "g", host: null, peers: [] };
  table.sendAll([["h", { t: "hello", v: 1, peer: "g" }], ["x", { t: "act", v: 1, seq: 1 }]]);
  assert.deepEqual(toHost.channel.sent.map((m) => m.t), ["hello", "act"]);
  table.links.splice(0);
  state.table = null;
});

test("a guest drops what is addressed to a new host it has no channel to, and what would go on a closing one", () => {
  const toOld = link("h");
  table.links.splice(0, table.links.length, toOld);
  state.table = { id: "t", me: "g", host: "n", peers: [] };
  table.sendAll([["n", { t: "hello", v: 1, peer: "g" }]]); // the new host: joined by its code
  assert.deepEqual(toOld.channel.sent, []);
  toOld.channel.readyState = "closing"; // the old host leaving: its channel closes
  state.table = { id: "t", me: "g", host: "h", peers: [] };
  assert.doesNotThrow(() => table.sendAll([["h", { t: "act", v: 1, seq: 1 }]]));
  assert.deepEqual(toOld.channel.sent, []);
  table.links.splice(0);
  state.table = null;
});

test("two games are one by the key the engine wrote into their summaries, whatever their actions", () => {
  const s = { game: "k1", identity: "i1" };
  assert.ok(table.sameGame(s, { ...s, identity: "i2" }));
  assert.ok(!table.sameGame(s, { ...s, game: "k2" }));
  assert.ok(!table.sameGame({}, {})); // summaries of an older page: never taken for one game
  assert.ok(!table.sameGame(undefined, s));
});

test("while a table is on, act() asks table_act and sends what the engine says on the channels", async () => {
  const toHost = link(null);
  table.links.splice(0, table.links.length, toHost);
  state.table = { id: "t", me: "g", host: "h", peers: [] };
  state.ready = true;
  state.current = { id: "x", game: {}, view: { actions: 0 } };
  answer = (r) => (r.op === "table_act" ? { ok: true, pending: true, send: [["h", { t: "act", v: 1, seq: 1, request: r.request }]] } : { ok: false });
  asked.splice(0);
  const reply = await act({ op: "act", action: { type: "score", box: "ones" } });
  assert.equal(reply.pending, true);
  assert.deepEqual(asked.map((r) => r.op), ["table_act"]);
  assert.deepEqual(asked[0].request, { op: "act", action: { type: "score", box: "ones" } });
  assert.deepEqual(toHost.channel.sent, [{ t: "act", v: 1, seq: 1, request: { op: "act", action: { type: "score", box: "ones" } } }]);
  assert.equal(state.current.view.actions, 0, "a guest's view changes with the host's state, not its own request");
  assert.equal(state.busy, false);
  table.links.splice(0);
  state.table = null;
  state.ready = false;
  state.current = null;
});

test("without a table act() asks the engine itself, as before", async () => {
  state.ready = true;
  state.current = { id: "x", game: {}, view: { actions: 0 } };
  answer = () => ({ ok: true });
  asked.splice(0);
  await act({ op: "undo" });
  assert.deepEqual(asked.map((r) => r.op), ["undo"]);
  state.ready = false;
  state.current = null;
});

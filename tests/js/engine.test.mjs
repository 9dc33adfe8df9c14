// The workers' client (static/engine.js): no DOM and no words; what the game's engine says while
// it starts lands in the page's state (state.boot) and is drawn through redraw("boot"); a reply
// reaches the request it answers.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { onRedraw, state, timing } from "../../src/kniffel/web/static/state.js?b=__BUILD__";

const STATIC = new URL("../../src/kniffel/web/static/", import.meta.url);

// A stand-in for the browser's Worker: keeps what is posted to it, and its page's handler.
const started = [];
globalThis.Worker = class {
  constructor(url) {
    this.url = String(url);
    this.posted = [];
    started.push(this);
  }

  postMessage(msg) {
    this.posted.push(msg);
  }
};
const engine = await import("../../src/kniffel/web/static/engine.js?b=__BUILD__");
const drawn = [];
onRedraw((part) => drawn.push(part ?? "all"));

test("engine.js imports neither the DOM's helpers nor the words: it draws nothing itself", () => {
  const text = readFileSync(new URL("engine.js", STATIC), "utf8");
  assert.doesNotMatch(text, /from "\.\/(dom|words|screen)\.js/);
  assert.doesNotMatch(text.replace(/(^|\s)\/\/.*$/gm, ""), /\bdocument\b|\$\(/);
});

test("the engine's start steps land in state.boot, each drawn through redraw(\"boot\")", () => {
  assert.equal(started.length, 0);
  const worker = engine.startEngine();
  assert.equal(started.length, 1);
  assert.deepEqual(state.boot, { percent: 5, code: "page.boot.starting", why: null, failed: false });
  drawn.length = 0;
  worker.onmessage({ data: { type: "progress", step: "pyodide", ms: 10 } });
  assert.deepEqual([state.boot.percent, state.boot.code], [20, "page.boot.pyodide"]);
  assert.equal(timing.bootPath, "fresh");
  worker.onmessage({ data: { type: "progress", step: "unpack", ms: 12 } }); // a step the page does not show
  worker.onmessage({ data: { type: "progress", step: "package", ms: 30 } });
  assert.deepEqual([state.boot.percent, state.boot.code], [75, "page.boot.package"]);
  assert.deepEqual(timing.steps.map((s) => s[0]), ["pyodide", "unpack", "package"]);
  worker.onmessage({ data: { type: "ready", ms: 42 } });
  assert.equal(state.boot.percent, 100);
  assert.equal(timing.engineMs, 42);
  assert.deepEqual(drawn, ["boot", "boot", "boot"]);
});

test("an engine that fails to start says why in state.boot", () => {
  const worker = engine.startEngine();
  const before = state.boot;
  try {
    worker.onmessage({ data: { type: "failed", message: "no memory" } });
    assert.equal(state.boot.code, "page.boot.failed");
    assert.equal(state.boot.why, "no memory");
    assert.equal(state.boot.failed, true);
  } finally {
    state.boot = before;
  }
});

test("a request is sent in the page's language and its reply reaches the one who asked", async () => {
  await engine.engineReady; // "ready" came in the test before
  const worker = engine.startEngine();
  worker.posted.length = 0;
  state.lang = "en";
  const first = engine.ask({ op: "view" });
  const second = engine.ask({ op: "chances" });
  state.lang = "de";
  assert.deepEqual(worker.posted.map((m) => m.request), [{ lang: "en", op: "view" }, { lang: "en", op: "chances" }]);
  const [a, b] = worker.posted.map((m) => m.id);
  worker.onmessage({ data: { type: "reply", id: b, reply: { ok: true, which: "second" } } });
  worker.onmessage({ data: { type: "reply", id: a, reply: { ok: true, which: "first" } } });
  assert.deepEqual(await first, { ok: true, which: "first" });
  assert.deepEqual(await second, { ok: true, which: "second" });
});

test("the game's engine starts its interpreter once, on goEngine or with a request", async () => {
  // (fresh copies of the module: the one above has asked already)
  const fresh = await import("../../src/kniffel/web/static/engine.js?b=__BUILD__&go=1");
  const worker = fresh.startEngine();
  assert.deepEqual(worker.posted, []); // started: its files come, its interpreter waits
  fresh.goEngine();
  fresh.goEngine();
  assert.deepEqual(worker.posted, [{ type: "go" }]);
  const asking = await import("../../src/kniffel/web/static/engine.js?b=__BUILD__&go=2");
  asking.ask({ op: "view" });
  asking.goEngine(); // the request started it (worker.js): nothing more to say
  const second = started.at(-1);
  assert.equal(second.posted.length, 1);
  assert.equal(second.posted[0].request.op, "view");
});

test("the expert's engine is a second worker, started by its first request", async () => {
  const before = started.length;
  const reply = engine.askExpert({ op: "hint" });
  assert.equal(started.length, before + 1);
  const expert = started.at(-1);
  assert.match(expert.url, /\/worker\.js\?b=__BUILD__&expert=1$/);
  assert.deepEqual(expert.posted[0], { type: "go" }); // its interpreter starts at once
  assert.equal(expert.posted[1].request.op, "hint");
  expert.onmessage({ data: { type: "reply", id: expert.posted[1].id, reply: { ok: true } } });
  assert.deepEqual(await reply, { ok: true });
  engine.askExpert({ op: "review" });
  assert.equal(started.length, before + 1);
});

// The worker's client: the game's engine and the expert's, both worker.js. No DOM and no words:
// importing it starts nothing, startEngine() (app.js) starts the game's engine.

import { BUILD, redraw, state, timing } from "./state.js?b=__BUILD__";

// The game's engine starts when the page asks for it (startEngine, app.js: once the first screen
// is drawn and usable, so that its start does not hold up the first entry) or with the first
// request, whichever comes first. Started, it asks for its files at once; its interpreter starts
// on goEngine() or with the first request (worker.js): on a first visit, with the player's
// first entry or a moment after the first screen (app.js), so that Pyodide's start does not take
// the CPU from the player's first taps.
let worker = null;
let going = false;
const waiting = new Map();
let nextId = 1;
let resolveEngine;
export const engineReady = new Promise((r) => { resolveEngine = r; });

export function startEngine() {
  if (worker) return worker;
  timing.engineStartMs = Math.round(performance.now());
  worker = new Worker(new URL(`./worker.js?b=${BUILD}`, import.meta.url), { type: "module" });
  worker.onmessage = onEngineMessage;
  return worker;
}

// The engine's interpreter starts now (its files may still be coming).
export function goEngine() {
  if (going) return;
  going = true;
  timing.engineGoMs = Math.round(performance.now());
  startEngine().postMessage({ type: "go" });
}

// What the worker says while it starts lands in the page's state (state.boot, drawn by screen.js
// through redraw("boot")) and in the timing; its replies go to whoever asked.
const BOOT_STEPS = { snapshot: [40, "page.boot.snapshot"], pyodide: [20, "page.boot.pyodide"], package: [75, "page.boot.package"] };

function onEngineMessage(event) {
  const msg = event.data;
  if (msg.type === "progress" && msg.step === "bytes") {
    // the engine's files coming in ([received, total] bytes, worker.js): up to 70 % of the start
    const [got, total] = msg.detail;
    const percent = Math.max(state.boot.percent, 5 + Math.floor((65 * got) / total));
    if (got >= total) (timing.steps ??= []).push(["bytes", msg.ms, Math.round(performance.now()), total]);
    if (percent !== state.boot.percent && !state.ready) {
      state.boot = { ...state.boot, percent };
      redraw("boot");
    }
  } else if (msg.type === "progress") {
    (timing.steps ??= []).push([msg.step, msg.ms, Math.round(performance.now()), ...(msg.detail === undefined ? [] : [msg.detail])]);
    if (msg.step.endsWith("-failed") || msg.step.endsWith("-not-saved")) console.warn("kniffel:", msg.step, msg.detail);
    timing.bootPath = msg.step === "snapshot" ? "snapshot" : timing.bootPath ?? "fresh";
    if (msg.step === "pyodide" || msg.step === "snapshot-failed") timing.bootPath = "fresh";
    if (BOOT_STEPS[msg.step]) {
      const [percent, code] = BOOT_STEPS[msg.step];
      state.boot = { ...state.boot, percent: Math.max(percent, state.boot.percent), code };
      redraw("boot");
    }
  } else if (msg.type === "ready") {
    timing.engineMs = msg.ms;
    state.boot = { ...state.boot, percent: 100 };
    redraw("boot");
    resolveEngine();
  } else if (msg.type === "failed") {
    state.boot = { ...state.boot, code: "page.boot.failed", why: msg.message, failed: true };
    redraw("boot");
  } else if (msg.type === "reply") {
    const done = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (done) done(msg.reply);
  }
}

export function ask(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    going = true; // a request starts the interpreter (worker.js)
    startEngine().postMessage({ id, request: { lang: state.lang, ...request } });
  });
}

// The expert's own engine (a second worker.js): hints, reviews and the sheets of a review are
// computed there, so the game's engine never waits for them. Started when a dice game or a
// review first needs it (from the same memory snapshot as the game's engine); it builds the
// expert of the game's rule set at once (warmExpert), and a request asked meanwhile waits.
let expertWorker = null;
const expertWaiting = new Map();
function expertEngine() {
  if (expertWorker) return expertWorker;
  expertWorker = new Worker(new URL(`./worker.js?b=${BUILD}&expert=1`, import.meta.url), { type: "module" });
  expertWorker.postMessage({ type: "go" }); // its interpreter starts at once (worker.js)
  expertWorker.onmessage = (event) => {
    const msg = event.data;
    if (msg.type === "progress") (timing.expertSteps ??= []).push([msg.step, msg.ms]);
    else if (msg.type === "ready") timing.expertReadyMs = msg.ms;
    else if (msg.type === "failed") console.warn("kniffel: the expert's engine could not start:", msg.message);
    else if (msg.type === "reply") {
      const done = expertWaiting.get(msg.id);
      expertWaiting.delete(msg.id);
      if (done) done(msg.reply);
    }
  };
  return expertWorker;
}

export function askExpert(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    expertWaiting.set(id, resolve);
    expertEngine().postMessage({ id, request: { lang: state.lang, ...request } });
  });
}

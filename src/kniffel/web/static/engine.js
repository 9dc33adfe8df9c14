// The worker's client: the game's engine and the expert's, both worker.js.

import { $ } from "./dom.js?b=__BUILD__";
import { BUILD, state, timing } from "./state.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

// The game's engine starts when the page asks for it (startEngine, app.js: once the first screen
// is drawn and usable, so that its start does not hold up the first entry) or with the first
// request, whichever comes first.
let worker = null;
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

function onEngineMessage(event) {
  const msg = event.data;
  if (msg.type === "progress") {
    (timing.steps ??= []).push([msg.step, msg.ms, Math.round(performance.now()), ...(msg.detail === undefined ? [] : [msg.detail])]);
    if (msg.step.endsWith("-failed") || msg.step.endsWith("-not-saved")) console.warn("kniffel:", msg.step, msg.detail);
    const steps = { snapshot: [40, "page.boot.snapshot"], pyodide: [20, "page.boot.pyodide"], package: [75, "page.boot.package"] };
    if (steps[msg.step]) {
      const [value, key] = steps[msg.step];
      $("boot-progress").value = value;
      $("boot-text").textContent = tr(key);
      showBootPercent(value);
    }
    timing.bootPath = msg.step === "snapshot" ? "snapshot" : timing.bootPath ?? "fresh";
    if (msg.step === "pyodide" || msg.step === "snapshot-failed") timing.bootPath = "fresh";
  } else if (msg.type === "ready") {
    timing.engineMs = msg.ms;
    showBootPercent(100);
    resolveEngine();
  } else if (msg.type === "failed") {
    $("boot-text").textContent = tr("page.boot.failed", { why: msg.message });
    $("boot-progress").removeAttribute("value");
  } else if (msg.type === "reply") {
    const done = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (done) done(msg.reply);
  }
}

// How far the engine's start is, also in the lines next to the controls that wait for it
// (early.js: bootWait): "page.boot.early" becomes "page.boot.early_done" once it runs.
function showBootPercent(value) {
  state.bootPercent = value;
  for (const el of document.querySelectorAll("[data-boot-wait]")) {
    if (value >= 100 && el.dataset.bootWait === "page.boot.early") el.dataset.bootWait = "page.boot.early_done";
    el.textContent = tr(el.dataset.bootWait, { percent: value });
  }
}

export function ask(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
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

// The engine: Pyodide running the kniffel package, in a Web Worker.
// The page posts {id, request}; the worker answers {id, reply} with the JSON reply of
// kniffel.browser.bridge. Nothing here knows a rule: every answer comes from Python.
// The page starts two: the game's engine, and the expert's (hints and reviews, so the game never
// waits for them). Both start from the same memory snapshot. The expert's tables are built after
// the start, on the page's request (warm_expert): they would make the snapshot larger than
// Pyodide 314 can restore (only its 30 MB starting heap: pyodide/pyodide#6254).
//
// The game's engine starts as soon as the page's first screen is drawn, and it asks for the
// files it needs first at once, side by side: Pyodide's loader and interpreter modules, the
// interpreter (pyodide.asm.wasm) and the part of Python's standard library the engine runs on
// (the site's build trims it: kniffel.web.pyodide_stdlib); kniffel.zip, read only once the
// interpreter runs, as soon as those are in. The production site's Python is bytecode
// (kniffel.web.bytecode): the interpreter starts without compiling a module. Pyodide's own
// requests for the wasm and the standard library get these responses (fetch below), and its lock
// file is the build's copy of its facts with no packages (the engine loads none), so nothing is
// asked for twice or late.

const BUILD = "__BUILD__";
const SNAPSHOT_CACHE = "kniffel-snapshot";
const SNAPSHOT_KEY = `./snapshot-${BUILD}.bin`;
const indexURL = new URL("./pyodide/", import.meta.url).href;
const t0 = performance.now();
//: Pyodide's lock file as the engine needs it: its facts (ABI, Python), no packages.
const LOCK = __PYODIDE_LOCK__;
//: The sizes of the files below as they are unpacked (the build writes them): the share that has
//: come in is the start's progress on a slow link.
const SIZES = __ENGINE_SIZES__;
const FILES = {
  "pyodide/pyodide.asm.wasm": `${indexURL}pyodide.asm.wasm`,
  "pyodide/python_stdlib.zip": `${indexURL}python_stdlib.zip`,
  "kniffel.zip": new URL("./kniffel.zip", import.meta.url).href,
};

// The modules first, beside each other (the loader would import the interpreter's module only
// after its own): a module is fetched once however often it is imported.
const loader = import("./pyodide/pyodide.mjs");
const interpreter = import("./pyodide/pyodide.asm.mjs");
loader.catch(() => {}); // an error is reported where it is awaited
interpreter.catch(() => {});

// The interpreter's files at once, kniffel.zip right after them (below). Each response's body
// is read as it comes (counted: the start's progress), whether or not Pyodide reads it yet, so
// no download waits for the interpreter's start; Pyodide reads its copy (a tee) when it starts.
const ownFetch = self.fetch.bind(self);
const total = Object.keys(FILES).reduce((n, name) => n + (SIZES[name] || 0), 0);
let received = 0;
let told = 0;
async function drain(body, whole) {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      const now = performance.now();
      if (total && (now - told > 100 || received >= total)) {
        told = now;
        progress("bytes", [Math.min(received, total), total]);
      }
    }
  } catch {
    // the download broke off: Pyodide's copy says so where it is read
  }
  whole();
}
// A file's response (its body Pyodide's copy), and when its body has come in whole (or broke off).
function request(url) {
  let whole;
  const done = new Promise((resolve) => { whole = resolve; });
  const answer = ownFetch(url).then((response) => {
    if (!response.ok || !response.body) {
      whole();
      return response;
    }
    const [kept, counted] = response.body.tee();
    drain(counted, whole);
    return new Response(kept, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
  answer.catch(() => whole());
  return { answer, done };
}
const interpreterFiles = [FILES["pyodide/pyodide.asm.wasm"], FILES["pyodide/python_stdlib.zip"]].map(request);
// kniffel.zip is read only once the interpreter runs: asked for when the interpreter's files are
// in, it does not share a slow link with them (on 4G they come 0.5 s sooner, and the interpreter
// starts while it comes); on a fast link it is there long before the interpreter is.
const packageFile = Promise.all(interpreterFiles.map((f) => f.done))
  .then(() => request(FILES["kniffel.zip"]).answer);
const early = new Map([
  [FILES["pyodide/pyodide.asm.wasm"], interpreterFiles[0].answer],
  [FILES["pyodide/python_stdlib.zip"], interpreterFiles[1].answer],
  [FILES["kniffel.zip"], packageFile],
]);
for (const answer of early.values()) answer.catch(() => {}); // reported where it is awaited

// The interpreter starts when the page says so ({type: "go"}) or with the first request: on a
// first visit the page lets the player's first taps go first (engine.js goEngine), since
// Pyodide's start takes the CPU for a second or more; the files come meanwhile.
let go;
const started = new Promise((resolve) => { go = resolve; });
// Pyodide asks with fetch(URL): the first request for one of FILES gets the response under way.
self.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const answer = early.get(url);
  if (answer) {
    early.delete(url);
    return answer;
  }
  return ownFetch(input, init);
};

function progress(step, detail) {
  postMessage({ type: "progress", step, detail, ms: Math.round(performance.now() - t0) });
}

async function openCache() {
  try {
    return self.caches ? await caches.open(SNAPSHOT_CACHE) : null;
  } catch {
    return null; // no cache storage (not a secure context): boot without a snapshot
  }
}

function fetchPackage() {
  return fetch(FILES["kniffel.zip"]).then((r) => {
    if (!r.ok) throw new Error(`kniffel.zip: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
}

async function bootFromSnapshot(cache) {
  const hit = cache && (await cache.match(SNAPSHOT_KEY));
  if (!hit) return null;
  progress("snapshot");
  // The snapshot holds the interpreter's memory, not its files: the package's data files (the
  // expert's tables and model) are unpacked again, read while Pyodide restores.
  const zip = fetchPackage();
  zip.catch(() => {}); // an error is reported where it is awaited
  try {
    // Read while Pyodide's own files load: loadPyodide takes the snapshot as a promise.
    const snapshot = hit.arrayBuffer().then((buf) => {
      progress("snapshot-read", buf.byteLength);
      return buf;
    });
    const { loadPyodide } = await loader;
    await interpreter;
    const py = await loadPyodide({ indexURL, lockFileContents: LOCK, _loadSnapshot: snapshot });
    progress("restored");
    py.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide/lib" });
    progress("unpacked");
    py.pyimport("kniffel.browser.bridge");
    return py;
  } catch (err) {
    await cache.delete(SNAPSHOT_KEY); // a broken snapshot is made again below
    progress("snapshot-failed", String(err));
    return null;
  }
}

async function bootFresh(cache) {
  progress("pyodide");
  const zip = fetchPackage();
  const { loadPyodide } = await loader;
  await interpreter;
  const py = await loadPyodide({ indexURL, lockFileContents: LOCK, _makeSnapshot: Boolean(cache) });
  progress("package");
  py.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide/lib" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib'); import kniffel.browser.bridge");
  // Fill the engine's caches before the snapshot, so a restored engine answers at once.
  py.runPython("kniffel.browser.bridge.warm_up()");
  progress("warm");
  if (cache) {
    const snapshot = py.makeMemorySnapshot();
    // Kept for the next start, in the background: the engine is usable now. Old builds'
    // snapshots go.
    (async () => {
      for (const req of await cache.keys()) await cache.delete(req);
      await cache.put(SNAPSHOT_KEY, new Response(snapshot, {
        headers: { "Content-Type": "application/octet-stream" },
      }));
    })().catch((err) => progress("snapshot-not-saved", String(err)));
  }
  return py;
}

const ready = (async () => {
  progress("worker");
  const cache = await openCache();
  await started;
  progress("go");
  const py = (await bootFromSnapshot(cache)) ?? (await bootFresh(cache));
  const bridge = py.pyimport("kniffel.browser.bridge");
  return { py, handle: bridge.handle_json, wanted: bridge.wanted_table };
})();

// The expert's values are files of their own (tables/NAME): the classic rule sets' exact tables
// (1.1 MB each in transit) and Kniffel Extreme's model (0.29 MB). The engine names the one a
// request needs and its place in the package (kniffel.browser.bridge.wanted_table:
// "browser/tables/kniffel.table", "engine/data/expert-extreme.packed"); it is fetched there
// before the request goes on, never before a request needs it (a first visit's first total
// needs none).
const PACKAGE_DIR = "/home/pyodide/lib/kniffel";
const absent = new Set(); // files this site does not have: the engine says what it lacks
async function fetchTable(py, place) {
  if (absent.has(place)) return;
  const name = place.split("/").pop();
  try {
    const r = await fetch(new URL(`./tables/${name}`, import.meta.url));
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const data = new Uint8Array(await r.arrayBuffer());
    const path = `${PACKAGE_DIR}/${place}`;
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    py.FS.writeFile(path, data);
    progress("table", name);
  } catch (err) {
    absent.add(place);
    progress("table-failed", `${name}: ${err}`);
  }
}

ready.then(
  () => postMessage({ type: "ready", ms: Math.round(performance.now() - t0) }),
  (err) => postMessage({ type: "failed", message: String(err && err.stack || err) }),
);

// Requests are answered one after the other, in the order they came (a table fetched for one
// must not let a later one overtake it).
let queue = Promise.resolve();
onmessage = (event) => {
  go();
  if (event.data && event.data.type === "go") return;
  queue = queue.then(() => answer(event.data));
};

async function answer({ id, request }) {
  let engine;
  try {
    engine = await ready;
  } catch (err) {
    postMessage({ type: "reply", id, reply: { ok: false, error: { type: "EngineError", message: String(err) } } });
    return;
  }
  let reply;
  try {
    const text = JSON.stringify(request);
    const table = engine.wanted(text);
    if (table) await fetchTable(engine.py, table);
    reply = JSON.parse(engine.handle(text));
  } catch (err) {
    reply = { ok: false, error: { type: "EngineError", message: String(err) } };
  }
  postMessage({ type: "reply", id, reply });
}

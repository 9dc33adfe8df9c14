// The page's module graph (static/*.js), as tests/test_layers.py pins the Python one: no module
// imports one that imports it back, however far round; the drawing (screen.js) is reached through
// state.js's redraw(), not imported; the engine's worker starts when asked, not when imported.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import test from "node:test";

const STATIC = new URL("../../src/kniffel/web/static/", import.meta.url);
const modules = readdirSync(STATIC).filter((n) => n.endsWith(".js"));

// module -> the page's modules it imports (static imports and re-exports, one line or several).
function importGraph() {
  const graph = new Map();
  for (const name of modules) {
    const text = readFileSync(new URL(name, STATIC), "utf8");
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"\.\/([a-z]+\.js)(?:\?[^"]*)?"/gm)]
      .map((m) => m[1]);
    graph.set(name, [...new Set(targets)]);
  }
  return graph;
}

// Every cycle of the graph, one per strongly connected component of more than one module (or a
// module importing itself), as a path "a.js → b.js → a.js" (Tarjan's algorithm, then a search
// inside the component for a way back to its first module).
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => {
    const inside = new Set(component);
    const start = component[0];
    const path = [start];
    const seen = new Set();
    const back = (v) => {
      for (const w of (graph.get(v) ?? []).filter((x) => inside.has(x)).sort()) {
        if (w === start) return true;
        if (seen.has(w)) continue;
        seen.add(w);
        path.push(w);
        if (back(w)) return true;
        path.pop();
      }
      return false;
    };
    back(start);
    return { modules: component, path: [...path, start].join(" → ") };
  });
}

test("the cycle finder names a cycle of three modules and a module importing itself", () => {
  const found = cycles(new Map([["a.js", ["b.js"]], ["b.js", ["c.js", "d.js"]], ["c.js", ["a.js"]],
    ["d.js", []], ["e.js", ["e.js"]]]));
  assert.deepEqual(found.map((c) => c.path).sort(), ["a.js → b.js → c.js → a.js", "e.js → e.js"]);
  assert.deepEqual(cycles(new Map([["a.js", ["b.js"]], ["b.js", []]])), []);
});

test("the import graph is read from every module, with its imports", () => {
  const graph = importGraph();
  assert.ok(graph.size >= 20, [...graph.keys()].join(", "));
  assert.ok(graph.get("app.js").includes("screen.js"), graph.get("app.js").join(", "));
  assert.ok(graph.get("screen.js").includes("board.js"), graph.get("screen.js").join(", "));
});

test("no module of the page imports one that imports it back", () => {
  const found = cycles(importGraph());
  assert.deepEqual(found.map((c) => `${c.modules.length} modules: ${c.path}`), []);
});

test("only app.js imports screen.js: the others ask for a drawing through state.js's redraw()", () => {
  const importers = [...importGraph()].filter(([, targets]) => targets.includes("screen.js")).map(([name]) => name);
  assert.deepEqual(importers, ["app.js"]);
});

test("importing engine.js starts no worker; startEngine() starts the game's engine once", async () => {
  const started = [];
  globalThis.Worker = class {
    constructor(url) {
      started.push(String(url));
    }
  };
  try {
    const engine = await import("../../src/kniffel/web/static/engine.js?b=__BUILD__");
    assert.deepEqual(started, []);
    const first = engine.startEngine();
    assert.equal(engine.startEngine(), first);
    assert.equal(started.length, 1);
    assert.match(started[0], /\/worker\.js\?b=__BUILD__$/);
  } finally {
    delete globalThis.Worker;
  }
});

// A module's code without its comments.
const code = (text) => text.split("\n").map((line) => line.replace(/(^|\s)\/\/.*$/, "")).join("\n");

test("the screens' views are drawn by screen.js alone, the one drawing every change ends in", () => {
  const views = ["drawGame", "drawSetup", "drawHistory", "drawReview", "drawNotices"];
  for (const name of modules) {
    const text = readFileSync(new URL(name, STATIC), "utf8");
    for (const m of text.matchAll(/^import \{([^}]*)\} from/gm)) {
      const names = m[1].split(",").map((n) => n.trim());
      for (const view of views) assert.ok(!names.includes(view) || name === "screen.js", `${name} imports ${view}`);
    }
  }
});

test("every pure module of the page (no DOM, no storage) has node tests that import it", () => {
  const graph = importGraph();
  const pure = modules.filter((name) => {
    const text = code(readFileSync(new URL(name, STATIC), "utf8"));
    return !graph.get(name).includes("dom.js")
      && !/\b(document|localStorage|navigator|caches|self|importScripts)\b/.test(text);
  });
  assert.ok(pure.length >= 4, pure.join(", "));
  const tests = readdirSync(new URL("./", import.meta.url)).filter((n) => n.endsWith(".test.mjs"));
  const tested = new Set(tests.flatMap((n) => [...readFileSync(new URL(n, import.meta.url), "utf8")
    .matchAll(/"\.\.\/\.\.\/src\/kniffel\/web\/static\/([a-z]+\.js)\?b=__BUILD__"/g)].map((m) => m[1])));
  for (const name of pure) assert.ok(tested.has(name), `${name} is pure but no test imports it`);
});

// The page's state (static/state.js) declares every field the page's modules read or write, each
// with what it holds; a change reaches the screen through its one subscription (onRedraw/redraw);
// the game in progress changes through one setter (game.js setCurrent).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import test from "node:test";

import * as holder from "../../src/kniffel/web/static/state.js?b=__BUILD__";

const STATIC = new URL("../../src/kniffel/web/static/", import.meta.url);
const modules = readdirSync(STATIC).filter((n) => n.endsWith(".js"));
// The objects of state.js whose fields the modules use by name.
const OBJECTS = ["state", "play", "awake", "update", "timing", "facts"];

// A module's code without its comments (a line's `// …` after a space, or the whole line).
const code = (text) => text.split("\n").map((line) => line.replace(/(^|\s)\/\/.*$/, "")).join("\n");

// The names a module imports from state.js.
function importedFromState(text) {
  const m = /^import \{([^}]*)\} from "\.\/state\.js\?b=__BUILD__";$/m.exec(text);
  return m ? m[1].split(",").map((n) => n.trim()).filter(Boolean) : [];
}

// Every `object.field` of state.js's objects a module's code names (reads or writes), as
// "object.field" → the first line it is on: only objects the module imports from state.js, and
// never a name inside another (`page.update.ready`, `./state.js`).
function fieldsUsed(text) {
  const objects = importedFromState(text).filter((n) => OBJECTS.includes(n));
  const used = new Map();
  if (!objects.length) return used;
  const lines = code(text).split("\n");
  const pattern = new RegExp(`(?<![\\w.$/"'-])(${objects.join("|")})\\.([A-Za-z_$][\\w$]*)`, "g");
  lines.forEach((line, i) => {
    for (const m of line.matchAll(pattern)) if (!used.has(`${m[1]}.${m[2]}`)) used.set(`${m[1]}.${m[2]}`, i + 1);
  });
  return used;
}

test("the field finder reads a module's uses of state.js's objects, not words that look like them", () => {
  const text = [
    'import { play, state } from "./state.js?b=__BUILD__";',
    "// state.inComment is no use",
    "state.lang = tr(\"page.update.ready\"); // state.after",
    "if (play.padOpen && update.reg) x(state.hint?.id, `${state.review}`);",
  ].join("\n");
  assert.deepEqual([...fieldsUsed(text).keys()].sort(), ["play.padOpen", "state.hint", "state.lang", "state.review"]);
});

test("every field of the page's state a module reads or writes is declared in state.js", () => {
  let uses = 0;
  for (const name of modules) {
    for (const [field, line] of fieldsUsed(readFileSync(new URL(name, STATIC), "utf8"))) {
      uses++;
      const [object, key] = field.split(".");
      assert.ok(Object.hasOwn(holder[object], key), `${name}:${line}: ${field} is not declared in state.js`);
    }
  }
  assert.ok(uses > 150, `only ${uses} uses found`);
});

test("every field state.js declares is used by some module", () => {
  const used = new Set();
  for (const name of modules) for (const field of fieldsUsed(readFileSync(new URL(name, STATIC), "utf8")).keys()) used.add(field);
  for (const object of OBJECTS) {
    for (const key of Object.keys(holder[object])) {
      if (object === "timing") continue; // read by the console, the tests and the benchmark
      assert.ok(used.has(`${object}.${key}`), `${object}.${key} is declared but no module uses it`);
    }
  }
});

test("a change is drawn through the one subscription: redraw(part) calls what onRedraw registered", () => {
  const calls = [];
  holder.redraw(); // nothing registered yet in this process: nothing happens
  holder.onRedraw((part) => calls.push(part ?? "all"));
  holder.redraw();
  holder.redraw("boot");
  assert.deepEqual(calls, ["all", "boot"]);
});

test("the game in progress is set in one place only: game.js setCurrent", () => {
  const setters = [];
  for (const name of modules) {
    code(readFileSync(new URL(name, STATIC), "utf8")).split("\n").forEach((line, i) => {
      if (/\bstate\.current\s*=(?!=)/.test(line)) setters.push(`${name}:${i + 1}`);
    });
  }
  assert.equal(setters.length, 1, setters.join(", "));
  const game = readFileSync(new URL("game.js", STATIC), "utf8");
  const setter = /export function setCurrent\(record\) \{\n([^}]*)\}/.exec(game);
  assert.ok(setter, "game.js has no setCurrent(record)");
  assert.match(setter[1], /state\.current = record;/);
  assert.match(setter[1], /refreshIfStale\(/);
  const calls = modules.flatMap((name) => [...code(readFileSync(new URL(name, STATIC), "utf8"))
    .matchAll(/\brefreshIfStale\(/g)].map(() => name));
  assert.deepEqual(calls, ["chances.js", "game.js"]); // its definition and the setter's one call
});

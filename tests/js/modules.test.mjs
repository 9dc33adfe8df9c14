// The page's modules (static/*.js): each small enough to hold in mind, and each one the page
// imports is one file of the site, imported under the build's one address.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import test from "node:test";

const STATIC = new URL("../../src/kniffel/web/static/", import.meta.url);
const modules = readdirSync(STATIC).filter((n) => n.endsWith(".js"));

test("no file of the page is over 800 lines", () => {
  assert.ok(modules.length >= 10, modules.join(", "));
  for (const name of modules) {
    const lines = readFileSync(new URL(name, STATIC), "utf8").split("\n").length - 1;
    assert.ok(lines <= 800, `${name}: ${lines} lines`);
  }
});

test("every module is imported as ./name.js?b=__BUILD__ and exists, so the page loads each once", () => {
  for (const name of modules) {
    const text = readFileSync(new URL(name, STATIC), "utf8");
    for (const m of text.matchAll(/^import .* from "([^"]+)";$/gm)) {
      if (name === "worker.js") continue; // Pyodide's own module
      const found = /^\.\/([a-z]+\.js)\?b=__BUILD__$/.exec(m[1]);
      assert.ok(found, `${name}: ${m[1]}`);
      assert.ok(modules.includes(found[1]), `${name}: ${found[1]}`);
    }
  }
});

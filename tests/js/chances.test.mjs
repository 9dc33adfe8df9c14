// The win-chance row's numbers (static/chances.js): the engine's chances as the page writes them,
// when the row shows, and which chances a view the engine gave without them keeps.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { chancesShown, chanceText, keptChances } from "../../src/kniffel/web/static/chances.js?b=__BUILD__";
import { computerTurn } from "../../src/kniffel/web/static/game.js?b=__BUILD__";
import { state } from "../../src/kniffel/web/static/state.js?b=__BUILD__";
import { useWords } from "../../src/kniffel/web/static/words.js?b=__BUILD__";

const WORDS = new URL("../../src/kniffel/engine/words/", import.meta.url);
const page = (lang) => Object.fromEntries(Object.entries(JSON.parse(readFileSync(new URL(`${lang}.json`, WORDS), "utf8")))
  .filter(([code]) => code.startsWith("page.")));
useWords({ de: page("de"), en: page("en") });

const chances = (n) => ({ players: Array.from({ length: n }, () => ({ win: 1 / n })), leader: 0, stale: false });
const view = (n, extra = {}) => ({ actions: 4, over: false, columns: Array.from({ length: n }, () => ({})),
  chances: chances(n), ...extra });

test("a chance reads as a whole percentage, never 0 % or 100 % while it is neither none nor certain", () => {
  assert.equal(chanceText(0.254), "25 %");
  assert.equal(chanceText(0), "0 %");
  assert.equal(chanceText(1), "100 %");
  assert.equal(chanceText(3e-5), "< 1 %");
  assert.equal(chanceText(0.99999), "> 99 %");
});

test("the row shows for a running game of several players with their chances, unless the setting hides it", () => {
  state.showChances = true;
  assert.ok(chancesShown(view(2)));
  assert.ok(!chancesShown(view(1)));
  assert.ok(!chancesShown(view(2, { over: true })));
  assert.ok(!chancesShown(view(2, { chances: null })));
  assert.ok(!chancesShown(view(3, { chances: chances(2) })));
  state.showChances = false;
  try {
    assert.ok(!chancesShown(view(2)));
  } finally {
    state.showChances = true;
  }
});

test("a view given without chances keeps the stored view's of the same moment, none of another", () => {
  const stored = view(2);
  const fresh = { ...view(2), chances: null };
  assert.deepEqual(keptChances(fresh, stored).chances, stored.chances);
  assert.equal(keptChances({ ...fresh, actions: 5 }, stored).chances, null);
  assert.equal(keptChances(fresh, null).chances, null);
  assert.equal(keptChances(fresh, { ...stored, chances: undefined }).chances, null);
});

test("a computer moves by itself only in a running dice game, on its own turn", () => {
  const game = (mode, current, over = false) => ({ mode, current, over,
    players: [{ kind: "human" }, { kind: "computer" }] });
  assert.ok(computerTurn(game("dice", 1)));
  assert.ok(!computerTurn(game("dice", 0)));
  assert.ok(!computerTurn(game("pad", 1)));
  assert.ok(!computerTurn(game("dice", 1, true)));
  assert.ok(!computerTurn(game("dice", null)));
  assert.ok(!computerTurn(null));
});

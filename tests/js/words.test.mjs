// The page's words and numbers (static/words.js): templates filled like Python's str.format,
// plural forms by the language's rules, numbers as readers of each language write them, and
// every code the page's modules name is in both of the catalog's word files.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import test from "node:test";

import { state } from "../../src/kniffel/web/static/state.js?b=__BUILD__";
import {
  addWords, count, countIn, dec, format, has, holds, minus, num, numIn, percent, refusal, sentence, tr, useWords, wordIn,
} from "../../src/kniffel/web/static/words.js?b=__BUILD__";

const STATIC = new URL("../../src/kniffel/web/static/", import.meta.url);
const WORDS = new URL("../../src/kniffel/engine/words/", import.meta.url);
const catalog = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, WORDS), "utf8"));
const page = (lang) => Object.fromEntries(Object.entries(catalog(lang)).filter(([code]) => code.startsWith("page.")));
useWords({ de: page("de"), en: page("en") });

const inLang = (lang, fn) => {
  const before = state.lang;
  state.lang = lang;
  try {
    return fn();
  } finally {
    state.lang = before;
  }
};

test("a template's placeholders are filled by name, an unknown one stays as it is", () => {
  assert.equal(format("{name} hält {dice}", { name: "Anna", dice: "5 5" }), "Anna hält 5 5");
  assert.equal(format("{name}: {missing}", { name: "Ben" }), "Ben: {missing}");
  assert.equal(format("{n} und {n}", { n: 0 }), "0 und 0");
});

test("words come in the page's language, German where English lacks a code, the code where both do", () => {
  useWords({ de: { "page.x": "Spiel {n}", "page.only_de": "nur deutsch" }, en: { "page.x": "Game {n}" } });
  try {
    assert.equal(inLang("de", () => tr("page.x", { n: 2 })), "Spiel 2");
    assert.equal(inLang("en", () => tr("page.x", { n: 2 })), "Game 2");
    assert.equal(wordIn("en", "page.only_de"), "nur deutsch");
    assert.equal(wordIn("en", "page.nowhere"), "page.nowhere");
    assert.equal(has("page.only_de", "en"), false);
  } finally {
    useWords({ de: page("de"), en: page("en") });
  }
});

test("tr() is the one way a word reaches the page: a catalog code, or the engine's text in both languages", () => {
  assert.equal(inLang("en", () => tr({ de: "Fünfer", en: "Fives" })), "Fives");
  assert.equal(inLang("de", () => tr({ de: "Fünfer", en: "Fives" })), "Fünfer");
  assert.equal(inLang("en", () => tr({ de: "nur deutsch" })), "nur deutsch");
  assert.equal(tr(null), "");
  assert.equal(tr(undefined), "");
  assert.equal(inLang("en", () => tr("page.game.undo")), page("en")["page.game.undo"]);
});

test("the engine's words of meta.json ({code: {de, en}}) join the catalog, tr() speaks them", () => {
  try {
    assert.equal(has("web.x.test", "de"), false);
    addWords({ "web.x.test": { de: "Tipp {n}", en: "Hint {n}" }, "web.x.only_de": { de: "nur" } });
    assert.equal(inLang("de", () => tr("web.x.test", { n: 1 })), "Tipp 1");
    assert.equal(inLang("en", () => tr("web.x.test", { n: 2 })), "Hint 2");
    assert.equal(inLang("en", () => tr("web.x.only_de")), "nur");
    assert.equal(inLang("en", () => tr("page.game.undo")), page("en")["page.game.undo"]); // the page's stay
  } finally {
    useWords({ de: page("de"), en: page("en") });
  }
});

test("the page's modules have one channel for words: no w() or label() beside tr()", () => {
  for (const name of readdirSync(STATIC).filter((n) => n.endsWith(".js"))) {
    const text = readFileSync(new URL(name, STATIC), "utf8");
    assert.doesNotMatch(text, /^import \{[^}]*\b(w|label)\b[^}]*\} from "\.\/words\.js/m, name);
    assert.doesNotMatch(text, /(?<![\w.$"-])(w|label)\(/, name);
  }
});

test("a count takes the one or other form by the language's plural rules", () => {
  assert.equal(countIn("de", "page.game.points", 1), "1 Punkt");
  assert.equal(countIn("de", "page.game.points", 0), "0 Punkte");
  assert.equal(countIn("de", "page.game.points", 25), "25 Punkte");
  assert.equal(countIn("en", "page.game.points", 1), "1 point");
  assert.equal(countIn("en", "page.game.points", 2), "2 points");
  assert.equal(countIn("de", "page.confirm.score", 1, { name: "Anna", box: "Fünfer" }), "Anna: 1 Punkt bei Fünfer");
  assert.equal(countIn("en", "page.confirm.score", 15, { name: "Anna", box: "Fives" }), "Anna: 15 points in Fives");
  assert.equal(countIn("de", "page.history.unfinished_group", 1200), "1.200 ältere nicht beendete Spiele");
  assert.equal(inLang("en", () => count("page.history.delete_unfinished", 1)), "Delete this game");
});

test("numbers are written as each language writes them", () => {
  assert.equal(numIn("de", 1234), "1.234");
  assert.equal(numIn("en", 1234), "1,234");
  assert.equal(inLang("de", () => dec(2.5, 2)), "2,50");
  assert.equal(inLang("en", () => dec(2.5, 2)), "2.50");
  assert.equal(inLang("de", () => dec(836.04)), "836,0");
  assert.equal(inLang("de", () => minus(2.956, 2)), "−2,96");
  assert.equal(inLang("en", () => num("7")), "7");
  assert.equal(inLang("de", () => percent(0.254)), "25 %");
});

test("a refusal reads the engine's own words first, else a phrase for its kind", () => {
  assert.equal(inLang("de", () => refusal({ type: "IllegalMoveError", message: "dev", text: "Das Feld ist voll." })),
    "Das Feld ist voll.");
  assert.equal(inLang("de", () => refusal({ type: "IllegalMoveError", message: "dev" })), "Das ist so nicht möglich.");
  assert.equal(inLang("en", () => refusal({ type: "SomethingElse" })), "That did not work.");
  assert.equal(inLang("en", () => refusal(null)), "That did not work.");
});

test("a sentence ends with a full stop unless it has one", () => {
  assert.equal(sentence("Das geht nicht"), "Das geht nicht.");
  assert.equal(sentence("Wirklich?"), "Wirklich?");
});

test("a control's name holds the words it shows, case and signs aside", () => {
  assert.ok(holds("Fünfer: 15 Punkte", "Fünfer 15"));
  assert.ok(!holds("Fünfer für 15 Punkte", "Fünfer 15"));
  assert.ok(holds("Chip abgeben (2)", "chip abgeben"));
  assert.ok(!holds("Fünfer: Streichen", "Sechser"));
});

// Every "page.…" and "web.…" code in the page's modules (a literal, or the fixed start of a
// template literal such as `page.setup.mode_${m}`), and every {{page.…}} of index.html and the
// manifest: the codes tr() is called with.
function codesOfThePage() {
  const found = new Set();
  const prefixes = new Set();
  for (const name of readdirSync(STATIC)) {
    if (!/\.(js|html|webmanifest)$/.test(name)) continue;
    const text = readFileSync(new URL(name, STATIC), "utf8");
    for (const m of text.matchAll(/["{]\{?((?:page|web)\.[a-z0-9_.A-Z]+)[}"]/g)) {
      const code = m[1].replace(/\.$/, "");
      (code.endsWith("_") ? prefixes : found).add(code); // "web.import_": the start of codes
    }
    for (const m of text.matchAll(/`((?:page|web)\.[a-z0-9_.]+)\$\{/g)) prefixes.add(m[1]);
  }
  return { found, prefixes };
}

test("every word the page names is in both languages of the catalog", () => {
  const { found, prefixes } = codesOfThePage();
  assert.ok(found.size > 150, `only ${found.size} codes found`);
  assert.ok([...found].filter((c) => c.startsWith("web.")).length >= 20, "the engine's words (web.…) are not found");
  for (const lang of ["de", "en"]) {
    const words = catalog(lang);
    for (const code of found) {
      assert.ok(code in words || `${code}.other` in words, `${lang}: ${code}`);
    }
    for (const prefix of prefixes) {
      assert.ok(Object.keys(words).some((c) => c.startsWith(prefix)), `${lang}: ${prefix}…`);
    }
  }
});

test("the page's modules hold no German word: no umlaut or ß outside comments", () => {
  for (const name of readdirSync(STATIC).filter((n) => n.endsWith(".js"))) {
    const code = readFileSync(new URL(name, STATIC), "utf8").split("\n")
      .map((line) => line.replace(/(^|\s)\/\/.*$/, ""));
    code.forEach((line, i) => assert.ok(!/[äöüÄÖÜß]/.test(line), `${name}:${i + 1}: ${line.trim()}`));
  }
});

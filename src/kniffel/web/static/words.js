// Words and numbers as the page shows them, in the page's language. The words come from the one
// catalog (kniffel.engine.messages: the "page." codes, which the site's build writes into
// index.html, and the engine's "web." words in meta.json), and every word reaches the page one
// way: tr(), with a catalog code or a text the engine gave in both languages ({de, en}: a box's
// name, a hint's line). Nothing here is a word itself. Every number the page shows is formatted
// here. No DOM: the page hands the catalog in (useWords, addWords).

import { state } from "./state.js?b=__BUILD__";

let catalog = { de: {}, en: {} };

// The page's words: {de: {code: template}, en: {code: template}}.
export function useWords(words) {
  catalog = { de: words.de ?? {}, en: words.en ?? {} };
}

// A template with its {name} placeholders filled (as Python's str.format does); a placeholder
// without a value stays as it is.
export function format(template, params = {}) {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g,
    (whole, name) => (params[name] === undefined ? whole : String(params[name])));
}

// More of the catalog's words, as meta.json carries them: {code: {de, en}} (the engine's "web."
// words), added to those of useWords.
export function addWords(pairs) {
  for (const [code, texts] of Object.entries(pairs ?? {})) {
    for (const lang of ["de", "en"]) if (typeof texts[lang] === "string") catalog[lang][code] = texts[lang];
  }
}

// Whether the catalog has words for ``code`` in ``lang``.
export const has = (code, lang = state.lang) => Object.hasOwn(catalog[lang] ?? {}, code);

// The words of ``code`` in ``lang`` (German where the language lacks them), filled with
// ``params``; the code itself where the catalog has none.
export function wordIn(lang, code, params = {}) {
  const template = catalog[lang]?.[code] ?? catalog.de[code];
  return template === undefined ? code : format(template, params);
}

// The one way a word reaches the page: the words of the catalog's ``code`` in the page's language,
// filled with ``params``; or, for a text the engine gave in both languages (``{de, en}``), the
// page's language's (German where it lacks one); nothing for no text.
export function tr(what, params) {
  if (what === null || what === undefined) return "";
  if (typeof what === "object") return what[state.lang] ?? what.de ?? "";
  return wordIn(state.lang, what, params);
}

// The words of ``code`` for ``n`` things: ``code.one`` or ``code.other`` by the language's plural
// rules, with ``{n}`` the number as the page writes it.
export function countIn(lang, code, n, params = {}) {
  const form = new Intl.PluralRules(lang).select(n);
  const key = has(`${code}.${form}`, lang) || !has(`${code}.other`, lang) ? `${code}.${form}` : `${code}.other`;
  return wordIn(lang, key, { n: numIn(lang, n), ...params });
}

export const count = (code, n, params) => countIn(state.lang, code, n, params);

// ------------------------------------------------------------------------------------- numbers
const formats = new Map();
function formatter(lang, digits) {
  const key = `${lang}/${digits}`;
  if (!formats.has(key)) {
    formats.set(key, new Intl.NumberFormat(lang, digits === null ? {}
      : { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return formats.get(key);
}

// A number as a reader of ``lang`` writes it ("1.234" in German, "1,234" in English).
export const numIn = (lang, n) => formatter(lang, null).format(Number(n));
export const num = (n) => numIn(state.lang, n);
// A number with ``digits`` decimals, as a reader of the page's language writes it.
export const decIn = (lang, n, digits = 1) => formatter(lang, digits).format(Number(n));
export const dec = (n, digits = 1) => decIn(state.lang, n, digits);
// A loss: the number with a minus sign before it ("−2,96").
export const minus = (n, digits = 1) => `−${dec(n, digits)}`;
// A share (0.25) as a whole percentage ("25 %").
export const percent = (share) => tr("page.history.percent", { n: num(Math.round(share * 100)) });

// ------------------------------------------------------------------------------------- dates
// A date with its time ("30.11.2026, 14:05"), or only the day.
export const dateText = (d, withTime = true) => (withTime
  ? d.toLocaleString(state.lang, { dateStyle: "medium", timeStyle: "short" })
  : d.toLocaleDateString(state.lang, { dateStyle: "medium" }));
// A date in the style ``options`` of Intl.DateTimeFormat, a time of day with ``time``.
export const dateAs = (d, options) => d.toLocaleDateString(state.lang, options);
export const timeAs = (d, options) => d.toLocaleTimeString(state.lang, options);

// ------------------------------------------------------------------------------------- boxes
// A box of the view's rules, and its name in the page's language (its id where the rules lack it).
export function boxOf(view, id) {
  return view.rules.boxes.find((x) => x.id === id);
}

export function boxName(view, id) {
  const b = boxOf(view, id);
  return b ? tr(b.name) : id;
}

// A message as a sentence of its own: ends with a full stop unless it ends with one already.
export function sentence(text) {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

// What the player reads when the engine refuses: its message in their language (error.text),
// else a short phrase for the kind of refusal; the developer's text goes to the console only.
// The words of a table's "who did what" (the engine's said: its texts in both languages, its
// text in the language asked, or its catalog code), in the page's language.
export function saidText(said) {
  if (said.texts) return tr(said.texts);
  return typeof said.text === "string" ? said.text : tr(said.code, said.params);
}

export function refusal(error) {
  if (error && typeof error.message === "string") console.debug("kniffel:", error.type, error.message);
  if (error && typeof error.text === "string" && error.text) return error.text;
  const code = `page.error.${error && error.type}`;
  return has(code) ? tr(code) : tr("page.error.generic");
}

// Whether the words ``shown`` are in ``name`` (case, spaces and signs aside): a control's name
// holds the words it shows, so one who says what they see (speech input) reaches it.
export function holds(name, shown) {
  const words = (x) => x.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  return words(name).includes(words(shown));
}

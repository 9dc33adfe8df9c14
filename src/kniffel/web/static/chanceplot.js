// The review's plot of every player's win chance over the game, and its result split into
// decisions and luck.

import { $, h, svgEl } from "./dom.js?b=__BUILD__";
import { MARKS, mark } from "./plot.js?b=__BUILD__";
import { count, dec, minus, num, percent, tr } from "./words.js?b=__BUILD__";

// The numbers come from the engine (kniffel.browser.advice_view.review_chances_view: the chances
// before the first entry and after every entry, and each player's expected, final, lost and lucky
// points); the page only draws them. The plot is drawn like the history's (plot.js): at the width it
// is shown, the Okabe–Ito colours of history.css (light and dark), a mark of its own shape for every
// player (on the line's points at the end of some rounds, so no two lines look alike even without
// colour), marks on the same spot set side by side, and margins, so every mark is whole.

// The x axis: entry number ``e`` (0 before the first); a round ends after one entry per player.
// The rounds named under the axis: every ``step``-th as many as fit ``room``, and the last (the one
// before it gives way where the two would touch, less than ``gap`` rounds apart).
function roundTicks(rounds, room, gap) {
  const step = [1, 2, 5, 10, 20, 50].find((s) => rounds / s <= room) ?? 100;
  const out = [];
  for (let k = step; k < rounds; k += step) out.push(k);
  if (out.length && rounds - out[out.length - 1] < gap) out.pop();
  out.push(rounds);
  return out;
}

// The plot of ``chances`` (points: [{entry, round, win: [share per player]}]) for players ``names``.
export function chancePlot(chances, names) {
  const W = Math.round(Math.max(280, Math.min(720, $("screen").clientWidth || 360)));
  const H = Math.round(Math.max(210, Math.min(300, W * 0.62)));
  const L = 56, R = 18, T = 14, B = 52; // room for the axes' numbers and titles
  const points = chances.points;
  const players = Math.min(names.length, MARKS.length);
  const last = points[points.length - 1].entry;
  const rounds = Math.max(1, Math.ceil(last / names.length));
  const r = 4.5;
  const pad = 2 * r + 4; // the first and the last marks stay clear of the axis and the edge
  const x = (e) => L + pad + (last ? e / last : 0.5) * (W - L - R - 2 * pad);
  const y = (share) => H - B - share * (H - T - B);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "plot chance-plot",
    id: "chances-plot", "aria-labelledby": "chances-plot-title" });
  const el = (tag, attrs, text) => {
    const e = svgEl(tag, attrs);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  // the text alternative: every player's chance at the start, at the end and at its highest
  const described = names.slice(0, players).map((name, i) => tr("page.review_chances.alt_player", {
    name, first: percent(points[0].win[i]), last: percent(points[points.length - 1].win[i]),
    top: percent(Math.max(...points.map((p) => p.win[i]))) })).join("; ");
  el("title", { id: "chances-plot-title" }, count("page.review_chances.alt", last, { players: described }));
  for (let v = 0; v <= 4; v++) {
    el("line", { x1: L, y1: y(v / 4), x2: W - R, y2: y(v / 4), class: v ? "grid" : "axis" });
    el("text", { x: L - 6, y: y(v / 4) + 4, class: "tick", "text-anchor": "end" }, percent(v / 4));
  }
  el("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" });
  const perRound = (W - L - R - 2 * pad) / rounds;
  const ticks = roundTicks(rounds, Math.max(2, Math.floor((W - L - R) / 30)), 24 / perRound).map((k) => ({ k, e: Math.min(last, k * names.length) }));
  for (const t of ticks) {
    el("line", { x1: x(t.e), y1: H - B, x2: x(t.e), y2: H - B + 5, class: "axis" });
    el("text", { x: x(t.e).toFixed(1), y: H - B + 19, class: "tick", "text-anchor": "middle" }, num(t.k));
  }
  el("text", { x: (L + W - R) / 2, y: H - 8, class: "axis-title", "text-anchor": "middle" }, tr("page.review_chances.axis_round"));
  el("text", { x: 14, y: (T + H - B) / 2, class: "axis-title", "text-anchor": "middle",
    transform: `rotate(-90 14 ${(T + H - B) / 2})` }, tr("page.review_chances.axis_chance"));
  for (let i = 0; i < players; i++) {
    el("polyline", { points: points.map((p) => `${x(p.entry).toFixed(1)},${y(p.win[i]).toFixed(1)}`).join(" "),
      class: `line series-${i}` });
  }
  // the marks: at the start, at the round ends named under the axis, and at the end
  const marked = [...new Set([0, ...ticks.map((t) => t.e), last])]
    .map((e) => points.find((p) => p.entry === e)).filter(Boolean);
  for (const p of marked) {
    // marks that would cover each other are set side by side (the group kept inside the plot)
    const here = Array.from({ length: players }, (_, i) => i).sort((a, b) => p.win[a] - p.win[b]);
    for (let k = 0; k < here.length;) {
      let j = k + 1;
      while (j < here.length && y(p.win[here[k]]) - y(p.win[here[j]]) < 2 * r) j++;
      const group = here.slice(k, j);
      const width = (group.length - 1) * 2.2 * r;
      const left = Math.min(Math.max(x(p.entry) - width / 2, L + 1.5 * r + 1), W - 1.5 * r - 1 - width);
      group.forEach((i, q) => {
        const dot = mark(i, left + q * 2.2 * r, y(p.win[i]), r, `dot series-${i}`);
        const chance = percent(p.win[i]);
        dot.append(svgEl("title", {}, p.entry === 0 ? tr("page.review_chances.mark_start", { name: names[i], chance })
          : tr("page.review_chances.mark", { name: names[i], chance, round: num(Math.ceil(p.entry / names.length)) })));
        svg.append(dot);
      });
      k = j;
    }
  }
  const legend = h("ul", { class: "legend", id: "chances-legend" }, names.slice(0, players).map((name, i) =>
    h("li", {}, svgEl("svg", { class: "swatch", viewBox: "0 0 18 18", width: 18, height: 18, "aria-hidden": "true" },
      mark(i, 9, 9, 5.5, `dot series-${i}`)), name)));
  return h("figure", { class: "plot-figure chance-figure", id: "chances-figure" },
    h("figcaption", {}, tr("page.review_chances.title")), svg, legend,
    h("p", { class: "hint" }, tr("page.review_chances.explain")));
}

// Points as a signed difference: "+5,1", "−22,4", "0,0".
function signed(v) {
  if (Math.abs(v) < 0.05) return dec(0);
  return v < 0 ? minus(-v) : `+${dec(v)}`;
}

// Every player's result: final points, the expected final total at the start, the points their
// decisions lost and the luck (the rest), with a line that says what the numbers mean.
export function luckLines(luck) {
  return h("section", { class: "review-luck", id: "review-luck", "aria-labelledby": "review-luck-title" },
    h("h3", { id: "review-luck-title" }, tr("page.review_chances.luck_title")),
    h("ul", { class: "luck-lines" }, luck.map((s) => h("li", { "data-player": s.player },
      tr("page.review_chances.luck_line", { name: s.name, points: count("page.game.points", s.final),
        expected: dec(s.expected), skill: s.skill < 0.05 ? dec(0) : minus(s.skill), luck: signed(s.luck) })))),
    h("p", { class: "hint" }, tr("page.review_chances.luck_explain")));
}

// The review's part about everyone: the plot (where two or more play) and the luck lines.
export function drawReviewChances(chances, names) {
  if (!chances) return null;
  return h("div", { class: "review-chances", id: "review-chances" },
    names.length > 1 ? chancePlot(chances, names) : null, luckLines(chances.luck));
}

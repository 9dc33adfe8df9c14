// The plot of the players' totals over the games.

import { $, h, svgEl } from "./dom.js?b=__BUILD__";
import { entryDate } from "./store.js?b=__BUILD__";
import { count, dateAs, num, timeAs, tr } from "./words.js?b=__BUILD__";

// The plot of each player's totals over the games in date order (numbers from the engine's
// statistics). Drawn at the width it is shown, so its text has real pixel sizes on a phone.
// Every player has a colour of the Okabe–Ito palette (history.css, light and dark) and a mark
// of their own shape, so no two look alike even without colour; marks on the same spot are
// set side by side, and the plot keeps a margin, so every mark is whole.
export const MARKS = ["circle", "square", "triangle", "diamond", "down", "pentagon", "plus", "star"];

// The outline of the mark ``kind`` of radius ``r`` around (x, y), as an SVG path.
function markPath(kind, x, y, r) {
  const at = (list) => `M${list.map(([a, b]) => `${(x + a * r).toFixed(1)},${(y + b * r).toFixed(1)}`).join("L")}Z`;
  const ring = (n, turn, k, inner = 0) => at(Array.from({ length: inner ? 2 * n : n }, (_, i) => {
    const t = turn + (Math.PI * i) / (inner ? n : n / 2);
    const s = inner && i % 2 ? inner : k;
    return [s * Math.sin(t), -s * Math.cos(t)];
  }));
  const q = 0.36;
  switch (kind) {
    case "square": return at([[-0.85, -0.85], [0.85, -0.85], [0.85, 0.85], [-0.85, 0.85]]);
    case "triangle": return ring(3, 0, 1.3);
    case "down": return ring(3, Math.PI, 1.3);
    case "diamond": return ring(4, 0, 1.25);
    case "pentagon": return ring(5, 0, 1.1);
    case "plus": return at([[-q, -1.1], [q, -1.1], [q, -q], [1.1, -q], [1.1, q], [q, q], [q, 1.1], [-q, 1.1],
      [-q, q], [-1.1, q], [-1.1, -q], [-q, -q]]);
    case "star": return ring(5, 0, 1.35, 0.6);
    default: return at([[0, -1], [1, 0], [0, 1], [-1, 0]]);
  }
}

// A player's mark: a circle for the first, a path of its own shape for each other (the review's
// plot of win chances, chanceplot.js, draws the same marks).
export function mark(i, x, y, r, cls) {
  const kind = MARKS[i % MARKS.length];
  return kind === "circle" ? svgEl("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r, class: cls })
    : svgEl("path", { d: markPath(kind, x, y, r), class: cls });
}

// The x axis' words for the games' dates: times for games of one day, day and month within a
// year, else with the year; and the axis' title that goes with them.
function dateLabels(dates) {
  const known = dates.filter(Boolean);
  const day = (d) => d.toDateString();
  const oneDay = known.length > 0 && known.every((d) => day(d) === day(known[0]));
  const oneYear = known.every((d) => d.getFullYear() === (known[0] ?? d).getFullYear());
  const text = (d) => {
    if (!d) return tr("page.history.no_date");
    if (oneDay) return timeAs(d, { hour: "2-digit", minute: "2-digit" });
    return dateAs(d, oneYear ? { day: "numeric", month: "numeric" }
      : { day: "numeric", month: "numeric", year: "2-digit" });
  };
  const title = oneDay ? tr("page.plot.axis_times", { date: dateAs(known[0], { dateStyle: "medium" }) })
    : tr("page.plot.axis_games");
  return { labels: dates.map(text), title };
}

// ``stats`` is one rule set's part of the engine's statistics (players with their totals);
// ``id`` names the plot's elements (the first rule set's plain: #plot).
export function plot(stats, ordered, id = (name) => name) {
  const W = Math.round(Math.max(280, Math.min(720, $("screen").clientWidth || 360)));
  const H = Math.round(Math.max(210, Math.min(300, W * 0.62)));
  const L = 52, R = 18, T = 18, B = 52; // room for the axes' numbers and titles
  const series = stats.players.slice(0, MARKS.length);
  const games = [...new Set(series.flatMap((p) => p.totals.map((t) => t[0])))].sort((a, b) => a - b);
  const rank = new Map(games.map((g, i) => [g, i]));
  const maxY = Math.max(1, ...series.flatMap((p) => p.totals.map((t) => t[1])));
  const step = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => maxY / s <= 5) ?? 2000;
  const top = Math.ceil(maxY / step) * step;
  const n = games.length;
  const r = n === 1 ? 6 : n > 40 ? 3.5 : 4.5;
  const pad = 2 * r + 4; // the first and the last game's marks stay clear of the axis and the edge
  const x = (g) => (n === 1 ? (L + W - R) / 2 : L + pad + (rank.get(g) / (n - 1)) * (W - L - R - 2 * pad));
  const y = (v) => H - B - (v / top) * (H - T - B);
  const dates = games.map((g) => {
    const d = new Date(ordered[g] ? entryDate(ordered[g]) : "");
    return isNaN(d) ? null : d;
  });
  const { labels, title } = dateLabels(dates);
  const labelOf = new Map(games.map((g, i) => [g, labels[i]]));
  const names = series.map((p) => p.name).join(", ");
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "plot", id: id("plot"),
    "aria-labelledby": id("plot-title") });
  const el = (tag, attrs, text) => {
    const e = svgEl(tag, attrs);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  el("title", { id: id("plot-title") }, count("page.plot.alt", n, { first: labels[0], last: labels[n - 1], names }));
  for (let v = 0; v <= top; v += step) {
    el("line", { x1: L, y1: y(v), x2: W - R, y2: y(v), class: v ? "grid" : "axis" });
    el("text", { x: L - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, num(v));
  }
  el("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" });
  // labels under the x axis: as many as fit without touching, never two alike, the first and
  // the last game's always (the one before the last gives way)
  const width = (t) => t.length * 7.4;
  const ticks = [];
  games.forEach((g, i) => {
    const text = labels[i];
    if (ticks.some((t) => t.text === text)) return;
    const at = Math.min(Math.max(x(g), width(text) / 2 + 2), W - width(text) / 2 - 2);
    const prev = ticks[ticks.length - 1];
    if (prev && at - width(text) / 2 < prev.at + width(prev.text) / 2 + 8) {
      if (i !== n - 1 || ticks.length < 2) return;
      ticks.pop();
    }
    ticks.push({ g, text, at });
  });
  for (const t of ticks) {
    el("line", { x1: x(t.g), y1: H - B, x2: x(t.g), y2: H - B + 5, class: "axis" });
    el("text", { x: t.at.toFixed(1), y: H - B + 19, class: "tick", "text-anchor": "middle" }, t.text);
  }
  el("text", { x: (L + W - R) / 2, y: H - 8, class: "axis-title", "text-anchor": "middle" }, title);
  el("text", { x: 14, y: (T + H - B) / 2, class: "axis-title", "text-anchor": "middle",
    transform: `rotate(-90 14 ${(T + H - B) / 2})` }, tr("page.plot.axis_points"));
  // marks of one game that would cover each other are set side by side
  const spot = new Map(); // "series:game" -> x
  for (const g of games) {
    const here = series.map((p, i) => ({ i, t: p.totals.find((t) => t[0] === g) })).filter((m) => m.t)
      .sort((a, b) => a.t[1] - b.t[1]);
    for (let k = 0; k < here.length;) {
      let j = k + 1;
      while (j < here.length && y(here[k].t[1]) - y(here[j].t[1]) < 2 * r) j++;
      here.slice(k, j).forEach((m, q) => {
        const dx = (q - (j - k - 1) / 2) * 2.2 * r;
        spot.set(`${m.i}:${g}`, Math.min(Math.max(x(g) + dx, L + 1.5 * r + 1), W - 1.5 * r - 1));
      });
      k = j;
    }
  }
  series.forEach((p, i) => {
    if (p.totals.length > 1) {
      el("polyline", { points: p.totals.map((t) => `${spot.get(`${i}:${t[0]}`).toFixed(1)},${y(t[1]).toFixed(1)}`).join(" "),
        class: `line series-${i}` });
    }
  });
  series.forEach((p, i) => {
    for (const t of p.totals) {
      const dot = mark(i, spot.get(`${i}:${t[0]}`), y(t[1]), r, `dot series-${i}`);
      dot.append(svgEl("title", {}, `${p.name}: ${num(t[1])} (${labelOf.get(t[0])})`));
      svg.append(dot);
    }
  });
  const legend = h("ul", { class: "legend", id: id("plot-legend") }, series.map((p, i) =>
    h("li", {}, svgEl("svg", { class: "swatch", viewBox: "0 0 18 18", width: 18, height: 18, "aria-hidden": "true" },
      mark(i, 9, 9, 5.5, `dot series-${i}`)), p.name)));
  return h("figure", { class: "plot-figure" }, h("figcaption", {}, tr("page.plot.title")), svg, legend);
}

// The dice's faces: a d6 with its pips, the d10 as a kite; the small dice of hints and reviews.

import { h, svgEl } from "./dom.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

const PIPS = { 1: [[2, 2]], 2: [[1, 3], [3, 1]], 3: [[1, 3], [2, 2], [3, 1]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]],
  5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] };

// A d6 with its pips, or the d10: a kite with its number and the label W10/d10.
export function dieFace(value, d10) {
  if (d10) {
    return svgEl("svg", { viewBox: "0 0 40 40", class: "face", "aria-hidden": "true" },
      svgEl("polygon", { points: "20,1 38,15 20,39 2,15", class: "body" }),
      // one text, "5 W10" (the die's name holds it): the number and the label on two lines
      svgEl("text", {}, svgEl("tspan", { x: 20, y: 21, class: "num" }, String(value)), " ",
        svgEl("tspan", { x: 20, y: 29.5, class: "lbl" }, tr("page.dice.d10_label"))));
  }
  return svgEl("svg", { viewBox: "0 0 40 40", class: "face", "aria-hidden": "true" },
    svgEl("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, class: "body" }),
    ...(PIPS[value] ?? []).map(([c, r]) => svgEl("circle", { cx: c * 10, cy: r * 10, r: 3.6, class: "pip" })));
}

export function miniDice(dice, d10) {
  return h("span", { class: "mini-dice", role: "img", "aria-label": dice.map((v, i) => (d10 && i === dice.length - 1 ? tr("page.dice.die_d10", { value: v }) : v)).join(", ") },
    dice.map((v, i) => h("span", { class: `die mini${d10 && i === dice.length - 1 ? " d10" : ""}` }, dieFace(v, d10 && i === dice.length - 1))));
}

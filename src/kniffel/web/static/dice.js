// The dice: their faces, their order on the table, which are kept; the dice game's bar.

import { focusSel, h, svgEl } from "./dom.js?b=__BUILD__";
import { askHint, currentHint, drawHintBox } from "./expert.js?b=__BUILD__";
import { act, computerTurn, confirmLine } from "./game.js?b=__BUILD__";
import { optionButton, undoButton } from "./sheet.js?b=__BUILD__";
import { play, redraw, state } from "./state.js?b=__BUILD__";
import { saveUi } from "./storage.js?b=__BUILD__";
import { tr, w } from "./words.js?b=__BUILD__";

const PIPS = { 1: [[2, 2]], 2: [[1, 3], [3, 1]], 3: [[1, 3], [2, 2], [3, 1]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]],
  5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] };

// A d6 with its pips, or the d10: a kite with its number and the label W10/d10.
function dieFace(value, d10) {
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

const validSlots = (slots, n) => Array.isArray(slots) && slots.length === n
  && [...slots].sort((a, b) => a - b).every((v, i) => v === i);

// The dice in display order: after a throw the kept dice stay in their places and the new dice
// take the others (the engine's order is sorted; only the drawing order differs).
function diceOrder(view) {
  const dice = view.turn && view.turn.dice;
  if (!dice) { play.order = null; return []; }
  const n = dice.length;
  if (play.order && play.order.actions === view.actions && validSlots(play.order.slots, n)) return play.order.slots;
  let slots = dice.map((_, i) => i);
  const pk = play.pendingKeep;
  if (pk && pk.from + 2 === view.actions && pk.kept.length) {
    const placed = new Array(n).fill(null);
    const used = new Set();
    for (const [slot, value, d10] of pk.kept) {
      const pos = dice.findIndex((d, i) => !used.has(i) && d.value === value && d.d10 === d10);
      if (pos >= 0 && slot < n) { placed[slot] = pos; used.add(pos); }
    }
    const rest = slots.filter((i) => !used.has(i));
    for (let s = 0; s < n; s++) if (placed[s] === null) placed[s] = rest.shift();
    if (validSlots(placed, n)) slots = placed;
  }
  if (pk && pk.from + 2 === view.actions) {
    const keptSlots = new Set(pk.kept.map((k) => k[0]));
    play.rolled = { actions: view.actions, slots: new Set(slots.map((_, s) => s).filter((s) => !keptSlots.has(s))) };
  }
  play.pendingKeep = null;
  play.order = { actions: view.actions, slots };
  saveUi();
  return slots;
}

// Kept dice stay kept until tapped: after a throw the dice that were kept (in the places they
// lie), after a chip the same dice as before; after anything else none.
export function keptAfter(view, carried, keptBefore, orderBefore) {
  const dice = view.turn && view.turn.dice;
  if (!dice) return new Set();
  if (keptBefore) {
    if (orderBefore && validSlots(orderBefore.slots, dice.length)) play.order = { actions: view.actions, slots: orderBefore.slots };
    return new Set([...keptBefore].filter((i) => i < dice.length));
  }
  if (!carried || !carried.kept.length) return new Set();
  const slots = diceOrder(view);
  return new Set(carried.kept.flatMap(([slot, value, d10]) => {
    const pos = slots[slot];
    return pos !== undefined && dice[pos].value === value && dice[pos].d10 === d10 ? [pos] : [];
  }));
}

// Before a throw: which dice stay, and where they lie.
export function noteKeep(view) {
  if (!view || !view.turn) return;
  const dice = view.turn.dice;
  const slots = dice ? diceOrder(view) : [];
  play.pendingKeep = { from: view.actions, kept: slots.flatMap((pos, slot) => (state.keep.has(pos)
    ? [[slot, dice[pos].value, dice[pos].d10]] : [])) };
}

// The ways to enter the roll, best first (the engine's points; strikes last).
export function ranked(options) {
  return [...options].sort((a, b) => (a.strike - b.strike) || (b.points + b.bonus - a.points - a.bonus));
}

export function drawDice(view, live) {
  const turn = view.turn;
  const panel = h("div", { class: "bottom-bar dice-panel", role: "group", "aria-label": tr("page.dice.bar") });
  panel.append(confirmLine(view, live) ?? "");
  const hint = currentHint(view);
  const tip = hint && hint.data ? hint.data.options[0] : null;
  if (hint) panel.append(drawHintBox(view, hint, live));
  if (turn.dice && view.options.length) {
    const best = ranked(view.options);
    const fits = best.some((o) => !o.strike);
    // while throws are left a strike is a deliberate choice behind its own button, never the prompt
    const strikesHidden = turn.can_throw && play.strikeOpen !== view.actions;
    const shown = strikesHidden ? best.filter((o) => !o.strike) : best;
    const tipStrike = Boolean(tip && tip.kind === "strike");
    // "nothing fits" is a line of its own above the choices, not squeezed in beside them
    if (!fits) panel.append(h("p", { class: "hint no-fit" }, turn.can_throw ? w("web.play.no_fit_roll") : tr("page.dice.no_choice")));
    panel.append(h("div", { class: "choices", id: "choices", role: "group", "aria-label": tr("page.dice.choices"), tabindex: live ? null : "0" },
      shown.map((o) => {
        const b = optionButton(view, o, live, true);
        if (tip && tip.box === o.box && tipStrike === o.strike) b.classList.add("suggested");
        return b;
      }),
      strikesHidden && best.some((o) => o.strike) ? h("button", { type: "button", id: "strike-open",
        class: `small strike-open${tipStrike ? " suggested" : ""}`, disabled: !live,
        onclick: () => { play.strikeOpen = view.actions; redraw(); focusSel("#choices button[data-strike='1']"); } },
      w("web.play.strike_open")) : null));
  } else {
    // nothing to tell the person while a computer plays (its moves are said above the sheet)
    panel.append(h("p", { class: "hint choices-hint" }, computerTurn(view) ? "" : turn.dice ? tr("page.dice.pick_box") : tr("page.dice.roll_first")));
  }
  const row = h("div", { class: "dice" });
  if (turn.dice) {
    const rolled = play.rolled && play.rolled.actions === view.actions ? play.rolled.slots : new Set();
    play.rolled = null;
    diceOrder(view).forEach((i, slot) => {
      const d = turn.dice[i];
      const kept = state.keep.has(i);
      const suggested = tip && tip.keep && tip.keep.includes(i);
      row.append(h("button", {
        type: "button", class: `die${d.d10 ? " d10" : ""}${kept ? " kept" : ""}${rolled.has(slot) ? " rolling" : ""}${suggested ? " suggested" : ""}`,
        "data-pos": i, "aria-pressed": kept ? "true" : "false", disabled: !live || !turn.can_throw,
        "aria-label": `${d.d10 ? tr("page.dice.die_d10", { value: d.value }) : tr("page.dice.die", { i: slot + 1, value: d.value })}${kept ? `, ${tr("page.dice.kept")}` : ""}`,
        onclick: () => { kept ? state.keep.delete(i) : state.keep.add(i); redraw(); focusSel(`[data-pos="${i}"]`); },
      }, dieFace(d.value, d.d10), h("span", { class: "sr" }, String(d.value))));
    });
  }
  panel.append(row);
  const buttons = h("div", { class: "controls" });
  buttons.append(h("button", {
    type: "button", id: "roll", class: "primary", disabled: !live || !turn.can_throw,
    onclick: () => act({ op: "roll", keep: [...state.keep].sort() }),
  }, `${tr("page.dice.roll")} (${tr("page.dice.rolls_left", { n: turn.rolls_left })})`));
  if (turn.can_chip) {
    buttons.append(h("button", { type: "button", id: "chip", disabled: !live, class: tip && tip.kind === "chip" ? "suggested" : null,
      onclick: () => act({ op: "act", action: { type: "chip" } }) }, tr("page.dice.chip")));
  }
  if (turn.dice) {
    buttons.append(h("button", { type: "button", id: "hint", disabled: !live || Boolean(hint && hint.loading),
      "aria-label": w("web.hint.button_label"), "aria-expanded": hint && hint.data ? "true" : "false",
      onclick: askHint }, w("web.hint.button")));
  }
  buttons.append(undoButton(view, live));
  panel.append(buttons);
  return panel;
}

export function miniDice(dice, d10) {
  return h("span", { class: "mini-dice", role: "img", "aria-label": dice.map((v, i) => (d10 && i === dice.length - 1 ? tr("page.dice.die_d10", { value: v }) : v)).join(", ") },
    dice.map((v, i) => h("span", { class: `die mini${d10 && i === dice.length - 1 ? " d10" : ""}` }, dieFace(v, d10 && i === dice.length - 1))));
}

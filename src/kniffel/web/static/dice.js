// The dice game's bar: the dice (faces.js; their order and which are kept, keep.js), the choices.

import { focusSel, h } from "./dom.js?b=__BUILD__";
import { askHint, currentHint, drawHintBox } from "./expert.js?b=__BUILD__";
import { dieFace } from "./faces.js?b=__BUILD__";
import { act, computerTurn, confirmLine } from "./game.js?b=__BUILD__";
import { diceOrder } from "./keep.js?b=__BUILD__";
import { optionButton, undoButton } from "./sheet.js?b=__BUILD__";
import { play, redraw, state } from "./state.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

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
    if (!fits) panel.append(h("p", { class: "hint no-fit" }, turn.can_throw ? tr("web.play.no_fit_roll") : tr("page.dice.no_choice")));
    panel.append(h("div", { class: "choices", id: "choices", role: "group", "aria-label": tr("page.dice.choices"), tabindex: live ? null : "0" },
      shown.map((o) => {
        const b = optionButton(view, o, live, true);
        if (tip && tip.box === o.box && tipStrike === o.strike) b.classList.add("suggested");
        return b;
      }),
      strikesHidden && best.some((o) => o.strike) ? h("button", { type: "button", id: "strike-open",
        class: `small strike-open${tipStrike ? " suggested" : ""}`, disabled: !live,
        onclick: () => { play.strikeOpen = view.actions; redraw(); focusSel("#choices button[data-strike='1']"); } },
      tr("web.play.strike_open")) : null));
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
      "aria-label": tr("web.hint.button_label"), "aria-expanded": hint && hint.data ? "true" : "false",
      onclick: askHint }, tr("web.hint.button")));
  }
  buttons.append(undoButton(view, live));
  panel.append(buttons);
  return panel;
}

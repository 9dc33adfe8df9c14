// The score pad's bar: real dice typed in, checked, and the boxes they fit.

import { drawCoach, tipBox, warmCoach } from "./coach.js?b=__BUILD__";
import { notice } from "./dialogs.js?b=__BUILD__";
import { ranked } from "./dice.js?b=__BUILD__";
import { $, focusSel, h } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { act, confirmLine } from "./game.js?b=__BUILD__";
import { bootWait } from "./early.js?b=__BUILD__";
import { optionButton, undoButton } from "./sheet.js?b=__BUILD__";
import { play, redraw, state } from "./state.js?b=__BUILD__";
import { saveUi } from "./storage.js?b=__BUILD__";
import { num, refusal, tr } from "./words.js?b=__BUILD__";

// Typed dice are checked by the page before the engine sees them: a value the die cannot show
// (7 on a d6, 10 on the d10, a letter) or a missing one is told next to the fields in the page's
// language (not by the browser's own bubble), the field keeps the focus, and nothing is entered.
let padProblem = null; // {die, text}: what the fields say is wrong, kept over a redraw

function padFault(input) {
  const raw = input.value.trim();
  const isD10 = input.classList.contains("d10");
  const [lo, hi] = isD10 ? [0, 9] : [1, 6];
  const die = isD10 ? tr("page.pad.d10_name") : tr("page.pad.d6", { i: Number(input.dataset.die) + 1 });
  if (raw === "") return tr("page.pad.missing", { name: die });
  if (!/^[0-9]+$/.test(raw) || Number(raw) < lo || Number(raw) > hi) return tr("page.pad.bad", { name: die, typed: raw, low: num(lo), high: num(hi) });
  return null;
}

function showPadFault(form, input, text) {
  padProblem = text ? { die: Number(input.dataset.die), text } : null;
  for (const i of form.querySelectorAll("input")) i.removeAttribute("aria-invalid");
  const said = form.querySelector("#pad-error");
  said.textContent = text ?? "";
  said.hidden = !text;
  if (text) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
}

function askPadChoices(form) {
  const fields = [...form.querySelectorAll("input")];
  for (const input of fields) {
    const fault = padFault(input);
    if (fault) { showPadFault(form, input, fault); return; }
  }
  showPadFault(form, fields[0], null);
  const dice = fields.map((i) => Number(i.value));
  if (!state.ready || state.busy) return;
  state.busy = true;
  ask(choicesRequest(dice)).then((reply) => {
    state.busy = false;
    if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
    state.padDice = reply;
    saveUi();
    redraw();
    if (state.current) warmCoach(state.current.view); // the coach's tip for these dice soon
  });
}

// The boxes for typed dice, and the throw they lie after (the engine's: the next throw when
// they follow other dice typed in this turn).
const choicesRequest = (dice) => ({ op: "pad_choices", dice,
  before: state.padDice ? { dice: state.padDice.dice, throw: state.padDice.throw } : null });

// A chip handed in on the pad keeps the typed dice (those of the 3rd throw, which the 4th
// re-throws in part): their boxes and throws are asked again for the turn with the chip.
async function handInChip() {
  const reply = await act({ op: "act", action: { type: "chip" } });
  if (!reply || !reply.ok || !state.padDice || state.busy) return;
  const asked = state.padDice;
  const actions = state.current.view.actions;
  const again = await ask(choicesRequest(asked.dice));
  // dropped where the game went on or the dice changed meanwhile
  if (!again.ok || state.padDice !== asked || !state.current || state.current.view.actions !== actions) return;
  state.padDice = again;
  saveUi();
  redraw();
}

export function drawPadTools(view, live) {
  const turn = view.turn;
  const panel = h("div", { class: "bottom-bar pad-bar", id: "pad-bar" });
  panel.append(confirmLine(view, live) ?? "");
  const n = view.rules.dice;
  if (play.padOpen) {
    const form = h("form", { id: "pad-dice", class: "pad-dice", novalidate: true,
      onsubmit: (e) => { e.preventDefault(); askPadChoices(form); } });
    const fs = h("fieldset", {}, h("legend", { class: "sr" }, tr("page.pad.enter_dice")));
    for (let i = 0; i < n; i++) {
      const isD10 = view.rules.d10 && i === n - 1;
      fs.append(h("input", { type: "text", inputmode: "numeric", autocomplete: "off", maxlength: 2,
        class: isD10 ? "d10" : "", "data-die": i, value: play.padTyped[i] ?? "",
        "aria-label": isD10 ? tr("page.pad.d10") : tr("page.pad.d6", { i: i + 1 }), "aria-describedby": "pad-error",
        "aria-invalid": padProblem && padProblem.die === i ? "true" : null,
        oninput: (e) => {
          play.padTyped[i] = e.target.value.slice(0, 2);
          saveUi();
          const fault = e.target.value.trim() === "" ? null : padFault(e.target);
          showPadFault(form, e.target, fault);
          // one digit per die: on to the next field, unless the die cannot show it
          if (!fault && e.target.value.length === 1 && i < n - 1) form.querySelector(`input[data-die="${i + 1}"]`).focus();
        } }));
    }
    fs.append(h("button", { type: "submit", id: "show-boxes", class: "primary", disabled: !live || !state.ready }, tr("page.pad.show_boxes")));
    form.append(fs, h("p", { id: "pad-error", class: "pad-error", role: "alert", hidden: !padProblem },
      padProblem ? padProblem.text : ""));
    panel.append(form);
  }
  if (state.padDice) {
    // the box the coach's tip names is marked among the boxes the dice fit
    const suggested = tipBox();
    panel.append(h("div", { class: "choices", id: "pad-options", role: "group",
      "aria-label": tr("page.pad.pick", { dice: state.padDice.dice.join(" ") }) },
    h("button", { type: "button", class: "icon", id: "pad-clear", "aria-label": tr("page.pad.clear"), title: tr("page.pad.clear"),
      onclick: () => { state.padDice = null; saveUi(); redraw(); } }, "✕"),
    ranked(state.padDice.options).map((o) => {
      const b = optionButton(view, o, live, true);
      if (o.box === suggested) b.classList.add("suggested");
      return b;
    })));
    panel.append(drawCoach(view, live));
  }
  const buttons = h("div", { class: "controls" });
  buttons.append(h("button", { type: "button", id: "enter-dice", "aria-expanded": play.padOpen ? "true" : "false",
    onclick: () => { play.padOpen = !play.padOpen; padProblem = null; saveUi(); redraw(); if (play.padOpen) focusSel("input[data-die='0']"); } },
  play.padOpen ? tr("page.pad.close_dice") : tr("page.pad.enter_dice")));
  if (view.rules.chips) {
    buttons.append(h("button", { type: "button", id: "chip", disabled: !live || !turn.can_chip,
      onclick: handInChip },
    `${tr("page.pad.use_chip")} (${view.columns[turn.player].chips_left})`));
  }
  buttons.append(undoButton(view, live));
  panel.append(buttons);
  // before the engine runs: what waits for it, and how far its start is, next to the controls
  if (view.early) panel.append(bootWait(state.boot.percent >= 100 ? "page.boot.early_done" : "page.boot.early", "early-note"));
  return panel;
}

// The start screen: rule set, mode and players of a new game.

import { focusSel, h } from "./dom.js?b=__BUILD__";
import { bootWait, earlyStart } from "./early.js?b=__BUILD__";
import { expertReady, expertStatus, isExpert } from "./expert.js?b=__BUILD__";
import { computer, startGame } from "./game.js?b=__BUILD__";
import { awake, facts, redraw, state } from "./state.js?b=__BUILD__";
import { saveSettings } from "./storage.js?b=__BUILD__";
import { canKeepAwake, keepAwake, secureContext } from "./system.js?b=__BUILD__";
import { showTable } from "./table.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

// The words of the experts among the computer players (the others': page.setup.kind_<name>).
const EXPERT_KINDS = { expert: "web.expert.kind", "expert-win": "web.expert.kind_win" };

export function drawSetup() {
  const s = state.setup;
  const presets = state.meta ? state.meta.presets : [];
  const form = h("form", { id: "setup", class: "setup", onsubmit: (e) => { e.preventDefault(); startGame(); } });
  form.append(h("h2", {}, tr("page.setup.title")));
  const select = h("select", { id: "rules", onchange: (e) => { s.rules = e.target.value; saveSettings(); redraw(); } },
    presets.map((p) => h("option", { value: p.name, selected: p.name === s.rules }, tr(p.title))));
  form.append(h("label", { class: "field" }, h("span", {}, tr("page.setup.rules")), select));
  const preset = presets.find((p) => p.name === s.rules);
  if (preset && preset.free_strike_option) {
    form.append(h("label", { class: "check" }, h("input", { type: "checkbox", id: "free-strike", checked: s.free_strike,
      onchange: (e) => { s.free_strike = e.target.checked; saveSettings(); } }), tr("page.setup.free_strike")));
  }
  const modes = h("fieldset", {}, h("legend", {}, tr("page.setup.mode")));
  for (const m of ["pad", "dice"]) {
    modes.append(h("label", { class: "check" }, h("input", { type: "radio", name: "mode", value: m, id: `mode-${m}`,
      checked: s.mode === m, onchange: () => { s.mode = m; saveSettings(); redraw(); } }), tr(`page.setup.mode_${m}`)));
  }
  form.append(modes);
  const players = h("fieldset", { id: "players" }, h("legend", {}, tr("page.setup.players")));
  const dice = s.mode === "dice";
  s.players.forEach((p, i) => {
    const name = p.name || tr("page.setup.player_n", { n: i + 1 });
    const kind = p.kind === "computer" ? `computer:${computer(p.strategy)}` : "human";
    // computer players only with virtual dice: on the score pad every row is a person
    const kindSelect = dice ? h("select", { class: "kind", "data-kind": i, "aria-label": tr("page.setup.kind_of", { name }),
      onchange: (e) => {
        const [k, strategy] = e.target.value.split(":");
        // a default name follows the kind: "Spieler 2" who becomes a computer is "Computer 1"
        // (numbered among the computers), and back
        const computers = s.players.filter((q, j) => j < i && q.kind === "computer").length + 1;
        const defaults = [tr("page.setup.player_n", { n: i + 1 }), tr("page.setup.computer_n", { n: computers })];
        if (!p.name || defaults.includes(p.name)) {
          p.name = k === "computer" ? defaults[1] : defaults[0];
        }
        p.kind = k;
        p.strategy = strategy ?? null;
        saveSettings();
        redraw();
      } },
    h("option", { value: "human", selected: kind === "human" }, tr("page.setup.human")),
    facts.computers.map((c) => h("option", { value: `computer:${c}`, selected: kind === `computer:${c}`,
      disabled: isExpert(c) && !expertReady(s) && kind !== `computer:${c}` },
    tr(EXPERT_KINDS[c] ?? `page.setup.kind_${c}`)))) : null;
    players.append(h("div", { class: "player-row" },
      h("input", { type: "text", value: p.name, maxlength: 40, required: true, "aria-label": tr("page.setup.name_of", { n: i + 1 }),
        "data-player": i, oninput: (e) => { p.name = e.target.value; saveSettings(); },
        // Enter in a name goes on to the next name, it does not start the game
        onkeydown: (e) => {
          if (e.key !== "Enter") return;
          e.preventDefault();
          focusSel(`input[data-player="${i + 1}"]`);
        } }),
      kindSelect,
      h("button", { type: "button", disabled: i === 0, "aria-label": tr("page.setup.up", { name }),
        onclick: () => { s.players.splice(i - 1, 0, s.players.splice(i, 1)[0]); saveSettings(); redraw(); } }, "↑"),
      h("button", { type: "button", disabled: i === s.players.length - 1, "aria-label": tr("page.setup.down", { name }),
        onclick: () => { s.players.splice(i + 1, 0, s.players.splice(i, 1)[0]); saveSettings(); redraw(); } }, "↓"),
      h("button", { type: "button", disabled: s.players.length === 1, "aria-label": tr("page.setup.remove", { name }),
        onclick: () => { s.players.splice(i, 1); saveSettings(); redraw(); } }, "✕")));
  });
  players.append(h("button", { type: "button", id: "add-player", disabled: s.players.length >= facts.max_players,
    onclick: () => { s.players.push({ name: tr("page.setup.player_n", { n: s.players.length + 1 }), kind: "human" }); saveSettings(); redraw(); focusSel(`[data-player="${s.players.length - 1}"]`); } }, tr("page.setup.add_player")));
  if (!dice) players.append(h("p", { class: "hint", id: "computers-note" }, tr("page.setup.computers_dice_only")));
  const expertNote = dice ? expertStatus(s) : null;
  if (expertNote && !expertNote.ready && expertNote.note) {
    const chosen = s.players.some((p) => p.kind === "computer" && isExpert(p.strategy));
    players.append(h("p", { class: chosen ? "notice warn inline" : "hint", id: "expert-note" }, tr(expertNote.note)));
  }
  form.append(players);
  form.append(h("label", { class: "check" }, h("input", { type: "checkbox", id: "show-chances", checked: state.showChances,
    onchange: (e) => { state.showChances = e.target.checked; saveSettings(); } }), tr("page.chances.setting")));
  if (canKeepAwake()) form.append(h("label", { class: "check" }, h("input", { type: "checkbox", id: "keep-awake", checked: awake.on,
    onchange: (e) => { awake.on = e.target.checked; awake.refused = false; saveSettings(); keepAwake(); } }), tr("page.setup.keep_awake")));
  else if (!secureContext()) form.append(h("p", { class: "hint", id: "keep-awake-missing" }, tr("page.setup.keep_awake_insecure")));
  // the score pad starts before the engine runs (early.js); a game with dice waits for it and
  // says so next to the button, with how far its start is
  const waits = !state.ready && !earlyStart(s);
  // at a table the new game is the whole table's (game.js begin): said before the button
  if (state.table) form.append(h("p", { class: "hint", id: "table-new-note" }, tr("page.table.new_for_all")));
  form.append(h("button", { type: "submit", id: "start", class: "primary", disabled: waits || state.busy,
    "aria-describedby": waits ? "start-wait" : null }, tr("page.setup.start")));
  if (waits) form.append(bootWait("page.boot.start_wait", "start-wait"));
  // another phone's table: its game comes from there (table.js); at a table, its panel
  form.append(h("button", { type: "button", id: "table-join-open", disabled: !state.ready,
    onclick: () => showTable(!state.table) }, tr(state.table ? "page.table.menu" : "page.table.join")));
  return form;
}

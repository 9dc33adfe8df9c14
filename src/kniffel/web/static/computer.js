// The computer players' turns, step by step.

import { notice } from "./dialogs.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { act, computerTurn } from "./game.js?b=__BUILD__";
import { pace, play, redraw, state } from "./state.js?b=__BUILD__";
import { boxName, refusal, tr } from "./words.js?b=__BUILD__";

// A computer's turn, one visible step at a time: the engine plans (the dice it keeps are shown
// first), then makes the move; the page only waits between the steps. It stops when the game
// changes (new, loaded, another tab) or the screen does, and goes on when the game is shown again.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let computerEpoch = null;

function describeMove(name, move, before, after) {
  const box = move.box ? boxName(after, move.box) : "";
  if (move.type === "throw") return tr("page.computer.rolls", { name });
  if (move.type === "chip") return tr("page.computer.chip", { name });
  if (move.type === "strike") return tr("page.computer.strikes", { name, box });
  const cell = after.columns[before.current].cells[move.box];
  return tr("page.computer.scores", { name, box, points: cell ? cell.points : 0 });
}

export async function runComputer() {
  const epoch = state.epoch;
  if (computerEpoch === epoch) return; // already playing this game
  computerEpoch = epoch;
  // a hidden tab leaves the turn to the visible one (both would play the same moves); at a table
  // the phone that holds it plays the computers, the others see its moves come in (table.js)
  const on = () => state.ready && !document.hidden && state.epoch === epoch && state.screen === "game"
    && state.current && computerTurn(state.current.view) && (!state.table || state.table.host === state.table.me)
    && !state.seatLost;
  const idle = async () => { while (state.busy) await sleep(20); };
  try {
    while (on()) {
      await sleep(pace());
      await idle();
      if (!on()) break;
      const before = state.current.view;
      const name = before.players[before.current].name;
      if (!before.turn.dice) {
        // a new turn; the first one in a session builds the player's tables (seconds in Extreme)
        state.computerSay = () => tr("page.computer.thinking", { name });
        redraw();
      }
      state.busy = true;
      const plan = await ask({ op: "computer_plan" });
      state.busy = false;
      if (!plan.ok) { notice(refusal(plan.error), "warn"); break; }
      if (!on()) break;
      if (plan.keep) {
        // show the dice it keeps before it throws the others
        state.keep = new Set(plan.keep);
        // the d10 as hints write it ("W10=4"), so that a kept 0 is not read as a die
        state.computerSay = () => {
          const dice = plan.keep.map((i) => {
            const d = before.turn.dice[i];
            return d.d10 ? `${tr("page.dice.d10_label")}=${d.value}` : String(d.value);
          }).join(" ");
          return dice ? tr("page.computer.keeps", { name, dice }) : tr("page.computer.keeps_nothing", { name });
        };
        redraw();
        await sleep(pace());
        await idle();
        if (!on()) break;
      }
      const reply = await act({ op: "computer_move" });
      if (!reply || !reply.ok || !reply.move) break;
      const after = state.current.view;
      state.computerSay = () => describeMove(name, reply.move, before, after);
      // its box comes into view and is lit, as a person's entry is
      if (reply.move.box) play.reveal = { player: before.current, box: reply.move.box };
      redraw();
    }
  } finally {
    if (computerEpoch === epoch) computerEpoch = null;
  }
}

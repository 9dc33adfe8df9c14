// Which dice are kept, and where each die lies on the table: over a throw the kept dice stay in
// their places (the engine's order is sorted; only the drawing order differs).

import { play, state } from "./state.js?b=__BUILD__";
import { saveUi } from "./storage.js?b=__BUILD__";

const validSlots = (slots, n) => Array.isArray(slots) && slots.length === n
  && [...slots].sort((a, b) => a - b).every((v, i) => v === i);

// The dice in display order: after a throw the kept dice stay in their places and the new dice
// take the others (the engine's order is sorted; only the drawing order differs).
export function diceOrder(view) {
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

// Before a throw: which dice stay, and where they lie; kept too as the table looked before it
// (an undo of the throw lays the dice out as they were, the same ones kept: keptAfterUndo).
const BEFORE_THROWS = 8;
const beforeThrows = [];
export function noteKeep(view) {
  if (!view || !view.turn) return;
  const dice = view.turn.dice;
  const slots = dice ? diceOrder(view) : [];
  play.pendingKeep = { from: view.actions, kept: slots.flatMap((pos, slot) => (state.keep.has(pos)
    ? [[slot, dice[pos].value, dice[pos].d10]] : [])) };
  if (!dice) return;
  beforeThrows.push({ actions: view.actions, dice: JSON.stringify(dice), slots: [...slots], keep: [...state.keep] });
  if (beforeThrows.length > BEFORE_THROWS) beforeThrows.shift();
}

// After an undo: the dice as they lay before the throw taken back, the same ones kept (where the
// page saw that state: the same actions and dice); else none kept, in the engine's order.
export function keptAfterUndo(view) {
  const dice = view.turn && view.turn.dice;
  const seen = dice ? beforeThrows.findLast((b) => b.actions === view.actions && b.dice === JSON.stringify(dice)) : null;
  if (!seen || !validSlots(seen.slots, dice.length)) return new Set();
  play.order = { actions: view.actions, slots: seen.slots };
  return new Set(seen.keep.filter((i) => i < dice.length));
}

// Which dice are kept, and where each lies on the table (static/keep.js): over a throw the kept
// dice stay in their places though the engine sorts its dice; after a chip the same dice stay kept.
import assert from "node:assert/strict";
import test from "node:test";

import { diceOrder, keptAfter, noteKeep } from "../../src/kniffel/web/static/keep.js?b=__BUILD__";
import { play, state } from "../../src/kniffel/web/static/state.js?b=__BUILD__";

const die = (value) => ({ value, d10: false });
const view = (actions, values) => ({ actions, turn: values ? { dice: values.map(die) } : { dice: null } });

function fresh() {
  play.order = null;
  play.pendingKeep = null;
  play.rolled = null;
  state.keep = new Set();
}

test("without a throw before, the dice lie in the engine's order", () => {
  fresh();
  assert.deepEqual(diceOrder(view(3, [1, 2, 3, 4, 5])), [0, 1, 2, 3, 4]);
  assert.deepEqual(play.order, { actions: 3, slots: [0, 1, 2, 3, 4] });
  assert.deepEqual(diceOrder(view(4, null)), []);
  assert.equal(play.order, null);
});

test("kept dice stay in their places over a throw, the new dice fill the others", () => {
  fresh();
  const before = view(5, [1, 2, 3, 4, 5]);
  state.keep = new Set([1, 3]); // the 2 and the 4
  noteKeep(before);
  assert.deepEqual(play.pendingKeep, { from: 5, kept: [[1, 2, false], [3, 4, false]] });
  const carried = play.pendingKeep;
  const after = view(7, [2, 3, 4, 6, 6]); // the engine's sorted dice after the throw
  const kept = keptAfter(after, carried, null, null);
  assert.deepEqual([...kept].sort(), [0, 2]); // the 2 and the 4 of the new dice, still kept
  assert.deepEqual(play.order.slots, [1, 0, 3, 2, 4]); // slot 1 shows the 2, slot 3 the 4
  assert.deepEqual([...play.rolled.slots].sort(), [0, 2, 4]); // the thrown dice's places
  assert.equal(play.pendingKeep, null);
});

test("a throw that is not the next one keeps nothing in place", () => {
  fresh();
  state.keep = new Set([0]);
  noteKeep(view(5, [6, 2, 3, 4, 5]));
  const kept = keptAfter(view(9, [1, 2, 3, 4, 5]), play.pendingKeep, null, null);
  assert.deepEqual([...kept], []);
  assert.deepEqual(play.order.slots, [0, 1, 2, 3, 4]);
});

test("after a chip the same dice stay kept and lie where they lay; without dice none are kept", () => {
  fresh();
  const order = { actions: 6, slots: [4, 3, 2, 1, 0] };
  const kept = keptAfter(view(7, [1, 2, 3]), null, new Set([0, 2, 4]), order);
  assert.deepEqual([...kept].sort(), [0, 2]); // a die beyond the dice there are is dropped
  assert.equal(play.order, null); // the old order does not fit three dice
  const five = keptAfter(view(7, [1, 2, 3, 4, 5]), null, new Set([1]), order);
  assert.deepEqual([...five], [1]);
  assert.deepEqual(play.order, { actions: 7, slots: [4, 3, 2, 1, 0] });
  assert.deepEqual([...keptAfter(view(8, null), null, new Set([1]), order)], []);
  assert.deepEqual([...keptAfter(view(8, [1, 2, 3, 4, 5]), null, null, null)], []);
});

"""Exact distributions of the points still to come where few boxes are open.

For a turn-start state with at most :data:`LIMIT` open boxes this computes the exact
distribution of the points the player still scores (the boxes' points, the upper bonus when it
is reached, the extra points of further Kniffels) if the player maximises the expected final
score: the expert's play (:mod:`kniffel.engine.expert`: the exact within-turn recursion over
every keep, the chip and every entry), with the value of each state at the end of the turn taken
from this module's own recursion over the endgame's states, so the play is exactly optimal and
the distribution's mean is exactly the state's value (for the classic rule sets the value of the
exact table; for Kniffel Extreme the exact optimum of the endgame, not the expert's model).

**How.** For the state ``S`` the expert's stages are computed (:meth:`Expert._turn_stages`, its
``_final`` with this module's values, :func:`kniffel.engine.turn_stages.turn_stages`). Then the
probability of every roll is carried forward through the turn: after the first throw the rolls
of the empty keep, after each further throw the mass of a roll either ends the turn (when the
best entry is worth at least the best re-throw) or moves to the rolls its best keep brings; after
the last regular throw a chip's re-throw is the third way (Kniffel Extreme). A roll that ends
the turn is entered in its best box, which fixes the points gained ``g`` and the next state
``S'``; the distribution of ``S`` is the mixture of ``D(S') + g`` with those probabilities.

**Ties** between equally good choices are broken as the expert's player breaks them (the first
option in the advisor's order): entering before re-throwing, re-throwing before handing in a
chip; among entries the order of :func:`kniffel.engine.rules.choices` (scoring in sheet order,
then strikes in sheet order); among keeps the order of :func:`kniffel.engine.dice.sub_keeps`
(by size, then faces; the d10 kept last), which is the order of
:attr:`kniffel.engine.vectors.DiceIndex.rethrows`. The comparisons are those of the expert's
vectors, so a tie is an exact tie of floats.

The state is reduced first: the upper sum counts only while the bonus can still be reached
(afterwards it is the threshold), and chips beyond the number of open boxes are worth nothing
(one chip per turn at most), so they are capped there.

Pure Python; numpy (where installed and ``use_numpy`` allows) carries the probabilities with
the same floating-point operations in the same order, so both give the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from kniffel.engine.distribution import Distribution
from kniffel.engine.expert import Expert, Worth, _Turn
from kniffel.engine.rules import Box, Entry, ExtraKniffel, RuleSet, StrikeRule, choices, is_kniffel
from kniffel.engine.states import DEAD, max_count, upper_key
from kniffel.engine.turn_stages import TurnStages
from kniffel.engine.vectors import Vec, numpy_available

#: The most open boxes :func:`endgame_rest` computes exactly by default.
LIMIT = 2
#: The most states one :class:`Endgame` remembers (then it forgets them all).
_MEMORY = 4096
#: The most sets of open boxes whose rolls' groups one :class:`Endgame` remembers.
_CELLS = 64


@dataclass(frozen=True)
class _State:
    """A reduced turn-start state: filled boxes, upper sum (the threshold once the bonus is
    settled), chips left (capped at the open boxes) and whether the kniffel box holds 50 (for
    further-Kniffel rules)."""

    mask: int
    upper: int
    chips: int
    holds_50: bool


@dataclass(frozen=True)
class _Solved:
    value: float
    dist: Distribution


class _EndgameValues:
    """The endgame's own values, as the expert asks for them at the end of a turn."""

    source = "endgame"

    def __init__(self, endgame: Endgame) -> None:
        self._endgame = endgame

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        """The exact value of the state after an entry (see :class:`Values`)."""
        eg = self._endgame
        if mask == eg.full:
            return 0.0
        chips = x if eg.rules.chips else 0
        holds_50 = bool(x) and not eg.rules.chips and eg.further and bool(mask & eg.kniffel_bit)
        return eg.solve(eg.state(mask, upper_sum, chips, holds_50)).value


class Endgame:
    """Exact distributions of the points still to come for one rule set (the states solved are
    remembered)."""

    def __init__(self, rules: RuleSet, *, use_numpy: bool | None = None) -> None:
        self.rules = rules
        self.expert = Expert(rules, use_numpy=use_numpy, values=_EndgameValues(self))
        self.use_numpy = self.expert.use_numpy
        self._m = self.expert._m
        self._dice = self._m.dice
        self._bit = {box: 1 << b for b, box in enumerate(rules.boxes)}
        self.full = (1 << len(rules.boxes)) - 1
        self.further = (rules.extra_kniffel is not ExtraKniffel.NONE
                        and Box.KNIFFEL in rules.boxes)
        self.kniffel_bit = self._bit.get(Box.KNIFFEL, 0)
        self._maxc = max_count(rules)
        self._kniffel_rolls = [i for i, r in enumerate(self._dice.rolls) if is_kniffel(r)]
        self._memo: dict[_State, _Solved] = {}
        self._cell_cache: dict[tuple[tuple[Box, ...], bool], tuple[list[int], list[int]]] = {}
        self._flow = _NumpyFlow(self._m) if self.use_numpy else _ListFlow(self._m)

    @property
    def supported(self) -> bool:
        """Whether the values' extra state says all that matters (chips and further-Kniffel
        rules together are not: the expert's values know only one of them)."""
        return not (self.rules.chips and self.further)

    # --- states ---------------------------------------------------------------------------

    def state(self, mask: int, upper: int, chips: int, holds_50: bool) -> _State:
        """The reduced state (see the module docstring)."""
        rules = self.rules
        threshold = rules.bonus_threshold
        if (rules.bonus_points == 0 or upper >= threshold or mask & 63 == 63
                or upper_key(mask & 63, upper, threshold, self._maxc) == DEAD):
            upper = threshold
        n_open = len(rules.boxes) - mask.bit_count()
        chips = min(chips, n_open) if rules.chips else 0
        return _State(mask, upper, chips, holds_50 and self.further)

    def _entries(self, s: _State) -> dict[Box, Entry]:
        return {b: Entry(50 if b is Box.KNIFFEL and s.holds_50 else 0)
                for b in self.rules.boxes if s.mask & self._bit[b]}

    # --- the recursion --------------------------------------------------------------------

    def solve(self, s: _State) -> _Solved:
        """The value and the distribution of the points still to come from ``s``."""
        found = self._memo.get(s)
        if found is not None:
            return found
        solved = _Solved(0.0, Distribution.point(0)) if s.mask == self.full else self._solve(s)
        self._memo[s] = solved
        return solved

    def _solve(self, s: _State) -> _Solved:
        rules = self.rules
        entries = self._entries(s)
        turn = _Turn(s.mask, s.upper, s.chips, s.holds_50)
        stages = self.expert._turn_stages(turn, entries)
        self.expert._stages.pop(turn, None)  # solved once: the result is remembered below
        value = float(stages.before(1)[self._dice.first])
        end, chip_end = self._flow.ends(stages, rules.rolls)
        x_entry = (s.chips if rules.chips else
                   (1 if s.holds_50 else 0) if self.further and Box.KNIFFEL in entries else 0)
        events: dict[tuple[int, _State], float] = {}
        self._add_ends(events, s, entries, x_entry, s.chips, end)
        if chip_end is not None:
            self._add_ends(events, s, entries, s.chips - 1, s.chips - 1, chip_end)
        top = 0
        parts = []
        for (gain, nxt), p in events.items():
            d = self.solve(nxt).dist
            parts.append((gain + d.offset, p, d.probs))
            top = max(top, gain + d.offset + len(d.probs) - 1)
        probs = [0.0] * (top + 1)
        for base, p, dp in parts:
            for i, q in enumerate(dp):
                probs[base + i] += p * q
        lo = next(i for i, p in enumerate(probs) if p)
        hi = max(i for i, p in enumerate(probs) if p)
        return _Solved(value, Distribution(lo, tuple(probs[lo:hi + 1])))

    def _cells(self, open_boxes: tuple[Box, ...], special: bool) -> tuple[list[int], list[int]]:
        """The rolls grouped by what they score in the open boxes: per roll its group, and per
        group its first roll (a further Kniffel, where its rules apply, is a group of its own)."""
        key = (open_boxes, special)
        found = self._cell_cache.get(key)
        if found is not None:
            return found
        if len(self._cell_cache) > _CELLS:
            self._cell_cache.clear()
        dice = self._dice
        kniffels = set(self._kniffel_rolls) if special else set()
        ids: dict[tuple[int, ...], int] = {}
        cell_of: list[int] = []
        first: list[int] = []
        for r in range(len(dice.rolls)):
            sig = (-1 - r,) if r in kniffels else tuple(dice.value_of[b][r] for b in open_boxes)
            c = ids.get(sig)
            if c is None:
                c = ids[sig] = len(first)
                first.append(r)
            cell_of.append(c)
        self._cell_cache[key] = (cell_of, first)
        return cell_of, first

    def _add_ends(self, events: dict[tuple[int, _State], float], s: _State,
                  entries: Mapping[Box, Entry], x_entry: int, chips_after: int,
                  mass: list[float], value: Worth | None = None) -> None:
        """Add the turns that end with each roll (``mass``: their probabilities) entered in
        its best box to ``events`` (points gained, next state); the best by ``value`` (the
        expert's worth of an entry by default)."""
        rules = self.rules
        dice = self._dice
        if value is None:
            value = self.expert.worth_of_entries(_Turn(s.mask, s.upper, s.chips, s.holds_50),
                                                 x_entry)
        open_boxes = tuple(b for b in rules.boxes if not s.mask & self._bit[b])
        special = self.further and Box.KNIFFEL in entries
        cell_of, first = self._cells(open_boxes, special)
        cells = [0.0] * len(first)
        for r, p in enumerate(mass):
            if p:
                cells[cell_of[r]] += p
        any_box = rules.strike is StrikeRule.ANY_BOX
        zero = {b: value(b, 0, 0) for b in open_boxes}
        worth = {b: [(zero[b] if any_box else None) if p != p else value(b, int(p), 0)
                     for p in dice.values[b]] for b in open_boxes}
        kniffels = set(self._kniffel_rolls) if special else set()
        for r, p in zip(first, cells, strict=True):
            if not p:
                continue
            if r in kniffels:
                best_c = None
                best_v = 0.0
                for c in choices(rules, entries, dice.rolls[r]):
                    v = value(c.box, c.points, c.bonus)
                    if best_c is None or v > best_v:
                        best_c, best_v = c, v
                assert best_c is not None
                box, points, extra = best_c.box, best_c.points, best_c.bonus
            else:
                box, points, extra = self._best_entry(open_boxes, worth, zero, r)
            gain = points + extra
            upper = s.upper
            if box.is_upper:
                if upper < rules.bonus_threshold <= upper + points:
                    gain += rules.bonus_points
                upper += points
            holds = (points > 0) if box is Box.KNIFFEL else s.holds_50
            key = (gain, self.state(s.mask | self._bit[box], upper, chips_after, holds))
            events[key] = events.get(key, 0.0) + p

    def _best_entry(self, open_boxes: tuple[Box, ...], worth: dict[Box, list[float | None]],
                    zero: dict[Box, float], r: int) -> tuple[Box, int, int]:
        """Roll ``r``'s best entry (box, points, extra points): the first best in the order of
        :func:`choices`."""
        dice = self._dice
        best: tuple[Box, int] | None = None
        best_v = 0.0
        for b in open_boxes:
            vi = dice.value_of[b][r]
            v = worth[b][vi]
            if v is not None and (best is None or v > best_v):
                p = dice.values[b][vi]
                best, best_v = (b, 0 if p != p else int(p)), v
        strike = self.rules.strike
        if strike is StrikeRule.FREE or (best is None and strike is StrikeRule.FORCED):
            for b in open_boxes:
                if best is None or zero[b] > best_v:
                    best, best_v = (b, 0), zero[b]
        assert best is not None
        return best[0], best[1], 0

    # --- the answer -----------------------------------------------------------------------

    def rest(self, entries: Mapping[Box, Entry], upper: int, chips: int) -> Distribution:
        """The distribution of the points still to come from the turn-start state with the
        filled boxes ``entries``, the upper sum ``upper`` and ``chips`` chips left."""
        return self._top(entries, upper, chips).dist

    def value(self, entries: Mapping[Box, Entry], upper: int, chips: int) -> float:
        """The exact expected points still to come (the mean of :meth:`rest`)."""
        return self._top(entries, upper, chips).value

    def _top(self, entries: Mapping[Box, Entry], upper: int, chips: int) -> _Solved:
        if len(self._memo) > _MEMORY:
            self._memo.clear()
        mask = 0
        for box in entries:
            mask |= self._bit[box]
        kn = entries.get(Box.KNIFFEL)
        return self.solve(self.state(mask, upper, chips, kn is not None and kn.points > 0))


class _ListFlow:
    """The probabilities of a turn's rolls carried forward, in pure Python."""

    def __init__(self, m: Any) -> None:
        self.dice = m.dice

    def _choose(self, expected: Vec) -> tuple[list[float], list[int]]:
        """Per roll, the best re-throw's worth and its keep (the first best)."""
        best_v: list[float] = []
        best_k: list[int] = []
        get = expected.__getitem__
        for keeps in self.dice.rethrows:
            vals = list(map(get, keeps))
            v = max(vals)
            best_v.append(v)
            best_k.append(keeps[vals.index(v)])
        return best_v, best_k

    def _throw(self, q: list[float]) -> list[float]:
        """Per roll, the probability that re-throwing the keeps (``q``: their probabilities)
        brings it."""
        out = [0.0] * len(self.dice.rolls)
        for qk, (rolls, probs) in zip(q, self.dice.groups, strict=True):
            if qk:
                for r, p in zip(rolls, probs, strict=True):
                    out[r] += p * qk
        return out

    def ends(self, stages: TurnStages, rolls: int) -> tuple[list[float], list[float] | None]:
        """Per roll, the probability that the turn ends with it after a regular throw, and
        after a chip's throw (None without a chip)."""
        dice = self.dice
        n_keeps = len(dice.groups)
        q = [0.0] * n_keeps
        q[dice.first] = 1.0
        mass = self._throw(q)
        final = stages.final
        end = [0.0] * len(dice.rolls)
        for n in range(1, rolls):
            best_v, best_k = self._choose(stages.before(n + 1))
            q = [0.0] * n_keeps
            for r, p in enumerate(mass):
                if p:
                    if final[r] >= best_v[r]:
                        end[r] += p
                    else:
                        q[best_k[r]] += p
            mass = self._throw(q)
        with_chip, chip, chip_final = stages.with_chip, stages.chip, stages.chip_final
        if with_chip is None or chip is None or chip_final is None:
            return [e + p for e, p in zip(end, mass, strict=True)], None
        best_v, best_k = self._choose(chip)
        q = [0.0] * n_keeps
        chip_end = [0.0] * len(dice.rolls)
        for r, p in enumerate(mass):
            if p:
                if final[r] >= with_chip[r]:
                    end[r] += p
                elif chip_final[r] >= best_v[r]:
                    chip_end[r] += p
                else:
                    q[best_k[r]] += p
        after = self._throw(q)
        return end, [c + p for c, p in zip(chip_end, after, strict=True)]


class _NumpyFlow:
    """:class:`_ListFlow` with numpy arrays (the same operations in the same order)."""

    def __init__(self, m: Any) -> None:
        import numpy as np

        self.np = np
        self.m = m
        self.dice = m.dice
        self.lengths = np.array([len(k) for k in m.dice.rethrows], dtype=np.intp)
        self.positions = np.arange(len(m.rethrows), dtype=np.intp)

    def _choose(self, expected: Vec) -> tuple[Vec, Vec]:
        np = self.np
        m = self.m
        vals = expected[m.rethrows]
        best = np.maximum.reduceat(vals, m.starts)
        at = np.where(vals == np.repeat(best, self.lengths), self.positions,
                      len(self.positions))
        return best, m.rethrows[np.minimum.reduceat(at, m.starts)]

    def _throw(self, q: Vec) -> Vec:
        np = self.np
        m = self.m
        return np.bincount(m.roll_of, weights=m.prob * q[m.keep_of],
                           minlength=len(self.dice.rolls)).astype(np.float64)

    def _keeps(self, to: Vec, mass: Vec, go: Vec) -> Vec:
        return self.np.bincount(to[go], weights=mass[go],
                                minlength=len(self.dice.groups)).astype(self.np.float64)

    def ends(self, stages: TurnStages, rolls: int) -> tuple[list[float], list[float] | None]:
        np = self.np
        dice = self.dice
        q = np.zeros(len(dice.groups), dtype=np.float64)
        q[dice.first] = 1.0
        mass = self._throw(q)
        final = stages.final
        end = np.zeros(len(dice.rolls), dtype=np.float64)
        for n in range(1, rolls):
            best_v, best_k = self._choose(stages.before(n + 1))
            stop = final >= best_v
            end = end + np.where(stop, mass, 0.0)
            mass = self._throw(self._keeps(best_k, mass, ~stop))
        with_chip, chip, chip_final = stages.with_chip, stages.chip, stages.chip_final
        if with_chip is None or chip is None or chip_final is None:
            return (end + mass).tolist(), None
        best_v, best_k = self._choose(chip)
        stop = final >= with_chip
        enter = ~stop & (chip_final >= best_v)
        end = end + np.where(stop, mass, 0.0)
        chip_end = np.where(enter, mass, 0.0)
        after = self._throw(self._keeps(best_k, mass, ~stop & ~enter))
        return end.tolist(), (chip_end + after).tolist()


@cache
def _endgame(rules: RuleSet, use_numpy: bool) -> Endgame:
    return Endgame(rules, use_numpy=use_numpy)


def endgame_for(rules: RuleSet, *, use_numpy: bool | None = None) -> Endgame:
    """The shared :class:`Endgame` of ``rules`` (its solved states remembered)."""
    return _endgame(rules, numpy_available() if use_numpy is None else use_numpy)


def endgame_rest(rules: RuleSet, entries: Mapping[Box, Entry], upper: int, chips: int, *,
                 limit: int = LIMIT, use_numpy: bool | None = None) -> Distribution | None:
    """The exact distribution of the points still to come from the turn-start state (filled
    boxes ``entries``, upper sum ``upper``, ``chips`` chips left at the turn's start) under
    optimal play, or None when more than ``limit`` boxes are open (or the rule set has both
    chips and further-Kniffel rules, which the values' extra state cannot tell apart)."""
    open_boxes = sum(1 for b in rules.boxes if b not in entries)
    if open_boxes > limit:
        return None
    if not open_boxes:
        return Distribution.point(0)
    endgame = endgame_for(rules, use_numpy=use_numpy)
    if not endgame.supported:
        return None
    return endgame.rest(entries, upper, chips)


__all__ = ["LIMIT", "Endgame", "endgame_for", "endgame_rest"]

"""Vector arithmetic over every roll or every keep of one kind of dice, with numpy or without.

The players that compute a turn exactly (:mod:`kniffel.engine.strategy`'s greedy player,
:mod:`kniffel.engine.expert`) run on vectors over every roll (or every keep) of the five d6, or
of the five d6 and the d10. With numpy they are arrays (:class:`NumpyMath`); without it (the
browser's Pyodide has no numpy) they are lists, computed by :class:`ListMath` with exactly the
same floating-point operations in the same order, so both give the same values
(tests/test_strategy.py checks that). numpy is imported only inside the functions that use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeAlias

from kniffel.engine.dice import Keep, Roll, all_rolls, d6_sub_multisets, d10_after, rethrow_faces
from kniffel.engine.rules import Box, evaluate_uncached

#: A vector over every roll or every keep: a numpy array, or a list of floats without numpy.
Vec = Any


@dataclass(frozen=True)
class DiceIndex:
    """Every roll and every re-throw of one kind of dice.

    ``groups`` lists, keep by keep (numbered as in ``keep_index``), the rolls a re-throw of it
    brings and their probabilities; ``rethrows`` lists, roll by roll, the keeps one may re-throw
    from it; ``points`` the points of every box for every roll (NaN where it does not fit), and
    ``values``/``value_of`` the few distinct points of each box and, per roll, which one it
    scores (so a box's worth is computed once per distinct value).
    """

    rolls: tuple[Roll, ...]
    roll_index: dict[Roll, int]
    keep_index: dict[Keep, int]
    groups: tuple[tuple[tuple[int, ...], tuple[float, ...]], ...]
    rethrows: tuple[tuple[int, ...], ...]
    points: dict[Box, tuple[float, ...]]
    values: dict[Box, tuple[float, ...]]
    value_of: dict[Box, tuple[int, ...]]
    first: int  # the index of Keep(): the first throw of a turn


@cache
def box_scores(d10: bool) -> tuple[dict[Box, tuple[float, ...]], dict[Box, tuple[int, ...]]]:
    """For every box, the distinct points it can score (NaN where a roll does not fit it) and,
    roll by roll (numbered as :func:`kniffel.engine.dice.all_rolls`), which of them the roll scores.

    Each roll is scored by :func:`kniffel.engine.rules.evaluate` without keeping its result in that
    function's cache: 2,520 mappings would not fit the browser's memory snapshot, these columns
    do (``kniffel.browser.bridge.warm_up`` builds them there, so the expert starts without them).
    """
    boxes = tuple(Box)
    columns: list[list[int | None]] = [[] for _ in boxes]
    for roll in all_rolls(d10=d10):
        scores = evaluate_uncached(roll)
        if tuple(scores) != boxes:
            raise AssertionError("evaluate() lists every box in Box order")
        for column, v in zip(columns, scores.values(), strict=True):
            column.append(v)
    values, value_of = {}, {}
    for box, column in zip(boxes, columns, strict=True):
        distinct = {v: i for i, v in enumerate(dict.fromkeys(column))}
        value_of[box] = tuple(map(distinct.__getitem__, column))
        values[box] = tuple(math.nan if v is None else float(v) for v in distinct)
    return values, value_of


@cache
def dice_index(d10: bool) -> DiceIndex:
    """The rolls and re-throws of the dice with (``d10``) or without the d10, numbered."""
    rolls = all_rolls(d10=d10)
    roll_index = {r: i for i, r in enumerate(rolls)}
    # The same numbering as sub_keeps and outcomes would give, built from faces: the browser
    # builds this on every start. A roll's number is (its d6's number) * 10 + its d10 (the
    # order of outcomes), and a keep's re-throw is that of its d6 part, spread over the d10.
    tens = 10 if d10 else 1
    five = {r.d6: i // tens for i, r in enumerate(rolls) if (r.d10 or 0) == 0}
    if any(five[r.d6] * tens + (r.d10 or 0) != i for i, r in enumerate(rolls)):
        raise AssertionError("the rolls are not numbered d6 first, then the d10")
    ids: dict[tuple[tuple[int, ...], int | None], int] = {}  # (d6 part, d10 kept) -> keep
    subs_of: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
    rethrows = []
    for roll in rolls:
        subs = subs_of.get(roll.d6)
        if subs is None:
            subs = subs_of[roll.d6] = d6_sub_multisets(roll.d6)
        n = len(roll.values)  # keeping every die is no re-throw
        row = [ids.setdefault((part, None), len(ids)) for part in subs if len(part) != n]
        if roll.d10 is not None:
            row += [ids.setdefault((part, roll.d10), len(ids))
                    for part in subs if len(part) + 1 != n]
        rethrows.append(tuple(row))
    keep_index = {Keep(part, ten): i for (part, ten), i in ids.items()}
    # a d6 part's re-throw: the rolls' d6 numbers and probabilities, each d6 outcome then
    # spread over the d10's faces as rethrow_faces does it (its p * 1.0 is p)
    d6_groups: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[float, ...]]] = {}
    for part, _ in ids:
        if part not in d6_groups:
            pairs = rethrow_faces(part, None, False)
            d6_groups[part] = (tuple(five[d6] for d6, _, _ in pairs),
                               tuple(p for _, _, p in pairs))
    groups = []
    for part, ten in ids:
        at, probs = d6_groups[part]
        spread = d10_after(ten, d10)
        groups.append((tuple(i * tens + (t or 0) for i in at for t, _ in spread),
                       tuple(p * q for p in probs for _, q in spread)))
    values, value_of = box_scores(d10)
    points = {box: tuple(map(values[box].__getitem__, value_of[box])) for box in Box}
    return DiceIndex(rolls, roll_index, keep_index, tuple(groups), tuple(rethrows), points, values,
                 value_of, keep_index[Keep()])



class ListMath:
    """The vector arithmetic in pure Python (vectors are lists of floats)."""

    def __init__(self, dice: DiceIndex) -> None:
        self.dice = dice
        self.points: dict[Box, Vec] = {b: list(v) for b, v in dice.points.items()}

    def expect(self, value: Vec) -> Vec:
        """For every keep, the expected ``value`` of the roll a re-throw brings."""
        out = []
        for rolls, probs in self.dice.groups:
            acc = 0.0
            for r, p in zip(rolls, probs, strict=True):
                acc += p * value[r]
            out.append(acc)
        return out

    def best_rethrow(self, expected: Vec) -> Vec:
        """For every roll, the best of the ``expected`` values (per keep) of its re-throws."""
        get = expected.__getitem__
        return [max(map(get, keeps)) for keeps in self.dice.rethrows]

    def best_rethrow_of(self, expected: Vec, roll: int) -> float:
        """The best of the ``expected`` values of the re-throws of roll number ``roll``."""
        return float(max(expected[k] for k in self.dice.rethrows[roll]))

    def maximum(self, a: Vec, b: Vec) -> Vec:
        """Elementwise maximum of two vectors."""
        return [x if x >= y else y for x, y in zip(a, b, strict=True)]

    def minus(self, a: Vec, c: float) -> Vec:
        """``a - c`` for every element."""
        return [x - c for x in a]

    def zero_nan(self, a: Vec) -> Vec:
        """``a`` with NaN (box does not fit) as 0."""
        return [0.0 if x != x else x for x in a]

    def spread(self, box: Box, worth: list[float]) -> Vec:
        """For every roll, ``worth[i]`` of the distinct points ``i`` it scores in ``box``."""
        return [worth[i] for i in self.dice.value_of[box]]

    def best_box(self, fits: list[Vec], strike: float, forced: bool) -> Vec:
        """For every roll, the best of ``fits`` (NaN where a box does not fit), else ``strike``;
        with ``forced`` strikes count only where no box fits."""
        out = []
        for values in zip(*fits, strict=True):
            best = max((v for v in values if v == v), default=-math.inf)
            out.append(strike if best == -math.inf else best if forced else max(best, strike))
        return out


class NumpyMath:
    """:class:`ListMath` with numpy arrays (the same results, much faster)."""

    def __init__(self, dice: DiceIndex) -> None:
        import numpy as np

        self.np = np
        self.dice = dice
        keep_of = [k for k, (rolls, _) in enumerate(dice.groups) for _ in rolls]
        self.keep_of = np.array(keep_of, dtype=np.intp)
        self.roll_of = np.array([r for rolls, _ in dice.groups for r in rolls], dtype=np.intp)
        self.prob = np.array([p for _, probs in dice.groups for p in probs], dtype=np.float64)
        self.rethrows = np.array([k for keeps in dice.rethrows for k in keeps], dtype=np.intp)
        self.starts = np.cumsum([0] + [len(k) for k in dice.rethrows[:-1]]).astype(np.intp)
        self.points: dict[Box, Vec] = {b: np.array(v, dtype=np.float64)
                                       for b, v in dice.points.items()}
        self.value_of = {b: np.array(v, dtype=np.intp) for b, v in dice.value_of.items()}

    def expect(self, value: Vec) -> Vec:
        # bincount adds the weights in order, like ListMath's loop
        weights = self.prob * value[self.roll_of]
        return self.np.bincount(self.keep_of, weights=weights,
                                minlength=len(self.dice.groups)).astype(self.np.float64)

    def best_rethrow(self, expected: Vec) -> Vec:
        return self.np.maximum.reduceat(expected[self.rethrows], self.starts)

    def best_rethrow_of(self, expected: Vec, roll: int) -> float:
        return float(max(expected[k] for k in self.dice.rethrows[roll]))

    def maximum(self, a: Vec, b: Vec) -> Vec:
        return self.np.maximum(a, b)

    def minus(self, a: Vec, c: float) -> Vec:
        return a - c

    def zero_nan(self, a: Vec) -> Vec:
        return self.np.nan_to_num(a)

    def spread(self, box: Box, worth: list[float]) -> Vec:
        return self.np.array(worth, dtype=self.np.float64)[self.value_of[box]]

    def best_box(self, fits: list[Vec], strike: float, forced: bool) -> Vec:
        np = self.np
        fit = np.stack(fits)
        best = np.max(np.where(np.isnan(fit), -np.inf, fit), axis=0)
        if forced:
            return np.where(best == -np.inf, strike, best)
        return np.maximum(best, strike)


def numpy_available() -> bool:
    """Whether numpy can be imported here (not in the browser)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


#: Either kind of vector arithmetic.
VectorMath: TypeAlias = "ListMath | NumpyMath"


@cache
def vector_math(d10: bool, use_numpy: bool) -> VectorMath:
    """The shared vector arithmetic of the dice with (``d10``) or without the d10: numpy's
    (``use_numpy``) or pure Python's."""
    return NumpyMath(dice_index(d10)) if use_numpy else ListMath(dice_index(d10))


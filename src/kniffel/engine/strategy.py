"""Computer players: the :class:`Strategy` interface, its registry, and the ``random`` and
``greedy`` players.

A strategy picks one of ``game.legal_actions()`` for the player to move; the caller rolls the dice
(chance nodes never reach a strategy). Strategies are registered by name with a factory that builds
one for a rule set, so a later module can add its own (``register_strategy("optimal", ...)``) and
every front end offers it.

The greedy player looks one turn ahead exactly: it knows, for every roll it could end the turn
with, how much that roll is worth on its sheet (the points of the best open box, the upper bonus
valued, less what filling a box forgoes), and keeps the dice that maximise the expected worth at
the end of the turn, handing in a chip when the expected gain of a 4th throw is worth more than the
chip. Everything it knows about scoring and legality comes from the rules engine
(:func:`kniffel.engine.rules.evaluate`, :func:`kniffel.engine.dice.outcomes`, :meth:`Game.choices`,
:meth:`Game.legal_actions`). It computes with numpy where numpy is installed and in pure Python
where it is not (the browser's Pyodide), with the same decisions either way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from kniffel.engine.dice import Keep, Roll, all_rolls, d6_sub_multisets, d10_after, rethrow_faces
from kniffel.engine.errors import IllegalMoveError, UnknownStrategyError
from kniffel.engine.game import Action, Game, Score, Strike, Throw, UseChip
from kniffel.engine.rules import Box, Choice, Entry, RuleSet, StrikeRule, evaluate


class Strategy(Protocol):
    """A computer player's decisions."""

    name: str

    def choose(self, game: Game, rng: random.Random) -> Action:
        """One of game.legal_actions() for the player to move (game not over, not at a chance
        node)."""
        ...


_REGISTRY: dict[str, Callable[[RuleSet], Strategy]] = {}


def register_strategy(name: str, factory: Callable[[RuleSet], Strategy]) -> None:
    """Make ``factory`` (rule set -> strategy) available as ``name``; a name registered again
    replaces the old factory."""
    if not isinstance(name, str) or not name.strip() or name != name.strip().lower():
        raise UnknownStrategyError(f"a strategy name is lower-case text without spaces around "
                                   f"it, got {name!r}", code="strategy.bad_name",
                                   params={"name": repr(name)})
    _REGISTRY[name] = factory


def strategy_names() -> tuple[str, ...]:
    """The registered strategy names, in registration order."""
    return tuple(_REGISTRY)


def get_strategy(name: str, rules: RuleSet) -> Strategy:
    """The strategy registered as ``name``, built for ``rules``."""
    key = str(name).strip().lower()
    if key not in _REGISTRY:
        raise UnknownStrategyError(
            f"unknown strategy {name!r}; the strategies are: {', '.join(strategy_names())}",
            code="strategy.unknown",
            params={"name": str(name), "strategies": list(strategy_names())})
    return _REGISTRY[key](rules)


def _check_decision(game: Game) -> list[Action]:
    if game.is_over():
        raise IllegalMoveError("the game is over: there is nothing to choose",
                               code="move.game_over")
    if game.is_chance_node():
        raise IllegalMoveError("the dice are rolling: a chance node is not a player's decision",
                               code="move.dice_rolling")
    return game.legal_actions()


class RandomStrategy:
    """Any legal action, uniformly at random (a baseline for tests and benchmarks)."""

    name = "random"

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def choose(self, game: Game, rng: random.Random) -> Action:
        """A uniformly random one of ``game.legal_actions()``."""
        return rng.choice(_check_decision(game))


# --- the greedy player ------------------------------------------------------------------------
#
# The greedy player's arithmetic runs on vectors over every roll (or every keep) of one kind of
# dice. With numpy they are arrays; without it (the browser's Pyodide has no numpy) they are
# lists, computed by :class:`_ListMath` with exactly the same floating-point operations in the
# same order, so both make the same decisions (tests/test_strategy.py checks that).

#: A vector over every roll or every keep: a numpy array, or a list of floats without numpy.
Vec = Any


@dataclass(frozen=True)
class _Dice:
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
        scores = evaluate.__wrapped__(roll)
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
def _dice(d10: bool) -> _Dice:
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
    return _Dice(rolls, roll_index, keep_index, tuple(groups), tuple(rethrows), points, values,
                 value_of, keep_index[Keep()])


def _reach(margin: float) -> float:
    """The estimated chance to reach the bonus when the expected upper sum lies ``margin``
    points above the threshold (below when negative)."""
    return 1.0 / (1.0 + math.exp(-margin / BONUS_SPREAD))


class _ListMath:
    """The greedy player's vector arithmetic in pure Python (vectors are lists of floats)."""

    def __init__(self, dice: _Dice) -> None:
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


class _NumpyMath:
    """:class:`_ListMath` with numpy arrays (the same results, much faster)."""

    def __init__(self, dice: _Dice) -> None:
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
        # bincount adds the weights in order, like _ListMath's loop
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


def _numpy_available() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


@cache
def _math(d10: bool, use_numpy: bool) -> _ListMath | _NumpyMath:
    return _NumpyMath(_dice(d10)) if use_numpy else _ListMath(_dice(d10))


def _turn_value(m: _ListMath | _NumpyMath, final: Vec, rolls: int) -> float:
    """The expected ``final`` value of a turn of ``rolls`` throws played to maximise it."""
    value = final
    for _ in range(rolls - 1):
        value = m.maximum(final, m.best_rethrow(m.expect(value)))
    return float(m.expect(value)[m.dice.first])


@cache
def _box_worth(rules: RuleSet, use_numpy: bool) -> dict[Box, float]:
    """What a box is worth on its own: the expected points of a whole turn spent on it."""
    m = _math(rules.d10, use_numpy)
    return {box: _turn_value(m, m.zero_nan(m.points[box]), rules.rolls) for box in rules.boxes}


#: How much of a box's own worth filling it forgoes (tuned with ``kniffel simulate``).
FORGO_WEIGHT = 1.0
#: How far (in points) the expected upper sum may fall short of the threshold and still reach
#: it with a fair chance: the spread of the logistic estimate in :func:`_reach`.
BONUS_SPREAD = 8.0

#: The points a chip is worth while there are more turns left than chips.
CHIP_WORTH = 8.0


def _upper(entries: dict[Box, Entry]) -> int:
    """The upper sum of a sheet's ``entries``."""
    return sum(e.points for b, e in entries.items() if b.is_upper)


class GreedyStrategy:
    """Maximises the expected worth of the turn's end; see the module docstring.

    ``use_numpy`` picks the arithmetic: numpy arrays (the default where numpy is installed) or
    pure Python (the browser); both make the same decisions."""

    name = "greedy"

    def __init__(self, rules: RuleSet, *, use_numpy: bool | None = None) -> None:
        self.rules = rules
        self.use_numpy = _numpy_available() if use_numpy is None else use_numpy
        self._m = _math(rules.d10, self.use_numpy)
        self._worth = _box_worth(rules, self.use_numpy)
        self._cache: dict[tuple[object, ...], dict[str, Vec]] = {}

    # worth of entering points in a box, for the player with ``entries``

    def _entry_worth(self, box: Box, entries: dict[Box, Entry], upper: int
                     ) -> Callable[[float], float]:
        """The worth of entering points in ``box`` for the player with ``entries`` (``upper``
        their upper sum), as a function of the points."""
        rules = self.rules
        forgo = FORGO_WEIGHT * self._worth[box]
        if not box.is_upper or upper >= rules.bonus_threshold:
            return lambda pts: pts - forgo
        # the bonus counts with how much more likely entering the points makes it: the chance is
        # estimated from the upper sum plus what the other open upper boxes are worth on their own
        base = upper + sum(self._worth[b] for b in rules.upper_boxes
                           if b not in entries and b != box)
        threshold, bonus = rules.bonus_threshold, rules.bonus_points
        before = _reach(base + self._worth[box] - threshold)
        return lambda pts: (pts - forgo) + bonus * (_reach(base + pts - threshold) - before)

    def _choice_worth(self, c: Choice, entries: dict[Box, Entry]) -> float:
        pts = 0 if c.strike else c.points
        return self._entry_worth(c.box, entries, _upper(entries))(float(pts)) + c.bonus

    def _final(self, entries: dict[Box, Entry]) -> Vec:
        """For every roll, its worth when entered in the best open box."""
        m = self._m
        open_boxes = [b for b in self.rules.boxes if b not in entries]
        upper = _upper(entries)
        worth = [self._entry_worth(b, entries, upper) for b in open_boxes]
        # the worth of each distinct number of points a box can get, then for every roll
        fits = [m.spread(b, [w(p) for p in m.dice.values[b]]) for b, w in zip(open_boxes, worth,
                                                                                  strict=True)]
        strike = max(w(0.0) for w in worth)
        return m.best_box(fits, strike, self.rules.strike is StrikeRule.FORCED)

    def _stages(self, game: Game, player: int) -> dict[str, Vec]:
        sheet = game.sheet(player)
        entries = dict(sheet.entries)
        turns_left = len(sheet.open_boxes)
        chip_cost = 0.0 if sheet.chips_left >= turns_left else CHIP_WORTH
        key = (tuple(sorted((b.value, e.points) for b, e in entries.items())),
               sheet.chips_left, chip_cost)
        found = self._cache.get(key)
        if found is not None:
            return found
        m = self._m
        final = self._final(entries)
        after_chip = m.expect(final)  # keep -> expected worth of the turn's last throw
        third = final
        if sheet.chips_left:
            third = m.maximum(final, m.minus(m.best_rethrow(after_chip), chip_cost))
        # per keep, the expected worth of a re-throw that brings throw n (more may follow)
        stages = {"final": final, "chip": after_chip}
        value = third
        for n in range(self.rules.rolls - 1, 0, -1):
            stages[f"after{n + 1}"] = expected = m.expect(value)
            if n > 1:
                value = m.maximum(final, m.best_rethrow(expected))
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[key] = stages
        return stages

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The action with the highest expected worth at the end of the turn."""
        legal = _check_decision(game)
        turn = game.turn
        assert turn is not None
        if turn.roll is None:
            return legal[0]  # the first throw
        player = turn.player
        entries = dict(game.sheet(player).entries)
        best: Action | None = None
        best_worth = -math.inf
        for c in game.choices():
            w = self._choice_worth(c, entries)
            if w > best_worth:
                best, best_worth = (Strike(c.box) if c.strike else Score(c.box)), w
        stages = self._stages(game, player)
        dice = self._m.dice
        throws = [a for a in legal if isinstance(a, Throw)]
        if throws:
            if turn.chip_used or turn.rolls_used >= self.rules.rolls:
                expected = stages["chip"]
            else:
                expected = stages[f"after{turn.rolls_used + 1}"]
            for a in throws:
                w = float(expected[dice.keep_index[a.keep]])
                if w > best_worth + 1e-9:
                    best, best_worth = a, w
        if any(isinstance(a, UseChip) for a in legal):
            sheet = game.sheet(player)
            cost = 0.0 if sheet.chips_left >= len(sheet.open_boxes) else CHIP_WORTH
            w = self._m.best_rethrow_of(stages["chip"], dice.roll_index[turn.roll]) - cost
            if w > best_worth + 1e-9:
                best, best_worth = UseChip(), w
        assert best is not None
        return best


register_strategy("random", RandomStrategy)
register_strategy("greedy", GreedyStrategy)


def _optimal(rules: RuleSet) -> Strategy:
    """The exact optimal player of the solver (imported on use: numpy and the compiled kernel)."""
    from kniffel.solver.advise import OptimalStrategy

    return OptimalStrategy(rules)


register_strategy("optimal", _optimal)


def _expert(rules: RuleSet) -> Strategy:
    """The expert player (kniffel.engine.expert): exact within a turn, valued at its end by the
    exact table (classic rule sets) or the fitted model (Kniffel Extreme); imported on use."""
    from kniffel.engine.expert import ExpertStrategy

    return ExpertStrategy(rules)


register_strategy("expert", _expert)

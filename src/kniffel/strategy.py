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
(:func:`kniffel.rules.evaluate`, :func:`kniffel.dice.outcomes`, :meth:`Game.choices`,
:meth:`Game.legal_actions`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kniffel.dice import Keep, Roll, all_rolls, outcomes, sub_keeps
from kniffel.errors import IllegalMoveError, UnknownStrategyError
from kniffel.game import Action, Game, Score, Strike, Throw, UseChip
from kniffel.rules import Box, Choice, Entry, RuleSet, StrikeRule, evaluate

Vector = npt.NDArray[np.float64]


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
                                   f"it, got {name!r}")
    _REGISTRY[name] = factory


def strategy_names() -> tuple[str, ...]:
    """The registered strategy names, in registration order."""
    return tuple(_REGISTRY)


def get_strategy(name: str, rules: RuleSet) -> Strategy:
    """The strategy registered as ``name``, built for ``rules``."""
    key = str(name).strip().lower()
    if key not in _REGISTRY:
        raise UnknownStrategyError(
            f"unknown strategy {name!r}; the strategies are: {', '.join(strategy_names())}")
    return _REGISTRY[key](rules)


def _check_decision(game: Game) -> list[Action]:
    if game.is_over():
        raise IllegalMoveError("the game is over: there is nothing to choose")
    if game.is_chance_node():
        raise IllegalMoveError("the dice are rolling: a chance node is not a player's decision")
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


@dataclass(frozen=True)
class _Tables:
    """Every roll and every re-throw of one kind of dice, as arrays.

    ``keep_of``/``roll_of``/``prob`` list each (keep, outcome, probability) of a re-throw;
    ``rethrows`` lists, roll by roll, the keeps one may re-throw from it (``starts`` marks where
    each roll's list begins), so the best re-throw of every roll is one ``maximum.reduceat``.
    """

    rolls: tuple[Roll, ...]
    roll_index: dict[Roll, int]
    keep_index: dict[Keep, int]
    keep_of: npt.NDArray[np.intp]
    roll_of: npt.NDArray[np.intp]
    prob: Vector
    rethrows: npt.NDArray[np.intp]
    starts: npt.NDArray[np.intp]
    points: dict[Box, Vector]  # NaN where the box does not fit
    first: int  # the index of Keep(): the first throw of a turn

    def expect(self, value: Vector) -> Vector:
        """For every keep, the expected ``value`` of the roll a re-throw brings."""
        weights = self.prob * value[self.roll_of]
        return np.bincount(self.keep_of, weights=weights,
                           minlength=len(self.keep_index)).astype(np.float64)

    def best_rethrow(self, expected: Vector) -> Vector:
        """For every roll, the best of the ``expected`` values (per keep) of its re-throws."""
        return np.asarray(np.maximum.reduceat(expected[self.rethrows], self.starts),
                          dtype=np.float64)


@cache
def _tables(d10: bool) -> _Tables:
    rolls = all_rolls(d10=d10)
    roll_index = {r: i for i, r in enumerate(rolls)}
    keep_index: dict[Keep, int] = {}
    rethrows: list[int] = []
    starts: list[int] = []
    for roll in rolls:
        starts.append(len(rethrows))
        for k in sub_keeps(roll):
            if k.size < len(roll.values):
                rethrows.append(keep_index.setdefault(k, len(keep_index)))
    keep_of: list[int] = []
    roll_of: list[int] = []
    prob: list[float] = []
    for keep, ki in keep_index.items():
        for roll, p in outcomes(keep, d10=d10):
            keep_of.append(ki)
            roll_of.append(roll_index[roll])
            prob.append(p)
    points = {box: np.array([np.nan if (v := evaluate(r)[box]) is None else float(v)
                             for r in rolls]) for box in Box}
    return _Tables(rolls, roll_index, keep_index, np.array(keep_of, dtype=np.intp),
                   np.array(roll_of, dtype=np.intp), np.array(prob),
                   np.array(rethrows, dtype=np.intp), np.array(starts, dtype=np.intp), points,
                   keep_index[Keep()])


def _turn_value(t: _Tables, final: Vector, rolls: int) -> float:
    """The expected ``final`` value of a turn of ``rolls`` throws played to maximise it."""
    value = final
    for _ in range(rolls - 1):
        value = np.maximum(final, t.best_rethrow(t.expect(value)))
    return float(t.expect(value)[t.first])


@cache
def _box_worth(rules: RuleSet) -> dict[Box, float]:
    """What a box is worth on its own: the expected points of a whole turn spent on it."""
    t = _tables(rules.d10)
    return {box: _turn_value(t, np.nan_to_num(t.points[box]), rules.rolls)
            for box in rules.boxes}


#: How much of a box's own worth filling it forgoes (tuned with ``kniffel simulate``).
FORGO_WEIGHT = 1.0
#: How far (in points) the expected upper sum may fall short of the threshold and still reach
#: it with a fair chance: the spread of the logistic estimate in :func:`_reach`.
BONUS_SPREAD = 8.0


def _reach(margin: Vector | float) -> Vector:
    """The estimated chance to reach the bonus when the expected upper sum lies ``margin``
    points above the threshold (below when negative)."""
    return np.asarray(1.0 / (1.0 + np.exp(-np.asarray(margin) / BONUS_SPREAD)))


#: The points a chip is worth while there are more turns left than chips.
CHIP_WORTH = 8.0


class GreedyStrategy:
    """Maximises the expected worth of the turn's end; see the module docstring."""

    name = "greedy"

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._t = _tables(rules.d10)
        self._worth = _box_worth(rules)
        self._cache: dict[tuple[object, ...], dict[str, Vector]] = {}

    # worth of entering points in a box, for the player with ``entries``

    def _entry_worth(self, box: Box, pts: Vector | float, entries: dict[Box, Entry]
                     ) -> Vector | float:
        rules = self.rules
        worth = pts - FORGO_WEIGHT * self._worth[box]
        if not box.is_upper:
            return worth
        upper = sum(e.points for b, e in entries.items() if b.is_upper)
        if upper >= rules.bonus_threshold:
            return worth
        # the bonus counts with how much more likely entering ``pts`` makes it: the chance is
        # estimated from the upper sum plus what the other open upper boxes are worth on their own
        others = sum(self._worth[b] for b in rules.upper_boxes if b not in entries and b != box)
        before = _reach(upper + others + self._worth[box] - rules.bonus_threshold)
        after = _reach(upper + others + np.asarray(pts) - rules.bonus_threshold)
        bonus = rules.bonus_points * (after - before)
        return worth + (bonus if isinstance(pts, np.ndarray) else float(bonus))

    def _choice_worth(self, c: Choice, entries: dict[Box, Entry]) -> float:
        pts = 0 if c.strike else c.points
        return float(self._entry_worth(c.box, float(pts), entries)) + c.bonus

    def _final(self, entries: dict[Box, Entry]) -> Vector:
        """For every roll, its worth when entered in the best open box."""
        t = self._t
        open_boxes = [b for b in self.rules.boxes if b not in entries]
        fit = np.stack([np.asarray(self._entry_worth(b, t.points[b], entries))
                        for b in open_boxes])
        strike = max(float(self._entry_worth(b, 0.0, entries)) for b in open_boxes)
        fits_any = ~np.all(np.isnan(fit), axis=0)
        best = np.max(np.where(np.isnan(fit), -np.inf, fit), axis=0)
        if self.rules.strike is StrikeRule.FORCED:
            return np.asarray(np.where(fits_any, best, strike), dtype=np.float64)
        return np.asarray(np.maximum(best, strike), dtype=np.float64)

    def _stages(self, game: Game, player: int) -> dict[str, Vector]:
        sheet = game.sheet(player)
        entries = dict(sheet.entries)
        turns_left = len(sheet.open_boxes)
        chip_cost = 0.0 if sheet.chips_left >= turns_left else CHIP_WORTH
        key = (tuple(sorted((b.value, e.points) for b, e in entries.items())),
               sheet.chips_left, chip_cost)
        found = self._cache.get(key)
        if found is not None:
            return found
        t = self._t
        final = self._final(entries)
        after_chip = t.expect(final)  # keep -> expected worth of the turn's last throw
        third = final
        if sheet.chips_left:
            third = np.maximum(final, t.best_rethrow(after_chip) - chip_cost)
        # per keep, the expected worth of a re-throw that brings throw n (more may follow)
        stages = {"final": final, "chip": after_chip}
        value = third
        for n in range(self.rules.rolls - 1, 0, -1):
            stages[f"after{n + 1}"] = expected = t.expect(value)
            if n > 1:
                value = np.maximum(final, t.best_rethrow(expected))
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
        best_worth = -np.inf
        for c in game.choices():
            w = self._choice_worth(c, entries)
            if w > best_worth:
                best, best_worth = (Strike(c.box) if c.strike else Score(c.box)), w
        stages = self._stages(game, player)
        throws = [a for a in legal if isinstance(a, Throw)]
        if throws:
            if turn.chip_used or turn.rolls_used >= self.rules.rolls:
                expected = stages["chip"]
            else:
                expected = stages[f"after{turn.rolls_used + 1}"]
            for a in throws:
                w = float(expected[self._t.keep_index[a.keep]])
                if w > best_worth + 1e-9:
                    best, best_worth = a, w
        if any(isinstance(a, UseChip) for a in legal):
            sheet = game.sheet(player)
            cost = 0.0 if sheet.chips_left >= len(sheet.open_boxes) else CHIP_WORTH
            ri = self._t.roll_index[turn.roll]
            lo, hi = self._t.starts[ri], (self._t.starts[ri + 1] if ri + 1 < len(self._t.starts)
                                          else len(self._t.rethrows))
            w = float(np.max(stages["chip"][self._t.rethrows[lo:hi]])) - cost
            if w > best_worth + 1e-9:
                best, best_worth = UseChip(), w
        assert best is not None
        return best


register_strategy("random", RandomStrategy)
register_strategy("greedy", GreedyStrategy)


def _optimal(rules: RuleSet) -> Strategy:
    """The exact optimal player of the solver (imported on use: it needs numba)."""
    from kniffel.solver.advise import OptimalStrategy

    return OptimalStrategy(rules)


register_strategy("optimal", _optimal)

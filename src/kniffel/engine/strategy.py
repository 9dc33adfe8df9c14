"""Computer players: the :class:`Strategy` interface, its registry, and the ``random`` and
``greedy`` players.

A strategy picks one of ``game.legal_actions()`` for the player to move; the caller rolls the dice
(chance nodes never reach a strategy). Strategies are registered by name with a factory that builds
one for a rule set: the module that defines a player registers it (this one ``random`` and
``greedy``, :mod:`kniffel.engine.expert` the expert), and the installed package lists its players
as entry points of the group ``kniffel.players`` (``pyproject.toml``), so players of other layers
(the solver's exact ``optimal`` player) are found without the engine naming them. Each player
says where it is listed (its ``order``). Where nothing is installed (the browser's Pyodide) the
players are those whose modules were imported.

The greedy player looks one turn ahead exactly: it knows, for every roll it could end the turn
with, how much that roll is worth on its sheet (the points of the best open box, the upper bonus
valued, less what filling a box forgoes), and keeps the dice that maximise the expected worth at
the end of the turn, handing in a chip when the expected gain of a 4th throw is worth more than the
chip (:mod:`kniffel.engine.turn_stages`). Everything it knows about scoring and legality comes from
the rules engine (:func:`kniffel.engine.rules.evaluate`, :func:`kniffel.engine.dice.outcomes`,
:meth:`Game.choices`, :meth:`Game.legal_actions`). It computes with numpy where numpy is installed
and in pure Python where it is not (the browser's Pyodide), with the same decisions either way
(:mod:`kniffel.engine.vectors`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Protocol

from kniffel.engine.errors import IllegalMoveError, UnknownStrategyError
from kniffel.engine.game import Action, Game, Score, Strike, Throw, UseChip
from kniffel.engine.rules import Box, Choice, Entry, RuleSet, StrikeRule
from kniffel.engine.turn_stages import TurnStages, turn_stages
from kniffel.engine.vectors import Vec, VectorMath, numpy_available, vector_math

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


class Strategy(Protocol):
    """A computer player's decisions."""

    name: str

    def choose(self, game: Game, rng: random.Random) -> Action:
        """One of game.legal_actions() for the player to move (game not over, not at a chance
        node)."""
        ...


#: The entry-point group that lists the installed package's players.
ENTRY_POINTS = "kniffel.players"

_REGISTRY: dict[str, Callable[[RuleSet], Strategy]] = {}
_discovered = False


def register_strategy(name: str, factory: Callable[[RuleSet], Strategy]) -> None:
    """Make ``factory`` (rule set -> strategy) available as ``name``; a name registered again
    replaces the old factory. The names are listed by the factories' ``order`` (an int; those
    without one last), then in registration order."""
    if not isinstance(name, str) or not name.strip() or name != name.strip().lower():
        raise UnknownStrategyError(f"a strategy name is lower-case text without spaces around "
                                   f"it, got {name!r}", code="strategy.bad_name",
                                   params={"name": repr(name)})
    _REGISTRY[name] = factory


def _on_first_use(entry: EntryPoint) -> Callable[[RuleSet], Strategy]:
    """A factory that loads the player of ``entry`` when it is built (and so raises there
    what loading it raises)."""

    def build(rules: RuleSet) -> Strategy:
        factory: Callable[[RuleSet], Strategy] = entry.load()
        return factory(rules)

    return build


def _discover() -> None:
    """Register the installed players (entry points of :data:`ENTRY_POINTS`) not registered
    yet, once."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    try:
        from importlib.metadata import entry_points

        found = list(entry_points(group=ENTRY_POINTS))
    except Exception:  # pragma: no cover - broken metadata: the imported players only
        return
    for entry in found:
        if entry.name in _REGISTRY:
            continue
        try:
            factory = entry.load()
        except Exception:  # e.g. the solver's kernel is not built: the error when it is used
            factory = _on_first_use(entry)
        if entry.name not in _REGISTRY:  # loading a player's module may register it
            register_strategy(entry.name, factory)


def _listed(item: tuple[str, Callable[[RuleSet], Strategy]]) -> float:
    order = getattr(item[1], "order", None)
    return order if isinstance(order, int) else math.inf


def strategy_names() -> tuple[str, ...]:
    """The registered strategy names, in their order (see :func:`register_strategy`)."""
    _discover()
    return tuple(name for name, _ in sorted(_REGISTRY.items(), key=_listed))


def get_strategy(name: str, rules: RuleSet) -> Strategy:
    """The strategy registered as ``name``, built for ``rules``."""
    _discover()
    key = str(name).strip().lower()
    if key not in _REGISTRY:
        raise UnknownStrategyError(
            f"unknown strategy {name!r}; the strategies are: {', '.join(strategy_names())}",
            code="strategy.unknown",
            params={"name": str(name), "strategies": list(strategy_names())})
    return _REGISTRY[key](rules)


def check_decision(game: Game) -> list[Action]:
    """The legal actions of the player to move in ``game``; :class:`IllegalMoveError` when
    there is no decision to make (the game is over, or the dice are rolling)."""
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
    #: Where the player is listed among the computer players (see :func:`register_strategy`).
    order = 10

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"RandomStrategy({self.rules!r})"

    def choose(self, game: Game, rng: random.Random) -> Action:
        """A uniformly random one of ``game.legal_actions()``."""
        return rng.choice(check_decision(game))


# --- the greedy player ------------------------------------------------------------------------


def _reach(margin: float) -> float:
    """The estimated chance to reach the bonus when the expected upper sum lies ``margin``
    points above the threshold (below when negative)."""
    return 1.0 / (1.0 + math.exp(-margin / BONUS_SPREAD))


def _turn_value(m: VectorMath, final: Vec, rolls: int) -> float:
    """The expected ``final`` value of a turn of ``rolls`` throws played to maximise it."""
    return float(turn_stages(m, final, rolls).before(1)[m.dice.first])


@cache
def _box_worth(rules: RuleSet, use_numpy: bool) -> dict[Box, float]:
    """What a box is worth on its own: the expected points of a whole turn spent on it."""
    m = vector_math(rules.d10, use_numpy)
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
    order = 20

    def __init__(self, rules: RuleSet, *, use_numpy: bool | None = None) -> None:
        self.rules = rules
        self.use_numpy = numpy_available() if use_numpy is None else use_numpy
        self._m = vector_math(rules.d10, self.use_numpy)
        self._worth = _box_worth(rules, self.use_numpy)
        self._cache: dict[tuple[object, ...], TurnStages] = {}

    def __repr__(self) -> str:
        return f"GreedyStrategy({self.rules!r}, use_numpy={self.use_numpy!r})"

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

    def _stages(self, game: Game, player: int) -> TurnStages:
        sheet = game.sheet(player)
        entries = dict(sheet.entries)
        turns_left = len(sheet.open_boxes)
        chip_cost = 0.0 if sheet.chips_left >= turns_left else CHIP_WORTH
        key = (tuple(sorted((b.value, e.points) for b, e in entries.items())),
               sheet.chips_left, chip_cost)
        found = self._cache.get(key)
        if found is not None:
            return found
        final = self._final(entries)
        # the chip's re-throw ends the turn with the same worths; from the 2nd throw on (the
        # first throw of a turn is no choice)
        stages = turn_stages(self._m, final, self.rules.rolls, first=2, chip_final=final,
                             chip_open=sheet.chips_left > 0, chip_cost=chip_cost)
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[key] = stages
        return stages

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The action with the highest expected worth at the end of the turn."""
        legal = check_decision(game)
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
                expected = stages.chip
            else:
                expected = stages.before(turn.rolls_used + 1)
            assert expected is not None  # the chip's stages are always computed here
            for a in throws:
                w = float(expected[dice.keep_index[a.keep]])
                if w > best_worth + 1e-9:
                    best, best_worth = a, w
        if any(isinstance(a, UseChip) for a in legal):
            sheet = game.sheet(player)
            cost = 0.0 if sheet.chips_left >= len(sheet.open_boxes) else CHIP_WORTH
            assert stages.chip is not None
            w = self._m.best_rethrow_of(stages.chip, dice.roll_index[turn.roll]) - cost
            if w > best_worth + 1e-9:
                best, best_worth = UseChip(), w
        assert best is not None
        return best


register_strategy("random", RandomStrategy)
register_strategy("greedy", GreedyStrategy)


register_strategy("random", RandomStrategy)
register_strategy("greedy", GreedyStrategy)

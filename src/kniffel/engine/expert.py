"""The ``expert`` player and its hints: exact play within a turn, valued at its end.

Within a turn the expert computes exactly what the optimal player computes (every keep, the chip,
every entry), with the within-turn recursion it shares with the greedy player
(:mod:`kniffel.engine.turn_stages`) and the same vector code in numpy and in pure Python
(:mod:`kniffel.engine.vectors`). At the end of the turn it values the sheet it leaves with a
value function ``V(filled boxes, upper sum, extra state)`` (:mod:`kniffel.engine.values`): for
the classic rule sets their exact value tables, so there it plays exactly optimally; for Kniffel
Extreme, whose exact table is 2.4 GB, a compact model fitted to a sample of that table
(:mod:`kniffel.engine.expert_model`, data file ``kniffel/engine/data/expert-extreme.json``).
Reviews by the expert: :mod:`kniffel.engine.review`.

Pure Python; numpy is used where it is installed (and ``use_numpy`` allows), with the same options
in the same order and the same values either way. No numba, so it runs in the browser (Pyodide).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from kniffel.engine.advice import Advice, Option, Position
from kniffel.engine.dice import sub_keeps
from kniffel.engine.errors import ExpertError
from kniffel.engine.game import Action, Game, Score, Strike, Throw, UseChip
from kniffel.engine.rules import (
    Box,
    Entry,
    ExtraKniffel,
    Lang,
    RuleSet,
    StrikeRule,
    choices,
    is_kniffel,
)
from kniffel.engine.states import DEAD, max_count, upper_key
from kniffel.engine.strategy import check_decision, register_strategy
from kniffel.engine.turn_stages import TurnStages, turn_stages
from kniffel.engine.values import Values, known_value, on_providers_changed, values_for
from kniffel.engine.vectors import Vec, numpy_available, vector_math

#: The worth of ending a turn with an entry: (box, points, a further Kniffel's extra points) to
#: a number the turn maximises (the expert: points now plus the value after).
Worth = Callable[[Box, int, int], float]
#: The worth of the entries by the extra state after them (chips left, or the kniffel flag).
WorthOf = Callable[[int], Worth]


@dataclass(frozen=True)
class _Turn:
    """A turn-start state: filled boxes, upper sum, chips at the turn start (or the kniffel
    flag), and whether the kniffel box holds 50."""

    mask: int
    upper: int
    x: int
    holds_50: bool


class Expert:
    """Advice from the exact within-turn computation with ``values`` at the turn's end.

    ``values`` defaults to :func:`values_for` (``rules``); ``use_numpy`` picks the arithmetic
    (numpy where installed by default); both give the same options in the same order with the
    same values.
    """

    def __init__(self, rules: RuleSet, *, use_numpy: bool | None = None,
                 values: Values | None = None, build: bool = True) -> None:
        self.rules = rules
        self.use_numpy = numpy_available() if use_numpy is None else use_numpy
        self.values = values if values is not None else values_for(rules, build=build)
        self._m = vector_math(rules.d10, self.use_numpy)
        self._bit = {box: 1 << b for b, box in enumerate(rules.boxes)}
        self._stages: dict[_Turn, TurnStages] = {}
        self._further = (rules.extra_kniffel is not ExtraKniffel.NONE
                         and Box.KNIFFEL in rules.boxes)
        self._kniffel_rolls = [i for i, r in enumerate(self._m.dice.rolls) if is_kniffel(r)]

    def __repr__(self) -> str:
        return (f"Expert({self.rules!r}, use_numpy={self.use_numpy!r})  # values: "
                f"{self.source}")

    @property
    def source(self) -> str:
        return self.values.source

    # --- values of entries ---------------------------------------------------------------

    def _x_entry(self, pos: Position) -> int:
        """The extra state after this turn's entry, before the entry itself changes it."""
        if self.rules.chips:
            return pos.chips_left or 0
        if self._further and Box.KNIFFEL in pos.entries:
            return 1 if pos.entries[Box.KNIFFEL].points > 0 else 0
        return 0

    def entry_value(self, mask: int, upper: int, x: int, box: Box, points: int) -> float:
        """Points gained by entering ``points`` in ``box`` (with the upper bonus) plus V of
        the sheet after it."""
        rules = self.rules
        nxt = mask | self._bit[box]
        if box.is_upper:
            threshold = rules.bonus_threshold
            live = upper_key(mask & 63, upper, threshold, max_count(rules)) != DEAD
            gain = points + (rules.bonus_points if live and upper < threshold <= upper + points
                             else 0)
            return gain + self.values.future(nxt, upper + points, x)
        if box is Box.KNIFFEL and self._further:
            x = 1 if points > 0 else 0
        return points + self.values.future(nxt, upper, x)

    def worth_of_entries(self, turn: _Turn, x: int) -> Worth:
        """The expert's worth of an entry at the end of ``turn``: the points it brings now (a
        further Kniffel's extra points ``bonus`` included) plus V of the sheet after it, ``x``
        the extra state for the entry."""
        mask, upper = turn.mask, turn.upper

        def worth(box: Box, points: int, bonus: int) -> float:
            return bonus + self.entry_value(mask, upper, x, box, points)
        return worth

    def _final(self, turn: _Turn, x: int, entries: Mapping[Box, Entry],
               worth: Worth | None = None) -> Vec:
        """For every roll, the best ``worth`` of entering it at the end of the turn (by default
        :meth:`worth_of_entries`: points now + V after), ``x`` the extra state for the entry."""
        m = self._m
        rules = self.rules
        mask = turn.mask
        value = worth if worth is not None else self.worth_of_entries(turn, x)
        any_box = rules.strike is StrikeRule.ANY_BOX
        fits: list[Vec] = []
        strike = -math.inf
        for box in rules.boxes:
            if mask & self._bit[box]:
                continue
            zero = value(box, 0, 0)
            strike = max(strike, zero)
            row = [(zero if any_box else math.nan) if p != p else value(box, int(p), 0)
                   for p in m.dice.values[box]]
            fits.append(m.spread(box, row))
        forced = rules.strike is not StrikeRule.FREE
        final = m.best_box(fits, strike, forced)
        if self._further and Box.KNIFFEL in entries:
            for i in self._kniffel_rolls:  # further Kniffel: the engine's special choices
                roll = m.dice.rolls[i]
                final[i] = max(value(c.box, c.points, c.bonus)
                               for c in choices(rules, entries, roll))
        return final

    def _x_at_end(self, turn: _Turn, entries: Mapping[Box, Entry]) -> int:
        """The extra state for an entry that ends ``turn`` with no chip handed in."""
        rules = self.rules
        return turn.x if rules.chips else (1 if turn.holds_50 else 0) if (
            self._further and Box.KNIFFEL in entries) else 0

    def _turn_stages(self, turn: _Turn, entries: Mapping[Box, Entry]) -> TurnStages:
        found = self._stages.get(turn)
        if found is not None:
            return found
        stages = self.stages_for(turn, entries, None)
        if len(self._stages) > 256:
            self._stages.clear()
        self._stages[turn] = stages
        return stages

    def stages_for(self, turn: _Turn, entries: Mapping[Box, Entry],
                   worth: WorthOf | None) -> TurnStages:
        """The within-turn recursion of ``turn`` (not remembered) for the entries' worth
        ``worth(x)`` (``x``: the extra state after the entry; a chip's throw ends the turn with
        one chip less); None: the expert's own, :meth:`worth_of_entries`."""
        rules = self.rules
        x_entry = self._x_at_end(turn, entries)

        def value(x: int) -> Worth:
            return self.worth_of_entries(turn, x) if worth is None else worth(x)
        final = self._final(turn, x_entry, entries, value(x_entry))
        chip_final = (self._final(turn, turn.x - 1, entries, value(turn.x - 1))
                      if rules.chips and turn.x > 0 else None)
        return turn_stages(self._m, final, rules.rolls, chip_final=chip_final,
                           chip_open=chip_final is not None)

    def _turn(self, pos: Position) -> _Turn:
        mask = 0
        for box in pos.entries:
            mask |= self._bit[box]
        rules = self.rules
        kn = pos.entries.get(Box.KNIFFEL)
        holds_50 = kn is not None and kn.points > 0
        x = (pos.chips_left or 0) + (1 if pos.chip_used else 0) if rules.chips else 0
        return _Turn(mask, pos.upper_total, x, holds_50)

    def turn_start_value(self, pos: Position) -> float:
        """What the exact computation of the turn ``pos`` belongs to expects the turn to bring
        from its start (the dice of ``pos`` not counted): its points plus V of the sheet it
        leaves, the expert's best play in every throw. (Where V is an exact table this is V of
        the turn's start itself.)"""
        turn = self._turn(pos)
        return float(self._turn_stages(turn, pos.entries).before(1)[self._m.dice.first])

    def turn_of(self, pos: Position) -> _Turn:
        """The turn-start state of the turn ``pos`` belongs to."""
        return self._turn(pos)

    def choice_values(self, pos: Position, stages: TurnStages,
                      worth: Worth) -> list[tuple[Action, float, int | None]]:
        """Every legal choice of ``pos`` (dice on the table) with its worth in the turn's
        ``stages``: an entry's ``worth`` (box, points, a further Kniffel's extra points), a
        re-throw's expected worth, a chip's; in the advisor's order, with an entry's points."""
        rules = self.rules
        roll = pos.roll
        assert roll is not None
        dice = self._m.dice
        values: list[tuple[Action, float, int | None]] = []
        for c in choices(rules, pos.entries, roll):
            values.append((Strike(c.box) if c.strike else Score(c.box),
                           worth(c.box, c.points, c.bonus), c.points))
        keeps = [k for k in sub_keeps(roll) if k.size < len(roll.values)]
        if pos.rolls_used < rules.rolls + (1 if pos.chip_used else 0):
            expected = stages.chip if pos.chip_used else stages.before(pos.rolls_used + 1)
            assert expected is not None  # a chip was used: the turn had one
            values.extend((Throw(k), float(expected[dice.keep_index[k]]), None)
                          for k in keeps)
        if (rules.chips and not pos.chip_used and pos.rolls_used == rules.rolls
                and (pos.chips_left or 0) > 0):
            assert stages.with_chip is not None  # a chip is left: its stages are there
            values.append((UseChip(), float(stages.with_chip[dice.roll_index[roll]]), None))
        return values

    def advise(self, pos: Position) -> Advice:
        """Every legal choice of ``pos``, best first, with its expected final score (see the
        module docstring)."""
        rules = self.rules
        if pos.rules != rules:
            raise ExpertError(f"this expert is for {rules.name}, not {pos.rules.name}",
                              code="expert.wrong_rules",
                              params={"rules": rules.name, "other": pos.rules.name})
        turn = self._turn(pos)
        stages = self._turn_stages(turn, pos.entries)
        so_far = pos.score_so_far
        if pos.roll is None:
            # before the first throw: the state's exact value where it is known (the solved
            # optimum of an empty Kniffel Extreme sheet), else what the turn's computation expects
            known = (known_value(rules, self.values, turn.mask, turn.upper, turn.x)
                     if self.values.source == "model" else None)
            values: list[tuple[Action, float, int | None]] = [
                (Throw(), float(stages.before(1)[self._m.dice.first]) if known is None
                 else known, None)]
        else:
            values = self.choice_values(pos, stages,
                                        self.worth_of_entries(turn, self._x_entry(pos)))
        top = max(v for _, v, _ in values)
        options = sorted((Option(a, so_far + v, top - v, p) for a, v, p in values),
                         key=lambda o: -o.expected)
        return Advice(pos, tuple(options), so_far, self.values.source)


@cache
def _expert(rules: RuleSet, use_numpy: bool) -> Expert:
    return Expert(rules, use_numpy=use_numpy)


def expert_for(rules: RuleSet, *, use_numpy: bool | None = None) -> Expert:
    """The shared expert of ``rules`` (built once: its values are loaded once)."""
    return _expert(rules, numpy_available() if use_numpy is None else use_numpy)


class ExpertStrategy:
    """The ``expert`` computer player: the best option of :meth:`Expert.advise` (ties: the
    first in the advisor's order)."""

    name = "expert"
    #: Where the player is listed among the computer players (after the optimal player).
    order = 40

    def __init__(self, rules: RuleSet, *, use_numpy: bool | None = None,
                 values: Values | None = None) -> None:
        self.expert = (expert_for(rules, use_numpy=use_numpy) if values is None else
                       Expert(rules, use_numpy=use_numpy, values=values))

    def __repr__(self) -> str:
        return f"ExpertStrategy({self.expert.rules!r}, use_numpy={self.expert.use_numpy!r})"

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The expert's best legal action for the player to move."""
        legal = check_decision(game)
        turn = game.turn
        assert turn is not None
        if turn.roll is None:
            return legal[0]  # the first throw of a turn
        return self.expert.advise(Position.from_game(game)).best.action


def hint(game: Game, *, lang: Lang = "de", expert: Expert | None = None) -> Advice:
    """The expert's advice for the player to move in ``game`` (``lang`` is accepted for the
    front ends, which word the options with :meth:`Option.describe`)."""
    del lang
    return (expert or expert_for(game.rules)).advise(Position.from_game(game))


on_providers_changed(_expert.cache_clear)
register_strategy("expert", ExpertStrategy)

__all__ = ["Expert", "ExpertStrategy", "expert_for", "hint"]

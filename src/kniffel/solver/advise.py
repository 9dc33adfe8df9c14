"""Advice at the table: every legal choice of a position ranked by its expected final score.

The expected final score of a choice is the score so far plus what the choice scores now plus the
expected points of optimal play afterwards, read from a value table (see :mod:`kniffel.solver`).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from pathlib import Path
from typing import Any

from kniffel.engine.advice import Advice, Option, Position
from kniffel.engine.dice import Keep, sub_keeps
from kniffel.engine.errors import KniffelError
from kniffel.engine.expert import Expert, expert_for
from kniffel.engine.game import Action, Game, Score, Strike, Throw, UseChip
from kniffel.engine.messages import size
from kniffel.engine.review import NotJudged
from kniffel.engine.rules import Box, RuleSet, choices
from kniffel.solver import kernel
from kniffel.solver.solve import solve, solve_in_memory
from kniffel.solver.table import (
    TableMismatchError,
    TableMissingError,
    ValueTable,
    cache_dir,
    load_table,
    table_name,
)
from kniffel.solver.tables import SolverError, Tables, build_tables

#: Endgames with at most this many open boxes are solved on the fly when no table covers them.
ON_THE_FLY_OPEN = {True: 6, False: 13}
#: What building the full table costs (README: 42–52 minutes on 2 cores for Kniffel Extreme,
#: the last full solves in docs/benchmarks.md 41.6–52.1), for the message that a table is
#: missing: with the d10 / without.
FULL_TABLE_COST = {True: {"minutes": 50, "size": 2_400_000_000},
                   False: {"minutes": 1, "size": 2_900_000}}

__all__ = ["FULL_TABLE_COST", "ON_THE_FLY_OPEN", "Advice", "Advisor", "OptimalStrategy", "Option",
           "Position", "advise"]


class Advisor:
    """Gives advice for one rule set from a value table, solving endgames when none covers them.

    ``directory`` is where tables are looked for (the user's cache by default); with ``build``
    a missing table of a classic rule set is computed and stored there. ``expert`` estimates
    what no table covers (:meth:`estimate`): True the packaged expert of the rules
    (:func:`kniffel.engine.expert.expert_for`), False nobody.
    """

    def __init__(self, rules: RuleSet, *, table: ValueTable | None = None,
                 directory: Path | None = None, build: bool = False,
                 expert: Expert | bool = False) -> None:
        self.rules = rules
        self.tables: Tables = build_tables(rules)
        self.directory = directory or cache_dir()
        self.build = build
        self.expert = expert
        self._table = table
        self._searched = table is not None
        self._endgames: OrderedDict[int, ValueTable] = OrderedDict()
        self._details: OrderedDict[tuple[int, int, int], Any] = OrderedDict()

    def __repr__(self) -> str:
        return (f"Advisor({self.rules!r}, directory={self.directory!r}, build={self.build!r}, "
                f"expert={self.expert if isinstance(self.expert, bool) else True!r})")

    # --- tables ----------------------------------------------------------------------------

    def _stored_table(self) -> ValueTable | None:
        if self._searched:
            return self._table
        self._searched = True
        candidates: list[int | None] = [None]
        prefix = table_name(self.rules, 0).removesuffix("0.table")
        for path in sorted(self.directory.glob(f"{prefix}*.table")):
            suffix = path.name.removeprefix(prefix).removesuffix(".table")
            if suffix.isdigit():
                candidates.append(int(suffix))
        for max_open in candidates:
            try:
                self._table = load_table(self.rules, max_open=max_open, directory=self.directory)
                break
            except (TableMissingError, TableMismatchError):
                continue
        if self._table is None and self.build and not self.rules.d10:
            self._table = solve(self.rules, directory=self.directory)
        return self._table

    def table_for(self, mask: int) -> tuple[ValueTable, str]:
        """A table that holds the filled-box set ``mask`` and every set after it."""
        stored = self._stored_table()
        if stored is not None and stored.covers(mask):
            return stored, "table"
        open_boxes = self.tables.nb - bin(mask).count("1")
        if mask in self._endgames:
            self._endgames.move_to_end(mask)
            return self._endgames[mask], "endgame"
        if open_boxes <= ON_THE_FLY_OPEN[self.rules.d10]:
            table = solve_in_memory(self.rules, root=mask)
            self._endgames[mask] = table
            if len(self._endgames) > 8:
                self._endgames.popitem(last=False)
            return table, "endgame"
        cost = FULL_TABLE_COST[self.rules.d10]
        raise TableMissingError(
            f"no value table of {self.rules.name} covers a sheet with {open_boxes} open boxes "
            f"(on-the-fly solving goes up to {ON_THE_FLY_OPEN[self.rules.d10]}); build the full "
            f"table with `kniffel solve --rules {self.rules.name}` (about {cost['minutes']} "
            f"minutes, {size(cost['size'], 'en')}), or only the endgames up to this one with "
            f"`kniffel solve "
            f"--rules {self.rules.name} --max-open {open_boxes}`",
            code=("solver.table_missing_full" if open_boxes == len(self.rules.boxes) else
                  "solver.table_missing"),
            params={"rules": self.rules.name, "rules_id": self.rules.name, "open": open_boxes,
                    "most": ON_THE_FLY_OPEN[self.rules.d10], "minutes": cost["minutes"],
                    "size": cost["size"]})

    # --- values ----------------------------------------------------------------------------

    def _state(self, pos: Position) -> tuple[int, int, int, int]:
        """(filled mask, upper state, extra state at the turn start, extra state for entries)."""
        t = self.tables
        mask = 0
        for b, box in enumerate(self.rules.boxes):
            if box in pos.entries:
                mask |= 1 << b
        k = t.upper_state(mask & 63, pos.upper_total)
        if self.rules.chips:
            chips = pos.chips_left or 0
            x_turn = chips + (1 if pos.chip_used else 0)
            return mask, k, x_turn, chips
        if t.x_of(mask) == 2:
            kn = pos.entries[Box.KNIFFEL]
            y = 1 if kn.points > 0 else 0
            return mask, k, y, y
        return mask, k, 0, 0

    def _detail(self, table: ValueTable, mask: int, k: int) -> Any:
        key = (id(table), mask, k)
        found = self._details.get(key)
        if found is None:
            found = kernel.detail(mask, k, table.values, table.prepared())
            self._details[key] = found
            if len(self._details) > 64:
                self._details.popitem(last=False)
        else:
            self._details.move_to_end(key)
        return found

    def entry_value(self, table: ValueTable, mask: int, k: int, x: int, box: Box,
                    points: int) -> float:
        """Points gained now (with the upper bonus) plus V of the state after the entry."""
        t = self.tables
        b = self.rules.boxes.index(box)
        nxt = mask | 1 << b
        if b < 6:
            c = points // (b + 1)
            k2 = int(t.trans_k[mask & 63, k, b, c])
            return int(t.trans_gain[mask & 63, k, b, c]) + table.value(nxt, k2, x)
        if box is Box.KNIFFEL and t.x_of(nxt) == 2 and t.x_of(mask) == 1:
            return points + table.value(nxt, k, 1 if points > 0 else 0)
        return points + table.value(nxt, k, x)

    def advise(self, pos: Position) -> Advice:
        """Every legal choice of ``pos`` ranked by expected final score."""
        if pos.rules != self.rules:
            raise SolverError(f"this advisor is for {self.rules.name}, not {pos.rules.name}",
                              code="solver.wrong_rules",
                              params={"rules": self.rules.name, "other": pos.rules.name})
        t = self.tables
        mask, k, x_turn, x_entry = self._state(pos)
        table, source = self.table_for(mask)
        so_far = pos.score_so_far
        values: list[tuple[Action, float, int | None]] = []
        if pos.roll is None:
            values.append((Throw(), table.value(mask, k, x_turn), None))
        else:
            roll = pos.roll
            _, rec_k, rec_s = self._detail(table, mask, k)
            xf = t.x_of(mask)
            for ch in choices(self.rules, pos.entries, roll):
                v = ch.bonus + self.entry_value(table, mask, k, x_entry, ch.box, ch.points)
                values.append((Strike(ch.box) if ch.strike else Score(ch.box), v, ch.points))
            rules = self.rules
            keeps = [kp for kp in sub_keeps(roll) if kp.size < len(roll.values)]

            def keep_value(stage: int, keep: Keep, lane: int) -> float:
                c, m = t.keep_index(keep)
                return float(rec_k[stage, m, c * xf + lane])

            if pos.rolls_used < rules.rolls + (1 if pos.chip_used else 0):
                stage = 0 if pos.chip_used else pos.rolls_used
                values.extend((Throw(kp), keep_value(stage, kp, x_turn), None) for kp in keeps)
            if (rules.chips and not pos.chip_used and pos.rolls_used == rules.rolls
                    and (pos.chips_left or 0) > 0):
                h = t.hand_index(roll)
                best = max([float(rec_s[h, x_turn - 1])]
                           + [keep_value(0, kp, x_turn) for kp in keeps])
                values.append((UseChip(), best, None))
        top = max(v for _, v, _ in values)
        options = sorted((Option(a, so_far + v, top - v, p) for a, v, p in values),
                         key=lambda o: -o.expected)
        return Advice(pos, tuple(options), so_far, source)

    # --- the expert where no table covers --------------------------------------------------

    def estimate(self, pos: Position, error: Exception) -> Advice | NotJudged:
        """The expert's advice for ``pos`` (its values an estimate: ``source == "model"`` for
        Kniffel Extreme) where no table covers it, ``error`` (a :class:`TableMissingError`)
        saying so; where there is no expert or it cannot judge either, the errors of both.
        Any other ``error`` is raised."""
        if not isinstance(error, TableMissingError):
            raise error
        if self.expert is False:
            return (error,)
        try:
            if not isinstance(self.expert, Expert):
                self.expert = expert_for(self.rules)
            return self.expert.advise(pos)
        except KniffelError as e:
            return (error, e)


def advise(position: Position, *, table: ValueTable | None = None,
           directory: Path | None = None, build: bool = False) -> Advice:
    """Every legal choice of ``position`` ranked by expected final score (see :class:`Advisor`)."""
    return Advisor(position.rules, table=table, directory=directory, build=build).advise(position)


class OptimalStrategy:
    """The computer player that maximises its expected final score (solitaire optimal)."""

    name = "optimal"

    def __init__(self, rules: RuleSet, *, directory: Path | None = None) -> None:
        self.directory = directory
        self.advisor = Advisor(rules, directory=directory, build=True)
        if rules.d10:
            table = self.advisor._stored_table()
            if table is None or not table.covers(0):
                cost = FULL_TABLE_COST[True]
                raise TableMissingError(
                    f"the optimal player of {rules.name} needs its full value table; build it "
                    f"with `kniffel solve --rules {rules.name}` (about {cost['minutes']} minutes, "
                    f"{size(cost['size'], 'en')})", code="solver.optimal_needs_table",
                    params={"rules": rules.name, "rules_id": rules.name,
                            "minutes": cost["minutes"], "size": cost["size"]})

    def __repr__(self) -> str:
        where = "" if self.directory is None else f", directory={self.directory!r}"
        return f"OptimalStrategy({self.advisor.rules!r}{where})"

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The best legal action for the player to move (ties: the first in sheet order)."""
        return self.advisor.advise(Position.from_game(game)).best.action

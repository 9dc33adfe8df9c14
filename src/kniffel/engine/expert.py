"""The ``expert`` player, hints and game reviews: exact play within a turn, valued at its end.

Within a turn the expert computes exactly what the optimal player computes (every keep, the chip,
every entry, as :mod:`kniffel.engine.strategy`'s greedy player does it, with the same vector code in
numpy and in pure Python). At the end of the turn it values the sheet it leaves with a value
function ``V(filled boxes, upper sum, extra state)``: for the classic rule sets their exact value
tables (read from the solver's table file with the standard library), so there it plays exactly
optimally; for Kniffel Extreme, whose exact table is 2.4 GB, a compact model fitted to a sample of
that table (:mod:`kniffel.engine.expert_model`, data file
``kniffel/engine/data/expert-extreme.json``).

Pure Python; numpy is used where it is installed (and ``use_numpy`` allows), with the same options
in the same order and the same values either way. No numba, so it runs in the browser (Pyodide).
"""

from __future__ import annotations

import array
import hashlib
import json
import math
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from kniffel.engine.advice import Advice, Option, Position
from kniffel.engine.dice import sub_keeps
from kniffel.engine.errors import IllegalMoveError, KniffelError
from kniffel.engine.game import Action, Game, Mode, Outcome, Score, Strike, Throw, UseChip
from kniffel.engine.messages import render
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
from kniffel.engine.strategy import (
    Vec,
    _check_decision,
    _math,
    _numpy_available,
)


class ExpertError(KniffelError):
    """The expert cannot play: its value data is missing, damaged or for other rules."""

    default_code = "expert.error"


# --- the solver's state numbering, in pure Python ----------------------------------------------
#
# The value tables number the upper sums of a sheet exactly as kniffel.solver.tables does: per
# set of filled upper boxes, the capped sums that can still reach the bonus (sorted), then one
# "dead" state for every sum that can not; once all six are filled a single state. These
# functions rebuild that numbering without numpy (tests/test_expert.py checks it is the same).

DEAD = -1


@cache
def upper_states(threshold: int, maxc: int) -> tuple[tuple[int, ...], ...]:
    """For every set of filled upper boxes (bit ``j`` = face ``j + 1``), its upper states: the
    reachable capped sums that can still reach ``threshold``, then :data:`DEAD` when some can
    not; a single state 0 once all six are filled. ``maxc`` is the most dice of one face."""
    out: list[tuple[int, ...]] = []
    for mask in range(64):
        if mask == 63:
            out.append((0,))
            continue
        sums = {0}
        for j in range(6):
            if mask >> j & 1:
                sums = {min(s + (j + 1) * c, threshold) for s in sums for c in range(maxc + 1)}
        room = upper_room(mask, maxc)
        live = sorted(s for s in sums if s + room >= threshold)
        dead = [DEAD] if any(s + room < threshold for s in sums) else []
        out.append(tuple(live + dead))
    return tuple(out)


def upper_room(upper_mask: int, maxc: int) -> int:
    """The most points the open upper boxes of ``upper_mask`` can still bring."""
    return sum((j + 1) * maxc for j in range(6) if not upper_mask >> j & 1)


def upper_key(upper_mask: int, upper_sum: int, threshold: int, maxc: int) -> int:
    """The upper sum as the value tables know it: 0 once all six upper boxes are filled, else
    the sum capped at ``threshold``, or :data:`DEAD` when the bonus is out of reach."""
    if upper_mask == 63:
        return 0
    s = min(upper_sum, threshold)
    return s if s + upper_room(upper_mask, maxc) >= threshold else DEAD


def _maxc(rules: RuleSet) -> int:
    return 6 if rules.d10 else 5


def _extra_states(rules: RuleSet) -> int:
    """Extra states per upper state once the kniffel box is filled (see kniffel.solver.tables):
    chips 0…n, or the "kniffel box holds 50" flag for further-Kniffel rules, or 1."""
    if rules.chips:
        return rules.chips + 1
    if rules.extra_kniffel is not ExtraKniffel.NONE and Box.KNIFFEL in rules.boxes:
        return 2
    return 1


def _x_of(rules: RuleSet, mask: int) -> int:
    xs = _extra_states(rules)
    if rules.chips or xs == 1:
        return xs
    return xs if mask >> rules.boxes.index(Box.KNIFFEL) & 1 else 1


class Values(Protocol):
    """Expected points still to come from a turn-start state: the expert's view of the future."""

    #: Where the values come from, for :attr:`Advice.source`: "table" or "model".
    source: str

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        """V of the filled boxes ``mask`` (bit ``b`` = box ``b`` of the rule set), the upper
        sum ``upper_sum`` (uncapped) and the extra state ``x`` (chips left, or the kniffel
        flag)."""
        ...


# --- exact value tables (classic rule sets) ---------------------------------------------------

TABLE_MAGIC = b"KNIFFEL-TABLE\n"
TABLE_HEADER_SIZE = 4096
TABLE_FORMAT = "kniffel-solver-table"
TABLE_FORMAT_VERSION = 1


def _table_error(rules: RuleSet, where: str, problem: str) -> ExpertError:
    return ExpertError(f"{where}: not the value table of {rules.name}: {problem}",
                       code="expert.table_mismatch",
                       params={"rules": rules.name, "where": where, "problem": problem})


def _header_bytes(header: Mapping[str, Any]) -> bytes:
    body = TABLE_MAGIC + json.dumps(header, sort_keys=True).encode()
    return body + b" " * (TABLE_HEADER_SIZE - 1 - len(body)) + b"\n"


def _table_layout(rules: RuleSet) -> tuple[list[int], int]:
    """Per filled-box set, the offset of its values in a full table; and the number of states."""
    nb = len(rules.boxes)
    n_u = [len(s) for s in upper_states(rules.bonus_threshold, _maxc(rules))]
    base = []
    offset = 0
    for mask in range(1 << nb):
        base.append(offset)
        offset += n_u[mask & 63] * _x_of(rules, mask)
    return base, offset


class TableValues:
    """The exact values of a full solver table file (header + little-endian float64 or
    float32 values), read with the standard library and checked against its header."""

    source = "table"

    def __init__(self, rules: RuleSet, data: bytes, *, where: str = "table") -> None:
        self.rules = rules
        if len(data) < TABLE_HEADER_SIZE or not data.startswith(TABLE_MAGIC):
            raise _table_error(rules, where, "no table header")
        try:
            header = json.loads(data[len(TABLE_MAGIC):TABLE_HEADER_SIZE].decode())
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise _table_error(rules, where, "damaged header") from None
        if not isinstance(header, dict):
            raise _table_error(rules, where, "damaged header")
        base, states = _table_layout(rules)
        want = {"format": TABLE_FORMAT, "version": TABLE_FORMAT_VERSION, "rules": repr(rules),
                "states": states, "max_open": len(rules.boxes), "root": 0, "complete": True}
        for key, value in want.items():
            if header.get(key) != value:
                raise _table_error(rules, where, f"{key} is {header.get(key)!r}, expected "
                                   f"{value!r}")
        codes = {"<f8": "d", "<f4": "f"}
        dtype = header.get("dtype")
        if dtype not in codes:
            raise _table_error(rules, where, f"dtype {dtype!r}")
        raw = data[TABLE_HEADER_SIZE:]
        values = array.array(codes[dtype])
        if len(raw) != states * values.itemsize:
            raise _table_error(rules, where, f"{len(raw)} bytes of values, expected "
                               f"{states * values.itemsize}")
        if hashlib.sha256(raw).hexdigest() != header.get("sha256"):
            raise _table_error(rules, where, "checksum does not match")
        values.frombytes(raw)
        if sys.byteorder != "little":  # pragma: no cover - no big-endian machine at hand
            values.byteswap()
        self.header = header
        self.values = values
        self.base = base
        self._states = upper_states(rules.bonus_threshold, _maxc(rules))
        self._index = [{u: k for k, u in enumerate(s)} for s in self._states]
        self._xs = [_x_of(rules, m) for m in (0, (1 << len(rules.boxes)) - 1)]

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        """V from the table (see :class:`Values`)."""
        rules = self.rules
        u6 = mask & 63
        key = upper_key(u6, upper_sum, rules.bonus_threshold, _maxc(rules))
        k = self._index[u6].get(key)
        if k is None:
            raise ExpertError(f"upper sum {upper_sum} cannot occur with the filled upper boxes "
                              f"{u6:06b}", code="expert.upper_impossible",
                              params={"upper": upper_sum})
        return float(self.values[self.base[mask] + k * _x_of(rules, mask) + x])


def compact_table(rules: RuleSet, data: bytes) -> bytes:
    """The table file ``data`` with its values as float32 (half the size: what the browser
    ships); checked first, so a damaged table is refused, not shrunk."""
    table = TableValues(rules, data)
    values = array.array("f", table.values)
    if sys.byteorder != "little":  # pragma: no cover
        values.byteswap()
    raw = values.tobytes()
    header = dict(table.header, dtype="<f4", sha256=hashlib.sha256(raw).hexdigest())
    return _header_bytes(header) + raw


#: Functions that give the bytes of a rule set's table file, asked in order (the browser
#: registers one that reads the tables shipped with the site).
_TABLE_PROVIDERS: list[Callable[[RuleSet], bytes | None]] = []


def register_table_provider(provider: Callable[[RuleSet], bytes | None]) -> None:
    """Ask ``provider`` first for the bytes of a table file (None: it has none)."""
    _TABLE_PROVIDERS.insert(0, provider)
    _table_values.cache_clear()
    _expert.cache_clear()


def _cached_table_file(rules: RuleSet) -> bytes | None:
    """The table file of ``rules`` in the solver's cache, if there is one (desktop)."""
    try:
        from kniffel.solver.table import cache_dir, table_name
    except ImportError:  # the browser: no numpy
        return None
    path = cache_dir() / table_name(rules, None)
    try:
        return path.read_bytes()
    except OSError:
        return None


def table_bytes(rules: RuleSet) -> bytes | None:
    """The bytes of the full table file of classic ``rules``: from a registered provider, else
    the solver's cache; None when there is none."""
    for provider in _TABLE_PROVIDERS:
        data = provider(rules)
        if data is not None:
            return data
    return _cached_table_file(rules)


@cache
def _table_values(rules: RuleSet, build: bool) -> TableValues:
    data = table_bytes(rules)
    where = "table"
    if data is None and build:
        try:
            from kniffel.solver.solve import solve
        except ImportError:
            solve = None  # type: ignore[assignment]
        if solve is not None:
            table = solve(rules)
            if table.path is not None:
                data = table.path.read_bytes()
                where = str(table.path)
    if data is None:
        raise ExpertError(f"the expert of {rules.name} needs its exact value table: build it "
                          f"with `kniffel solve --rules {rules.name}` (about a second)",
                          code="expert.table_missing",
                          params={"rules": rules.name, "rules_id": rules.name})
    return TableValues(rules, data, where=where)


# --- the fitted model (Kniffel Extreme) -------------------------------------------------------


def _model_values(rules: RuleSet) -> Values:
    from kniffel.engine.expert_model import load_model

    return load_model(rules)


def values_for(rules: RuleSet, *, build: bool = True) -> Values:
    """The expert's value function for ``rules``: the exact table of a classic rule set (built
    with the solver when missing and ``build``), the fitted model for Kniffel Extreme."""
    if rules.d10:
        return _model_values(rules)
    return _table_values(rules, build)


# --- the expert -------------------------------------------------------------------------------


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
        self.use_numpy = _numpy_available() if use_numpy is None else use_numpy
        self.values = values if values is not None else values_for(rules, build=build)
        self._m = _math(rules.d10, self.use_numpy)
        self._bit = {box: 1 << b for b, box in enumerate(rules.boxes)}
        self._stages: dict[_Turn, dict[str, Vec]] = {}
        self._further = (rules.extra_kniffel is not ExtraKniffel.NONE
                         and Box.KNIFFEL in rules.boxes)
        self._kniffel_rolls = [i for i, r in enumerate(self._m.dice.rolls) if is_kniffel(r)]

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
            live = upper_key(mask & 63, upper, threshold, _maxc(rules)) != DEAD
            gain = points + (rules.bonus_points if live and upper < threshold <= upper + points
                             else 0)
            return gain + self.values.future(nxt, upper + points, x)
        if box is Box.KNIFFEL and self._further:
            x = 1 if points > 0 else 0
        return points + self.values.future(nxt, upper, x)

    def _final(self, turn: _Turn, x: int, entries: Mapping[Box, Entry]) -> Vec:
        """For every roll, the best value of entering it at the end of the turn (points now +
        V after), ``x`` the extra state for the entry."""
        m = self._m
        rules = self.rules
        mask, upper = turn.mask, turn.upper
        any_box = rules.strike is StrikeRule.ANY_BOX
        fits: list[Vec] = []
        strike = -math.inf
        for box in rules.boxes:
            if mask & self._bit[box]:
                continue
            zero = self.entry_value(mask, upper, x, box, 0)
            strike = max(strike, zero)
            worth = [(zero if any_box else math.nan) if p != p else
                     self.entry_value(mask, upper, x, box, int(p)) for p in m.dice.values[box]]
            fits.append(m.spread(box, worth))
        forced = rules.strike is not StrikeRule.FREE
        final = m.best_box(fits, strike, forced)
        if self._further and Box.KNIFFEL in entries:
            for i in self._kniffel_rolls:  # further Kniffel: the engine's special choices
                roll = m.dice.rolls[i]
                final[i] = max(c.bonus + self.entry_value(mask, upper, x, c.box, c.points)
                               for c in choices(rules, entries, roll))
        return final

    def _turn_stages(self, turn: _Turn, entries: Mapping[Box, Entry]) -> dict[str, Vec]:
        found = self._stages.get(turn)
        if found is not None:
            return found
        m = self._m
        rules = self.rules
        x_entry = turn.x if rules.chips else (1 if turn.holds_50 else 0) if (
            self._further and Box.KNIFFEL in entries) else 0
        final = self._final(turn, x_entry, entries)
        stages: dict[str, Vec] = {"final": final}
        last = final
        if rules.chips and turn.x > 0:
            after_chip = self._final(turn, turn.x - 1, entries)
            stages["final_chip"] = after_chip
            stages["chip"] = expected = m.expect(after_chip)
            stages["with_chip"] = chip = m.maximum(after_chip, m.best_rethrow(expected))
            last = m.maximum(final, chip)
        value = last
        for n in range(rules.rolls - 1, -1, -1):
            stages[f"after{n + 1}"] = expected = m.expect(value)
            if n > 0:
                value = m.maximum(final, m.best_rethrow(expected))
        if len(self._stages) > 256:
            self._stages.clear()
        self._stages[turn] = stages
        return stages

    def _turn(self, pos: Position) -> _Turn:
        mask = 0
        for box in pos.entries:
            mask |= self._bit[box]
        rules = self.rules
        kn = pos.entries.get(Box.KNIFFEL)
        holds_50 = kn is not None and kn.points > 0
        x = (pos.chips_left or 0) + (1 if pos.chip_used else 0) if rules.chips else 0
        return _Turn(mask, pos.upper_total, x, holds_50)

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
        dice = self._m.dice
        so_far = pos.score_so_far
        values: list[tuple[Action, float, int | None]] = []
        if pos.roll is None:
            values.append((Throw(), float(stages["after1"][dice.first]), None))
        else:
            roll = pos.roll
            x_entry = self._x_entry(pos)
            for c in choices(rules, pos.entries, roll):
                v = c.bonus + self.entry_value(turn.mask, turn.upper, x_entry, c.box, c.points)
                values.append((Strike(c.box) if c.strike else Score(c.box), v, c.points))
            keeps = [k for k in sub_keeps(roll) if k.size < len(roll.values)]
            if pos.rolls_used < rules.rolls + (1 if pos.chip_used else 0):
                expected = stages["chip"] if pos.chip_used else stages[f"after{pos.rolls_used + 1}"]
                values.extend((Throw(k), float(expected[dice.keep_index[k]]), None)
                              for k in keeps)
            if (rules.chips and not pos.chip_used and pos.rolls_used == rules.rolls
                    and (pos.chips_left or 0) > 0):
                values.append((UseChip(), float(stages["with_chip"][dice.roll_index[roll]]),
                               None))
        top = max(v for _, v, _ in values)
        options = sorted((Option(a, so_far + v, top - v, p) for a, v, p in values),
                         key=lambda o: -o.expected)
        return Advice(pos, tuple(options), so_far, self.values.source)


@cache
def _expert(rules: RuleSet, use_numpy: bool) -> Expert:
    return Expert(rules, use_numpy=use_numpy)


def expert_for(rules: RuleSet, *, use_numpy: bool | None = None) -> Expert:
    """The shared expert of ``rules`` (built once: its values are loaded once)."""
    return _expert(rules, _numpy_available() if use_numpy is None else use_numpy)


class ExpertStrategy:
    """The ``expert`` computer player: the best option of :meth:`Expert.advise` (ties: the
    first in the advisor's order)."""

    name = "expert"

    def __init__(self, rules: RuleSet, *, use_numpy: bool | None = None,
                 values: Values | None = None) -> None:
        self.expert = (expert_for(rules, use_numpy=use_numpy) if values is None else
                       Expert(rules, use_numpy=use_numpy, values=values))

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The expert's best legal action for the player to move."""
        legal = _check_decision(game)
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


# --- reviewing a game -------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision: ``index`` in the game's action list, the player, the round, the position,
    the option taken and the best one; ``loss`` = best expected − taken expected (≥ 0);
    ``source`` where the values come from ("table", "endgame", "model")."""

    index: int
    player: int
    round: int
    position: Position
    taken: Option
    best: Option
    source: str = "table"

    @property
    def loss(self) -> float:
        return max(0.0, self.best.expected - self.taken.expected)


@dataclass(frozen=True)
class Uncovered:
    """A decision that could not be judged, and why (no table covers its position): ``reason``
    in English (for logs and JSON), ``errors`` the errors behind it (for :meth:`why`)."""

    index: int
    player: int
    round: int
    action: Action
    reason: str
    errors: tuple[KniffelError, ...] = field(default=(), compare=False)

    def why(self, lang: Lang = "de") -> str:
        """Why the decision is not judged, in a player's words (``reason`` when no error says
        it)."""
        return " ".join(render(e, lang) for e in self.errors) if self.errors else self.reason


@dataclass(frozen=True)
class Review:
    """The judged decisions of a game in order, and those that could not be judged."""

    game: Game
    decisions: tuple[Decision, ...]
    uncovered: tuple[Uncovered, ...]

    def total_loss(self, player: int | None = None) -> float:
        """Expected points lost over all judged decisions (of ``player``, or everyone's)."""
        return sum(d.loss for d in self.decisions if player is None or d.player == player)

    def costliest(self, n: int = 3) -> tuple[Decision, ...]:
        """The ``n`` decisions that lost the most (ties: the earlier first)."""
        ranked = sorted(self.decisions, key=lambda d: (-d.loss, d.index))
        return tuple(d for d in ranked[:n] if d.loss > 0)

    def by_source(self) -> dict[str, int]:
        """How many decisions each source of values judged."""
        out: dict[str, int] = {}
        for d in self.decisions:
            out[d.source] = out.get(d.source, 0) + 1
        return out


Judge = Callable[[Position], Advice]
#: Why a decision is not judged: the errors of every judge asked (the table's, the expert's).
NotJudged = tuple[KniffelError, ...]


def review_decisions(game: Game, judge: Judge,
                     fallback: Callable[[Position, Exception], Advice | str | NotJudged]
                     | None = None) -> Review:
    """Replay ``game`` and judge every decision with ``judge`` (when it raises a
    :class:`KniffelError`, ``fallback`` gives other advice or why it is not judged: a reason,
    or the errors behind it)."""
    if game.mode is not Mode.DICE:
        raise IllegalMoveError("a review needs a game played with virtual dice (dice mode): a "
                               "score pad does not record the dice", code="review.needs_dice")
    replay = Game(game.rules, game.players, mode=game.mode, seed=game.seed,
                  start_player=game.start_player)
    decisions: list[Decision] = []
    uncovered: list[Uncovered] = []
    for index, action in enumerate(game.actions):
        turn = replay.turn
        if (isinstance(action, Throw | Score | Strike | UseChip) and turn is not None
                and turn.roll is not None and not isinstance(action, Outcome)):
            player = replay.current_player
            assert player is not None
            pos = Position.from_game(replay)
            advice: Advice | str | NotJudged
            try:
                advice = judge(pos)
            except KniffelError as e:
                if fallback is None:
                    raise
                advice = fallback(pos, e)
            if isinstance(advice, str):
                uncovered.append(Uncovered(index, player, replay.round, action, advice))
            elif isinstance(advice, tuple):
                reason = "; ".join(str(e) for e in advice)
                uncovered.append(Uncovered(index, player, replay.round, action, reason,
                                           advice))
            else:
                taken = next(o for o in advice.options if o.action == action)
                decisions.append(Decision(index, player, replay.round, pos, taken, advice.best,
                                          advice.source))
        replay.apply(action)
    return Review(game, tuple(decisions), tuple(uncovered))


def review_game(game: Game, *, expert: Expert | None = None) -> Review:
    """Judge every decision of ``game`` by the expert (no solver needed: works in the
    browser)."""
    judge = expert or expert_for(game.rules)
    return review_decisions(game, judge.advise)


__all__ = ["DEAD", "Decision", "Expert", "ExpertError", "ExpertStrategy", "NotJudged", "Review",
           "TableValues", "Uncovered", "Values", "compact_table", "expert_for", "hint",
           "register_table_provider", "review_decisions", "review_game", "table_bytes",
           "upper_key", "upper_states", "values_for"]

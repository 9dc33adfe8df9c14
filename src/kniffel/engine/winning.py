"""Play to win: every choice's chance to win beside its expected final total, exact in the last
round.

The expert (:mod:`kniffel.engine.expert`) plays for the highest *average* total. A player who
wants to *win* maximises instead the probability of ending with the highest total (a tie on top
shared, as :func:`kniffel.engine.chances.win_probabilities` counts it). Both use the same
within-turn recursion (:func:`kniffel.engine.turn_stages.turn_stages`: every keep, the chip,
every entry); they differ only in what ending the turn with an entry is worth.

**The last round, exactly.** Once every player has at most one open box, the player to move
(``p₀``) fills the last box, then the players after it in the round fill theirs (``j₁ … jₘ``),
each knowing the final totals of those before and playing to win against them and against those
still to come, who answer the same way. The finished players' best total ``M`` and how many share
it, ``c``, say all a later player needs: with ``S_k(M, c)`` the expected share of one of the
``c`` players on top at ``M`` before player ``j_k`` moves (``S_{m+1}(M, c) = 1/c``), player
``j_k`` values its final total ``x`` at

    U_k(x | M, c) = S_{k+1}(x, 1) if x > M,  S_{k+1}(M, c + 1) if x = M,  0 if x < M,

plays the turn that maximises the expected ``U_k`` (ties: the higher expected total), which gives
its final total a distribution ``D_k(x | M, c)``, and

    S_k(M, c) = Σ_x D_k(x | M, c) · (S_{k+1}(M, c) if x < M, S_{k+1}(M, c + 1) if x = M, else 0).

``p₀``'s own choices are valued with ``U₀``, so every chance it is shown is exact (backward
induction over the round's remaining turns; chips, the bonus and every rule set's extra-Kniffel and
joker rules are in the turn's recursion). Each ``D_k`` costs one turn's recursion; a player whose
reach lies wholly below ``M`` (or above it) needs none, and the distributions are remembered per
player state and utility, so the next throw's hint and the next player's come at once.

**Before the last round** the chance to win after an entry is that of the win-chance model
(:mod:`kniffel.engine.chances`): the other players' final totals are independent with the model's
distributions, the mover's final total is its total after the entry plus the model's points to
come from the sheet it leaves. With ``H(t)`` the expected share of a final total ``t`` against the
others (a tie shared), an entry that leaves the total ``T`` and the rest distribution ``R`` is
worth ``Σ_r R(r) · H(T + r)``; the turn maximises the expected worth of its entry.

Pure Python (numpy where installed, through the expert's vector arithmetic): the browser runs it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal

from kniffel.engine.advice import Advice, Option, Position
from kniffel.engine.chances import ChanceModel, PlayerState, chance_model, most_to_come
from kniffel.engine.distribution import Distribution
from kniffel.engine.endgame import Endgame, endgame_for
from kniffel.engine.errors import IllegalMoveError, InvalidArgumentError
from kniffel.engine.expert import Expert, Worth, WorthOf, _Turn, expert_for
from kniffel.engine.game import Action, Game, Mode, Throw
from kniffel.engine.rules import Box, Entry, RuleSet
from kniffel.engine.strategy import check_decision, register_strategy
from kniffel.engine.turn_stages import TurnStages

#: What a player plays for: the highest average total, or the best chance to win.
Goal = Literal["points", "win"]
GOALS: tuple[Goal, ...] = ("points", "win")
#: Two chances closer than this are equal (then the higher expected total ranks first).
TIE = 1e-9
#: The weight of a point of the expected total beside a win share where a later player of the
#: last round chooses between outcomes it values alike: the best average among equal chances.
_TIE_BREAK = 1e-12
#: The most distributions of later players remembered (then all are forgotten), and by
#: default the most points-to-come distributions (then the longest unused is forgotten).
_MEMORY = 4096


def _recall(memory: dict[tuple[object, ...], Distribution],
            key: tuple[object, ...]) -> Distribution | None:
    """``memory[key]`` (None where missing), marked as the latest used."""
    found = memory.pop(key, None)
    if found is not None:
        memory[key] = found
    return found


def _remember(memory: dict[tuple[object, ...], Distribution], key: tuple[object, ...],
              value: Distribution, capacity: int) -> Distribution:
    """Keep ``value`` under ``key``, forgetting the longest unused beyond ``capacity``."""
    while len(memory) >= max(1, capacity):
        del memory[next(iter(memory))]
    memory[key] = value
    return value


# --- one player's turn, played for a worth of its final total ------------------------------------


@dataclass(frozen=True)
class Column:
    """A player's column at the start of their turn: the filled boxes, the points on the sheet
    (bonus and extra points included), the upper sum and the chips left."""

    entries: Mapping[Box, Entry]
    total: int
    upper: int
    chips: int

    @classmethod
    def of(cls, game: Game, player: int) -> Column:
        """Player ``player``'s column at the start of their current (or next) turn (a chip
        handed in during the turn in progress still counts as theirs)."""
        state = PlayerState.of(game, player)
        return cls(state.entries, state.total, state.upper, state.chips)

    @property
    def key(self) -> tuple[object, ...]:
        return (tuple(sorted((b.value, e.points, e.struck) for b, e in self.entries.items())),
                self.total, self.upper, self.chips)

    def open_boxes(self, rules: RuleSet) -> tuple[Box, ...]:
        return tuple(b for b in rules.boxes if b not in self.entries)


def gain(rules: RuleSet, upper: int, box: Box, points: int, bonus: int) -> int:
    """The points an entry of ``points`` in ``box`` adds to the total when the upper sum is
    ``upper``: the points, a further Kniffel's extra points ``bonus`` and the upper bonus where
    the entry reaches it."""
    added = points + bonus
    if box.is_upper and upper < rules.bonus_threshold <= upper + points:
        added += rules.bonus_points
    return added


class TurnPlayer:
    """One rule set's turns played for a worth of the entry that ends them (the expert's
    recursion, the endgame's flow of probabilities)."""

    def __init__(self, rules: RuleSet, *, endgame: Endgame | None = None) -> None:
        self.rules = rules
        self.endgame = endgame if endgame is not None else endgame_for(rules)
        self.expert: Expert = self.endgame.expert

    def turn(self, column: Column) -> _Turn:
        bits = self.expert._bit
        mask = 0
        for box in column.entries:
            mask |= bits[box]
        kn = column.entries.get(Box.KNIFFEL)
        return _Turn(mask, column.upper, column.chips if self.rules.chips else 0,
                     kn is not None and kn.points > 0)

    def final_worth(self, column: Column, value: Callable[[int], float]) -> WorthOf:
        """The worth of every entry as ``value`` of the final total it leaves (the extra state
        after it does not matter: the sheet is full or the worth says so itself)."""
        rules = self.rules

        def of(x: int) -> Worth:
            del x

            def worth(box: Box, points: int, bonus: int) -> float:
                return value(column.total + gain(rules, column.upper, box, points, bonus))
            return worth
        return of

    def outcome(self, column: Column, value: Callable[[int], float]) -> Distribution:
        """The distribution of the final total of a player with one open box who plays the
        turn from ``column`` to maximise the expected ``value`` of its final total."""
        rules = self.rules
        eg = self.endgame
        turn = self.turn(column)
        worth_of = self.final_worth(column, value)
        stages = self.expert.stages_for(turn, column.entries, worth_of)
        end, chip_end = eg._flow.ends(stages, rules.rolls)
        s = eg.state(turn.mask, turn.upper, turn.x, turn.holds_50)
        x_entry = self.expert._x_at_end(turn, column.entries)
        events: dict[tuple[int, object], float] = {}
        eg._add_ends(events, s, column.entries, x_entry, s.chips, end,  # type: ignore[arg-type]
                     worth_of(x_entry))
        if chip_end is not None:
            eg._add_ends(events, s, column.entries, s.chips - 1, s.chips - 1,  # type: ignore[arg-type]
                         chip_end, worth_of(s.chips - 1))
        probs: dict[int, float] = {}
        for (added, _), p in events.items():
            # the state's upper sum is reduced once the bonus is settled: the gain says it all
            probs[added] = probs.get(added, 0.0) + p
        lo, hi = min(probs), max(probs)
        return Distribution(column.total + lo,
                            tuple(probs.get(g, 0.0) for g in range(lo, hi + 1)))


# --- the last round, exactly ---------------------------------------------------------------------


class LastRound:
    """The exact backward induction of a last round (see the module docstring): the finished
    players' totals and the columns of the players still to move after the mover, in order."""

    def __init__(self, player: TurnPlayer, finished: Sequence[int], later: Sequence[Column],
                 memory: dict[tuple[object, ...], Distribution] | None = None) -> None:
        self.player = player
        self.rules = player.rules
        self.later = tuple(later)
        top = max(finished, default=-1)
        self.top = top
        self.count = sum(1 for t in finished if t == top)
        self._shares: dict[tuple[int, int, int], float] = {}
        self._memory = memory if memory is not None else {}
        self._reach = [(c.total, c.total + most_to_come(self.rules, c.entries, c.upper))
                       for c in self.later]
        self.turns_played = 0

    def share(self, k: int, top: int, count: int) -> float:
        """``S_k(top, count)``: the expected share of one of the ``count`` players on top at
        ``top`` before later player ``k`` moves."""
        if k == len(self.later):
            return 1.0 / count
        key = (k, top, count)
        found = self._shares.get(key)
        if found is not None:
            return found
        lo, hi = self._reach[k]
        if top > hi:
            result = self.share(k + 1, top, count)
        elif top < lo:
            result = 0.0
        else:
            d = self.distribution(k, top, count)
            below = self.share(k + 1, top, count)
            level = self.share(k + 1, top, count + 1)
            result = 0.0
            for i, p in enumerate(d.probs):
                x = d.offset + i
                if x < top:
                    result += p * below
                elif x == top:
                    result += p * level
        self._shares[key] = result
        return result

    def utility(self, k: int, top: int, count: int) -> Callable[[int], float]:
        """``U_k(· | top, count)``: what later player ``k`` (``k = -1``: the mover) gets from
        its final total, the finished players' best being ``top`` (``count`` of them; none:
        ``count`` 0)."""
        def value(x: int) -> float:
            if x > top or count == 0:
                return self.share(k + 1, x, 1)
            if x == top:
                return self.share(k + 1, top, count + 1)
            return 0.0
        return value

    def distribution(self, k: int, top: int, count: int) -> Distribution:
        """``D_k(· | top, count)``: later player ``k``'s final total when it plays to win (ties:
        the higher expected total)."""
        column = self.later[k]
        lo, hi = self._reach[k]
        u = self.utility(k, top, count)
        shape = tuple(u(x) for x in range(lo, hi + 1))
        key = (self.rules, column.key, shape)
        found = self._memory.get(key)
        if found is None:
            if len(self._memory) > _MEMORY:
                self._memory.clear()
            self.turns_played += 1

            def value(x: int) -> float:
                return shape[x - lo] + _TIE_BREAK * x
            found = self._memory[key] = self.player.outcome(column, value)
        return found

    def mover_utility(self) -> Callable[[int], float]:
        """``U₀``: the mover's share of a final total."""
        return self.utility(-1, self.top, self.count)


def is_last_round(game: Game) -> bool:
    """Whether every player of ``game`` has at most one open box (and the game is not over)."""
    if game.is_over():
        return False
    return all(len(game.sheet(i).open_boxes) <= 1 for i in range(len(game.players)))


# --- before the last round: the chance model -----------------------------------------------------


def share_curve(dists: Sequence[Distribution]) -> tuple[int, tuple[float, ...]]:
    """``H``: for every final total ``t`` from ``lo`` on, the expected share of a player who ends
    with ``t`` against independent others with the final totals ``dists`` (a tie on top shared
    equally); below ``lo`` it is 0 and beyond the tuple 1. Returns ``(lo, H)``."""
    if not dists:
        return 0, ()
    if len(dists) == 1:  # one other: P(X < t) + P(X = t)/2, the same sums as below
        probs = dists[0].probs
        # the prefix sums hold one more (the total), which is not needed
        return dists[0].offset, tuple(b + a / 2 for b, a in zip(
            accumulate(probs, initial=0.0), probs, strict=False))
    lo = min(d.offset for d in dists)
    hi = max(d.offset + len(d.probs) - 1 for d in dists)
    below = [0.0] * len(dists)
    curve = []
    for t in range(lo, hi + 1):
        at = []
        for j, d in enumerate(dists):
            i = t - d.offset
            at.append(d.probs[i] if 0 <= i < len(d.probs) else 0.0)
            del j
        # Π_j (P(X_j < t) + P(X_j = t)·z): the chance that k others tie at t, all others below
        poly = [1.0]
        for a, b in zip(at, below, strict=True):
            nxt = [0.0] * (len(poly) + 1)
            for i, c in enumerate(poly):
                nxt[i] += c * b
                nxt[i + 1] += c * a
            poly = nxt
        curve.append(sum(c / (i + 1) for i, c in enumerate(poly)))
        for j in range(len(dists)):
            below[j] += at[j]
    return lo, tuple(curve)


def _share_at(curve: tuple[int, tuple[float, ...]], t: int) -> float:
    lo, h = curve
    i = t - lo
    if i < 0:
        return 0.0
    if i >= len(h):
        return 1.0
    return h[i]


def expected_share(curve: tuple[int, tuple[float, ...]], dist: Distribution) -> float:
    """``Σ_t P(t) · H(t)``: the expected share of a final total with the distribution ``dist``
    against the share curve ``curve`` (:func:`share_curve`: 0 below it, 1 beyond it)."""
    lo, h = curve
    probs = dist.probs
    start = dist.offset - lo  # the curve's index of the distribution's first total
    first = min(max(0, -start), len(probs))  # totals below the curve: worth 0
    end = min(len(probs), max(first, len(h) - start))  # beyond it: worth 1
    within: float = sum(map(operator.mul, probs[first:end], h[start + first:start + end]))
    return within + sum(probs[end:])


class ModelWorth:
    """The chance to win after an entry by the win-chance model (see the module docstring).

    The model's points to come depend on the sheet an entry leaves only through the boxes
    filled, the upper sum (while the bonus is open), the chips left and whether the Kniffel box
    holds 50; they are remembered by those in ``rests`` (shared between calls, one rule set's;
    at most ``capacity``, the longest unused forgotten first).
    A mover whose every reachable final total lies below the others' lowest is certain to lose
    (every entry worth 0), one whose lowest lies beyond their highest certain to win (1): then
    no points to come are computed, and the choice is the one for the points."""

    def __init__(self, model: ChanceModel, column: Column, others: Sequence[Distribution],
                 rests: dict[tuple[object, ...], Distribution], *,
                 capacity: int = _MEMORY) -> None:
        self.model = model
        self.column = column
        self.curve = share_curve(others)
        self._rests = rests
        self._capacity = capacity
        self._seen: dict[tuple[Box, int, int, int], float] = {}
        rules = model.rules
        self._bit = {box: 1 << b for b, box in enumerate(rules.boxes)}
        self._mask = 0
        for box in column.entries:
            self._mask |= self._bit[box]
        kn = column.entries.get(Box.KNIFFEL)
        self._holds_50 = kn is not None and kn.points > 0
        self._chips = bool(rules.chips)
        lo, h = self.curve
        reach = column.total + most_to_come(rules, column.entries, column.upper)
        #: The worth of every entry where it is certain (0: lost whatever comes, 1: won).
        self.certain: float | None = (0.0 if reach < lo else
                                      1.0 if column.total >= lo + len(h) else None)

    def of(self, x: int) -> Worth:
        """The worth of every entry when the extra state after it is ``x`` (chips left)."""
        certain = self.certain
        if certain is not None:
            def same(box: Box, points: int, bonus: int) -> float:
                del box, points, bonus
                return certain
            return same
        seen = self._seen

        def worth(box: Box, points: int, bonus: int) -> float:
            key = (box, points, bonus, x)
            found = seen.get(key)
            if found is None:
                found = seen[key] = self._worth(box, points, bonus, x)
            return found
        return worth

    def rest(self, box: Box, points: int, x: int) -> Distribution:
        """The model's points to come after ``points`` in ``box`` with ``x`` chips left."""
        rules = self.model.rules
        c = self.column
        upper = c.upper + (points if box.is_upper else 0)
        if upper >= rules.bonus_threshold:
            upper = rules.bonus_threshold  # the bonus is settled: the sum says no more
        holds_50 = points > 0 if box is Box.KNIFFEL else self._holds_50
        chips = x if self._chips else 0
        mask = self._mask | self._bit[box]
        key = (mask, upper, chips, holds_50)
        found = _recall(self._rests, key)
        if found is None:
            filled = [b for b in rules.boxes if mask & self._bit[b]]
            entries = {b: Entry(50 if b is Box.KNIFFEL and holds_50 else 0) for b in filled}
            found = _remember(self._rests, key,
                              self.model.rest(PlayerState(entries, 0, upper, chips)),
                              self._capacity)
        return found

    def _worth(self, box: Box, points: int, bonus: int, x: int) -> float:
        if self.certain is not None:
            return self.certain
        rules = self.model.rules
        c = self.column
        total = c.total + gain(rules, c.upper, box, points, bonus)
        if len(c.entries) + 1 == len(rules.boxes):
            return _share_at(self.curve, total)
        return expected_share(self.curve, self.rest(box, points, x).shifted(total))


# --- the answer ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WinOption(Option):
    """A legal choice with its expected final total (playing for points from then on, the
    expert's :class:`~kniffel.engine.advice.Option`) and its chance to win (playing to win from
    then on); ``win_loss``: the chance it gives away against the best choice."""

    win: float = 0.0
    win_loss: float = 0.0


@dataclass(frozen=True)
class WinAdvice:
    """Every legal choice of a position with both measures.

    ``options`` are ranked by the chance to win (equal chances: the higher expected total
    first); ``points`` is the expert's advice, best average first. ``exact``: the chances are
    the last round's exact backward induction, not the win-chance model's.
    """

    points: Advice
    options: tuple[WinOption, ...]
    exact: bool

    @property
    def for_win(self) -> WinOption:
        """The choice with the best chance to win."""
        return self.options[0]

    @property
    def for_points(self) -> WinOption:
        """The choice with the best expected total (the expert's), with its chance to win."""
        best = self.points.best.action
        return next(o for o in self.options if o.action == best)

    @property
    def differ(self) -> bool:
        """Whether playing to win asks for another choice than playing for points (one that
        wins more often, not merely as often)."""
        return self.for_win.win > self.for_points.win + TIE

    def ranked(self, goal: Goal) -> tuple[WinOption, ...]:
        """The options best first for ``goal``."""
        if goal == "win":
            return self.options
        order = {o.action: i for i, o in enumerate(self.points.options)}
        return tuple(sorted(self.options, key=lambda o: order[o.action]))


def _rank(options: Sequence[WinOption]) -> tuple[WinOption, ...]:
    """By chance to win, equal chances (within :data:`TIE`) by expected total; stable."""
    ordered = sorted(options, key=lambda o: -o.expected)
    ordered.sort(key=lambda o: -round(o.win / TIE))
    return tuple(ordered)


class WinAdvisor:
    """The chance to win of every choice in a game (the last round's distributions and the
    model's remembered from one call to the next); ``use_numpy`` picks the arithmetic (numpy
    where installed by default), both giving the same chances."""

    def __init__(self, rules: RuleSet, *, use_numpy: bool | None = None,
                 model: ChanceModel | None = None, memory: int = _MEMORY) -> None:
        self.rules = rules
        #: The most points-to-come distributions remembered between calls (a long run of
        #: games gains from more: the early sheets come back game after game).
        self.memory = memory
        self.expert = expert_for(rules, use_numpy=use_numpy)
        self.model = model if model is not None else chance_model(rules)
        self.player = TurnPlayer(rules, endgame=endgame_for(rules, use_numpy=use_numpy))
        self._memory: dict[tuple[object, ...], Distribution] = {}
        self._rests: dict[tuple[object, ...], Distribution] = {}
        self._plans: dict[tuple[object, ...], tuple[WorthOf, TurnStages]] = {}
        #: Turn recursions the last call computed for the later players of a last round.
        self.turns_played = 0

    def __repr__(self) -> str:
        return f"WinAdvisor({self.rules!r})"

    def advise(self, game: Game, position: Position | None = None, *,
               exact: bool | None = None) -> WinAdvice:
        """Every legal choice of the player to move in ``game`` with its chance to win and its
        expected final total; ``position``: the mover's decision point where the game does not
        hold it (the score pad's typed dice), by default :meth:`Position.from_game`.
        ``exact``: the last round's exact answer where it is the last round (None), or the
        win-chance model's in every round (False, to compare the two)."""
        if game.rules != self.rules:
            raise IllegalMoveError(f"this advisor is for {self.rules.name}, not "
                                   f"{game.rules.name}", code="expert.wrong_rules",
                                   params={"rules": self.rules.name, "other": game.rules.name})
        if game.is_over():
            raise IllegalMoveError("the game is over", code="move.game_over")
        if position is None:
            if game.mode is not Mode.DICE:
                raise IllegalMoveError("advice needs a game with virtual dice (dice mode)",
                                       code="advise.needs_dice_mode")
            position = Position.from_game(game)
        mover = game.current_player
        assert mover is not None
        points = self.expert.advise(position)
        column = Column(position.entries, position.score_so_far, position.upper_total,
                        (position.chips_left or 0) + (1 if position.chip_used else 0)
                        if self.rules.chips else 0)
        if exact not in (None, False):
            raise InvalidArgumentError(f"exact must be None or False, got {exact!r}",
                                       code="advise.exact_flag", params={"got": repr(exact)})
        exact = is_last_round(game) and exact is None
        self.turns_played = 0
        worth_of, stages = self._plan(game, mover, column, exact)
        if position.roll is None:
            first = self.expert._m.dice.first
            wins: dict[Action, float] = {Throw(): float(stages.before(1)[first])}
        else:
            x_entry = self.expert._x_entry(position)
            wins = {a: v for a, v, _ in self.expert.choice_values(position, stages,
                                                                   worth_of(x_entry))}
        # a chance is a probability: sums of probabilities may stray by an ulp beyond 0…1
        wins = {a: min(1.0, max(0.0, w)) for a, w in wins.items()}
        best = max(wins.values())
        options = [WinOption(o.action, o.expected, o.loss, o.points, wins[o.action],
                             best - wins[o.action]) for o in points.options]
        return WinAdvice(points, _rank(options), exact)

    def _plan(self, game: Game, mover: int, column: Column, exact: bool
              ) -> tuple[WorthOf, TurnStages]:
        """The worth of the mover's entries and the turn's stages for it, remembered for the
        turn (the other players' sheets do not change in it; the next throw's hint reads
        them)."""
        n = len(game.players)
        others = tuple(game.sheet(i).total if game.sheet(i).is_full else
                       Column.of(game, i).key
                       for i in ((mover + step) % n for step in range(1, n)))
        key = (exact, column.key, others)
        found = self._plans.get(key)
        if found is None:
            if len(self._plans) > 64:
                self._plans.clear()
            worth_of = (self._last_round(game, mover, column) if exact else
                        self._model_worth(game, mover, column).of)
            stages = self.expert.stages_for(self.player.turn(column), column.entries, worth_of)
            found = self._plans[key] = (worth_of, stages)
        return found

    def _last_round(self, game: Game, mover: int, column: Column) -> WorthOf:
        n = len(game.players)
        finished: list[int] = []
        later: list[Column] = []
        for step in range(1, n):
            i = (mover + step) % n
            sheet = game.sheet(i)
            if sheet.is_full:
                finished.append(sheet.total)
            else:
                later.append(Column.of(game, i))
        rnd = LastRound(self.player, finished, later, self._memory)
        utility = rnd.mover_utility()
        shape: dict[int, float] = {}

        def value(x: int) -> float:
            found = shape.get(x)
            if found is None:
                found = shape[x] = utility(x)
            return found
        worth_of = self.player.final_worth(column, value)
        # every final total the mover can reach, valued now: the later players' turns are
        # computed here, not inside the mover's recursion
        reach = most_to_come(self.rules, column.entries, column.upper)
        for x in range(column.total, column.total + reach + 1):
            value(x)
        self.turns_played = rnd.turns_played
        return worth_of

    def _model_worth(self, game: Game, mover: int, column: Column) -> ModelWorth:
        """The model's worth of the mover's entries."""
        others = []
        for i in range(len(game.players)):
            if i != mover:
                sheet = game.sheet(i)
                others.append(Distribution.point(sheet.total) if sheet.is_full else
                              self.model.final(PlayerState.of(game, i)))
        return ModelWorth(self.model, column, others, self._rests, capacity=self.memory)


class ExpertWinStrategy:
    """The ``expert-win`` computer player ("Experte, auf Sieg"): the choice with the best chance
    to win (:meth:`WinAdvisor.advise`; equal chances: the higher expected total), exact in the
    last round, the win-chance model's before it."""

    name = "expert-win"
    #: Where the player is listed among the computer players (after the expert).
    order = 45

    def __init__(self, rules: RuleSet) -> None:
        self.advisor = win_advisor(rules)

    def __repr__(self) -> str:
        return f"ExpertWinStrategy({self.advisor.rules!r})"

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The legal action with the best chance to win for the player to move."""
        legal = check_decision(game)
        turn = game.turn
        assert turn is not None
        if turn.roll is None:
            return legal[0]  # the first throw of a turn
        return self.advisor.advise(game).for_win.action


_ADVISORS: dict[RuleSet, WinAdvisor] = {}


def win_advisor(rules: RuleSet) -> WinAdvisor:
    """The shared :class:`WinAdvisor` of ``rules`` (its memory kept between calls)."""
    found = _ADVISORS.get(rules)
    if found is None:
        found = _ADVISORS[rules] = WinAdvisor(rules)
    return found


def win_advice(game: Game, position: Position | None = None, *,
               exact: bool | None = None) -> WinAdvice:
    """Every legal choice of the player to move in ``game`` with its chance to win and its
    expected final total (:meth:`WinAdvisor.advise`).

    >>> from kniffel import Game, preset
    >>> game = Game(preset("kniffel"), ["Anna", "Ben"], seed=1)
    >>> advice = win_advice(game)      # before the first throw: throw (about 50 % for each)
    >>> advice.for_win.action, round(advice.for_win.win, 2), advice.exact
    (Throw(), 0.5, False)
    """
    return win_advisor(game.rules).advise(game, position, exact=exact)


register_strategy("expert-win", ExpertWinStrategy)


__all__ = ["GOALS", "Column", "ExpertWinStrategy", "Goal", "LastRound", "ModelWorth",
           "TurnPlayer", "WinAdvice", "WinAdvisor", "WinOption", "gain", "is_last_round",
           "share_curve", "win_advice", "win_advisor"]

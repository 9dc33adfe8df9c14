"""The turn in progress, one class per mode: what may be done now and what an action changes.

A :class:`~kniffel.engine.game.Game` keeps the players' columns and whose turn it is; the turn
itself is a :class:`DiceTurn` (every throw played out: throws, their outcomes, a chip for a 4th,
then a box) or a :class:`PadTurn` (the score pad for real dice: the points written in a box, any
filled box put right with a :class:`~kniffel.engine.actions.Correct`). The game hands each action
of the player whose turn it is to its turn and starts the next turn when the action ended this
one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from kniffel.engine.actions import (
    Action,
    Correct,
    Enter,
    Outcome,
    Score,
    Strike,
    Throw,
    UseChip,
)
from kniffel.engine.dice import Keep, Roll, outcomes, sub_keeps
from kniffel.engine.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidDiceError,
    InvalidGameError,
    InvalidKeepError,
    dice_param,
)
from kniffel.engine.rules import Box, Choice, Entry, RuleSet, choices


@dataclass
class PlayerState:
    """One player's column as the game changes it: the filled boxes, the extra points of further
    Kniffels, the chips not handed in."""

    entries: dict[Box, Entry]
    extra_bonus: int
    chips_left: int


def check_player_index(player: int, count: int) -> None:
    """Raise :class:`InvalidGameError` unless ``player`` is an index into ``count`` players."""
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < count:
        raise InvalidGameError(f"there is no player #{player!r}; the game has {count}",
                               code="game.no_such_player",
                               params={"player": repr(player), "count": count})


@cache
def _rethrows(roll: Roll) -> tuple[Throw, ...]:
    """Every re-throw from ``roll``: each choice of dice to keep except keeping them all."""
    return tuple(Throw(k) for k in sub_keeps(roll) if k.size < len(roll.values))


def pad_action(choice: Choice) -> Enter | Strike:
    """The score pad's action that writes ``choice`` (a further Kniffel's extra points
    claimed, a box worth nothing struck)."""
    if choice.bonus:
        return Enter(choice.box, choice.points, extra_kniffel=True)
    if choice.strike or choice.points == 0:
        return Strike(choice.box)
    return Enter(choice.box, choice.points)


class ModeTurn(ABC):
    """The turn in progress on one rule set: throws used, a chip handed in, the dice on the table
    and the dice awaited (a score pad has no dice: its throws stay 0, its dice None)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.begin()

    def begin(self) -> None:
        """Start a turn: no throw yet, no chip handed in."""
        self.rolls_used = 0
        self.chip_used = False
        self.roll: Roll | None = None
        self.pending: Keep | None = None

    @abstractmethod
    def legal_actions(self, st: PlayerState) -> list[Action]:
        """Exactly the actions :meth:`apply` accepts now for the player with column ``st``."""

    @abstractmethod
    def apply(self, action: Action, st: PlayerState) -> bool:
        """Apply ``action`` of the player with column ``st``; whether it ended the turn. An
        illegal action raises :class:`IllegalMoveError` and changes nothing."""

    @abstractmethod
    def choices(self, st: PlayerState) -> tuple[Choice, ...]:
        """Every legal way to enter the dice on the table in column ``st`` (none without
        dice)."""

    @abstractmethod
    def pad_choices(self, roll: Roll, st: PlayerState | None) -> tuple[Enter | Strike, ...]:
        """The score pad's actions that enter ``roll`` (thrown with real dice) in column ``st``
        (None once the game is over)."""

    @abstractmethod
    def correct(self, action: Correct, states: Sequence[PlayerState],
                names: Sequence[str]) -> None:
        """Apply a :class:`Correct` to the columns ``states`` of the players ``names``."""

    @abstractmethod
    def corrections(self, player: int, box: Box, states: Sequence[PlayerState],
                    names: Sequence[str]) -> tuple[Correct, ...]:
        """Every :class:`Correct` that :meth:`correct` accepts now for ``player``'s ``box``."""

    def can_use_chip(self, st: PlayerState) -> bool:
        """Whether the player with column ``st`` may hand in a chip now."""
        return not (self.rules.chips == 0 or st.chips_left == 0 or self.chip_used)

    def use_chip(self, st: PlayerState) -> None:
        """Hand in one of the chips of column ``st``, or raise why not."""
        if not self.can_use_chip(st):
            raise self.chip_refusal(st)
        st.chips_left -= 1
        self.chip_used = True

    def chip_refusal(self, st: PlayerState) -> IllegalMoveError:
        """Why the player with column ``st`` may not hand in a chip now."""
        if self.rules.chips == 0:
            return IllegalMoveError(f"{self.rules.name} has no chips", code="chip.none_in_rules",
                                    params={"rules": self.rules.name})
        if st.chips_left == 0:
            return IllegalMoveError("all chips of this player are used", code="chip.all_used")
        return IllegalMoveError("a chip was already handed in this turn (at most one per "
                                "turn)", code="chip.one_per_turn")

    def open_box(self, st: PlayerState, box: Box) -> Box:
        """``box`` if this rule set has it and column ``st`` has not filled it yet."""
        box = self.rules.box(box)
        if box in st.entries:
            raise IllegalMoveError(f"{box.value} is already filled with {st.entries[box].points}",
                                   code="move.box_filled",
                                   params={"box": box.value, "points": st.entries[box].points})
        return box


class DiceTurn(ModeTurn):
    """A turn played out with dice: :class:`Throw` (keeping some dice), its :class:`Outcome`,
    :class:`UseChip` for a 4th throw, then :class:`Score` or :class:`Strike`."""

    def legal_actions(self, st: PlayerState) -> list[Action]:
        """The outcomes while dice are awaited, else the first throw, or the boxes the dice fit,
        the re-throws while throws are left and a chip where it may be handed in."""
        if self.pending is not None:
            return [Outcome(r) for r, _ in outcomes(self.pending, d10=self.rules.d10)]
        if self.roll is None:
            return [Throw()]
        acts: list[Action] = []
        for c in self.choices(st):
            acts.append(Strike(c.box) if c.strike else Score(c.box))
        if self.rolls_used < self.rules.rolls + self.chip_used:
            acts.extend(_rethrows(self.roll))
        if self.can_use_chip(st):
            acts.append(UseChip())
        return acts

    def choices(self, st: PlayerState) -> tuple[Choice, ...]:
        """Every legal way to enter the dice on the table (none before a throw or while the dice
        are rolling)."""
        if self.roll is None or self.pending is not None:
            return ()
        return choices(self.rules, st.entries, self.roll)

    def can_use_chip(self, st: PlayerState) -> bool:
        """A chip grants a 4th throw: only after the last throw of the turn, once its dice
        lie."""
        return (super().can_use_chip(st) and self.pending is None
                and self.rolls_used == self.rules.rolls)

    def chip_refusal(self, st: PlayerState) -> IllegalMoveError:
        """Why no chip now: none at all, or the dice still rolling, or throws still left."""
        if not super().can_use_chip(st):
            return super().chip_refusal(st)
        if self.pending is not None:
            return IllegalMoveError("the dice are still rolling", code="move.dice_rolling")
        return IllegalMoveError(f"a chip grants a 4th throw after the {self.rules.rolls}rd; "
                                f"{self.rolls_used} throw(s) used so far", code="chip.too_early",
                                params={"rolls": self.rules.rolls, "used": self.rolls_used})

    def apply(self, action: Action, st: PlayerState) -> bool:
        """A throw awaits its outcome, an outcome lies on the table, a chip grants one more
        throw; a box scored or struck ends the turn."""
        rules = self.rules
        if self.pending is not None and not isinstance(action, Outcome):
            raise IllegalMoveError(f"the dice of the throw keeping {self.pending} are awaited; "
                                   f"{action!r} must wait", code="move.dice_rolling")
        match action:
            case Throw(keep):
                self._check_throw(keep, st)
                self.pending = keep
            case Outcome(roll):
                if self.pending is None:
                    raise IllegalMoveError(f"no throw is waiting for its dice ({action!r})",
                                           code="move.no_pending_throw")
                try:
                    rules.check_roll(roll)
                except InvalidDiceError as e:
                    raise e.as_type(IllegalMoveError) from None
                if not self.pending.is_part_of(roll):
                    raise IllegalMoveError(f"the outcome {roll} does not hold the kept dice "
                                           f"{self.pending}", code="move.outcome_without_kept",
                                           params={"roll": dice_param(roll),
                                                   "keep": dice_param(self.pending)})
                self.pending = None
                self.roll = roll
                self.rolls_used += 1
            case UseChip():
                self.use_chip(st)
            case Score(box) | Strike(box):
                if isinstance(action, Strike) and action.dice is not None:
                    raise IllegalMoveError(f"{action!r} records typed dice, which only a score "
                                           f"pad does; with dice the roll is on the table",
                                           code="coach.dice_pad_only")
                box = self.open_box(st, box)
                if self.roll is None:
                    raise IllegalMoveError(f"throw the dice before entering a box ({action!r})",
                                           code="move.throw_first")
                strike = isinstance(action, Strike)
                legal = [c for c in choices(rules, st.entries, self.roll)
                         if c.box is box and c.strike == strike]
                if not legal:
                    raise self._refusal(action, st)
                chosen = legal[0]
                st.entries[box] = Entry(chosen.points, struck=strike or chosen.points == 0)
                st.extra_bonus += chosen.bonus
                return True
            case Enter():
                raise IllegalMoveError(f"{action!r} writes points on a score pad; this game is "
                                       f"played with dice: use Score or Strike",
                                       code="move.pad_only")
            case _:
                raise IllegalMoveError(f"not an action: {action!r}", code="move.not_an_action")
        return False

    def _check_throw(self, keep: Keep, st: PlayerState) -> None:
        """Refuse a throw keeping ``keep`` unless a throw is left and ``keep`` is part of the
        dice on the table (nothing on the first throw, never all of them)."""
        rules = self.rules
        allowed = rules.rolls + self.chip_used
        if self.rolls_used >= allowed:
            more = (" (hand in a chip for one more)" if self.can_use_chip(st) else "")
            raise IllegalMoveError(
                f"all {allowed} throws of this turn are used{more}; enter the roll "
                f"{self.roll} in a box",
                code="move.no_throws_left_chip" if more else "move.no_throws_left",
                params={"rolls": allowed})
        if self.roll is None:
            if keep.size:
                raise IllegalMoveError(f"the first throw of a turn throws all dice; "
                                       f"cannot keep {keep}", code="move.first_throw_all")
        else:
            try:
                keep.check_part_of(self.roll)
            except InvalidKeepError as e:
                raise e.as_type(IllegalMoveError) from None
            if keep.size >= rules.dice_count:
                raise IllegalMoveError(f"keeping all dice ({keep}) throws nothing",
                                       code="move.keep_all")
        if keep.d10 is not None and not rules.d10:
            raise IllegalMoveError(f"{rules.name} has no d10 to keep", code="keep.no_d10")

    def _refusal(self, action: Score | Strike, st: PlayerState) -> IllegalMoveError:
        """Why the dice on the table cannot be scored or struck in ``action``'s box."""
        assert self.roll is not None
        allowed = choices(self.rules, st.entries, self.roll)
        shown = ", ".join(f"{'strike ' if c.strike else ''}{c.box.value}" for c in allowed)
        verb = "strike" if isinstance(action, Strike) else "score"
        return IllegalMoveError(
            f"cannot {verb} {action.box.value} with {self.roll}; allowed: {shown}",
            code=("move.cannot_strike" if verb == "strike" else
                  "move.cannot_score_strike_only" if all(c.strike for c in allowed) else
                  "move.cannot_score_or_strike" if any(c.strike for c in allowed) else
                  "move.cannot_score"),
            params={"box": action.box.value, "roll": dice_param(self.roll),
                    "boxes": [c.box.value for c in allowed if not c.strike],
                    "strikes": [c.box.value for c in allowed if c.strike]})

    def pad_choices(self, roll: Roll, st: PlayerState | None) -> tuple[Enter | Strike, ...]:
        """Refused: a game played with dice enters the dice on its table."""
        raise IllegalMoveError("pad_choices is for score-pad games; this one is played "
                               "with dice", code="move.pad_only")

    def correct(self, action: Correct, states: Sequence[PlayerState],
                names: Sequence[str]) -> None:
        """Refused: with dice every entry follows from the dice."""
        raise IllegalMoveError(f"{action!r} puts a score pad right; this game is played "
                               f"with dice, where every entry follows from the dice",
                               code="correct.pad_only")

    def corrections(self, player: int, box: Box, states: Sequence[PlayerState],
                    names: Sequence[str]) -> tuple[Correct, ...]:
        """None: a game played with dice is never put right."""
        return ()


class PadTurn(ModeTurn):
    """A turn on the score pad for real dice: a box written with :class:`Enter` (the points the
    player says, checked against what the box can hold) or :class:`Strike`, a chip handed in at
    any time of the turn; a filled box of any player put right with :class:`Correct`."""

    def legal_actions(self, st: PlayerState) -> list[Action]:
        """Every open box with each of the points it can hold (with the extra Kniffel points
        where they may be claimed) and struck, and a chip where one is left. An entry or strike
        may also record the typed dice that give it (``dice``; :meth:`pad_choices`)."""
        acts: list[Action] = []
        extra_ok = self._extra_kniffel_allowed(st)
        for box in self.rules.boxes:
            if box in st.entries:
                continue
            for p in sorted(self.rules.possible_points(box)):
                if p:
                    acts.append(Enter(box, p))
                if extra_ok and box is not Box.KNIFFEL:
                    acts.append(Enter(box, p, extra_kniffel=True))
            acts.append(Strike(box))
        if self.can_use_chip(st):
            acts.append(UseChip())
        return acts

    def choices(self, st: PlayerState) -> tuple[Choice, ...]:
        """None: a score pad has no dice on the table."""
        return ()

    def _extra_kniffel_allowed(self, st: PlayerState) -> bool:
        """Whether column ``st`` may claim a further Kniffel's extra points."""
        kn = st.entries.get(Box.KNIFFEL)
        return self.rules.extra_kniffel_bonus > 0 and kn is not None and kn.points > 0

    def _check_points(self, box: Box, points: object) -> None:
        """Refuse ``points`` unless ``box`` can hold them (a pad entry or a correction)."""
        possible = self.rules.possible_points(box)
        if isinstance(points, bool) or not isinstance(points, int) or points not in possible:
            shown = ", ".join(map(str, sorted(possible)))
            raise IllegalMoveError(
                f"{box.value} cannot hold {points!r} points; possible: {shown}",
                code="move.points_impossible",
                params={"box": box.value, "points": repr(points), "possible": sorted(possible),
                        "rules": self.rules.name})

    def apply(self, action: Action, st: PlayerState) -> bool:
        """A box entered or struck ends the turn; a chip is only counted."""
        rules = self.rules
        match action:
            case Enter(box, points, extra, dice):
                box = self.open_box(st, box)
                self._check_points(box, points)
                if extra and not self._extra_kniffel_allowed(st):
                    raise IllegalMoveError(
                        "extra points for a further Kniffel need a rule set that grants them "
                        "and a kniffel box that holds 50", code="move.extra_kniffel_not_allowed")
                if extra and box is Box.KNIFFEL:
                    raise IllegalMoveError("the kniffel box is already filled",
                                           code="move.kniffel_filled")
                if points == 0 and not extra:
                    raise IllegalMoveError(f"0 points is a strike: use Strike({box!r})",
                                           code="move.zero_is_strike", params={"box": box.value})
                self._check_dice(action, dice, st)
                st.entries[box] = Entry(points, struck=points == 0)
                st.extra_bonus += rules.extra_kniffel_bonus if extra else 0
                return True
            case Strike(box, dice):
                box = self.open_box(st, box)
                self._check_dice(action, dice, st)
                st.entries[box] = Entry(0, struck=True)
                return True
            case UseChip():
                self.use_chip(st)
                return False
            case Throw() | Outcome() | Score():
                raise IllegalMoveError(f"{action!r} needs a game played with dice; this one is "
                                       f"a score pad: use Enter or Strike", code="move.dice_only")
            case _:
                raise IllegalMoveError(f"not an action: {action!r}", code="move.not_an_action")

    def _check_dice(self, action: Enter | Strike, dice: Roll | None, st: PlayerState) -> None:
        """Refuse an entry that records typed ``dice`` unless the dice belong to the rule set
        and give exactly this entry (one of :meth:`pad_choices`); changes nothing."""
        if dice is None:
            return
        try:
            self.rules.check_roll(dice)
        except InvalidDiceError as e:
            raise e.as_type(IllegalMoveError) from None
        box = self.rules.box(action.box)
        plain = Enter(box, action.points, action.extra_kniffel) if isinstance(
            action, Enter) else Strike(box)
        if plain not in self.pad_choices(dice, st):
            points = action.points if isinstance(action, Enter) else 0
            raise IllegalMoveError(f"the typed dice {dice} do not give {action!r}",
                                   code="coach.dice_do_not_fit",
                                   params={"box": box.value, "points": points,
                                           "roll": dice_param(dice)})

    def pad_choices(self, roll: Roll, st: PlayerState | None) -> tuple[Enter | Strike, ...]:
        """The actions that enter ``roll`` in column ``st`` with the points the rules give it."""
        if st is None:
            raise GameOverError("the game is over", code="move.game_over")
        return tuple(pad_action(c) for c in choices(self.rules, st.entries, roll))

    def correct(self, action: Correct, states: Sequence[PlayerState],
                names: Sequence[str]) -> None:
        """The box must be filled, the new value one it can hold and not the one it holds."""
        check_player_index(action.player, len(states))
        st = states[action.player]
        box = self.rules.box(action.box)
        name = names[action.player]
        old = st.entries.get(box)
        if old is None:
            raise IllegalMoveError(f"{name}'s {box.value} is still open: enter it on "
                                   f"{name}'s turn ({action!r} refused)",
                                   code="correct.box_open",
                                   params={"player": name, "box": box.value,
                                           "rules": self.rules.name})
        points = action.points
        if points is None:
            new = Entry(0, struck=True)
        else:
            self._check_points(box, points)
            if points == 0:
                raise IllegalMoveError(f"0 points is a strike: use Correct({action.player!r}, "
                                       f"{box!r}, None)", code="correct.zero_is_strike")
            new = Entry(points, struck=False)
        if new == old:
            shown_old = "struck" if old.struck else f"{old.points}"
            raise IllegalMoveError(f"{name}'s {box.value} already holds {shown_old}",
                                   code="correct.unchanged",
                                   params={"player": name, "box": box.value,
                                           "rules": self.rules.name})
        if box is Box.KNIFFEL and st.extra_bonus and new.points != old.points:
            raise IllegalMoveError(
                f"{name}'s extra Kniffel points ({st.extra_bonus}) need the kniffel box as it "
                f"is; undo them before changing it", code="correct.extra_kniffel",
                params={"player": name})
        st.entries[box] = new

    def corrections(self, player: int, box: Box, states: Sequence[PlayerState],
                    names: Sequence[str]) -> tuple[Correct, ...]:
        """Each other value the filled ``box`` can hold, and struck, where :meth:`correct`
        takes it (none while the box is open)."""
        check_player_index(player, len(states))
        box = self.rules.box(box)
        if box not in states[player].entries:
            return ()
        candidates: list[Correct] = [
            Correct(player, box, p) for p in sorted(self.rules.possible_points(box)) if p]
        candidates.append(Correct(player, box, None))
        out = []
        for c in candidates:
            try:
                self._check_correct(c, states, names)
            except IllegalMoveError:
                continue
            out.append(c)
        return tuple(out)

    def _check_correct(self, action: Correct, states: Sequence[PlayerState],
                       names: Sequence[str]) -> None:
        """Raise :class:`IllegalMoveError` unless ``action`` may be applied; changes nothing."""
        st = states[action.player]
        before = dict(st.entries)
        try:
            self.correct(action, states, names)
        finally:
            st.entries.clear()
            st.entries.update(before)

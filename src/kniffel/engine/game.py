"""The game: players taking turns on one rule set, as a list of actions.

A :class:`Game` is its rule set, its players, its mode, its seed, its start player and the actions
applied so far; every other fact (sheets, whose turn, the dice on the table) is derived from them.
Like OpenSpiel it speaks of :meth:`Game.legal_actions` and :meth:`Game.apply`; a throw of the dice
is a chance node whose outcome is an action too, so replaying the list reproduces the game and
undo simply drops the last action.

Two modes:

* ``Mode.DICE`` — every throw is played out: :class:`Throw` (keeping some dice), its
  :class:`Outcome`, :class:`UseChip` for a 4th roll, then :class:`Score` or :class:`Strike`.
* ``Mode.PAD`` — the score pad for real dice: a player's box is written with :class:`Enter` (the
  points they say, checked against what the box can hold) or :class:`Strike`; a filled box of any
  player can be put right with :class:`Correct` (new points, checked the same way, or struck).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, TypeAlias

from kniffel.engine.dice import Keep, Roll, outcomes, roll_dice, sub_keeps
from kniffel.engine.errors import (
    CorruptSaveError,
    GameOverError,
    IllegalMoveError,
    InvalidDiceError,
    InvalidGameError,
    InvalidKeepError,
    KniffelError,
    NotYourTurnError,
    UnsupportedVersionError,
    cause_param,
    dice_param,
)
from kniffel.engine.rules import Box, Choice, Entry, RuleSet, choices, preset

MAX_PLAYERS = 8
MAX_NAME_LENGTH = 40


class Mode(enum.Enum):
    """How a game is played: with every throw recorded, or as a score pad for real dice."""

    DICE = "dice"
    PAD = "pad"

    def __repr__(self) -> str:
        return f"Mode.{self.name}"


class PlayerKind(enum.Enum):
    """Who makes a player's decisions."""

    HUMAN = "human"
    COMPUTER = "computer"

    def __repr__(self) -> str:
        return f"PlayerKind.{self.name}"


@dataclass(frozen=True, slots=True)
class Player:
    """A player: a name, human or computer, and for a computer the name of its strategy."""

    name: str
    kind: PlayerKind = PlayerKind.HUMAN
    strategy: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise InvalidGameError(f"a player's name must be text, got {self.name!r}",
                                   code="player.name_not_text")
        name = self.name.strip()
        if not name:
            raise InvalidGameError("a player's name must not be empty",
                                   code="player.name_empty")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidGameError(
                f"the name {name[:MAX_NAME_LENGTH]!r}… is longer than {MAX_NAME_LENGTH} characters",
                code="player.name_too_long",
                params={"name": name[:MAX_NAME_LENGTH], "most": MAX_NAME_LENGTH})
        if any(not ch.isprintable() for ch in name):
            raise InvalidGameError(f"the name {name!r} holds control characters",
                                   code="player.name_control", params={"name": repr(name)})
        object.__setattr__(self, "name", name)
        if not isinstance(self.kind, PlayerKind):
            raise InvalidGameError(f"unknown player kind {self.kind!r}",
                                   code="player.kind_unknown", params={"kind": str(self.kind)})

    def __repr__(self) -> str:
        if self.kind is PlayerKind.HUMAN and self.strategy is None:
            return f"Player({self.name!r})"
        return f"Player({self.name!r}, kind={self.kind!r}, strategy={self.strategy!r})"


# --- actions -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Throw:
    """Keep ``keep`` and throw the other dice (the first throw of a turn keeps nothing)."""

    keep: Keep = field(default_factory=Keep)

    def __repr__(self) -> str:
        return "Throw()" if self.keep == Keep() else f"Throw({self.keep!r})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The chance action after a :class:`Throw`: the dice that came up (kept ones included)."""

    roll: Roll


@dataclass(frozen=True, slots=True)
class UseChip:
    """Hand in a chip: in dice mode after the 3rd throw, for a 4th; at most one per turn."""


@dataclass(frozen=True, slots=True)
class Score:
    """Enter the dice on the table in ``box`` (dice mode)."""

    box: Box


@dataclass(frozen=True, slots=True)
class Strike:
    """Strike ``box``: it holds 0 points (both modes)."""

    box: Box


@dataclass(frozen=True, slots=True)
class Enter:
    """Write ``points`` in ``box`` (score-pad mode); ``extra_kniffel`` claims a further
    Kniffel's extra points where the rule set grants them."""

    box: Box
    points: int
    extra_kniffel: bool = False

    def __repr__(self) -> str:
        extra = ", extra_kniffel=True" if self.extra_kniffel else ""
        return f"Enter({self.box!r}, {self.points!r}{extra})"


@dataclass(frozen=True, slots=True)
class Correct:
    """Score pad: put right player ``player``'s filled ``box`` — write ``points`` in it (checked
    like an :class:`Enter`), or strike it with ``points=None``. Any player, at any time, also
    after the last box; it is nobody's turn and the turn order stays. A box never goes back to
    open."""

    player: int
    box: Box
    points: int | None

    def __repr__(self) -> str:
        return f"Correct({self.player!r}, {self.box!r}, {self.points!r})"


Action: TypeAlias = Throw | Outcome | UseChip | Score | Strike | Enter | Correct


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON object that stands for ``action`` in a save."""
    match action:
        case Throw(keep):
            return {"type": "throw", "keep": list(keep.d6), "keep_d10": keep.d10}
        case Outcome(roll):
            return {"type": "outcome", "d6": list(roll.d6), "d10": roll.d10}
        case UseChip():
            return {"type": "chip"}
        case Score(box):
            return {"type": "score", "box": box.value}
        case Strike(box):
            return {"type": "strike", "box": box.value}
        case Enter(box, points, extra):
            return {"type": "enter", "box": box.value, "points": points, "extra_kniffel": extra}
        case Correct(player, box, points):
            return {"type": "correct", "player": player, "box": box.value, "points": points}
    raise TypeError(f"not an action: {action!r}")


def action_from_json(data: object) -> Action:
    """The action a save's JSON object stands for; raises KniffelError if it is malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise CorruptSaveError(f"an action must be an object with a 'type', got {data!r}",
                               code="save.bad_action")
    kind = data["type"]
    try:
        if kind == "throw":
            return Throw(Keep(_int_list(data["keep"]), _opt_int(data.get("keep_d10"))))
        if kind == "outcome":
            return Outcome(Roll(_int_list(data["d6"]), _opt_int(data.get("d10"))))
        if kind == "chip":
            return UseChip()
        if kind in ("score", "strike"):
            box = Box.parse(_str(data["box"]))
            return Score(box) if kind == "score" else Strike(box)
        if kind == "enter":
            extra = data.get("extra_kniffel", False)
            if not isinstance(extra, bool):
                raise CorruptSaveError(f"extra_kniffel must be true or false, got {extra!r}",
                                       code="save.bad_action")
            return Enter(Box.parse(_str(data["box"])), _int(data["points"]), extra)
        if kind == "correct":
            return Correct(_int(data["player"]), Box.parse(_str(data["box"])),
                           _opt_int(data["points"]))
    except KeyError as e:
        raise CorruptSaveError(f"the {kind!r} action {data!r} lacks {e.args[0]!r}",
                               code="save.bad_action") from None
    raise CorruptSaveError(f"unknown action type {kind!r}", code="save.bad_action")


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptSaveError(f"expected a whole number, got {value!r}", code="save.bad_value")
    return value


def _opt_int(value: object) -> int | None:
    return None if value is None else _int(value)


def _int_list(value: object) -> list[int]:
    if not isinstance(value, list):
        raise CorruptSaveError(f"expected a list of numbers, got {value!r}",
                               code="save.bad_value")
    return [_int(v) for v in value]


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise CorruptSaveError(f"expected text, got {value!r}", code="save.bad_value")
    return value


# --- state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    """One player's column: the filled boxes and the totals derived from them."""

    rules: RuleSet
    entries: Mapping[Box, Entry]
    extra_bonus: int
    chips_left: int

    @property
    def open_boxes(self) -> tuple[Box, ...]:
        """The boxes still empty, in sheet order."""
        return tuple(b for b in self.rules.boxes if b not in self.entries)

    @property
    def is_full(self) -> bool:
        return len(self.entries) == len(self.rules.boxes)

    @property
    def upper_sum(self) -> int:
        """The points in the upper section (ones … sixes)."""
        return sum(e.points for b, e in self.entries.items() if b.is_upper)

    @property
    def bonus(self) -> int:
        """The upper-section bonus: its points once the upper sum reaches the threshold."""
        return self.rules.bonus_points if self.upper_sum >= self.rules.bonus_threshold else 0

    @property
    def bonus_missing(self) -> int:
        """Points the upper section still needs for the bonus (0 once reached)."""
        return max(0, self.rules.bonus_threshold - self.upper_sum)

    @property
    def bonus_reachable(self) -> bool:
        """Whether the open upper boxes can still bring the upper sum to the threshold."""
        room = sum(self.rules.max_points(b) for b in self.rules.upper_boxes
                   if b not in self.entries)
        return self.upper_sum + room >= self.rules.bonus_threshold

    @property
    def lower_sum(self) -> int:
        """The points in the lower section."""
        return sum(e.points for b, e in self.entries.items() if not b.is_upper)

    @property
    def total(self) -> int:
        """Upper sum, bonus, lower sum and the extra points of further Kniffels."""
        return self.upper_sum + self.bonus + self.lower_sum + self.extra_bonus


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn in progress: throws used and allowed, whether a chip was handed in, the dice."""

    player: int
    rolls_used: int
    rolls_allowed: int
    chip_used: bool
    roll: Roll | None
    pending: Keep | None

    @property
    def rolls_left(self) -> int:
        return self.rolls_allowed - self.rolls_used


@dataclass
class _PlayerState:
    entries: dict[Box, Entry]
    extra_bonus: int
    chips_left: int


@dataclass(frozen=True, slots=True)
class RollOff:
    """Who starts: each round, the tied players each threw all dice; the highest sum starts."""

    rounds: tuple[Mapping[int, Roll], ...]
    winner: int


def roll_off(rules: RuleSet, players: int, rng: random.Random) -> RollOff:
    """Each player throws all dice once; the highest sum starts, tied leaders throw again."""
    if not 1 <= players <= MAX_PLAYERS:
        raise InvalidGameError(f"a game has 1–{MAX_PLAYERS} players, got {players}",
                               code="game.player_count",
                               params={"most": MAX_PLAYERS, "got": players})
    contenders = list(range(players))
    rounds: list[Mapping[int, Roll]] = []
    while True:
        throws = {p: roll_dice(Keep(), rng, d10=rules.d10) for p in contenders}
        rounds.append(MappingProxyType(throws))
        best = max(r.total for r in throws.values())
        contenders = [p for p, r in throws.items() if r.total == best]
        if len(contenders) == 1:
            return RollOff(tuple(rounds), contenders[0])


@cache
def _rethrows(roll: Roll) -> tuple[Throw, ...]:
    """Every re-throw from ``roll``: each choice of dice to keep except keeping them all."""
    return tuple(Throw(k) for k in sub_keeps(roll) if k.size < len(roll.values))


SAVE_FORMAT = "kniffel-game"
SAVE_VERSION = 1


class Game:
    """A game of 1–8 players on one rule set, built from its list of actions.

    >>> game = Game(RuleSet.preset("extreme"), ["Anna", "Ben"], seed=7)
    >>> game.apply(Throw())
    >>> game.is_chance_node()
    True
    """

    def __init__(
        self,
        rules: RuleSet | str | None = None,
        players: Sequence[Player | str] = ("Spieler 1",),
        *,
        mode: Mode = Mode.DICE,
        seed: int = 0,
        start_player: int = 0,
        actions: Iterable[Action] = (),
    ) -> None:
        if rules is None:
            rules = preset("extreme")
        elif isinstance(rules, str):
            rules = preset(rules)
        self._rules = rules
        if isinstance(players, str):
            players = [players]
        people = tuple(p if isinstance(p, Player) else Player(p) for p in players)
        if not 1 <= len(people) <= MAX_PLAYERS:
            raise InvalidGameError(f"a game has 1–{MAX_PLAYERS} players, got {len(people)}",
                                   code="game.player_count",
                                   params={"most": MAX_PLAYERS, "got": len(people)})
        seen: set[str] = set()
        for p in people:
            if p.name.casefold() in seen:
                raise InvalidGameError(f"two players are called {p.name!r}",
                                       code="game.duplicate_name", params={"name": p.name})
            seen.add(p.name.casefold())
        self._players = people
        if not isinstance(mode, Mode):
            raise InvalidGameError(f"unknown mode {mode!r}", code="game.mode_unknown",
                                   params={"mode": str(mode)})
        self._mode = mode
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidGameError(f"the seed must be a whole number, got {seed!r}",
                                   code="game.seed", params={"seed": repr(seed)})
        self._seed = seed
        if isinstance(start_player, bool) or not isinstance(start_player, int) or not (
            0 <= start_player < len(people)
        ):
            raise InvalidGameError(
                f"start player {start_player!r} is not one of 0–{len(people) - 1}",
                code="game.start_player",
                params={"start": repr(start_player), "count": len(people)})
        self._start = start_player
        self._reset()
        for i, action in enumerate(actions):
            try:
                self.apply(action)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"action #{i + 1} {action!r}: {e}",
                                       code="game.action_refused",
                                       params={"number": i + 1,
                                               "cause": cause_param(e)}) from None

    # --- read-only facts ---------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def players(self) -> tuple[Player, ...]:
        return self._players

    @property
    def mode(self) -> Mode:
        return self._mode

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def start_player(self) -> int:
        return self._start

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far, oldest first."""
        return tuple(self._actions)

    def __repr__(self) -> str:
        return (f"Game({self._rules!r}, {list(self._players)!r}, mode={self._mode!r}, "
                f"seed={self._seed!r}, start_player={self._start!r}, "
                f"actions={self._actions!r})")

    def copy(self) -> Game:
        """An independent game with the same actions."""
        return Game(self._rules, self._players, mode=self._mode, seed=self._seed,
                    start_player=self._start, actions=self._actions)

    # --- derived state -----------------------------------------------------------------

    def _reset(self) -> None:
        self._actions: list[Action] = []
        self._state = [_PlayerState({}, 0, self._rules.chips) for _ in self._players]
        self._turns_done = 0
        self._rolls_used = 0
        self._chip_used = False
        self._roll: Roll | None = None
        self._pending: Keep | None = None

    def is_over(self) -> bool:
        """Whether every box of every player is filled."""
        return self._turns_done == len(self._players) * len(self._rules.boxes)

    @property
    def current_player(self) -> int | None:
        """The index of the player whose turn it is, or None once the game is over."""
        if self.is_over():
            return None
        return (self._start + self._turns_done) % len(self._players)

    @property
    def round(self) -> int:
        """The round in progress, from 1 to the number of boxes (the last one once over)."""
        return min(self._turns_done // len(self._players) + 1, len(self._rules.boxes))

    @property
    def turn(self) -> Turn | None:
        """The turn in progress, or None once the game is over."""
        player = self.current_player
        if player is None:
            return None
        return Turn(player, self._rolls_used, self._rules.rolls + self._chip_used,
                    self._chip_used, self._roll, self._pending)

    def sheet(self, player: int) -> Sheet:
        """Player ``player``'s column (index into :attr:`players`)."""
        self._check_player_index(player)
        st = self._state[player]
        return Sheet(self._rules, MappingProxyType(dict(st.entries)), st.extra_bonus,
                     st.chips_left)

    def scores(self) -> tuple[int, ...]:
        """Every player's total, in player order."""
        return tuple(self.sheet(i).total for i in range(len(self._players)))

    def ranking(self) -> tuple[tuple[int, int, int], ...]:
        """(rank, player, total) from best to worst; equal totals share a rank."""
        totals = self.scores()
        order = sorted(range(len(totals)), key=lambda i: (-totals[i], i))
        return tuple((1 + sum(1 for t in totals if t > totals[i]), i, totals[i]) for i in order)

    def winners(self) -> tuple[int, ...]:
        """The players with the highest total (several on a tie); empty until the game is over."""
        if not self.is_over():
            return ()
        best = max(self.scores())
        return tuple(i for i, t in enumerate(self.scores()) if t == best)

    def is_chance_node(self) -> bool:
        """Whether the dice of a throw are awaited (the next action is an :class:`Outcome`)."""
        return self._pending is not None

    def chance_outcomes(self) -> tuple[tuple[Outcome, float], ...]:
        """At a chance node, every outcome with its probability; else empty."""
        if self._pending is None:
            return ()
        return tuple((Outcome(r), p) for r, p in outcomes(self._pending, d10=self._rules.d10))

    def sample_outcome(self, rng: random.Random) -> Outcome:
        """Throw the dice not kept with ``rng`` (only at a chance node)."""
        if self._pending is None:
            raise IllegalMoveError("no throw is waiting for its dice", code="move.no_pending_throw")
        return Outcome(roll_dice(self._pending, rng, d10=self._rules.d10))

    def roll(self, rng: random.Random, keep: Keep | None = None) -> Roll:
        """Apply ``Throw(keep)`` and its outcome thrown with ``rng``; return the dice."""
        self.apply(Throw(keep if keep is not None else Keep()))
        outcome = self.sample_outcome(rng)
        self.apply(outcome)
        return outcome.roll

    def choices(self) -> tuple[Choice, ...]:
        """Dice mode: every legal way to enter the dice on the table (empty before a throw)."""
        if self._mode is not Mode.DICE or self._roll is None or self._pending is not None:
            return ()
        player = self.current_player
        assert player is not None
        return choices(self._rules, self._state[player].entries, self._roll)

    def pad_choices(self, roll: Roll) -> tuple[Enter | Strike, ...]:
        """Score-pad mode: the actions that enter ``roll`` (thrown with real dice) for the player
        whose turn it is, with the points the rules give it."""
        if self._mode is not Mode.PAD:
            raise IllegalMoveError("pad_choices is for score-pad games; this one is played "
                                   "with dice", code="move.pad_only")
        player = self._require_turn()
        out: list[Enter | Strike] = []
        for c in choices(self._rules, self._state[player].entries, roll):
            if c.bonus:
                out.append(Enter(c.box, c.points, extra_kniffel=True))
            elif c.strike or c.points == 0:
                out.append(Strike(c.box))
            else:
                out.append(Enter(c.box, c.points))
        return tuple(out)

    def legal_actions(self) -> list[Action]:
        """Exactly the actions :meth:`apply` accepts now (outcomes at a chance node)."""
        if self.is_over():
            return []
        player = self.current_player
        assert player is not None
        st = self._state[player]
        if self._mode is Mode.PAD:
            return self._legal_pad(st)
        if self._pending is not None:
            return [o for o, _ in self.chance_outcomes()]
        if self._roll is None:
            return [Throw()]
        acts: list[Action] = []
        for c in self.choices():
            acts.append(Strike(c.box) if c.strike else Score(c.box))
        if self._rolls_used < self._rules.rolls + self._chip_used:
            acts.extend(_rethrows(self._roll))
        if self._can_use_chip(st):
            acts.append(UseChip())
        return acts

    def _legal_pad(self, st: _PlayerState) -> list[Action]:
        acts: list[Action] = []
        extra_ok = self._extra_kniffel_allowed(st)
        for box in self._rules.boxes:
            if box in st.entries:
                continue
            for p in sorted(self._rules.possible_points(box)):
                if p:
                    acts.append(Enter(box, p))
                if extra_ok and box is not Box.KNIFFEL:
                    acts.append(Enter(box, p, extra_kniffel=True))
            acts.append(Strike(box))
        if self._can_use_chip(st):
            acts.append(UseChip())
        return acts

    def _extra_kniffel_allowed(self, st: _PlayerState) -> bool:
        kn = st.entries.get(Box.KNIFFEL)
        return self._rules.extra_kniffel_bonus > 0 and kn is not None and kn.points > 0

    def _can_use_chip(self, st: _PlayerState) -> bool:
        if self._rules.chips == 0 or st.chips_left == 0 or self._chip_used:
            return False
        if self._mode is Mode.PAD:
            return True
        return self._pending is None and self._rolls_used == self._rules.rolls

    # --- applying actions --------------------------------------------------------------

    def apply(self, action: Action, *, player: int | None = None) -> None:
        """Apply ``action`` for the player whose turn it is.

        With ``player`` given, the action is refused (:class:`NotYourTurnError`) unless it is that
        player's turn. A :class:`Correct` names its own player and is taken at any time (score
        pad only), also once the game is over. An illegal action raises
        :class:`IllegalMoveError` naming the action and the state, and changes nothing.
        """
        if isinstance(action, Correct):
            self._correct(action)
            self._actions.append(action)
            return
        if self.is_over():
            raise GameOverError(f"the game is over; {action!r} cannot be applied",
                                code="move.game_over")
        current = self.current_player
        assert current is not None
        if player is not None and player != current:
            self._check_player_index(player)
            raise NotYourTurnError(
                f"it is {self._players[current].name}'s turn, not "
                f"{self._players[player].name}'s ({action!r} refused)",
                code="move.not_your_turn", params={"player": self._players[current].name,
                                                   "other": self._players[player].name})
        st = self._state[current]
        if self._mode is Mode.PAD:
            self._apply_pad(action, st)
        else:
            self._apply_dice(action, st)
        self._actions.append(action)

    def _apply_dice(self, action: Action, st: _PlayerState) -> None:
        rules = self._rules
        if self._pending is not None and not isinstance(action, Outcome):
            raise IllegalMoveError(f"the dice of the throw keeping {self._pending} are awaited; "
                                   f"{action!r} must wait", code="move.dice_rolling")
        match action:
            case Throw(keep):
                allowed = rules.rolls + self._chip_used
                if self._rolls_used >= allowed:
                    more = (" (hand in a chip for one more)" if self._can_use_chip(st) else "")
                    raise IllegalMoveError(
                        f"all {allowed} throws of this turn are used{more}; enter the roll "
                        f"{self._roll} in a box",
                        code="move.no_throws_left_chip" if more else "move.no_throws_left",
                        params={"rolls": allowed})
                if self._roll is None:
                    if keep.size:
                        raise IllegalMoveError(f"the first throw of a turn throws all dice; "
                                               f"cannot keep {keep}", code="move.first_throw_all")
                else:
                    try:
                        keep.check_part_of(self._roll)
                    except InvalidKeepError as e:
                        raise e.as_type(IllegalMoveError) from None
                    if keep.size >= rules.dice_count:
                        raise IllegalMoveError(f"keeping all dice ({keep}) throws nothing",
                                               code="move.keep_all")
                if keep.d10 is not None and not rules.d10:
                    raise IllegalMoveError(f"{rules.name} has no d10 to keep", code="keep.no_d10")
                self._pending = keep
            case Outcome(roll):
                if self._pending is None:
                    raise IllegalMoveError(f"no throw is waiting for its dice ({action!r})",
                                           code="move.no_pending_throw")
                try:
                    rules.check_roll(roll)
                except InvalidDiceError as e:
                    raise e.as_type(IllegalMoveError) from None
                if not self._pending.is_part_of(roll):
                    raise IllegalMoveError(f"the outcome {roll} does not hold the kept dice "
                                           f"{self._pending}", code="move.outcome_without_kept",
                                           params={"roll": dice_param(roll),
                                                   "keep": dice_param(self._pending)})
                self._pending = None
                self._roll = roll
                self._rolls_used += 1
            case UseChip():
                self._use_chip(st)
            case Score(box) | Strike(box):
                box = self._open_box(st, box)
                if self._roll is None:
                    raise IllegalMoveError(f"throw the dice before entering a box ({action!r})",
                                           code="move.throw_first")
                strike = isinstance(action, Strike)
                legal = [c for c in choices(rules, st.entries, self._roll)
                         if c.box is box and c.strike == strike]
                if not legal:
                    raise self._refusal(action, st)
                chosen = legal[0]
                st.entries[box] = Entry(chosen.points, struck=strike or chosen.points == 0)
                st.extra_bonus += chosen.bonus
                self._end_turn()
            case Enter():
                raise IllegalMoveError(f"{action!r} writes points on a score pad; this game is "
                                       f"played with dice: use Score or Strike",
                                       code="move.pad_only")
            case _:
                raise IllegalMoveError(f"not an action: {action!r}", code="move.not_an_action")

    def _check_points(self, box: Box, points: object) -> None:
        """Refuse ``points`` unless ``box`` can hold them (a pad entry or a correction)."""
        possible = self._rules.possible_points(box)
        if isinstance(points, bool) or not isinstance(points, int) or points not in possible:
            shown = ", ".join(map(str, sorted(possible)))
            raise IllegalMoveError(
                f"{box.value} cannot hold {points!r} points; possible: {shown}",
                code="move.points_impossible",
                params={"box": box.value, "points": repr(points), "possible": sorted(possible),
                        "rules": self._rules.name})

    def _apply_pad(self, action: Action, st: _PlayerState) -> None:
        rules = self._rules
        match action:
            case Enter(box, points, extra):
                box = self._open_box(st, box)
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
                st.entries[box] = Entry(points, struck=points == 0)
                st.extra_bonus += rules.extra_kniffel_bonus if extra else 0
                self._end_turn()
            case Strike(box):
                box = self._open_box(st, box)
                st.entries[box] = Entry(0, struck=True)
                self._end_turn()
            case UseChip():
                self._use_chip(st)
            case Throw() | Outcome() | Score():
                raise IllegalMoveError(f"{action!r} needs a game played with dice; this one is "
                                       f"a score pad: use Enter or Strike", code="move.dice_only")
            case _:
                raise IllegalMoveError(f"not an action: {action!r}", code="move.not_an_action")

    def _correct(self, action: Correct) -> None:
        """Apply a :class:`Correct`: the box must be filled, the new value one it can hold and
        not the one it holds."""
        if self._mode is not Mode.PAD:
            raise IllegalMoveError(f"{action!r} puts a score pad right; this game is played "
                                   f"with dice, where every entry follows from the dice",
                                   code="correct.pad_only")
        self._check_player_index(action.player)
        st = self._state[action.player]
        box = self._rules.box(action.box)
        name = self._players[action.player].name
        old = st.entries.get(box)
        if old is None:
            raise IllegalMoveError(f"{name}'s {box.value} is still open: enter it on "
                                   f"{name}'s turn ({action!r} refused)",
                                   code="correct.box_open",
                                   params={"player": name, "box": box.value,
                                           "rules": self._rules.name})
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
                                           "rules": self._rules.name})
        if box is Box.KNIFFEL and st.extra_bonus and new.points != old.points:
            raise IllegalMoveError(
                f"{name}'s extra Kniffel points ({st.extra_bonus}) need the kniffel box as it "
                f"is; undo them before changing it", code="correct.extra_kniffel",
                params={"player": name})
        st.entries[box] = new

    def corrections(self, player: int, box: Box) -> tuple[Correct, ...]:
        """Score pad: every :class:`Correct` that :meth:`apply` accepts for player ``player``'s
        ``box`` now (none while the box is open or in a game played with dice)."""
        if self._mode is not Mode.PAD:
            return ()
        self._check_player_index(player)
        box = self._rules.box(box)
        if box not in self._state[player].entries:
            return ()
        candidates: list[Correct] = [
            Correct(player, box, p) for p in sorted(self._rules.possible_points(box)) if p]
        candidates.append(Correct(player, box, None))
        out = []
        for c in candidates:
            try:
                self._check_correct(c)
            except IllegalMoveError:
                continue
            out.append(c)
        return tuple(out)

    def _check_correct(self, action: Correct) -> None:
        """Raise :class:`IllegalMoveError` unless ``action`` may be applied; changes nothing."""
        st = self._state[action.player]
        before = dict(st.entries)
        try:
            self._correct(action)
        finally:
            st.entries.clear()
            st.entries.update(before)

    def _open_box(self, st: _PlayerState, box: Box) -> Box:
        """``box`` if this rule set has it and the player has not filled it yet."""
        box = self._rules.box(box)
        if box in st.entries:
            raise IllegalMoveError(f"{box.value} is already filled with {st.entries[box].points}",
                                   code="move.box_filled",
                                   params={"box": box.value, "points": st.entries[box].points})
        return box

    def _use_chip(self, st: _PlayerState) -> None:
        if not self._can_use_chip(st):
            raise self._chip_refusal(st)
        st.chips_left -= 1
        self._chip_used = True

    def _chip_refusal(self, st: _PlayerState) -> IllegalMoveError:
        if self._rules.chips == 0:
            return IllegalMoveError(f"{self._rules.name} has no chips", code="chip.none_in_rules",
                                    params={"rules": self._rules.name})
        if st.chips_left == 0:
            return IllegalMoveError("all chips of this player are used", code="chip.all_used")
        if self._chip_used:
            return IllegalMoveError("a chip was already handed in this turn (at most one per "
                                    "turn)", code="chip.one_per_turn")
        if self._pending is not None:
            return IllegalMoveError("the dice are still rolling", code="move.dice_rolling")
        return IllegalMoveError(f"a chip grants a 4th throw after the {self._rules.rolls}rd; "
                                f"{self._rolls_used} throw(s) used so far", code="chip.too_early",
                                params={"rolls": self._rules.rolls, "used": self._rolls_used})

    def _refusal(self, action: Score | Strike, st: _PlayerState) -> IllegalMoveError:
        assert self._roll is not None
        allowed = choices(self._rules, st.entries, self._roll)
        shown = ", ".join(f"{'strike ' if c.strike else ''}{c.box.value}" for c in allowed)
        verb = "strike" if isinstance(action, Strike) else "score"
        return IllegalMoveError(
            f"cannot {verb} {action.box.value} with {self._roll}; allowed: {shown}",
            code=("move.cannot_strike" if verb == "strike" else
                  "move.cannot_score_strike_only" if all(c.strike for c in allowed) else
                  "move.cannot_score_or_strike" if any(c.strike for c in allowed) else
                  "move.cannot_score"),
            params={"box": action.box.value, "roll": dice_param(self._roll),
                    "boxes": [c.box.value for c in allowed if not c.strike],
                    "strikes": [c.box.value for c in allowed if c.strike]})

    def _end_turn(self) -> None:
        self._turns_done += 1
        self._rolls_used = 0
        self._chip_used = False
        self._roll = None
        self._pending = None

    def undo(self) -> Action:
        """Remove the last action and return it; raises IllegalMoveError at the start."""
        if not self._actions:
            raise IllegalMoveError("nothing to undo: no action was applied yet",
                                   code="undo.nothing")
        actions = self._actions[:-1]
        last = self._actions[-1]
        self._reset()
        for a in actions:
            self.apply(a)
        return last

    def last_human_decision(self) -> int | None:
        """The index in :attr:`actions` of the last decision (a throw, keep, chip or box; not
        the dice) that a human player made, or None when no human has decided anything yet.
        Undoing back to it takes back that decision and every computer move and dice after it:
        "undo" for a game with computer players."""
        if all(p.kind is PlayerKind.HUMAN for p in self._players):
            # every decision is a human's: no need to replay who made which
            return next((i for i in range(len(self._actions) - 1, -1, -1)
                         if not isinstance(self._actions[i], Outcome)), None)
        replay = Game(self._rules, self._players, mode=self._mode, seed=self._seed,
                      start_player=self._start)
        last = None
        for i, action in enumerate(self._actions):
            actor = replay.current_player
            if (not isinstance(action, Outcome) and actor is not None
                    and self._players[actor].kind is PlayerKind.HUMAN):
                last = i
            replay.apply(action)
        return last

    def _require_turn(self) -> int:
        player = self.current_player
        if player is None:
            raise GameOverError("the game is over", code="move.game_over")
        return player

    def _check_player_index(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not (
            0 <= player < len(self._players)
        ):
            raise InvalidGameError(f"there is no player #{player!r}; the game has "
                                   f"{len(self._players)}", code="game.no_such_player",
                                   params={"player": repr(player), "count": len(self._players)})

    # --- saves ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The versioned JSON object of a save: header and the list of actions."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules": {"name": self._rules.name, "free_strike": self._rules.free_strike},
            "mode": self._mode.value,
            "seed": self._seed,
            "start_player": self._start,
            "players": [
                {"name": p.name, "kind": p.kind.value, "strategy": p.strategy}
                for p in self._players
            ],
            "actions": [action_to_json(a) for a in self._actions],
            "over": self.is_over(),
            "scores": list(self.scores()),
        }

    @classmethod
    def from_json(cls, data: object) -> Game:
        """The game a save's JSON object describes, replayed and checked action by action.

        Raises :class:`CorruptSaveError` for anything malformed or illegal and
        :class:`UnsupportedVersionError` for a newer format version.
        """
        if not isinstance(data, dict):
            raise CorruptSaveError(f"a save is a JSON object, got {type(data).__name__}",
                                   code="save.not_a_save")
        if data.get("format") != SAVE_FORMAT:
            raise CorruptSaveError(f"not a kniffel save (format {data.get('format')!r})",
                                   code="save.not_a_save")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise CorruptSaveError(f"the save's version {version!r} is not a version number",
                                   code="save.bad_version", params={"version": repr(version)})
        if version > SAVE_VERSION:
            raise UnsupportedVersionError(
                f"the save has format version {version}, newer than this kniffel reads "
                f"({SAVE_VERSION}); update kniffel to open it", code="save.newer_version",
                params={"version": version, "known": SAVE_VERSION})
        try:
            rules_data = data["rules"]
            if not isinstance(rules_data, dict):
                raise CorruptSaveError(f"'rules' must be an object, got {rules_data!r}",
                                       code="save.bad_value")
            free = rules_data.get("free_strike", False)
            if not isinstance(free, bool):
                raise CorruptSaveError(f"free_strike must be true or false, got {free!r}",
                                       code="save.bad_value")
            rules = preset(_str(rules_data["name"]), free_strike=free)
            try:
                mode = Mode(data["mode"])
            except ValueError:
                raise CorruptSaveError(f"unknown mode {data['mode']!r}",
                                       code="save.bad_value") from None
            players_data = data["players"]
            if not isinstance(players_data, list):
                raise CorruptSaveError(f"'players' must be a list, got {players_data!r}",
                                       code="save.bad_value")
            players = []
            for p in players_data:
                if not isinstance(p, dict):
                    raise CorruptSaveError(f"a player must be an object, got {p!r}",
                                           code="save.bad_value")
                try:
                    kind = PlayerKind(p.get("kind", "human"))
                except ValueError:
                    raise CorruptSaveError(f"unknown player kind {p.get('kind')!r}",
                                           code="save.bad_value") from None
                strategy = p.get("strategy")
                if strategy is not None and not isinstance(strategy, str):
                    raise CorruptSaveError(f"a strategy must be text, got {strategy!r}",
                                           code="save.bad_value")
                players.append(Player(_str(p["name"]), kind, strategy))
            actions_data = data["actions"]
            if not isinstance(actions_data, list):
                raise CorruptSaveError(f"'actions' must be a list, got {actions_data!r}",
                                       code="save.bad_value")
            actions = [action_from_json(a) for a in actions_data]
            return cls(rules, players, mode=mode, seed=_int(data["seed"]),
                       start_player=_int(data["start_player"]), actions=actions)
        except KeyError as e:
            raise CorruptSaveError(f"the save lacks {e.args[0]!r}", code="save.missing_field",
                                   params={"field": str(e.args[0])}) from None
        except CorruptSaveError:
            raise
        except KniffelError as e:
            raise CorruptSaveError(f"the save is not a valid game: {e}", code="save.invalid_game",
                                   params={"cause": cause_param(e)}) from None


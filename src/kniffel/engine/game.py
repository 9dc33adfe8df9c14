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

The actions and their JSON live in :mod:`kniffel.engine.actions`, the turn of each mode
(:class:`~kniffel.engine.turns.DiceTurn`, :class:`~kniffel.engine.turns.PadTurn`) in
:mod:`kniffel.engine.turns`; this module holds the players, the sheets, whose turn it is and the
save, and names every action too.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from kniffel.engine.actions import (
    Action,
    Correct,
    Enter,
    Outcome,
    Score,
    Strike,
    Throw,
    UseChip,
    action_from_json,
    action_to_json,
    as_keep,
    json_int,
    json_str,
)
from kniffel.engine.dice import Keep, Roll, outcomes, roll_dice
from kniffel.engine.errors import (
    CorruptSaveError,
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidGameError,
    KniffelError,
    NotYourTurnError,
    UnsupportedVersionError,
    cause_param,
)
from kniffel.engine.identity import game_identity
from kniffel.engine.rules import Box, Choice, Entry, RuleSet, preset
from kniffel.engine.turns import DiceTurn, ModeTurn, PadTurn, PlayerState, check_player_index

__all__ = [
    "MAX_NAME_LENGTH", "MAX_PLAYERS", "SAVE_FORMAT", "SAVE_VERSION", "Action", "Correct", "Enter",
    "Game", "Mode", "Outcome", "Player", "PlayerKind", "RollOff", "Score", "Sheet", "Strike",
    "Throw", "Turn", "UseChip", "action_from_json", "action_to_json", "players_from_json",
    "roll_off",
]

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


def _saved_strategy(kind: PlayerKind, strategy: object) -> str | None:
    """A saved player's strategy: text or nothing (null or absent)."""
    if strategy is not None and not isinstance(strategy, str):
        raise CorruptSaveError(f"a strategy must be text, got {strategy!r}",
                               code="save.bad_value")
    return strategy


def players_from_json(data: object, *, request: bool = False,
                      strategy: Callable[[PlayerKind, object], str | None] = _saved_strategy,
                      ) -> list[Player]:
    """The players a JSON list describes, each ``{"name", "kind", "strategy"}`` (``kind``
    "human" where absent), checked in order: a list, of objects, each of a known kind, its
    ``strategy`` as ``strategy(kind, value)`` turns it into the one it plays (by default text
    or nothing), and a name of text.

    For a save (the default) every fault is a :class:`CorruptSaveError` (``save.bad_value``; a
    player without a name ``save.missing_field``); for a request of the page (``request``) an
    :class:`InvalidGameError` (``web.bad_request``; an unknown kind ``player.kind_unknown``)."""
    def fault(message: str) -> KniffelError:
        if request:
            return InvalidGameError(message, code="web.bad_request")
        return CorruptSaveError(message, code="save.bad_value")

    if not isinstance(data, list):
        raise fault(f"'players' must be a list, got {data!r}")
    players = []
    for p in data:
        if not isinstance(p, dict):
            raise fault(f"a player must be an object, got {p!r}")
        try:
            kind = PlayerKind(p.get("kind", "human"))
        except ValueError:
            if request:
                raise InvalidGameError(f"unknown player kind {p.get('kind')!r}",
                                       code="player.kind_unknown",
                                       params={"kind": str(p.get("kind"))}) from None
            raise fault(f"unknown player kind {p.get('kind')!r}") from None
        plays = strategy(kind, p.get("strategy"))
        name = p.get("name")
        if "name" not in p and not request:
            raise CorruptSaveError("the save lacks 'name'", code="save.missing_field",
                                   params={"field": "name"})
        if not isinstance(name, str):
            raise fault(f"a player's name must be text, got {name!r}")
        players.append(Player(name, kind, plays))
    return players


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


SAVE_FORMAT = "kniffel-game"
SAVE_VERSION = 1

#: Every kind of action :meth:`Game.apply` takes.
_ACTIONS = (Throw, Outcome, UseChip, Score, Strike, Enter, Correct)


def _check_rng(rng: object) -> None:
    """Raise :class:`InvalidArgumentError` unless ``rng`` is a :class:`random.Random`."""
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"the dice are thrown with a random.Random, got {rng!r}",
                                   code="argument.invalid",
                                   params={"what": "rng", "value": repr(rng)[:40]})


#: The turn of each mode: every throw played out, or the score pad for real dice.
_MODE_TURNS: dict[Mode, type[ModeTurn]] = {Mode.DICE: DiceTurn, Mode.PAD: PadTurn}


def check_players(players: Sequence[Player]) -> None:
    """Refuse a player list no game can have: 1–:data:`MAX_PLAYERS` players, no two names alike
    ignoring case (the one authority for both rules: :class:`Game` and
    :func:`kniffel.engine.match.validate_players` call it). Raises :class:`InvalidGameError`."""
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise InvalidGameError(f"a game has 1–{MAX_PLAYERS} players, got {len(players)}",
                               code="game.player_count",
                               params={"most": MAX_PLAYERS, "got": len(players)})
    seen: dict[str, str] = {}
    for p in players:
        key = p.name.casefold()
        if key in seen:
            raise InvalidGameError(f"two players are called {p.name!r}"
                                   + ("" if seen[key] == p.name else f" and {seen[key]!r}"),
                                   code="game.duplicate_name", params={"name": p.name})
        seen[key] = p.name


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
        elif not isinstance(rules, RuleSet):
            rules = preset(rules)  # a name; anything else raises UnknownRuleSetError
        self._rules = rules
        if isinstance(players, str):
            players = [players]
        if not isinstance(players, (list, tuple)):
            raise InvalidGameError(f"the players are a list of names or Players, got "
                                   f"{players!r}", code="game.invalid")
        people = tuple(p if isinstance(p, Player) else Player(p) for p in players)
        check_players(people)
        self._players = people
        if isinstance(mode, str) and mode in {m.value for m in Mode}:
            mode = Mode(mode)  # "dice", "pad"
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
        if isinstance(actions, (str, bytes)) or not hasattr(actions, "__iter__"):
            raise InvalidGameError(f"the actions are a list of actions, got {actions!r}",
                                   code="game.invalid")
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
    def identity(self) -> str:
        """This game as played so far, the same wherever it is stored
        (:func:`kniffel.engine.identity.game_identity` of its save)."""
        return game_identity(self.to_json())

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

    def at_start(self) -> Game:
        """The same game (rules, players, mode, seed, start player) before its first action:
        where a replay of its actions begins."""
        return Game(self._rules, self._players, mode=self._mode, seed=self._seed,
                    start_player=self._start)

    def copy(self) -> Game:
        """An independent game with the same actions."""
        return Game(self._rules, self._players, mode=self._mode, seed=self._seed,
                    start_player=self._start, actions=self._actions)

    # --- derived state -----------------------------------------------------------------

    def _reset(self) -> None:
        self._actions: list[Action] = []
        self._state = [PlayerState({}, 0, self._rules.chips) for _ in self._players]
        self._turns_done = 0
        self._play: ModeTurn = _MODE_TURNS[self._mode](self._rules)

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
        play = self._play
        return Turn(player, play.rolls_used, self._rules.rolls + play.chip_used,
                    play.chip_used, play.roll, play.pending)

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
        return self._play.pending is not None

    def chance_outcomes(self) -> tuple[tuple[Outcome, float], ...]:
        """At a chance node, every outcome with its probability; else empty."""
        pending = self._play.pending
        if pending is None:
            return ()
        return tuple((Outcome(r), p) for r, p in outcomes(pending, d10=self._rules.d10))

    def sample_outcome(self, rng: random.Random) -> Outcome:
        """Throw the dice not kept with ``rng`` (only at a chance node)."""
        _check_rng(rng)
        pending = self._play.pending
        if pending is None:
            raise IllegalMoveError("no throw is waiting for its dice", code="move.no_pending_throw")
        return Outcome(roll_dice(pending, rng, d10=self._rules.d10))

    def roll(self, rng: random.Random, keep: Keep | Sequence[int] | None = None) -> Roll:
        """Apply ``Throw(keep)`` and its outcome thrown with ``rng``; return the dice. ``keep``
        may be the d6 faces to keep as a list or tuple (``(6, 6)``)."""
        _check_rng(rng)
        self.apply(Throw(Keep() if keep is None else as_keep(keep)))
        outcome = self.sample_outcome(rng)
        self.apply(outcome)
        return outcome.roll

    def choices(self) -> tuple[Choice, ...]:
        """Dice mode: every legal way to enter the dice on the table (empty before a throw)."""
        player = self.current_player
        if player is None:
            return ()
        return self._play.choices(self._state[player])

    def pad_choices(self, roll: Roll) -> tuple[Enter | Strike, ...]:
        """Score-pad mode: the actions that enter ``roll`` (thrown with real dice) for the player
        whose turn it is, with the points the rules give it."""
        if type(roll) is not Roll:
            raise InvalidDiceError(f"the dice must be a Roll, got {roll!r}", code="dice.invalid")
        player = self.current_player
        return self._play.pad_choices(roll, None if player is None else self._state[player])

    def legal_actions(self) -> list[Action]:
        """Exactly the actions :meth:`apply` accepts now (outcomes at a chance node)."""
        player = self.current_player
        if player is None:
            return []
        return self._play.legal_actions(self._state[player])

    # --- applying actions --------------------------------------------------------------

    def apply(self, action: Action, *, player: int | None = None) -> None:
        """Apply ``action`` for the player whose turn it is.

        With ``player`` given, the action is refused (:class:`NotYourTurnError`) unless it is that
        player's turn. A :class:`Correct` names its own player and is taken at any time (score
        pad only), also once the game is over. An illegal action raises
        :class:`IllegalMoveError` naming the action and the state, and changes nothing.
        """
        if not isinstance(action, _ACTIONS):
            raise IllegalMoveError(f"not an action: {action!r}", code="move.not_an_action")
        if player is not None:
            self._check_player_index(player)
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
        if self._play.apply(action, self._state[current]):
            self._turns_done += 1
            self._play.begin()
        self._actions.append(action)

    def _correct(self, action: Correct) -> None:
        """Apply a :class:`Correct` (score pad only: with dice every entry follows from the
        dice)."""
        self._play.correct(action, self._state, [p.name for p in self._players])

    def corrections(self, player: int, box: Box) -> tuple[Correct, ...]:
        """Score pad: every :class:`Correct` that :meth:`apply` accepts for player ``player``'s
        ``box`` now (none while the box is open or in a game played with dice)."""
        self._check_player_index(player)
        box = box if isinstance(box, Box) else Box.parse(box)
        return self._play.corrections(player, box, self._state,
                                      [p.name for p in self._players])

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

    def _check_player_index(self, player: int) -> None:
        check_player_index(player, len(self._players))

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
            rules = preset(json_str(rules_data["name"]), free_strike=free)
            try:
                mode = Mode(data["mode"])
            except ValueError:
                raise CorruptSaveError(f"unknown mode {data['mode']!r}",
                                       code="save.bad_value") from None
            players = players_from_json(data["players"])
            actions_data = data["actions"]
            if not isinstance(actions_data, list):
                raise CorruptSaveError(f"'actions' must be a list, got {actions_data!r}",
                                       code="save.bad_value")
            actions = [action_from_json(a) for a in actions_data]
            return cls(rules, players, mode=mode, seed=json_int(data["seed"]),
                       start_player=json_int(data["start_player"]), actions=actions)
        except KeyError as e:
            raise CorruptSaveError(f"the save lacks {e.args[0]!r}", code="save.missing_field",
                                   params={"field": str(e.args[0])}) from None
        except CorruptSaveError:
            raise
        except KniffelError as e:
            raise CorruptSaveError(f"the save is not a valid game: {e}", code="save.invalid_game",
                                   params={"cause": cause_param(e)}) from None


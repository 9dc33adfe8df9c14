"""One match: a game with its dice, its computer players, its undo and where it is stored.

Every front end (the terminal game, the browser bridge, ``simulate``) runs its games through a
:class:`Match`; none of them throws dice, asks a strategy or undoes on its own. No I/O here:
storing goes through a :class:`Storage` the caller passes in, and a storage failure is reported
back (:class:`SaveState`), never swallowed.

* **Dice** come from the game's seed: the dice of action number ``n`` from
  :func:`dice_rng` (``seeded_rng(seed, n)``), so an undone throw thrown again brings the same
  dice and a game replays from its seed and actions. The seed stays inside the match: the view of
  a seat (:meth:`Match.view`) does not show it.
* **Computer players** decide with their strategy and a random generator that by default is
  derived from the seed and the action number (:func:`strategy_rng`); ``simulate`` passes one
  generator for a whole game. A computer's turn is played one visible step at a time
  (:meth:`Match.step`): a throw after the first is first shown as the dice it keeps (a *plan*),
  then thrown. The decision can be made on a copy of the game in another thread
  (:meth:`Match.thinking_job`), so a front end stays responsive while a strategy builds tables.
* **Undo** takes back the last decision of a person and every computer move and dice after it.
* **Players** of a new game are checked by :func:`validate_players` before any screen opens.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from kniffel.engine.dice import Keep, keep_positions, seeded_rng
from kniffel.engine.errors import (
    IllegalMoveError,
    KniffelError,
)
from kniffel.engine.game import (
    Action,
    Game,
    Outcome,
    Player,
    PlayerKind,
    Score,
    Sheet,
    Strike,
    Throw,
    Turn,
    check_players,
)
from kniffel.engine.rules import Choice, RuleSet
from kniffel.engine.strategy import Strategy, get_strategy

StrategyFactory = Callable[[str, RuleSet], Strategy]


# --- players -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    """A player to set up: a name and who plays it (``None`` for a person, else a strategy)."""

    name: str
    strategy: str | None = None

    def player(self) -> Player:
        """The game's player for this seat."""
        if self.strategy is None:
            return Player(self.name)
        return Player(self.name, PlayerKind.COMPUTER, self.strategy)


def validate_players(seats: Sequence[Seat], rules: RuleSet, *,
                     strategies: StrategyFactory = get_strategy) -> list[Player]:
    """The players of ``seats`` for a game of ``rules``, checked as the game will check them:
    1–8 players, names of 1–40 printable characters, no two alike ignoring case, every strategy
    registered and able to play ``rules`` (built once through ``strategies``). Raises a
    :class:`KniffelError` naming the problem."""
    players = [seat.player() for seat in seats]
    check_players(players)
    for p in players:
        if p.strategy is not None:
            strategies(p.strategy, rules)
    return players


# --- random generators -------------------------------------------------------------------------


def dice_rng(game: Game) -> random.Random:
    """The generator for the dice of the throw waiting in ``game`` (from its seed and the number
    of actions before it)."""
    return seeded_rng(game.seed, len(game.actions))


def strategy_rng(game: Game) -> random.Random:
    """The generator a computer's strategy decides with at this point of ``game``."""
    return random.Random(f"{game.seed}:{len(game.actions)}")


# --- persistence -------------------------------------------------------------------------------


class Storage(Protocol):
    """Where a match's game is kept. ``save`` stores every action of ``game`` (replacing what
    was stored for it before) or raises a :class:`KniffelError` saying why it could not."""

    def save(self, game: Game) -> None:
        ...


@dataclass(frozen=True, slots=True)
class SaveState:
    """How the stored game compares with the game being played.

    ``unsaved``: actions played that storage does not hold yet; ``stale``: actions storage still
    holds that were undone; ``error``: the last failure (``None`` once a write succeeds).
    """

    actions: int
    unsaved: int
    stale: int
    error: KniffelError | None

    @property
    def in_sync(self) -> bool:
        """Whether storage holds exactly the game's actions."""
        return self.unsaved == 0 and self.stale == 0


@dataclass(frozen=True, slots=True)
class SaveJob:
    """One write: a copy of the game as it was, to be stored (possibly in another thread)."""

    game: Game
    storage: Storage

    def run(self) -> KniffelError | None:
        """Store the copy; the failure, or None."""
        try:
            self.storage.save(self.game)
        except KniffelError as e:
            return e
        return None


def _common_prefix(a: Sequence[Action], b: Sequence[Action]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


# --- steps of a computer's turn ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """What the computer to move does next: ``action``; for a throw after the first the
    positions of the dice it keeps. ``version`` is the match's version it was made for."""

    version: int
    player: int
    action: Action
    keep: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Step:
    """One visible step of a computer's turn.

    ``shown``: the step only shows the dice kept for the next throw (nothing changed yet);
    otherwise ``action`` was played, with the dice it brought (``outcome``) or the points it
    entered (``points``, for a box).
    """

    player: int
    action: Action
    shown: bool
    keep: tuple[int, ...] | None = None
    outcome: Outcome | None = None
    points: int | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    """The game as one seat sees it (no seed): every sheet, whose turn, the dice, and for the
    seat to move its legal actions and the choices of its dice."""

    seat: int | None
    rules: RuleSet
    players: tuple[Player, ...]
    sheets: tuple[Sheet, ...]
    turn: Turn | None
    round: int
    to_move: bool
    legal: tuple[Action, ...]
    choices: tuple[Choice, ...]
    ranking: tuple[tuple[int, int, int], ...]

    @property
    def over(self) -> bool:
        return self.turn is None


# --- the match ---------------------------------------------------------------------------------


class Match:
    """A game with its dice, its computer players and its storage.

    ``strategies`` gives the strategy of each computer seat (by seat index); seats not given get
    the strategy their player names, built with ``factory``. ``rng``: one generator for every
    decision of the strategies (``simulate``); ``None`` derives one per decision from the seed.
    ``storage`` keeps the game; ``stored`` are the actions it already holds (a resumed game).
    """

    def __init__(self, game: Game, *, storage: Storage | None = None,
                 stored: Iterable[Action] = (),
                 strategies: Mapping[int, Strategy] | None = None,
                 factory: StrategyFactory = get_strategy,
                 rng: random.Random | None = None) -> None:
        self._game = game
        self._storage = storage
        self._stored: tuple[Action, ...] = tuple(stored)
        self._error: KniffelError | None = None
        self._rng = rng
        self._factory = factory
        self._strategies: dict[int, Strategy] = dict(strategies or {})
        self._computers = frozenset(self._strategies) | {
            i for i, p in enumerate(game.players) if p.kind is PlayerKind.COMPUTER}
        self._version = 0
        self._plan: Plan | None = None
        self._shown = False

    # --- state ---------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game being played (read it; change it only through the match)."""
        return self._game

    @property
    def storage(self) -> Storage | None:
        return self._storage

    @property
    def has_plan(self) -> bool:
        """Whether the next computer decision is made already (:meth:`step` plays it at
        once)."""
        return self._plan is not None

    @property
    def version(self) -> int:
        """Grows with every change of the game."""
        return self._version

    def _changed(self) -> None:
        self._version += 1
        self._plan = None
        self._shown = False

    def is_computer(self, seat: int) -> bool:
        return seat in self._computers

    def strategy(self, seat: int) -> Strategy:
        """The strategy of computer seat ``seat`` (built on first use)."""
        found = self._strategies.get(seat)
        if found is None:
            player = self._game.players[seat]
            found = self._factory(player.strategy or "greedy", self._game.rules)
            self._strategies[seat] = found
        return found

    @property
    def has_computers(self) -> bool:
        return bool(self._computers)

    def computer_to_move(self) -> int | None:
        """The computer seat whose turn it is, or None (a person's turn, or the game is over)."""
        player = self._game.current_player
        return player if player is not None and player in self._computers else None

    def human_to_move(self) -> bool:
        """Whether a person is to move."""
        player = self._game.current_player
        return player is not None and player not in self._computers

    def view(self, seat: int | None = None) -> SeatView:
        """The game as ``seat`` sees it (``None``: an onlooker, or whoever is to move when it is
        a person's turn at a shared screen)."""
        game = self._game
        turn = game.turn
        to_move = turn is not None and (seat == turn.player or (
            seat is None and turn.player not in self._computers))
        return SeatView(
            seat, game.rules, game.players,
            tuple(game.sheet(i) for i in range(len(game.players))), turn, game.round, to_move,
            tuple(game.legal_actions()) if to_move else (),
            game.choices(), game.ranking())

    # --- moves ---------------------------------------------------------------------------

    def settle(self) -> Outcome | None:
        """Throw the dice a pending throw waits for (from the seed); the outcome, or None."""
        game = self._game
        if not game.is_chance_node():
            return None
        outcome = game.sample_outcome(dice_rng(game))
        game.apply(outcome)
        self._changed()
        return outcome

    def throw(self, keep: Keep | None = None) -> Outcome:
        """Keep ``keep`` (nothing when None) and throw the other dice: the throw and its dice, as
        one step (a failure changes nothing)."""
        self._game.apply(Throw(keep if keep is not None else Keep()))
        self._changed()
        try:
            outcome = self.settle()
        except KniffelError:
            self._game.undo()
            raise
        assert outcome is not None
        return outcome

    def throw_keeping(self, positions: Iterable[int]) -> Outcome:
        """Throw, keeping the dice at ``positions`` of the dice on the table (none before the
        first throw of a turn)."""
        turn = self._game.turn
        positions = list(positions)
        if turn is None or turn.roll is None:
            if positions:
                raise IllegalMoveError("the first throw of a turn throws all dice",
                                       code="move.first_throw_all")
            return self.throw(Keep())
        return self.throw(Keep.from_positions(turn.roll, positions))

    def apply(self, action: Action) -> None:
        """Apply a decision that is not a throw (a box, a strike, a chip, a pad entry)."""
        if isinstance(action, Throw):
            self.throw(action.keep)
            return
        self._game.apply(action)
        self._changed()

    # --- computer players ----------------------------------------------------------------

    def _require_computer(self) -> int:
        game = self._game
        turn = game.turn
        if turn is None:
            raise IllegalMoveError("the game is over: there is nothing to play",
                                   code="move.game_over")
        if turn.player not in self._computers:
            name = game.players[turn.player].name
            raise IllegalMoveError(f"{name!r} is a person: it is not a computer's turn",
                                   code="web.not_computer_turn", params={"player": name})
        if game.is_chance_node():
            raise IllegalMoveError("a throw waits for its dice", code="match.dice_pending")
        return turn.player

    def thinking_job(self) -> Callable[[], Plan]:
        """The decision of the computer to move as a job that works on a copy of the game, so
        it may run in another thread; hand its plan to :meth:`accept`."""
        player = self._require_computer()
        if self._plan is not None:
            plan = self._plan
            return lambda: plan
        return self._decision(self._game.copy(), player)

    def _decision(self, game: Game, player: int) -> Callable[[], Plan]:
        version = self._version
        rng = self._rng if self._rng is not None else strategy_rng(game)

        def job() -> Plan:
            strategy = self.strategy(player)  # built on first use: in the job's thread
            return _plan_of(game, version, player, strategy.choose(game, rng))

        return job

    def accept(self, plan: Plan) -> bool:
        """Take a plan made by a thinking job; False (and ignored) when the game has changed
        since."""
        if plan.version != self._version:
            return False
        self._plan = plan
        return True

    def plan(self) -> Plan:
        """What the computer to move does next; changes nothing."""
        if self._plan is None:
            self.accept(self._decision(self._game, self._require_computer())())
        assert self._plan is not None
        return self._plan

    def move(self) -> Step:
        """Play the computer's planned action (a throw with its dice)."""
        plan = self.plan()
        action = plan.action
        if isinstance(action, Throw):
            outcome = self.throw(action.keep)
            return Step(plan.player, action, False, plan.keep, outcome=outcome)
        self.apply(action)
        points = None
        if isinstance(action, Score | Strike):
            entry = self._game.sheet(plan.player).entries.get(action.box)
            points = entry.points if entry is not None else 0
        return Step(plan.player, action, False, plan.keep, points=points)

    def step(self) -> Step:
        """One visible step of the computer's turn: a throw after the first is first shown (the
        dice it keeps, nothing changed), the next step throws; anything else is played at
        once."""
        plan = self.plan()
        if plan.keep is not None and not self._shown:
            self._shown = True
            return Step(plan.player, plan.action, True, plan.keep)
        return self.move()

    def play_out(self) -> None:
        """Let the computers play until a person is to move or the game is over."""
        game = self._game
        while not game.is_over():
            if game.is_chance_node():
                self.settle()
            elif game.current_player in self._computers:
                self.move()
            else:
                return

    # --- undo ----------------------------------------------------------------------------

    def can_undo(self) -> bool:
        return self._game.last_human_decision() is not None

    def undo(self) -> int:
        """Take back the last decision of a person and every computer move and dice after it;
        the number of actions taken back. Raises IllegalMoveError when no person has decided
        anything yet. The match's game is replaced by the shorter one."""
        game = self._game
        last = game.last_human_decision()
        if last is None:
            raise IllegalMoveError("nothing to undo: no person has made a move yet",
                                   code="undo.nothing")
        self._game = Game(game.rules, game.players, mode=game.mode, seed=game.seed,
                          start_player=game.start_player, actions=game.actions[:last])
        self._changed()
        return len(game.actions) - last

    # --- persistence ---------------------------------------------------------------------

    @property
    def save_state(self) -> SaveState:
        """How storage compares with the game (all in sync when there is no storage)."""
        actions = self._game.actions
        if self._storage is None:
            return SaveState(len(actions), 0, 0, None)
        same = _common_prefix(self._stored, actions)
        return SaveState(len(actions), len(actions) - same, len(self._stored) - same,
                         self._error)

    def save_job(self) -> SaveJob | None:
        """A write that brings storage in line with the game, or None when it already is (a
        game is stored from its first action)."""
        if self._storage is None or self.save_state.in_sync:
            return None
        return SaveJob(self._game.copy(), self._storage)

    def saved(self, job: SaveJob, error: KniffelError | None) -> SaveState:
        """Record how ``job`` went (from whichever thread ran it) and return the state."""
        if error is None:
            self._stored = job.game.actions
        self._error = error
        return self.save_state

    def save(self) -> SaveState:
        """Write now, in this thread; the state afterwards (its ``error`` says what failed)."""
        job = self.save_job()
        if job is None:
            return self.save_state
        return self.saved(job, job.run())


def _plan_of(game: Game, version: int, player: int, action: Action) -> Plan:
    turn = game.turn
    keep = None
    if isinstance(action, Throw) and turn is not None and turn.roll is not None:
        keep = tuple(keep_positions(turn.roll, action.keep))
    return Plan(version, player, action, keep)

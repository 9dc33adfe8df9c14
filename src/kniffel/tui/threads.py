"""The terminal game's work in background threads, so the screen and q keep working meanwhile:
the history writer (:class:`HistoryWriter`), the hint (:class:`Hinter`), the computers'
decisions (:class:`ComputerTurns`) and the players' win chances (:class:`WinChances`).

Each job runs in a daemon thread and hands its result back on the app's thread
(:meth:`textual.app.App.call_from_thread`; nothing once the app has closed); a hint or a plan
for a position that is gone (the match moved on, an undo came first) is dropped.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, TypeVar

from textual.screen import Screen
from textual.timer import Timer

from kniffel.engine.advice import Advice, Position
from kniffel.engine.chances import (
    Chances,
    GameSheets,
    chance_model,
    chances_from,
    chances_key,
)
from kniffel.engine.errors import KniffelError
from kniffel.engine.expert import expert_for
from kniffel.engine.game import Game
from kniffel.engine.match import Match, Plan, SaveJob, Step
from kniffel.engine.messages import render, text
from kniffel.engine.rules import Lang, RuleSet
from kniffel.engine.winning import WinAdvice, win_advisor

T = TypeVar("T")

#: After this long, a computer still deciding is said to be thinking.
THINK_NOTICE_S = 0.15
#: How often a failed history write is tried again while nothing else happens.
RETRY_S = 3.0
#: Strategies whose first decision in this process builds tables (said while it thinks).
_warm: set[tuple[str, RuleSet]] = set()
#: Held by every job that may build a value table, the first of its kind (the hint, a
#: computer's decision, the win chances; :func:`first_use`): two threads solving the same table
#: file at once would clash, so they take turns (the others wait while one builds, about a
#: second for a classic table).
TABLES_LOCK = threading.Lock()
#: The kinds of job that ran once (their tables are loaded): they run without the lock.
_loaded: set[tuple[str, RuleSet]] = set()


@contextlib.contextmanager
def first_use(kind: tuple[str, RuleSet]) -> Iterator[None]:
    """Hold :data:`TABLES_LOCK` while the first job of ``kind`` (what it is, its rule set) runs
    to its end without an error: that one may build a value table; the later ones do not wait
    for the others."""
    if kind in _loaded:
        yield
        return
    with TABLES_LOCK:
        yield
    _loaded.add(kind)


def in_thread(screen: Screen[Any], name: str, work: Callable[[], T],
              done: Callable[[T], object]) -> None:
    """Run ``work`` in a daemon thread called ``name``; ``done`` gets its result on the app's
    thread (the app is looked up then: none once the screen is gone)."""

    def run() -> None:
        result = work()
        with contextlib.suppress(RuntimeError):  # the app may have closed meanwhile
            screen.app.call_from_thread(done, result)

    threading.Thread(target=run, daemon=True, name=name).start()


class HistoryWriter:
    """Every change of the match written to the history by a thread, one write at a time, so a
    locked database never freezes the screen: moves made while it writes go in the next write,
    a write that fails is tried again every :data:`RETRY_S` seconds until one succeeds.

    ``drawn`` is called whenever the match's :class:`~kniffel.engine.match.SaveState` may have
    changed, ``synced`` once a write brought the history level with the game.
    """

    def __init__(self, screen: Screen[Any], match: Match, *, drawn: Callable[[], None],
                 synced: Callable[[], None]) -> None:
        self.screen = screen
        self.match = match
        self.drawn = drawn
        self.synced = synced
        #: Whether a write is in progress.
        self.busy = False
        self._retry_timer: Timer | None = None

    def save_soon(self) -> None:
        """Start writing what the history does not hold yet (unless a write is running)."""
        if self.busy:
            return
        job = self.match.save_job()
        if job is None:
            self.drawn()
            return
        self.busy = True
        in_thread(self.screen, "kniffel-history-writer", job.run, partial(self._written, job))

    def _written(self, job: SaveJob, error: KniffelError | None) -> None:
        self.busy = False
        state = self.match.saved(job, error)
        self.drawn()
        if error is None:
            if not state.in_sync:
                self.save_soon()  # moves made while it was writing
            else:
                self.synced()
        elif self._retry_timer is None:
            self._retry_timer = self.screen.set_interval(RETRY_S, self._retry)

    def _retry(self) -> None:
        if self.match.save_state.in_sync and self.match.save_state.error is None:
            timer, self._retry_timer = self._retry_timer, None
            if timer is not None:
                timer.stop()
            return
        self.save_soon()


def _advise(position: Position, game: Game | None = None) -> Advice | WinAdvice | KniffelError:
    """The expert's advice for ``position``, or the error that kept it from advising; with
    ``game`` (a copy of a game of two or more players at ``position``) every choice's chance to
    win beside it (:func:`kniffel.engine.winning.win_advice`), or the expert's advice alone
    where that fails (the chances are an aid: the hint stands without them)."""
    try:
        with first_use(("hint", position.rules)):
            advice = expert_for(position.rules).advise(position)
    except KniffelError as e:
        return e
    if game is None:
        return advice
    try:
        with first_use(("win", position.rules)):
            return win_advisor(position.rules).advise(game, position)
    except Exception:  # see the docstring
        return advice


class Hinter:
    """The hint: the expert's advice for the position on the table (in a game of two or more
    players with every choice's chance to win), computed in a thread and shown (``shown``)
    unless the game moved on meanwhile."""

    def __init__(self, screen: Screen[Any], match: Match,
                 shown: Callable[[Advice | WinAdvice | KniffelError], None]) -> None:
        self.screen = screen
        self.match = match
        self.shown = shown

    def ask(self, position: Position) -> None:
        """Start the advice for ``position`` (the match's position now; the game is copied
        here, on the app's thread, for the chances to win)."""
        game = self.match.game
        copy = game.copy() if len(game.players) > 1 else None
        in_thread(self.screen, "kniffel-hint", partial(_advise, position, copy),
                  partial(self._answered, self.match.version))

    def _answered(self, version: int, result: Advice | WinAdvice | KniffelError) -> None:
        if self.match.version != version:
            return  # the game moved on: the hint is for a position that is gone
        self.shown(result)


class ComputerTurns:
    """The computers' turns, one visible step at a time on the screen's timer: a computer's
    decision (a :class:`~kniffel.engine.match.Plan`) is made in a thread first, and said to
    be thinking (or building its tables) after :data:`THINK_NOTICE_S`.

    ``say`` shows a line, ``played`` is called after each step (its screen draws it and
    schedules the next); while ``paused()`` is true (the window too small to show the game) no
    step is taken, a decision made meanwhile waits, and the screen schedules again once it is
    false.
    """

    def __init__(self, screen: Screen[Any], match: Match, lang: Lang, *,
                 say: Callable[[str], None], played: Callable[[Step], None],
                 paused: Callable[[], bool] = lambda: False) -> None:
        self.screen = screen
        self.match = match
        self.lang = lang
        self.say = say
        self.played = played
        self.paused = paused
        self._timer_running = False
        #: The match version a thinking job works for (None: none, or its plan is forgotten).
        self.thinking: int | None = None

    def schedule(self, delay: float) -> None:
        """Take the next step after ``delay`` seconds (0: as soon as the screen is idle) when a
        computer is to move and no step is waiting."""
        if self.match.computer_to_move() is None or self._timer_running:
            return
        self._timer_running = True
        if delay > 0:
            self.screen.set_timer(delay, self._step)
        else:
            self.screen.call_later(self._step)

    def forget(self) -> None:
        """Drop the decision being made (an undo took back the position it is for)."""
        self.thinking = None

    def _step(self) -> None:
        """One visible step of a computer's turn; its decision is made in a thread first."""
        self._timer_running = False
        seat = self.match.computer_to_move()
        if seat is None or self.paused():
            return
        version = self.match.version
        if self.match.has_plan:
            self._play_step()
            return
        if self.thinking == version:
            return
        try:
            job = self.match.thinking_job()
        except KniffelError as e:
            self.say(render(e, self.lang))
            return
        self.thinking = version
        game = self.match.game
        key = (game.players[seat].strategy or "greedy", game.rules)
        notice = text("tui.thinking" if key in _warm else "tui.building", self.lang,
                      name=game.players[seat].name)

        def think() -> Plan | KniffelError:
            try:
                with first_use(key):
                    result: Plan | KniffelError = job()
            except KniffelError as e:
                result = e
            _warm.add(key)
            return result

        in_thread(self.screen, "kniffel-computer", think, partial(self._thought, version))
        self.screen.set_timer(THINK_NOTICE_S, lambda: self._notice(version, notice))

    def _notice(self, version: int, line: str) -> None:
        if self.thinking == version:
            self.say(line)

    def _thought(self, version: int, result: Plan | KniffelError) -> None:
        if self.thinking != version:
            return  # an undo came first: that plan is for a game that is gone
        self.thinking = None
        if isinstance(result, KniffelError):
            self.say(render(result, self.lang))
            return
        if self.match.accept(result) and not self.paused():
            self._play_step()

    def _play_step(self) -> None:
        try:
            step = self.match.step()
        except KniffelError as e:
            self.say(render(e, self.lang))
            return
        self.played(step)


# --- the win chances ---------------------------------------------------------------------------


def chances_job(game: Game) -> Callable[[], Chances | None]:
    """The win chances of ``game`` as it is now, as a job for a thread: the players' sheets
    are taken here (on the app's thread, :class:`~kniffel.engine.chances.GameSheets`), the
    distributions computed by the job (:func:`kniffel.engine.chances.chances_from`, the
    numbers of ``win_chances``). The job gives None where no chances can be computed (no values
    for the rule set, or anything else failing: the row is an aid, the game goes on without
    it)."""
    sheets = GameSheets.of(game)

    def work() -> Chances | None:
        try:
            with first_use(("chances", sheets.rules)):
                model = chance_model(sheets.rules)
            return chances_from(sheets, model)
        except Exception:  # see the docstring: nothing to show, and no crash
            return None

    return work


class WinChances:
    """Every player's win chance for the game on the table, computed in a thread whenever the
    sheets changed (an entry, an undo) and shown (``shown``; None: none can be computed) unless
    they changed again meanwhile; one computation at a time, then the latest sheets'.

    Measured on a busy two-core machine: 12 ms a time with 4 players (median; 25 ms with 8, at
    most about 130 ms); the first one of a rule set loads its values (a classic table is built
    once, about a second): never on the screen's thread."""

    def __init__(self, screen: Screen[Any], match: Match,
                 shown: Callable[[Chances | None], None]) -> None:
        self.screen = screen
        self.match = match
        self.shown = shown
        #: Whether a computation is running.
        self.busy = False
        self._wanted: tuple[object, ...] | None = None

    def update(self) -> None:
        """Compute the chances anew if the sheets changed since the last time."""
        key = chances_key(self.match.game)
        if key == self._wanted:
            return
        self._wanted = key
        if not self.busy:
            self._start()

    def _start(self) -> None:
        self.busy = True
        key = self._wanted
        in_thread(self.screen, "kniffel-chances", chances_job(self.match.game),
                  partial(self._done, key))

    def _done(self, key: tuple[object, ...] | None, result: Chances | None) -> None:
        self.busy = False
        if key != self._wanted:
            self._start()  # the sheets changed meanwhile: theirs instead
            return
        self.shown(result)

"""``kniffel play``: the full-screen terminal game (Textual), the app: the setup screen
(:mod:`kniffel.tui.setup`) unless players or a game to resume are given, then the game
(:mod:`kniffel.tui.game`), and after it the report of what the history holds."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable
from pathlib import Path

from textual.app import App

from kniffel.engine.game import Action, Game, roll_off
from kniffel.engine.match import Match, SaveState, Seat, validate_players
from kniffel.engine.rules import Lang, RuleSet, preset
from kniffel.history import History, HistoryStorage
from kniffel.paths import play_command
from kniffel.tui.game import GameScreen
from kniffel.tui.rescue import write_rescue
from kniffel.tui.setup import SetupScreen
from kniffel.tui.view import short_why, tr
from kniffel.tui.widgets import ConfirmQuit

__all__ = ["KniffelApp"]


class KniffelApp(App[None]):
    """The terminal game: setup (unless players or a game to resume are given), then the game.

    ``resume``: a game to play on, with its id in ``history`` (None: a new row, stored with the
    first write); ``stored``: the actions the history holds of it (by default all of them when
    it has an id, none when not)."""

    TITLE = "kniffel"
    #: Textual's command palette speaks English only: not offered.
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    ConfirmQuit { align: center middle; }
    #confirm { width: 70; max-width: 100%; height: auto; border: thick $error; padding: 1 2;
               background: $surface; }
    #confirm-question { margin-top: 1; }
    SetupScreen { layout: vertical; }
    #setup { height: 1fr; padding: 0 1; }
    .setup-row { height: auto; }
    .setup-label { width: 14; padding: 1 1 0 0; }
    .setup-row Input { width: 1fr; max-width: 34; }
    .setup-row Select { width: 36; }
    #setup-bar { height: auto; max-height: 5; dock: bottom; padding: 0 1; }
    #setup-bar Button { margin-right: 2; }
    #setup-side { height: auto; }
    #status { height: 1; padding: 0 1; }
    #save { height: auto; max-height: 3; padding: 0 1; color: $error; display: none; }
    #top { height: 3; }
    #dice { width: auto; height: 3; padding: 0 1; }
    .die { width: 5; height: 3; border: round $foreground; content-align: center middle;
           text-style: bold; margin-right: 1; }
    .die.d10 { border: double $warning; color: $warning; width: 9; }
    .die.kept { background: $success 40%; border: heavy $success; }
    .die.d10.kept { border: heavy $warning; }
    #info { width: 1fr; height: 3; }
    #turn { height: auto; max-height: 2; }
    #message { height: auto; max-height: 2; color: $accent; }
    #recent { height: auto; color: $text-muted; }
    #message-below { display: none; height: auto; max-height: 3; padding: 0 1; color: $accent; }
    #main { height: 1fr; }
    #sheet-box { width: 1fr; height: 1fr; }
    #sheet { height: 1fr; scrollbar-size-vertical: 1; }
    #totals { height: auto; scrollbar-size-vertical: 1; }
    #log { display: none; width: 36; padding: 0 1; color: $text-muted; }
    GameScreen.wide #log { display: block; width: 1fr; }
    #keys { height: auto; padding: 0 1; color: $text-muted; }
    #too-small { display: none; height: 1fr; padding: 1 2; content-align: center middle; }
    GameScreen.too-small > *, SetupScreen.too-small > * { display: none; }
    GameScreen.too-small > #too-small, SetupScreen.too-small > #too-small { display: block; }
    GameScreen.over #dice { display: none; }
    GameScreen.over #recent { display: none; }
    GameScreen.over #top { height: auto; max-height: 2; }
    GameScreen.over #info { height: auto; padding: 0 1; }
    """

    def __init__(self, *, lang: Lang = "de", rules: RuleSet | None = None,
                 history: History | None = None, seats: Iterable[Seat] = (),
                 resume: tuple[int | None, Game] | None = None,
                 stored: Iterable[Action] | None = None, speed: float = 0.5,
                 seed: int | None = None, start: int | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules or preset("extreme")
        self.history = history
        self._seats = list(seats)
        self._resume = resume
        self._stored = None if stored is None else tuple(stored)
        #: The resumed game's storage: its lease is taken here, before any screen opens (a
        #: game open in another window raises GameOpenError, one sentence for the player).
        self._storage: HistoryStorage | None = None
        if resume is not None and history is not None:
            gid, game = resume
            known = self._stored if self._stored is not None else (
                game.actions if gid is not None else ())
            self._storage = HistoryStorage(history, gid, known if gid is not None else None)
        self.speed = speed
        self._seed = seed
        self._start = start
        self.game_screen: GameScreen | None = None
        self.unsaved_on_exit = False
        #: The rescue file written at quit, with the actions it holds.
        self.rescued: tuple[Path, tuple[Action, ...]] | None = None

    @property
    def history_path(self) -> Path | None:
        return self.history.path if self.history is not None else None

    def action_help_quit(self) -> None:
        """Ctrl+C: say how the game quits (instead of Textual's English toast)."""
        self.notify(tr("quit_toast", self.lang), title=tr("quit_toast_title", self.lang))

    async def action_quit(self) -> None:
        """Ctrl+Q: quit as q does (the game is stored or rescued first)."""
        screen = self.screen
        if isinstance(screen, GameScreen):
            await screen.action_quit_game()
        elif not isinstance(screen, ConfirmQuit):
            self.exit()

    def on_mount(self) -> None:
        if self._resume is not None:
            gid, game = self._resume
            stored = self._stored if self._stored is not None else (
                game.actions if gid is not None else ())
            self._show(Match(game, storage=self._storage, stored=stored))
        elif self._seats:
            self.new_game(self.rules, self._seats, self._start)
        else:
            self.push_screen(SetupScreen(self.lang, self.rules, self.new_game))

    def new_game(self, rules: RuleSet, seats: list[Seat], start: int | None) -> None:
        """Start a game of ``seats`` on ``rules``; ``start`` None rolls off who begins. The game
        is stored with its first move."""
        seed = self._seed if self._seed is not None else random.SystemRandom().randrange(2**31)
        players = validate_players(seats, rules)
        note = ""
        if start is None and len(players) == 1:
            start = 0  # nobody to roll off against
        if start is None:
            result = roll_off(rules, len(players), random.Random(f"roll-off:{seed}"))
            start = result.winner
            sums = ", ".join(f"{players[p].name} {r.total}" for p, r in result.rounds[-1].items())
            note = tr("rolled_off", self.lang, name=players[start].name, sums=sums)
        game = Game(rules, players, seed=seed, start_player=start)
        storage = HistoryStorage(self.history) if self.history is not None else None
        self._show(Match(game, storage=storage),
                   note or tr("starts", self.lang, name=players[start].name))

    def _show(self, match: Match, note: str = "") -> None:
        self.game_screen = GameScreen(match, self.lang, self.speed, note,
                                      history_path=self.history_path, rescued=self._rescued)
        if isinstance(self.screen, SetupScreen):
            self.switch_screen(self.game_screen)
        else:
            self.push_screen(self.game_screen)

    def _rescued(self, path: Path, actions: tuple[Action, ...]) -> None:
        self.rescued = (path, actions)

    def quit_report(self, rescue: Callable[[Game], str] | None = None) -> str:
        """After the game closed, with the history still open: write what is still unwritten
        (now, waiting for the database) and say what happened to the game — saved, not
        stored, or exactly which moves are missing and the rescue file that holds the whole
        game (written at quit, else now: ``rescue`` or :func:`write_rescue`), or that none
        could be written."""
        screen = self.game_screen
        if screen is None:
            return ""
        match, lang = screen.match, self.lang
        state = match.save()
        if state.in_sync:
            if self.rescued is not None:  # the history holds it all: the rescue is not needed
                with contextlib.suppress(OSError):
                    self.rescued[0].unlink()
                self.rescued = None
            if not match.game.actions:
                return tr("not_stored", lang)
            return "" if match.game.is_over() else tr("saved_resume", lang,
                                                      play=play_command(self.history_path))
        self.unsaved_on_exit = True
        return self._missing(state, match, rescue)

    def _missing(self, state: SaveState, match: Match,
                 rescue: Callable[[Game], str] | None) -> str:
        lang = self.lang
        why = short_why(state.error, lang) if state.error is not None else ""
        db = str(self.history_path or "")
        if state.unsaved:
            text = tr("missing", lang, first=state.actions - state.unsaved + 1,
                      last=state.actions, of=state.actions, db=db, why=why)
        else:
            text = tr("stale", lang, n=state.stale, db=db, why=why)
        path: str | None = None
        tried: list[Path] = []
        if self.rescued is not None and self.rescued[1] == match.game.actions:
            path = str(self.rescued[0])
        elif rescue is not None:
            with contextlib.suppress(OSError):
                path = rescue(match.game)
        else:
            found, tried = write_rescue(match.game, self.history_path)
            path = None if found is None else str(found)
        if path is None:
            return f"{text}\n{tr('not_rescued', lang, tried=', '.join(map(str, tried)))}"
        return f"{text}\n{tr('rescued', lang, path=path, play=play_command(self.history_path))}"

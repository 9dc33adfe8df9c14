"""The game screen's state and drawing (:class:`Board`): the dice, the score sheet fitted to the
room there is, the lines around them, the move log; every change of the match written to the
history (its save line drawn) and the win chances computed, each in a thread
(:mod:`kniffel.tui.threads`). What is drawn is computed in :mod:`kniffel.tui.view`."""

from __future__ import annotations

from contextlib import suppress
from functools import partial

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Static

from kniffel.engine.chances import Chances
from kniffel.engine.errors import KniffelError
from kniffel.engine.game import Game
from kniffel.engine.match import Match
from kniffel.engine.rules import Lang
from kniffel.history import LEASE_RENEW_S, HistoryStorage
from kniffel.tui.game.info import TurnInfo
from kniffel.tui.game.sheet import SheetBox
from kniffel.tui.threads import HistoryWriter, WinChances, in_thread
from kniffel.tui.view import (
    DicePlaces,
    MoveLog,
    SheetTable,
    key_hints,
    key_line,
    open_row,
    save_line,
    status_line,
    tr,
    turn_parts,
)
from kniffel.tui.widgets import Die, fit_notice

#: Below this width the log moves out of the way: the sheet gets every column.
WIDE = 110
#: The room the log takes beside the sheet on a wide screen.
LOG_WIDTH = 34


def _renew(storage: HistoryStorage) -> None:
    with suppress(KniffelError):  # a failed renewal: the next one, or the next move
        storage.renew()


class Board(Screen[None]):
    """The game on the screen: dice, the score sheet with every player and their sums, the
    turn, a message line, the keys that work now; redrawn from the match after every change."""

    def __init__(self, match: Match, lang: Lang, speed: float, note: str = "") -> None:
        super().__init__()
        self.match = match
        self.lang = lang
        self.speed = speed
        self.note = note
        #: The dice on the screen: their faces in their places, the places kept.
        self.dice = DicePlaces()
        self.move_log = MoveLog(note)
        self.sheet = SheetTable(match.game.rules, [p.name for p in match.game.players], lang)
        self.writer = HistoryWriter(self, match, drawn=self._draw_save, synced=self._synced)
        self.win_chances = WinChances(self, match, self._chances_shown)
        #: Whether q was pressed once with moves the history does not hold.
        self.quit_asked = False
        self._message = note
        self._drawn: tuple[int, tuple[int, ...], int] | None = None
        self._last_turn: tuple[int, int] | None = None  # (player, turns done) the cursor is for
        #: Whether the message line shows the hint (or that it is being computed): Esc closes it.
        self.hint_open = False

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def game_id(self) -> int | None:
        storage = self.match.storage
        return storage.game_id if isinstance(storage, HistoryStorage) else None

    @property
    def kept(self) -> set[int]:
        """The dice kept, by their place on the screen (0-based, the d10 last)."""
        return self.dice.kept

    @property
    def moves(self) -> list[str]:
        """The move log, the roll-off or start note first."""
        return self.move_log.moves

    @property
    def table(self) -> DataTable[Text | str]:
        return self.sheet_box.table

    @property
    def totals(self) -> DataTable[Text | str]:
        return self.sheet_box.totals

    # layout

    def compose(self) -> ComposeResult:
        rules = self.game.rules
        yield Static("", id="status")
        yield Static("", id="save")
        with Horizontal(id="top"):
            with Horizontal(id="dice"):
                for i in range(rules.dice_count):
                    yield Die(i, d10=rules.d10 and i == rules.dice_count - 1, lang=self.lang)
            yield TurnInfo(id="info")
        yield Static("", id="message-below")
        with Horizontal(id="main"):
            yield SheetBox(self.sheet, len(rules.boxes), lambda: self.game.turn is not None,
                           id="sheet-box")
            yield Static("", id="log")
        yield Static("", id="keys")
        yield Static("", id="too-small")

    def mount_board(self) -> None:
        """Draw the game for the first time, the cursor on the first open box, and start
        keeping the lease and writing what the history does not hold yet."""
        self.set_interval(LEASE_RENEW_S, self._renew_lease)
        self._build_columns()
        self.refresh_view()
        self.cursor_to_open(force=True)
        self.call_after_refresh(self.check_size)
        if not self.match.save_state.in_sync:
            self.save_soon()  # a loaded game: its moves the history does not hold yet

    def resized(self) -> None:
        """After a resize: the log beside the sheet where it is wide, the notice where it is
        too small, everything fitted to the room."""
        self.set_class(self.size.width >= WIDE, "wide")
        self.check_size()
        self._draw_info()
        self.call_after_refresh(self._relayout)

    def check_size(self) -> None:
        """Below :data:`~kniffel.tui.widgets.MIN_SIZE` the game gives way to a notice that asks
        for more room."""
        fit_notice(self, self.lang, "#sheet")

    def _relayout(self) -> None:
        if self._build_columns():
            self.refresh_view()
        self.call_after_refresh(self.fit_height)

    @property
    def sheet_box(self) -> SheetBox:
        return self.query_one(SheetBox)

    def fit_height(self) -> None:
        """The sheet fitted to the room again (:meth:`SheetBox.fit_height`)."""
        self.sheet_box.fit_height()

    def _build_columns(self) -> bool:
        """Choose the sheet's column widths for the room there is; True when they changed."""
        wide = self.size.width >= WIDE
        return self.sheet_box.choose_columns(self.size.width - (LOG_WIDTH if wide else 0), wide)

    # drawing

    def say(self, text: str) -> None:
        """Show ``text`` on the message line (it closes the hint)."""
        self._message = text
        self.hint_open = False
        self._draw_info()
        self._draw_keys()

    def refresh_view(self) -> None:
        """Redraw sheet (when the game changed), dice and status from the game."""
        view = self.match.view()
        turn = view.turn
        drawn = (self.match.version, self.sheet.widths, id(self.game))
        if drawn != self._drawn:
            self._drawn = drawn
            self.sheet.draw(self.table, view)
            self.sheet.draw_totals(self.totals, view.sheets, turn.player if turn else None)
            if self.sheet.has_chances:
                self.win_chances.update()
        faces = self.dice.faces_for(turn.roll if turn else None)
        for die in self.query(Die):
            die.show(faces[die.index] if die.index < len(faces) else None,
                     die.index in self.kept)
        self.query_one("#status", Static).update(status_line(self.game, self.lang))
        self.set_class(self.game.is_over(), "over")  # no dice: the room goes to the sheet
        self._draw_info()
        self._draw_keys()
        self._draw_save()

    def _draw_info(self) -> None:
        wide = self.has_class("wide")
        below = self.query_one("#message-below", Static)
        if self.query_one(TurnInfo).draw(turn_parts(self.match, self.speed, self.lang),
                                         self._message, self.moves, below, wide=wide):
            self.call_after_refresh(self.fit_height)
        if wide:
            self.query_one("#log", Static).update(Text("\n").join(
                [Text(tr("log", self.lang), style="bold underline"),
                 *(Text(e) for e in reversed(self.moves[-12:]))]))

    def keys(self) -> list[str]:
        """The keys that do something now (:func:`kniffel.tui.view.key_hints`)."""
        return key_hints(self.match, self.lang, hint_open=self.hint_open)

    def _draw_keys(self) -> None:
        """The key line: every key that does something now, on one line where it fits."""
        text = key_line(self.keys(), key_hints(self.match, self.lang, short=True,
                                               hint_open=self.hint_open),
                        max(self.size.width - 2, 20))
        keys_line = self.query_one("#keys", Static)
        if str(keys_line.render()) != text:
            keys_line.update(Text(text))
            self.call_after_refresh(self.fit_height)

    def _draw_save(self) -> None:
        line = save_line(self.match.save_state, self.lang)
        save = self.query_one("#save", Static)
        save.update("" if line is None else Text(line, style="bold"))
        if save.display != (line is not None):
            save.display = line is not None
            self.call_after_refresh(self.fit_height)

    def _chances_shown(self, chances: Chances | None) -> None:
        """The win chances computed for the sheets on the screen (None: none can be)."""
        self.sheet.draw_chances(self.totals, chances)

    def cursor_to_open(self, force: bool = False) -> None:
        """At a person's new turn put the cursor on the first open box; after a throw keep it
        where the player put it unless that box cannot take the dice, then on the first open box
        that can."""
        turn = self.game.turn
        if turn is None or not self.match.human_to_move():
            return
        key = (turn.player, len(self.game.sheet(turn.player).entries))
        new_turn = force or key != self._last_turn
        self._last_turn = key
        row = open_row(self.game, self.table.cursor_row, new_turn)
        if row is not None:
            self.table.move_cursor(row=row)

    def log_move(self, text: str) -> None:
        """A box entered or struck (the last action of the game): logged and said."""
        self.move_log.add(text, len(self.game.actions) - 1)
        self.say(text)

    # the history

    def _renew_lease(self) -> None:
        """Keep the game's lease in the history (in a thread: a locked database waits)."""
        storage = self.match.storage
        if isinstance(storage, HistoryStorage) and storage.game_id is not None:
            in_thread(self, "kniffel-lease", partial(_renew, storage), lambda _: None)

    def save_soon(self) -> None:
        """After every change of the game: store it (in the writer thread)."""
        self.writer.save_soon()

    def _synced(self) -> None:
        if self.quit_asked:
            self.quit_asked = False
            self.say(tr("written_again", self.lang))

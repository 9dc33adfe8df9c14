"""``kniffel play``: the full-screen terminal game (Textual).

A thin front end over a :class:`~kniffel.engine.match.Match`: keys and clicks become the match's
moves, its errors become messages (:func:`error_text`). The match throws the dice, asks the
computers and undoes; this module draws. Computer players think in a background thread (the
screen and q keep working while a strategy builds its tables) and take their turns step by step
on a timer. Every change is written to the history by a writer thread, so a locked database
never freezes the screen; a write that fails is shown until a later one succeeds, and nothing
unwritten is ever called saved. Those threads are :mod:`kniffel.tui_threads`; what the screen
shows (the sheet's columns and rows, the dice in their places, the lines around them) is
computed in :mod:`kniffel.tui_view`.

The layout fits 80×24 and uses more room when there is some: the dice and the turn on top, below
them the sheet with every player, the Roll column and the sums always visible (names and box
names shortened when the columns are narrow), under the sums every player's win chance (with two
players or more; computed in a thread after every entry), a move log beside the sheet when it is
wide.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Select, Static

from kniffel.engine.advice import Advice, Position
from kniffel.engine.chances import Chances
from kniffel.engine.dice import Keep
from kniffel.engine.errors import KniffelError
from kniffel.engine.game import (
    MAX_PLAYERS,
    Action,
    Game,
    Score,
    Strike,
    Throw,
    UseChip,
    roll_off,
)
from kniffel.engine.match import Match, SaveState, Seat, Step, validate_players
from kniffel.engine.messages import number, render, strategy_name
from kniffel.engine.messages import text as catalog_text
from kniffel.engine.rules import PRESETS, Lang, RuleSet, StrikeRule, preset
from kniffel.engine.strategy import strategy_names
from kniffel.history import LEASE_RENEW_S, History, HistoryStorage
from kniffel.paths import default_db_path, play_command
from kniffel.storage import save_game
from kniffel.tui_threads import ComputerTurns, Hinter, HistoryWriter, WinChances, in_thread
from kniffel.tui_view import (
    DicePlaces,
    MoveLog,
    SheetTable,
    abbreviate,
    dice_text,
    entry_line,
    key_hints,
    key_line,
    open_row,
    save_line,
    short_why,
    status_line,
    turn_parts,
    wrap_parts,
    wrap_pieces,
)

__all__ = ["GameScreen", "KniffelApp", "Seat", "SetupScreen", "abbreviate", "error_text", "tr"]


def hint_text(advice: Advice, lang: Lang, options: int = 3, width: int | None = None,
              lines: int = 2) -> str:
    """The hint line: the best options with their expected final scores (and the loss of the
    others, where it shows as more than 0.0), the numbers of
    :meth:`kniffel.engine.expert.Expert.advise`; broken between its parts into at most
    ``lines`` lines of ``width`` characters (a line never starts with a separator), with as
    many of the best ``options`` as fit (the best one always)."""
    text = wrap_pieces(_hint_pieces(advice, lang, options), width)
    while width is not None and options > 1 and text.count("\n") >= lines:
        options -= 1
        text = wrap_pieces(_hint_pieces(advice, lang, options), width)
    return text


def _hint_pieces(advice: Advice, lang: Lang, options: int) -> list[tuple[str, str]]:
    """The hint's parts, each with the separator that joins it to the part before."""
    rules = advice.position.rules
    head = tr("hint_model" if advice.source == "model" else "hint_table", lang)
    pieces: list[tuple[str, str]] = []
    for i, option in enumerate(advice.options[:options]):
        described = option.describe(rules, lang)
        if i == 0:
            pieces += [("", f"{head}: {described}"),
                       (" · ", tr("hint_expected", lang, value=number(option.expected, lang)))]
            continue
        value = number(option.expected, lang)
        loss = number(option.loss, lang)
        if option.loss > 0 and loss != number(0.0, lang):
            value += f" (−{loss})"
        pieces.append((" | ", f"{described} · {value}"))
    return pieces


def tr(key: str, lang: Lang, **fields: object) -> str:
    """The terminal game's text ``key`` (catalog code ``tui.KEY``) in ``lang`` with ``fields``
    filled in: every word the game shows comes from the one message catalog."""
    return catalog_text(f"tui.{key}", lang, **fields)


def error_text(error: BaseException, lang: Lang) -> str:
    """An error as the player reads it (the one place the terminal game turns errors into
    words), from the one message catalog."""
    return render(error, lang)


SPEEDS = (0.0, 0.1, 0.25, 0.5, 0.8, 1.2, 2.0)
#: Below this width the log moves out of the way: the sheet gets every column.
WIDE = 110
#: The room the log takes beside the sheet on a wide screen.
LOG_WIDTH = 34
#: How long the note of who begins stands before a computer's first step (when it has a speed).
NOTE_S = 2.0
#: The smallest window the game is played in (columns, rows): the turn and its messages beside
#: the dice, every sum, the chances and the keys visible with a few boxes of the sheet;
#: smaller, a notice asks for more room (the game goes on once it has it).
MIN_SIZE = (80, 20)


# --- widgets -----------------------------------------------------------------------------------


class Die(Static):
    """One die: its face, whether it is kept; the d10 drawn with a double border in gold."""

    def __init__(self, index: int, *, d10: bool, lang: Lang) -> None:
        super().__init__("", id=f"die-{index}", classes="die d10" if d10 else "die")
        self.index = index
        self.border_title = tr("d10", lang) if d10 else f"{index + 1}"
        self.face: int | None = None
        self.kept = False

    def show(self, face: int | None, kept: bool) -> None:
        if (face, kept) == (self.face, self.kept) and face is not None:
            return
        self.face, self.kept = face, kept
        self.set_class(kept, "kept")
        self.border_subtitle = "✓" if kept else ""
        self.update(Text(" " if face is None else str(face)))

    def on_click(self) -> None:
        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.toggle_keep(self.index)


def fit_notice(screen: Screen[None], lang: Lang, focus: str) -> None:
    """Below :data:`MIN_SIZE` the screen gives way to its notice (``#too-small``) that asks for
    more room (the class ``too-small`` hides the rest); it comes back once there is room, the
    keys going to ``focus`` (a selector) again where the hidden widget lost them."""
    width, height = screen.size
    small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
    notice = screen.query_one("#too-small", Static)
    if small:
        notice.update(Text(tr("too_small", lang, w=width, h=height, min_w=MIN_SIZE[0],
                              min_h=MIN_SIZE[1]), style="bold"))
    if small != screen.has_class("too-small"):
        screen.set_class(small, "too-small")
        screen.call_after_refresh(notice.refresh, layout=True)
        if not small and screen.focused is None:
            screen.call_after_refresh(screen.query_one(focus).focus)


class SheetBox(Vertical):
    """The sheet and its sums: whenever its size changed (a resize, a line above or below
    that came or went), the sheet is fitted to the room again."""

    def on_resize(self, event: events.Resize) -> None:
        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.call_after_refresh(screen._fit_height)


# --- setup -------------------------------------------------------------------------------------


class TickBox(Checkbox):
    """A tick box whose unticked state is blank, not an "X" told apart by colour alone (a
    terminal without colours, a colour-blind player)."""

    def __init__(self, label: str, value: bool, *, id: str) -> None:
        super().__init__(label, value, id=id)
        self.BUTTON_INNER = "X" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        super().watch_value()  # the class -on and the Changed message
        self.refresh(layout=True)


class SetupScreen(Screen[None]):
    """Rule set, players (name, human or which computer), start player.

    The first player's name field has the focus when the screen opens (its text selected: a new
    player's first keys type their name), and Enter starts the game from every field, as the key
    line says, except in an open list, where it picks the entry; space (or ↑ ↓) opens a list and
    ticks the box."""

    AUTO_FOCUS = "#name-0"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "quit_setup", show=False),
        Binding("q", "quit_setup", show=False),
        Binding("enter", "start", show=False, priority=True),
    ]

    def __init__(self, lang: Lang, rules: RuleSet) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules

    def kinds(self, rules: RuleSet) -> list[tuple[str, str]]:
        """Who may play a row on ``rules``: a person, every computer that can play them (the
        optimal player of a rule set with the d10 only once its value table is built), or
        nobody."""
        lang = self.lang
        kinds: list[tuple[str, str]] = [(tr("human", lang), "human")]
        kinds += [(f"{tr('computer', lang)} ({strategy_name(n, lang)})", f"computer:{n}")
                  for n in strategy_names() if n != "optimal" or optimal_ready(rules)]
        kinds.append((tr("off", lang), "off"))
        return kinds

    def compose(self) -> ComposeResult:
        lang = self.lang
        kinds = self.kinds(self.rules)
        names: list[str] = []
        form = VerticalScroll(id="setup")
        form.can_focus = False  # Tab goes from field to field; the focused field scrolls in
        with form:
            with Horizontal(classes="setup-row"):
                yield Label(tr("rules", lang), classes="setup-label")
                yield Select([(preset(n).title(lang), n) for n in PRESETS], value=self.rules.name,
                             allow_blank=False, id="rules")
            with Horizontal(classes="setup-row"):
                yield Label("", classes="setup-label")
                yield TickBox(tr("free_strike", lang), self.rules.free_strike, id="free-strike")
            default_computer = "computer:greedy" if "greedy" in strategy_names() else "off"
            for i in range(MAX_PLAYERS):
                if i == 0:
                    name, kind = f"{tr('player', lang)} 1", "human"
                elif i < 3:
                    name, kind = f"{tr('computer', lang)} {i}", default_computer
                else:
                    name, kind = f"{tr('player', lang)} {i + 1}", "off"
                if kind != "off":
                    names.append(name)
                with Horizontal(classes="setup-row"):
                    yield Label(f"{tr('player', lang)} {i + 1}", classes="setup-label")
                    yield Input(name, id=f"name-{i}", max_length=40)
                    yield Select(kinds, value=kind, allow_blank=False, id=f"kind-{i}")
            with Horizontal(classes="setup-row"):
                yield Label(tr("start_player", lang), classes="setup-label")
                yield Select(self._starts(), value=-1, allow_blank=False, id="start-player")
        with Horizontal(id="setup-bar"):
            yield Button(tr("start", lang), id="start", variant="primary")
            with Vertical(id="setup-side"):
                yield Static(Text(tr("setup", lang), style="bold"), id="setup-title")
                yield Static("", id="setup-error")
                yield Static(Text(tr("setup_keys", lang), style="dim"), id="setup-keys")
        yield Static("", id="too-small")

    def _starts(self) -> list[tuple[str, int]]:
        """The choices of "who starts": a roll-off, or one of the players by the name entered
        (before the rows exist: the default players)."""
        starts = [(tr("roll_off", self.lang), -1)]
        if not self.is_mounted:
            return starts + [(f"{tr('computer', self.lang)} {i}" if i else
                              f"{tr('player', self.lang)} 1", i) for i in range(3)]
        for row, seat in self.seats().items():
            starts.append((seat.name.strip() or f"{tr('player', self.lang)} {row + 1}", row))
        return starts

    def seats(self) -> dict[int, Seat]:
        """The players set up, by their row (0–7), in seat order."""
        out = {}
        for i in range(MAX_PLAYERS):
            kind = self.query_one(f"#kind-{i}", Select).value
            if kind == "off":
                continue
            name = self.query_one(f"#name-{i}", Input).value
            strategy = str(kind).split(":", 1)[1] if str(kind).startswith("computer:") else None
            out[i] = Seat(name, strategy)
        return out

    def chosen_rules(self) -> RuleSet:
        """The rule set the form describes."""
        return preset(str(self.query_one("#rules", Select).value),
                      free_strike=self.query_one("#free-strike", Checkbox).value)

    def action_quit_setup(self) -> None:
        self.app.exit()

    def on_resize(self, event: events.Resize) -> None:
        fit_notice(self, self.lang, "#name-0")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter starts the game unless a list is open (there it picks an entry) or the window
        is too small to show the form."""
        if action == "start" and self.has_class("too-small"):
            return False
        if action == "start":
            return not any(select.expanded for select in self.query(Select))
        return True

    def action_start(self) -> None:
        self.start()

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def changed(self, event: Input.Changed | Select.Changed | Checkbox.Changed) -> None:
        """Keep the form consistent with itself: the computers the rule set allows, the
        names in "who starts", and an error shown only while it is still true."""
        if not self.is_mounted:
            return
        control = event.control
        if control is not None and control.id == "rules":
            rules = self.chosen_rules()
            self._free_strike_for(preset(rules.name))
            kinds = self.kinds(rules)
            allowed = {value for _, value in kinds}
            for i in range(MAX_PLAYERS):
                select = self.query_one(f"#kind-{i}", Select)
                value = select.value
                select.set_options(kinds)
                select.value = value if value in allowed else "computer:greedy"
        if control is None or control.id != "start-player":
            starts = self._starts()
            select = self.query_one("#start-player", Select)
            value = select.value
            select.set_options(starts)
            select.value = value if value in {v for _, v in starts} else -1
        if self._error_shown:
            problem = self.problem()
            error = self.query_one("#setup-error", Static)
            self._error_shown = problem is not None
            error.update(Text(problem or "", style="bold red"))

    _error_shown = False

    def _free_strike_for(self, rules: RuleSet) -> None:
        """The house rule's tick box: open on rule sets that strike only when nothing fits,
        shown as the rule and not to be changed where it means nothing (a box may be struck
        any time already, or Yahtzee's score 0 anywhere)."""
        box = self.query_one("#free-strike", Checkbox)
        moot = rules.strike is not StrikeRule.FORCED
        if moot:
            box.value = rules.strike is StrikeRule.FREE
        elif box.disabled:
            box.value = False
        box.disabled = moot

    def on_mount(self) -> None:
        self._free_strike_for(preset(self.rules.name))
        self.call_after_refresh(fit_notice, self, self.lang, "#name-0")

    def problem(self) -> str | None:
        """What stops the form from starting a game (one sentence), or None."""
        row = int(str(self.query_one("#start-player", Select).value))
        seats = self.seats()
        if row != -1 and row not in seats:
            return tr("not_playing", self.lang, name=self.query_one(f"#name-{row}", Input).value)
        try:
            validate_players(list(seats.values()), self.chosen_rules())
        except KniffelError as e:
            return error_text(e, self.lang)
        return None

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.start()

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        app = self.app
        assert isinstance(app, KniffelApp)
        error = self.query_one("#setup-error", Static)
        problem = self.problem()
        if problem is None:
            row = int(str(self.query_one("#start-player", Select).value))
            seats = self.seats()
            try:
                app.new_game(self.chosen_rules(), list(seats.values()),
                             None if row == -1 else list(seats).index(row))
                return
            except KniffelError as e:
                problem = error_text(e, self.lang)
        self._error_shown = True
        error.update(Text(problem, style="bold red"))


def _renew(storage: HistoryStorage) -> None:
    with contextlib.suppress(KniffelError):  # a failed renewal: the next one, or the next move
        storage.renew()


def optimal_ready(rules: RuleSet) -> bool:
    """Whether the optimal player can play ``rules`` now: a rule set without the d10 builds its
    table on first use; one with the d10 needs its full table built (``kniffel solve``)."""
    if not rules.d10:
        return True
    from kniffel.solver.table import cache_dir, table_name

    return (cache_dir() / table_name(rules, None)).exists()


# --- the game ----------------------------------------------------------------------------------


class GameScreen(Screen[None]):
    """Dice, score sheet and the turn: people by keys and clicks, computers on a timer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,space", "roll", show=False),
        *(Binding(str(i + 1), f"keep({i})", show=False) for i in range(6)),
        Binding("c", "chip", show=False),
        Binding("s", "strike", show=False),
        Binding("u", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("plus,equals_sign", "speed(-1)", show=False),
        Binding("minus", "speed(1)", show=False),
        Binding("q", "quit_game", show=False, priority=True),
        Binding("escape", "escape", show=False, priority=True),
    ]

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
        self.hinter = Hinter(self, match, self._hinted)
        self.computers = ComputerTurns(self, match, lang, say=self.say, played=self._played)
        self.win_chances = WinChances(self, match, self._chances_shown)
        self._quit_asked = False
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

    # layout

    def compose(self) -> ComposeResult:
        rules = self.game.rules
        yield Static("", id="status")
        yield Static("", id="save")
        with Horizontal(id="top"):
            with Horizontal(id="dice"):
                for i in range(rules.dice_count):
                    yield Die(i, d10=rules.d10 and i == rules.dice_count - 1, lang=self.lang)
            with Vertical(id="info"):
                yield Static("", id="turn")
                yield Static("", id="message")
                yield Static("", id="recent")
        with Horizontal(id="main"):
            with SheetBox(id="sheet-box"):
                yield DataTable(id="sheet", cursor_type="row", zebra_stripes=True)
                yield DataTable(id="totals", cursor_type="none", show_header=False,
                                show_cursor=False)
            yield Static("", id="log")
        yield Static("", id="keys")
        yield Static("", id="too-small")

    def on_mount(self) -> None:
        self.set_interval(LEASE_RENEW_S, self._renew_lease)
        self._message = self.note
        self._build_columns()
        self.refresh_view()
        self._cursor_to_open(force=True)
        self.call_after_refresh(self._check_size)
        if not self.match.save_state.in_sync:
            self._save_soon()  # a loaded game: its moves the history does not hold yet
        self._schedule()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(self.size.width >= WIDE, "wide")
        self._check_size()
        self._draw_info()
        self.call_after_refresh(self._relayout)

    def _check_size(self) -> None:
        """Below :data:`MIN_SIZE` the game gives way to a notice that asks for more room."""
        fit_notice(self, self.lang, "#sheet")

    def _relayout(self) -> None:
        if self._build_columns():
            self.refresh_view()
        self.call_after_refresh(self._fit_height)

    def _fit_height(self) -> None:
        """The sheet as tall as its boxes when there is room (the sums right below), else as
        tall as the room (it scrolls, the sums stay)."""
        main = self.query_one("#main").size.height
        totals = self.totals.row_count
        if main <= 0:
            return
        wanted = len(self.game.rules.boxes) + 1
        height = max(min(wanted, main - totals), 3)
        table = self.table
        if table.styles.height is None or table.styles.height.value != height:
            table.styles.height = height
            self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        """After the sheet's height changed: every box in view when they all fit (no row
        scrolled away above empty lines), else the cursor's row."""
        table = self.table
        if table.size.height >= len(self.game.rules.boxes) + 1:
            table.scroll_to(y=0, animate=False)
        elif self.game.turn is not None:
            table.move_cursor(row=table.cursor_row, scroll=True)

    # the view

    @property
    def table(self) -> DataTable[Text | str]:
        return self.query_one("#sheet", DataTable)

    @property
    def totals(self) -> DataTable[Text | str]:
        return self.query_one("#totals", DataTable)

    def say(self, text: str) -> None:
        self._message = text
        self.hint_open = False
        self._draw_info()
        self._draw_keys()

    def _build_columns(self) -> bool:
        """Choose the sheet's column widths for the room there is; True when they changed."""
        width = self.size.width - (LOG_WIDTH if self.size.width >= WIDE else 0)
        changed = self.sheet.choose(max(width - 1, 20))  # the sheet's scroll bar
        # the box as wide as the sheet beside the log, else the whole width (also when the
        # columns stayed the same: from a wide window to a narrow one)
        box = self.query_one("#sheet-box")
        box.styles.width = self.sheet.width if self.size.width >= WIDE else "1fr"
        if changed:
            self.sheet.build((self.table, self.totals))
        return changed

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
        parts = turn_parts(self.match, self.speed, self.lang)
        turn = self.query_one("#turn", Static)
        turn_line = wrap_parts(parts, turn.size.width)
        turn.update(Text(turn_line))
        message = self.query_one("#message", Static)
        message.update(Text(self._message, style="bold"))
        width = max(message.size.width, 1)
        used = min(2, sum(max(1, -(-len(line) // width)) for line in self._message.split("\n"))
                   if self._message else 0)
        # beside the dice (three lines): the message first, up to two lines, the turn in the
        # rest (at least its first line), the latest moves where a line is left
        turn.styles.max_height = max(1, 3 - used)
        left = max(1, 3 - min(turn_line.count("\n") + 1, max(1, 3 - used)))
        message.styles.max_height = left
        room = max(0, left - used)
        recent = [m for m in self.moves if m != self._message]
        recent = [] if wide or not room else recent[-room:]
        self.query_one("#recent", Static).update(
            Text("\n".join(reversed(recent)), style="dim"))
        log = self.query_one("#log", Static)
        if wide:
            log.update(Text("\n").join([Text(tr("log", self.lang), style="bold underline"),
                                        *(Text(e) for e in reversed(self.moves[-12:]))]))

    def keys(self) -> list[str]:
        """The keys that do something now (:func:`kniffel.tui_view.key_hints`)."""
        return key_hints(self.match, self.lang, hint_open=self.hint_open)

    def _draw_keys(self) -> None:
        """The key line: every key that does something now, on one line where it fits."""
        text = key_line(self.keys(), key_hints(self.match, self.lang, short=True,
                                               hint_open=self.hint_open),
                        max(self.size.width - 2, 20))
        keys_line = self.query_one("#keys", Static)
        if str(keys_line.render()) != text:
            keys_line.update(Text(text))
            self.call_after_refresh(self._fit_height)

    def _draw_save(self) -> None:
        line = save_line(self.match.save_state, self.lang)
        save = self.query_one("#save", Static)
        save.update("" if line is None else Text(line, style="bold"))
        if save.display != (line is not None):
            save.display = line is not None
            self.call_after_refresh(self._fit_height)

    def _cursor_to_open(self, force: bool = False) -> None:
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

    # applying moves

    def _apply(self, action: Action) -> bool:
        """Apply a person's ``action``; a refused one becomes a message."""
        try:
            self.match.apply(action)
        except KniffelError as e:
            self.say(error_text(e, self.lang))
            return False
        self._save_soon()
        return True

    def action_roll(self) -> None:
        if not self.match.human_to_move():
            return
        turn = self.game.turn
        assert turn is not None
        if turn.roll is not None and turn.rolls_left <= 0:
            if UseChip() in self.game.legal_actions():  # the chip offered, not spent unasked
                self.say(tr("no_rolls_chip", self.lang, rolls=turn.rolls_used,
                            n=turn.rolls_used + 1))
            else:
                self.say(tr("no_rolls", self.lang))
            return
        if turn.roll is None:
            self.dice.kept = set()
        try:
            keep = Keep() if turn.roll is None else self.dice.keep(turn.roll)
            outcome = self.match.throw(keep)
        except KniffelError as e:
            self.say(error_text(e, self.lang))
            return
        self.dice.thrown(outcome.roll)
        self._save_soon()
        self.say("")
        self.refresh_view()
        self._cursor_to_open()

    def toggle_keep(self, index: int) -> None:
        """Keep or release die ``index`` (0-based, the d10 last)."""
        turn = self.game.turn
        if not self.match.human_to_move() or turn is None or turn.roll is None:
            return
        if index >= len(turn.roll.values) or turn.rolls_left <= 0:
            return
        self.dice.kept ^= {index}
        self.refresh_view()

    def action_keep(self, index: int) -> None:
        self.toggle_keep(index)

    def action_chip(self) -> None:
        if not self.match.human_to_move() or not self.game.rules.chips:
            return
        if UseChip() not in self.game.legal_actions():
            self.say(tr("no_chip", self.lang))
            return
        if self._apply(UseChip()):
            turn = self.game.turn
            self.say(tr("chip_used", self.lang,
                        name=self.game.players[turn.player].name if turn else ""))
            self.refresh_view()

    def _enter(self, strike: bool) -> None:
        if not self.match.human_to_move():
            return
        rules = self.game.rules
        row = self.table.cursor_row
        if not 0 <= row < len(rules.boxes) or self.game.turn is None:
            return
        box = rules.boxes[row]
        if self.game.turn.roll is None:
            self.say(tr("first_throw", self.lang))
            return
        legal = self.game.legal_actions()
        # Enter does what the roll column shows: score where the dice fit, else strike where
        # the rules allow it; s only strikes.
        wanted: list[Score | Strike] = [Strike(box)] if strike else [Score(box), Strike(box)]
        for action in wanted:
            if action in legal:
                self._finish_turn(action)
                return
        entry = self.game.sheet(self.game.turn.player).entries.get(box)
        if entry is not None:
            self.say(catalog_text("move.box_filled", self.lang, box=box.value,
                                  points=entry.points, rules=rules.name))
            return
        key = "cannot_strike" if strike else "not_fit"
        self.say(tr(key, self.lang, box=rules.box_name(box, self.lang)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "sheet":
            self._enter(strike=False)

    def action_strike(self) -> None:
        self._enter(strike=True)

    def _finish_turn(self, action: Score | Strike) -> None:
        player = self.game.current_player
        assert player is not None
        if not self._apply(action):
            return
        self.dice.kept = set()
        self._log_move(entry_line(self.game, player, action, self.lang))
        self.refresh_view()
        self._cursor_to_open()
        self._schedule()

    def _log_move(self, text: str) -> None:
        """A box entered or struck (the last action of the game): logged and said."""
        self.move_log.add(text, len(self.game.actions) - 1)
        self.say(text)

    def action_undo(self) -> None:
        """Take back the last decision of a person and everything after it."""
        if not self.match.can_undo():
            self.say(tr("nothing_to_undo", self.lang))
            return
        before = self.game.actions
        self.match.undo()
        self.computers.forget()
        after = self.game.actions
        self.move_log.taken_back(len(after))
        turn = self.game.turn
        self.dice.undone(before, after, turn.roll if turn is not None else None)
        self._save_soon()
        self.say(tr("undone", self.lang))
        self.refresh_view()
        self._cursor_to_open(force=True)
        self._schedule()

    def action_speed(self, direction: int) -> None:
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - self.speed))
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + direction))]
        self.refresh_view()

    async def action_escape(self) -> None:
        """Esc closes the hint where one is shown, else quits as q does."""
        if self.hint_open:
            self.say("")
            return
        await self.action_quit_game()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In a window too small for the game only quitting works (nothing is played
        unseen)."""
        if self.has_class("too-small"):
            return action in ("quit_game", "escape")
        return True

    async def action_quit_game(self) -> None:
        """Quit once the history holds the game; with moves it cannot store, say so and quit
        on a second q, the whole game written to a rescue file first; where not even that can
        be written, ask before the game is lost."""
        for _ in range(150):  # a write in progress (a locked database waits 2 s at most)
            if not self.writer.busy:
                break
            await self._sleep(0.02)
        state = self.match.save_state
        app = self.app
        assert isinstance(app, KniffelApp)
        if state.in_sync:
            app.exit()
            return
        if not self._quit_asked:
            self._quit_asked = True
            self.say(tr("quit_unsaved", self.lang, n=state.unsaved or state.stale))
            self._save_soon()
            return
        game = self.game.copy()
        path, tried = await asyncio.to_thread(write_rescue, game, app.history_path)
        if path is not None:
            app.rescued = (path, game.actions)
            app.exit()
            return
        why = error_text(state.error, self.lang) if state.error is not None else ""
        lost = tr("confirm_lost", self.lang, why=why, tried=", ".join(map(str, tried)))

        def answered(quit_anyway: bool | None) -> None:
            if quit_anyway:
                app.exit()
            else:
                self._quit_asked = False
                self._save_soon()

        app.push_screen(ConfirmQuit(lost, self.lang), answered)

    async def _sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    # the threads: the history writer, the hint, the computers (kniffel.tui_threads)

    def _renew_lease(self) -> None:
        """Keep the game's lease in the history (in a thread: a locked database waits)."""
        storage = self.match.storage
        if isinstance(storage, HistoryStorage) and storage.game_id is not None:
            in_thread(self, "kniffel-lease", partial(_renew, storage), lambda _: None)

    def _save_soon(self) -> None:
        """After every change of the game: store it (in the writer thread)."""
        self.writer.save_soon()

    def _synced(self) -> None:
        if self._quit_asked:
            self._quit_asked = False
            self.say(tr("written_again", self.lang))

    def action_hint(self) -> None:
        turn = self.game.turn
        if not self.match.human_to_move() or turn is None:
            return
        if turn.roll is None:
            self.say(tr("hint_after_throw", self.lang))
            return
        position = Position.from_game(self.game)
        self.say(tr("hint_thinking", self.lang))
        self._show_hint_open()
        self.hinter.ask(position)

    def _show_hint_open(self) -> None:
        self.hint_open = True
        self._draw_keys()

    def _chances_shown(self, chances: Chances | None) -> None:
        """The win chances computed for the sheets on the screen (None: none can be)."""
        self.sheet.draw_chances(self.totals, chances)

    def _hinted(self, result: Advice | KniffelError) -> None:
        if isinstance(result, KniffelError):
            self.say(error_text(result, self.lang))
            return
        width = self.query_one("#message", Static).size.width
        self.say(hint_text(result, self.lang, width=width or None))
        self._show_hint_open()

    def _schedule(self) -> None:
        """A computer's next step, after the speed's delay (the first one waits until the start
        note, who begins or the roll-off, was readable)."""
        first = not self.game.actions and bool(self.note)
        self.computers.schedule(max(self.speed, NOTE_S) if first and self.speed > 0
                                else self.speed)

    def _played(self, step: Step) -> None:
        """After a computer's step: show it, store it, draw, schedule the next one."""
        self._show_step(step)
        if not step.shown:
            self._save_soon()
        if isinstance(step.action, Score | Strike) and not step.shown:
            self.dice.kept = set()
            self.refresh_view()
            self._cursor_to_open()
        else:
            self.refresh_view()
        self._schedule()

    def _show_step(self, step: Step) -> None:
        lang = self.lang
        name = self.game.players[step.player].name
        action = step.action
        turn = self.game.turn
        if step.shown and isinstance(action, Throw):
            if turn is not None and turn.roll is not None:
                self.dice.kept = self.dice.places(turn.roll, action.keep)
            self.say(tr("keeps", lang, name=name,
                        dice=dice_text(action.keep.d6, action.keep.d10, lang)))
        elif isinstance(action, Throw):
            if step.outcome is not None:
                roll = step.outcome.roll
                self.dice.thrown(roll)
                self.say(tr("throws_dice", lang, name=name,
                            dice=dice_text(roll.d6, roll.d10, lang)))
        elif isinstance(action, UseChip):
            self.say(tr("chip_used", lang, name=name))
        elif isinstance(action, Score | Strike):
            self._log_move(entry_line(self.game, step.player, action, lang))


class ConfirmQuit(ModalScreen[bool]):
    """Asked before a game that could be stored nowhere is lost: j (y) quits, n or Esc plays
    on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, lost: str, lang: Lang) -> None:
        super().__init__()
        self.lost = lost
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.lost, style="bold"), id="confirm-text")
            yield Static(Text(tr("confirm_question", self.lang), style="bold reverse"),
                         id="confirm-question")

    def action_answer(self, quit_anyway: bool) -> None:
        self.dismiss(quit_anyway)


def rescue_places(history_path: Path | None) -> list[Path]:
    """Where a rescue file is tried, in this order: beside the history database, kniffel's
    data folder, the home folder, the temporary folder (each once)."""
    places = [] if history_path is None else [history_path.parent]
    places += [default_db_path().parent, Path.home(), Path(tempfile.gettempdir())]
    out: list[Path] = []
    for place in places:
        if place not in out:
            out.append(place)
    return out


def write_rescue(game: Game, history_path: Path | None) -> tuple[Path | None, list[Path]]:
    """Write the whole ``game`` as a save file (:func:`kniffel.storage.save_game`) to the first
    of :func:`rescue_places` that takes it: its path (None when none did) and the folders
    tried."""
    stem = history_path.stem if history_path is not None else "kniffel"
    name = f"{stem}.unsaved-{time.strftime('%Y%m%d-%H%M%S')}.json"
    tried: list[Path] = []
    for place in rescue_places(history_path):
        tried.append(place)
        target = place / name
        if target.exists():
            target = place / f"{stem}.unsaved-{random.SystemRandom().randrange(10**6):06d}.json"
        try:
            if not place.is_dir():
                continue
            return save_game(game, target), tried
        except OSError:
            continue
    return None, tried


# --- the app -----------------------------------------------------------------------------------


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
    .setup-row Select { width: 1fr; max-width: 32; }
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
            self.push_screen(SetupScreen(self.lang, self.rules))

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
        self.game_screen = GameScreen(match, self.lang, self.speed, note)
        if isinstance(self.screen, SetupScreen):
            self.switch_screen(self.game_screen)
        else:
            self.push_screen(self.game_screen)

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

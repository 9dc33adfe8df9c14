"""The setup screen of ``kniffel play``: the rule set, the players (a name, a person or which
computer) and who starts; it hands them to the app (``start_game``), which opens the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from kniffel.engine.errors import KniffelError
from kniffel.engine.game import MAX_PLAYERS
from kniffel.engine.match import Seat, validate_players
from kniffel.engine.messages import strategy_name
from kniffel.engine.rules import PRESETS, Lang, RuleSet, StrikeRule, preset
from kniffel.engine.strategy import strategy_names
from kniffel.tui.view import error_text, tr
from kniffel.tui.widgets import fit_notice

#: Starts a game: its rule set, its players in seat order, who begins (None: a roll-off).
StartGame = Callable[[RuleSet, list[Seat], int | None], None]


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

    def __init__(self, lang: Lang, rules: RuleSet, start_game: StartGame) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules
        self.start_game = start_game

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
        error = self.query_one("#setup-error", Static)
        problem = self.problem()
        if problem is None:
            row = int(str(self.query_one("#start-player", Select).value))
            seats = self.seats()
            try:
                self.start_game(self.chosen_rules(), list(seats.values()),
                                None if row == -1 else list(seats).index(row))
                return
            except KniffelError as e:
                problem = error_text(e, self.lang)
        self._error_shown = True
        error.update(Text(problem, style="bold red"))


def optimal_ready(rules: RuleSet) -> bool:
    """Whether the optimal player can play ``rules`` now: a rule set without the d10 builds its
    table on first use; one with the d10 needs its full table built (``kniffel solve``)."""
    if not rules.d10:
        return True
    from kniffel.solver.table import cache_dir, table_name

    return (cache_dir() / table_name(rules, None)).exists()

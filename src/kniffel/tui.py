"""``kniffel play``: the full-screen terminal game (Textual).

A thin front end: keys and clicks become actions of the rules engine (:class:`~kniffel.game.Game`),
whose errors become messages; every action goes to the history database as it happens, so a game
can be quit at any time and resumed with ``kniffel play --resume``. Computer players take their
turns step by step on a timer, each throw and keep shown, at a speed the user sets.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Input, Label, Select, Static

from kniffel.dice import Keep, keep_positions, seeded_rng
from kniffel.errors import KniffelError
from kniffel.game import (
    MAX_PLAYERS,
    Action,
    Game,
    Player,
    PlayerKind,
    Score,
    Strike,
    Throw,
    UseChip,
    roll_off,
)
from kniffel.history import History
from kniffel.rules import PRESETS, Lang, RuleSet, preset
from kniffel.strategy import Strategy, get_strategy, strategy_names

_TEXTS: dict[str, tuple[str, str]] = {
    "setup": ("Neues Spiel", "New game"),
    "rules": ("Regelwerk", "Rule set"),
    "free_strike": ("Hausregel: jederzeit streichen", "House rule: strike any time"),
    "player": ("Spieler", "Player"),
    "human": ("Mensch", "Human"),
    "computer": ("Computer", "Computer"),
    "off": ("— spielt nicht —", "— not playing —"),
    "start_player": ("Wer beginnt", "Who starts"),
    "roll_off": ("auswürfeln", "roll off"),
    "not_playing": ("Spieler {n} spielt nicht mit und kann nicht beginnen",
                    "player {n} is not playing and cannot start"),
    "start": ("Los geht's", "Start"),
    "box": ("Kästchen", "Box"),
    "this_roll": ("Wurf", "Roll"),
    "strike": ("streichen", "strike"),
    "upper_sum": ("Summe oben", "Upper sum"),
    "to_bonus": ("noch bis Bonus", "to bonus"),
    "bonus": ("Bonus", "Bonus"),
    "lower_sum": ("Summe unten", "Lower sum"),
    "extra": ("Extra-Kniffel", "Extra Kniffel"),
    "chips": ("Chips", "Chips"),
    "total": ("Gesamt", "Total"),
    "turn": ("{name} ist dran", "{name}'s turn"),
    "round": ("Runde {n}/{of}", "Round {n}/{of}"),
    "throws": ("Wurf {used} von {allowed}", "throw {used} of {allowed}"),
    "chips_left": ("Chips übrig: {n}", "chips left: {n}"),
    "keys": ("[r] würfeln  [1–6] Würfel halten  [c] Chip  [↑↓ Enter] eintragen  "
             "[s] streichen  [u] zurück  [q] beenden  [+/−] Tempo",
             "[r] roll  [1–6] keep die  [c] chip  [↑↓ Enter] score  [s] strike  "
             "[u] undo  [q] quit  [+/−] speed"),
    "d10": ("W10", "d10"),
    "first_throw": ("Würfeln mit [r]", "Roll with [r]"),
    "no_rolls": ("Keine Würfe mehr – trage ein oder streiche", "No throws left – score or strike"),
    "not_fit": ("{box} passt nicht zu diesem Wurf", "{box} does not fit this roll"),
    "cannot_strike": ("{box} darf jetzt nicht gestrichen werden", "{box} may not be struck now"),
    "no_chip": ("Jetzt kein Chip möglich", "No chip possible now"),
    "chip_offer": ("[c] Chip abgeben für einen 4. Wurf", "[c] hand in a chip for a 4th throw"),
    "chip_used": ("{name} gibt einen Chip ab: ein 4. Wurf", "{name} hands in a chip: a 4th throw"),
    "keeps": ("{name} behält {dice}", "{name} keeps {dice}"),
    "scores": ("{name}: {box} mit {points}", "{name}: {box} for {points}"),
    "strikes": ("{name} streicht {box}", "{name} strikes {box}"),
    "nothing": ("nichts", "nothing"),
    "nothing_to_undo": ("Nichts zurückzunehmen", "Nothing to undo"),
    "undone": ("Zurückgenommen", "Undone"),
    "over": ("Spiel vorbei!", "Game over!"),
    "leader": ("führt", "leads"),
    "speed": ("Tempo: {s:.1f} s pro Schritt", "speed: {s:.1f} s per step"),
    "computer_turn": ("{name} spielt …", "{name} is playing …"),
    "starts": ("{name} beginnt", "{name} starts"),
    "rolled_off": ("{name} beginnt (ausgewürfelt: {sums})", "{name} starts (rolled off: {sums})"),
}


def tr(key: str, lang: Lang, **fields: object) -> str:
    """The text ``key`` in ``lang`` with ``fields`` filled in."""
    de, en = _TEXTS[key]
    return (de if lang == "de" else en).format(**fields)


SPEEDS = (0.0, 0.1, 0.25, 0.5, 0.8, 1.2, 2.0)


@dataclass(frozen=True, slots=True)
class Seat:
    """A setup row: a name and who plays it (``None`` for a human, else a strategy name)."""

    name: str
    strategy: str | None = None

    def player(self) -> Player:
        if self.strategy is None:
            return Player(self.name)
        return Player(self.name, PlayerKind.COMPUTER, self.strategy)


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


# --- setup -------------------------------------------------------------------------------------


class SetupScreen(Screen[None]):
    """Rule set, players (name, human or which computer), start player."""

    def __init__(self, lang: Lang, rules: RuleSet) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules

    def compose(self) -> ComposeResult:
        lang = self.lang
        kinds: list[tuple[str, str]] = [(tr("human", lang), "human")]
        kinds += [(f"{tr('computer', lang)} ({n})", f"computer:{n}") for n in strategy_names()]
        kinds.append((tr("off", lang), "off"))
        with VerticalScroll(id="setup"):
            yield Label(tr("setup", lang), id="setup-title")
            with Horizontal(classes="setup-row"):
                yield Label(tr("rules", lang), classes="setup-label")
                yield Select([(preset(n).title(lang), n) for n in PRESETS], value=self.rules.name,
                             allow_blank=False, id="rules")
                yield Checkbox(tr("free_strike", lang), self.rules.free_strike, id="free-strike")
            default_computer = "computer:greedy" if "greedy" in strategy_names() else "off"
            for i in range(MAX_PLAYERS):
                if i == 0:
                    name, kind = f"{tr('player', lang)} 1", "human"
                elif i < 3:
                    name, kind = f"{tr('computer', lang)} {i}", default_computer
                else:
                    name, kind = f"{tr('player', lang)} {i + 1}", "off"
                with Horizontal(classes="setup-row"):
                    yield Label(f"{tr('player', lang)} {i + 1}", classes="setup-label")
                    yield Input(name, id=f"name-{i}", max_length=40)
                    yield Select(kinds, value=kind, allow_blank=False, id=f"kind-{i}")
            with Horizontal(classes="setup-row"):
                yield Label(tr("start_player", lang), classes="setup-label")
                starts = [(tr("roll_off", lang), -1)]
                starts += [(f"{tr('player', lang)} {i + 1}", i) for i in range(MAX_PLAYERS)]
                yield Select(starts, value=-1, allow_blank=False, id="start-player")
            yield Button(tr("start", lang), id="start", variant="primary")
            yield Static("", id="setup-error")
        yield Footer()

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

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        app = self.app
        assert isinstance(app, KniffelApp)
        rules = preset(str(self.query_one("#rules", Select).value),
                       free_strike=self.query_one("#free-strike", Checkbox).value)
        row = int(str(self.query_one("#start-player", Select).value))
        seats = self.seats()
        error = self.query_one("#setup-error", Static)
        if row != -1 and row not in seats:
            error.update(Text(tr("not_playing", self.lang, n=row + 1), style="bold red"))
            return
        try:
            app.new_game(rules, list(seats.values()), None if row == -1 else list(seats).index(row))
        except KniffelError as e:
            error.update(Text(str(e), style="bold red"))


# --- the game ----------------------------------------------------------------------------------


class GameScreen(Screen[None]):
    """Dice, score sheet and the turn: humans by keys and clicks, computers on a timer."""

    # The key help is the "#keys" panel, in the player's language; the footer shows none.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,space", "roll", show=False),
        *(Binding(str(i + 1), f"keep({i})", show=False) for i in range(6)),
        Binding("c", "chip", show=False),
        Binding("s", "strike", show=False),
        Binding("u", "undo", show=False),
        Binding("plus,equals_sign", "speed(-1)", show=False),
        Binding("minus", "speed(1)", show=False),
        Binding("q", "quit_game", show=False),
    ]

    def __init__(self, game: Game, game_id: int | None, lang: Lang, speed: float,
                 note: str = "") -> None:
        super().__init__()
        self.game = game
        self.game_id = game_id
        self.lang = lang
        self.speed = speed
        self.kept: set[int] = set()
        self.note = note
        self._strategies: dict[int, Strategy] = {}
        for i, p in enumerate(game.players):
            if p.kind is PlayerKind.COMPUTER:
                self._strategies[i] = get_strategy(p.strategy or "greedy", game.rules)
        self._planned: Throw | None = None
        self._timer_running = False

    # layout

    def compose(self) -> ComposeResult:
        rules = self.game.rules
        with Horizontal(id="main"):
            yield DataTable(id="sheet", cursor_type="row", zebra_stripes=True)
            with Vertical(id="side"):
                yield Static("", id="status")
                with Horizontal(id="dice"):
                    for i in range(rules.dice_count):
                        yield Die(i, d10=rules.d10 and i == rules.dice_count - 1,
                                  lang=self.lang)
                yield Static("", id="turn")
                yield Static("", id="message")
                yield Static(Text(tr("keys", self.lang)), id="keys")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#sheet", DataTable)
        table.add_column(tr("box", self.lang), key="box")
        for i, p in enumerate(self.game.players):
            table.add_column(p.name, key=f"p{i}")
        table.add_column(tr("this_roll", self.lang), key="roll")
        self.refresh_view()
        self._cursor_to_best()
        if self.note:
            self.say(self.note)
        self._schedule()

    # the view

    @property
    def table(self) -> DataTable[Text | str]:
        return self.query_one("#sheet", DataTable)

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(Text(text))

    def refresh_view(self) -> None:
        """Redraw sheet, dice and status from the game."""
        game, lang, rules = self.game, self.lang, self.game.rules
        turn = game.turn
        table = self.table
        row = table.cursor_row
        table.clear()
        options = {c.box: c for c in game.choices()}
        sheets = [game.sheet(i) for i in range(len(game.players))]
        for box in rules.boxes:
            cells: list[Text | str] = [rules.box_name(box, lang)]
            for s in sheets:
                e = s.entries.get(box)
                cells.append("" if e is None else ("–" if e.struck else str(e.points)))
            c = options.get(box)
            if c is None:
                cells.append("")
            elif c.strike:
                cells.append(Text(tr("strike", lang), style="red"))
            else:
                extra = f" +{c.bonus}" if c.bonus else ""
                cells.append(Text(f"{c.points}{extra}", style="bold green"))
            table.add_row(*cells, key=box.value)
        sums: list[tuple[str, list[int]]] = [
            (tr("upper_sum", lang), [s.upper_sum for s in sheets]),
            (tr("to_bonus", lang), [s.bonus_missing for s in sheets]),
            (tr("bonus", lang), [s.bonus for s in sheets]),
            (tr("lower_sum", lang), [s.lower_sum for s in sheets]),
        ]
        if rules.extra_kniffel_bonus:
            sums.append((tr("extra", lang), [s.extra_bonus for s in sheets]))
        if rules.chips:
            sums.append((tr("chips", lang), [s.chips_left for s in sheets]))
        for label, values in sums:
            table.add_row(Text(label, style="dim"), *(Text(str(v), style="dim") for v in values),
                          "", key=f"sum-{label}")
        totals = [s.total for s in sheets]
        best = max(totals)
        table.add_row(Text(tr("total", lang), style="bold"),
                      *(Text(f"{t}{' ★' if t == best and best else ''}", style="bold")
                        for t in totals), "", key="total")
        table.move_cursor(row=min(row, len(rules.boxes) - 1), scroll=False)
        # dice
        roll = turn.roll if turn else None
        faces = roll.values if roll else ()
        for die in self.query(Die):
            die.show(faces[die.index] if die.index < len(faces) else None,
                     die.index in self.kept)
        # status
        status = self.query_one("#status", Static)
        turn_line = self.query_one("#turn", Static)
        if turn is None:
            ranking = "   ".join(f"{rank}. {game.players[p].name} {total}"
                                 for rank, p, total in game.ranking())
            status.update(Text(tr("over", lang), style="bold green"))
            turn_line.update(Text(ranking))
            return
        name = game.players[turn.player].name
        status.update(Text(f"{rules.title(lang)} · "
                           f"{tr('round', lang, n=game.round, of=len(rules.boxes))} · "
                           f"{tr('turn', lang, name=name)}", style="bold"))
        parts = [tr("throws", lang, used=turn.rolls_used, allowed=turn.rolls_allowed)]
        if rules.chips:
            parts.append(tr("chips_left", lang, n=game.sheet(turn.player).chips_left))
            if UseChip() in game.legal_actions():
                parts.append(tr("chip_offer", lang))
        if self.speed and self._strategies:
            parts.append(tr("speed", lang, s=self.speed))
        turn_line.update(Text(" · ".join(parts)))

    def _cursor_to_best(self) -> None:
        """Put the cursor on the open box that scores the most for the dice on the table."""
        choices = self.game.choices()
        if not choices:
            return
        best = max(choices, key=lambda c: (not c.strike, c.points))
        self.table.move_cursor(row=self.game.rules.boxes.index(best.box))

    # applying actions

    def _apply(self, action: Action) -> bool:
        """Apply ``action`` and store it; a refused action becomes a message."""
        try:
            self.game.apply(action)
        except KniffelError as e:
            self.say(str(e))
            return False
        self._store()
        return True

    def _store(self) -> None:
        app = self.app
        assert isinstance(app, KniffelApp)
        app.store(self)

    def _throw(self, keep: Keep) -> bool:
        """Throw keeping ``keep``: the throw and its dice (from the game's seed)."""
        if not self._apply(Throw(keep)):
            return False
        outcome = self.game.sample_outcome(seeded_rng(self.game.seed, len(self.game.actions)))
        self._apply(outcome)
        self.kept = set(keep_positions(outcome.roll, keep))
        return True

    def _human(self) -> bool:
        turn = self.game.turn
        return turn is not None and turn.player not in self._strategies

    def action_roll(self) -> None:
        if not self._human():
            return
        turn = self.game.turn
        assert turn is not None
        if turn.roll is not None and turn.rolls_left <= 0:
            self.say(tr("no_rolls", self.lang))
            return
        keep = Keep() if turn.roll is None else Keep.from_positions(turn.roll, self.kept)
        if self._throw(keep):
            self.say("")
            self.refresh_view()
            self._cursor_to_best()

    def toggle_keep(self, index: int) -> None:
        """Keep or release die ``index`` (0-based, the d10 last)."""
        turn = self.game.turn
        if not self._human() or turn is None or turn.roll is None:
            return
        if index >= len(turn.roll.values):
            return
        self.kept ^= {index}
        self.refresh_view()

    def action_keep(self, index: int) -> None:
        self.toggle_keep(index)

    def action_chip(self) -> None:
        if not self._human():
            return
        if UseChip() not in self.game.legal_actions():
            self.say(tr("no_chip", self.lang))
            return
        if self._apply(UseChip()):
            self.say(tr("chip_used", self.lang, name=self._mover()))
            self.refresh_view()

    def _selected_box(self) -> int:
        return self.table.cursor_row

    def _enter(self, strike: bool) -> None:
        if not self._human():
            return
        rules = self.game.rules
        row = self._selected_box()
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
        key = "cannot_strike" if strike else "not_fit"
        self.say(tr(key, self.lang, box=rules.box_name(box, self.lang)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._enter(strike=False)

    def action_strike(self) -> None:
        self._enter(strike=True)

    def _finish_turn(self, action: Score | Strike) -> None:
        name, lang = self._mover(), self.lang
        box_name = self.game.rules.box_name(action.box, lang)
        points = next((c.points for c in self.game.choices() if c.box is action.box), 0)
        if not self._apply(action):
            return
        self.kept = set()
        self.say(tr("strikes", lang, name=name, box=box_name) if isinstance(action, Strike)
                 else tr("scores", lang, name=name, box=box_name, points=points))
        self.refresh_view()
        self._schedule()

    def _mover(self) -> str:
        turn = self.game.turn
        return self.game.players[turn.player].name if turn else ""

    def action_undo(self) -> None:
        """Take back the last human decision and everything after it."""
        last = self.game.last_human_decision()
        if last is None:
            self.say(tr("nothing_to_undo", self.lang))
            return
        for _ in range(len(self.game.actions) - last):
            self.game.undo()
        self._planned = None
        self.kept = set()
        self._store()
        self.say(tr("undone", self.lang))
        self.refresh_view()
        self._cursor_to_best()

    def action_speed(self, direction: int) -> None:
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - self.speed))
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + direction))]
        self.refresh_view()

    def action_quit_game(self) -> None:
        self.app.exit()

    # computer players

    def _schedule(self) -> None:
        turn = self.game.turn
        if turn is None or turn.player not in self._strategies or self._timer_running:
            return
        self._timer_running = True
        if self.speed > 0:
            self.set_timer(self.speed, self._computer_step)
        else:
            self.call_later(self._computer_step)

    def _computer_step(self) -> None:
        """One visible step of a computer's turn: a throw, a keep shown, a chip or a box."""
        self._timer_running = False
        game = self.game
        turn = game.turn
        if turn is None or turn.player not in self._strategies:
            return
        name = self._mover()
        if self._planned is not None:
            planned, self._planned = self._planned, None
            self._throw(planned.keep)
        else:
            rng = random.Random(f"{game.seed}:{len(game.actions)}")
            action = self._strategies[turn.player].choose(game, rng)
            if isinstance(action, Throw) and turn.roll is not None:
                # show which dice stay before throwing the others
                self._planned = action
                self.kept = set(keep_positions(turn.roll, action.keep))
                self.say(tr("keeps", self.lang, name=name,
                            dice=str(action.keep) if action.keep.size
                            else tr("nothing", self.lang)))
            elif isinstance(action, Throw):
                self._throw(action.keep)
            elif isinstance(action, UseChip):
                self._apply(action)
                self.say(tr("chip_used", self.lang, name=name))
            elif isinstance(action, Score | Strike):
                self._finish_turn(action)
                return
            else:  # pragma: no cover - strategies only return legal actions
                self._apply(action)
        self.refresh_view()
        self._schedule()


# --- the app -----------------------------------------------------------------------------------


class KniffelApp(App[None]):
    """The terminal game: setup (unless players or a game to resume are given), then the game."""

    TITLE = "kniffel"
    CSS = """
    #setup { padding: 1 2; }
    #setup-title { text-style: bold; margin-bottom: 1; }
    .setup-row { height: auto; }
    .setup-label { width: 16; padding: 1 1; }
    .setup-row Input { width: 30; }
    .setup-row Select { width: 36; }
    #setup-error { margin-top: 1; }
    #main { height: 1fr; }
    #sheet { width: 3fr; height: 1fr; }
    #side { width: 2fr; min-width: 50; padding: 0 1; }
    #status { height: auto; margin-bottom: 1; }
    #dice { height: 5; }
    .die { width: 7; height: 5; border: round $foreground; content-align: center middle;
           text-style: bold; margin-right: 1; }
    .die.d10 { border: double $warning; color: $warning; width: 9; }
    .die.kept { background: $success 40%; border: heavy $success; }
    .die.d10.kept { border: heavy $warning; }
    #turn { height: auto; margin-top: 1; }
    #message { height: auto; min-height: 2; margin-top: 1; color: $accent; }
    #keys { height: auto; margin-top: 1; color: $text-muted; }
    """

    def __init__(self, *, lang: Lang = "de", rules: RuleSet | None = None,
                 history: History | None = None, seats: Iterable[Seat] = (),
                 resume: tuple[int, Game] | None = None, speed: float = 0.5,
                 seed: int | None = None, start: int | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules or preset("extreme")
        self.history = history
        self._seats = list(seats)
        self._resume = resume
        self.speed = speed
        self._seed = seed
        self._start = start
        self.game_screen: GameScreen | None = None

    def on_mount(self) -> None:
        if self._resume is not None:
            gid, game = self._resume
            self._show(game, gid)
        elif self._seats:
            self.new_game(self.rules, self._seats, self._start)
        else:
            self.push_screen(SetupScreen(self.lang, self.rules))

    def new_game(self, rules: RuleSet, seats: list[Seat], start: int | None) -> None:
        """Start a game of ``seats`` on ``rules``; ``start`` None rolls off who begins."""
        seed = self._seed if self._seed is not None else random.SystemRandom().randrange(2**31)
        players = [s.player() for s in seats]
        for p in players:
            if p.strategy is not None:
                get_strategy(p.strategy, rules)  # unknown names fail here
        note = ""
        if start is None:
            result = roll_off(rules, len(players), random.Random(f"roll-off:{seed}"))
            start = result.winner
            sums = ", ".join(f"{players[p].name} {r.total}" for p, r in result.rounds[-1].items())
            note = tr("rolled_off", self.lang, name=players[start].name, sums=sums)
        game = Game(rules, players, seed=seed, start_player=start)
        gid = self.history.start(game) if self.history is not None else None
        self._show(game, gid, note or tr("starts", self.lang, name=players[start].name))

    def _show(self, game: Game, gid: int | None, note: str = "") -> None:
        self.game_screen = GameScreen(game, gid, self.lang, self.speed, note)
        if isinstance(self.screen, SetupScreen):
            self.switch_screen(self.game_screen)
        else:
            self.push_screen(self.game_screen)

    def store(self, screen: GameScreen) -> None:
        """Save the game's actions to the history (after every change)."""
        if self.history is None or screen.game_id is None:
            return
        try:
            self.history.record(screen.game_id, screen.game)
        except KniffelError as e:
            screen.say(str(e))

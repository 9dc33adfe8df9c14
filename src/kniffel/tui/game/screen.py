"""The game screen (:class:`GameScreen`): a person's keys and clicks become the match's moves,
and a move the engine refuses is said in the engine's own sentence (:func:`error_text`); the
hint, undo, the speed and quitting (:class:`~kniffel.tui.game.quitting.Quitting`). The board
it draws on is :class:`~kniffel.tui.game.board.Board`, the computers' turns
:class:`~kniffel.tui.game.computers.ComputerPlay`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from kniffel.engine.advice import Advice, Position
from kniffel.engine.dice import Keep
from kniffel.engine.errors import KniffelError
from kniffel.engine.game import Action, Score, Strike, UseChip
from kniffel.engine.match import Match
from kniffel.engine.rules import Lang
from kniffel.engine.winning import WinAdvice
from kniffel.tui.game.computers import ComputerPlay
from kniffel.tui.game.quitting import Quitting
from kniffel.tui.threads import Hinter
from kniffel.tui.view import entry_line, error_text, hint_text, tr
from kniffel.tui.widgets import Die

#: The speeds of the computers' steps (seconds between two) that + and - go through.
SPEEDS = (0.0, 0.1, 0.25, 0.5, 0.8, 1.2, 2.0)


class GameScreen(ComputerPlay):
    """Dice, score sheet and the turn: people by keys and clicks, computers on a timer.

    ``history_path``: the history the game is written to (a rescue file goes beside it);
    ``rescued`` is told of a rescue file written at quit and the actions it holds."""

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

    def __init__(self, match: Match, lang: Lang, speed: float, note: str = "", *,
                 history_path: Path | None = None,
                 rescued: Callable[[Path, tuple[Action, ...]], None] = lambda *_: None) -> None:
        super().__init__(match, lang, speed, note)
        self.hinter = Hinter(self, match, self._hinted)
        self.quitting = Quitting(self, history_path, rescued)

    def on_mount(self) -> None:
        self.mount_board()
        self.schedule()

    def on_resize(self, event: events.Resize) -> None:
        self.resized()
        self.schedule()  # a computer paused while the window was too small goes on

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In a window too small for the game only quitting works (nothing is played
        unseen)."""
        if self.has_class("too-small"):
            return action in ("quit_game", "escape")
        return True

    # a person's moves

    def _apply(self, action: Action) -> bool:
        """Apply a person's ``action``; one the engine refuses becomes its message."""
        try:
            self.match.apply(action)
        except KniffelError as e:
            self.say(error_text(e, self.lang))
            return False
        self.save_soon()
        return True

    def action_roll(self) -> None:
        """Throw the dice not kept (all of them at a turn's start)."""
        if not self.match.human_to_move():
            return
        turn = self.game.turn
        assert turn is not None
        if turn.roll is None:
            self.dice.kept = set()
        try:
            keep = Keep() if turn.roll is None else self.dice.keep(turn.roll)
            outcome = self.match.throw(keep)
        except KniffelError as e:  # no throw left, every die kept
            self.say(error_text(e, self.lang))
            return
        self.dice.thrown(outcome.roll)
        self.save_soon()
        self.say("")
        self.refresh_view()
        self.cursor_to_open()

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

    def on_die_clicked(self, event: Die.Clicked) -> None:
        self.toggle_keep(event.index)

    def action_chip(self) -> None:
        """Hand in a chip for one more throw (a rule set without chips has no such key)."""
        if not self.match.human_to_move() or not self.game.rules.chips:
            return
        if self._apply(UseChip()):
            turn = self.game.turn
            self.say(tr("chip_used", self.lang,
                        name=self.game.players[turn.player].name if turn else ""))
            self.refresh_view()

    def _enter(self, strike: bool) -> None:
        """Enter the dice in the box under the cursor: Enter does what the roll column shows
        (score where the dice fit, else strike where the rules allow it), s only strikes."""
        if not self.match.human_to_move():
            return
        rules = self.game.rules
        row = self.table.cursor_row
        if not 0 <= row < len(rules.boxes) or self.game.turn is None:
            return
        box = rules.boxes[row]
        if not strike and Score(box) not in self.game.legal_actions():
            strike = Strike(box) in self.game.legal_actions()
        self._finish_turn(Strike(box) if strike else Score(box))

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
        self.log_move(entry_line(self.game, player, action, self.lang))
        self.refresh_view()
        self.cursor_to_open()
        self.schedule()

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
        self.save_soon()
        self.say(tr("undone", self.lang))
        self.refresh_view()
        self.cursor_to_open(force=True)
        self.schedule()

    def action_speed(self, direction: int) -> None:
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - self.speed))
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + direction))]
        self.refresh_view()

    # the hint

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

    def _hinted(self, result: Advice | WinAdvice | KniffelError) -> None:
        if isinstance(result, KniffelError):
            self.say(error_text(result, self.lang))
            return
        width = self.query_one("#message", Static).size.width
        self.say(hint_text(result, self.lang, width=width or None))
        self._show_hint_open()

    # quitting

    async def action_escape(self) -> None:
        """Esc closes the hint where one is shown, else quits as q does."""
        if self.hint_open:
            self.say("")
            return
        await self.action_quit_game()

    async def action_quit_game(self) -> None:
        """q: quit once the history holds the game (:meth:`Quitting.quit`)."""
        await self.quitting.quit()

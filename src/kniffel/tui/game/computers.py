"""The computers' turns on the game screen (:class:`ComputerPlay`): each step shown as it is
taken, on a timer at the chosen speed, the decisions made in a thread
(:class:`kniffel.tui.threads.ComputerTurns`); nothing is played while the window is too small
to show it."""

from __future__ import annotations

from kniffel.engine.game import Score, Strike, Throw, UseChip
from kniffel.engine.match import Match, Step
from kniffel.engine.rules import Box, Lang
from kniffel.tui.game.board import Board
from kniffel.tui.threads import ComputerTurns
from kniffel.tui.view import dice_text, entry_line, tr
from kniffel.tui.widgets import too_small

#: How long the note of who begins stands before a computer's first step (when it has a speed).
NOTE_S = 2.0


class ComputerPlay(Board):
    """The board with the computers' turns played on it, one visible step at a time."""

    def __init__(self, match: Match, lang: Lang, speed: float, note: str = "") -> None:
        super().__init__(match, lang, speed, note)
        self.computers = ComputerTurns(self, match, lang, say=self.say, played=self._played,
                                       paused=lambda: too_small(self))

    def schedule(self) -> None:
        """A computer's next step, after the speed's delay (the first one waits until the start
        note, who begins or the roll-off, was readable)."""
        first = not self.game.actions and bool(self.note)
        self.computers.schedule(max(self.speed, NOTE_S) if first and self.speed > 0
                                else self.speed)

    def _played(self, step: Step) -> None:
        """After a computer's step: show it, store it, draw, schedule the next one."""
        self._show_step(step)
        if not step.shown:
            self.save_soon()
        if isinstance(step.action, Score | Strike) and not step.shown:
            self.dice.kept = set()
            self.refresh_view()
            self.show_box(step.action.box)
            self.cursor_to_open()
        else:
            self.refresh_view()
        self.schedule()

    def show_box(self, box: Box) -> None:
        """Scroll the sheet (as little as it takes) so the row of ``box`` is in view."""
        self.sheet_box.show_row(self.game.rules.boxes.index(box))

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
            self.log_move(entry_line(self.game, step.player, action, lang))

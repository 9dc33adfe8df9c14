"""The lines beside the dice on the game screen (:class:`TurnInfo`): the turn, the latest
message and, where a line is left, the latest moves; a message longer than the room beside the
dice goes under them."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from kniffel.tui.view import wrap_parts


class TurnInfo(Vertical):
    """Beside the dice (three lines): the message first, up to two lines, the turn in the rest
    (at least its first line), the latest moves where a line is left (none where the log
    stands beside the sheet)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="turn")
        yield Static("", id="message")
        yield Static("", id="recent")

    def draw(self, parts: Sequence[str], message: str, moves: Sequence[str], below: Static,
             *, wide: bool) -> bool:
        """Show the turn's ``parts``, ``message`` and the latest of ``moves``; a message that
        takes more than two lines goes to ``below`` (under the dice, across the whole width:
        a long sentence, such as the engine's why a move is refused, is read whole). True when
        ``below`` came or went (the room under it changed)."""
        turn = self.query_one("#turn", Static)
        turn_line = wrap_parts(parts, turn.size.width)
        turn.update(Text(turn_line))
        beside = self.query_one("#message", Static)
        width = beside.size.width
        long = bool(message) and width > 0 and len(Text(message).wrap(self.app.console,
                                                                       width)) > 2
        below.update(Text(message if long else "", style="bold"))
        moved = below.display != long
        below.display = long
        shown = "" if long else message
        beside.update(Text(shown, style="bold"))
        width = max(width, 1)
        used = min(2, sum(max(1, -(-len(line) // width)) for line in shown.split("\n"))
                   if shown else 0)
        turn.styles.max_height = max(1, 3 - used)
        left = max(1, 3 - min(turn_line.count("\n") + 1, max(1, 3 - used)))
        beside.styles.max_height = left
        room = max(0, left - used)
        recent = [m for m in moves if m != message]
        recent = [] if wide or not room else recent[-room:]
        self.query_one("#recent", Static).update(
            Text("\n".join(reversed(recent)), style="dim"))
        return moved

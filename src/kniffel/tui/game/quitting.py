"""Quitting the game screen (:class:`Quitting`): once the history holds the game; else the
player is told what is missing, a second q writes the whole game to a rescue file first, and
where not even that can be written the player is asked before the game is lost."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from kniffel.engine.game import Action
from kniffel.tui.game.board import Board
from kniffel.tui.rescue import write_rescue
from kniffel.tui.view import error_text, tr
from kniffel.tui.widgets import ConfirmQuit


class Quitting:
    """How ``board`` quits: ``history_path`` is the history the game is written to (a rescue
    file goes beside it), ``rescued`` is told of a rescue file written and the actions it
    holds."""

    def __init__(self, board: Board, history_path: Path | None,
                 rescued: Callable[[Path, tuple[Action, ...]], None]) -> None:
        self.board = board
        self.history_path = history_path
        self.rescued = rescued

    async def quit(self) -> None:
        """Quit once the history holds the game; with moves it cannot store, say so and quit
        on a second q, the whole game written to a rescue file first; where not even that can
        be written, ask before the game is lost."""
        board = self.board
        for _ in range(150):  # a write in progress (a locked database waits 2 s at most)
            if not board.writer.busy:
                break
            await asyncio.sleep(0.02)
        state = board.match.save_state
        app = board.app
        if state.in_sync:
            app.exit()
            return
        if not board.quit_asked:
            board.quit_asked = True
            board.say(tr("quit_unsaved", board.lang, n=state.unsaved or state.stale))
            board.save_soon()
            return
        game = board.game.copy()
        path, tried = await asyncio.to_thread(write_rescue, game, self.history_path)
        if path is not None:
            self.rescued(path, game.actions)
            app.exit()
            return
        why = error_text(state.error, board.lang) if state.error is not None else ""
        lost = tr("confirm_lost", board.lang, why=why, tried=", ".join(map(str, tried)))

        def answered(quit_anyway: bool | None) -> None:
            if quit_anyway:
                app.exit()
            else:
                board.quit_asked = False
                board.save_soon()

        app.push_screen(ConfirmQuit(lost, board.lang), answered)

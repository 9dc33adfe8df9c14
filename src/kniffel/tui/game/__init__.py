"""The game screen of ``kniffel play``, in three layers, each a class of its own module: the
board (:mod:`~kniffel.tui.game.board`: the state, the layout, the drawing, the history
writes), the computers' turns on it (:mod:`~kniffel.tui.game.computers`) and a person's keys
and clicks (:mod:`~kniffel.tui.game.screen`, :class:`GameScreen`)."""

from kniffel.tui.game.screen import GameScreen

__all__ = ["GameScreen"]

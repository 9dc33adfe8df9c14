"""The game screen of ``kniffel play``, in layers, each a class of its own module: the board
(:mod:`~kniffel.tui.game.board`: the state, the layout, the drawing, the history writes) with
its score sheet (:mod:`~kniffel.tui.game.sheet`: fitted to the room, scrolled) and the lines
beside the dice (:mod:`~kniffel.tui.game.info`); the computers' turns on it
(:mod:`~kniffel.tui.game.computers`); on top a person's keys and clicks
(:mod:`~kniffel.tui.game.screen`, :class:`GameScreen`) with quitting
(:mod:`~kniffel.tui.game.quitting`)."""

from kniffel.tui.game.screen import GameScreen

__all__ = ["GameScreen"]

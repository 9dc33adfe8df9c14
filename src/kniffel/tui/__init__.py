"""``kniffel play``: the full-screen terminal game (Textual).

A thin front end over a :class:`~kniffel.engine.match.Match`: keys and clicks become the match's
moves, its errors become messages in the engine's own words
(:func:`kniffel.tui.view.error_text`). The match throws the dice, asks the computers and undoes;
this package draws. Computer players think in a background thread (the screen and q keep
working while a strategy builds its tables) and take their turns step by step on a timer.
Every change is written to the history by a writer thread, so a locked database never freezes
the screen; a write that fails is shown until a later one succeeds, and nothing unwritten is
ever called saved.

The layout fits 80×24 and uses more room when there is some: the dice and the turn on top, below
them the sheet with every player, the Roll column and the sums always visible (names and box
names shortened when the columns are narrow), under the sums every player's win chance (with two
players or more; computed in a thread after every entry), a move log beside the sheet when it is
wide. A smaller window shows a notice instead, and nothing is played meanwhile.

Its modules, each building only on those after it:

- :mod:`~kniffel.tui.app`: the app (setup, then the game, then the report of what is stored);
- :mod:`~kniffel.tui.setup`: the setup screen;
- :mod:`~kniffel.tui.game`: the game screen (the board and its sheet, the computers' turns, a
  person's keys, quitting);
- :mod:`~kniffel.tui.widgets`: a die, the too-small notice, the question before a game is lost;
- :mod:`~kniffel.tui.rescue`: the rescue file written at quit where the history failed;
- :mod:`~kniffel.tui.threads`: the work in background threads;
- :mod:`~kniffel.tui.view`: what the screen shows, as text (no widget of this package).

Importing this package loads none of them (the CLI imports the app only for ``kniffel play``).
"""

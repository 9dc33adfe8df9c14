"""The pure engine: exactly the code that runs in the browser (Pyodide) as well as on the desktop.

Dice, rules, the game and its saves as text, errors, the match core, the computer players
(random, greedy, the expert and its fitted model), advice and reviews. Nothing here does I/O
beyond reading its own package data, owns a random generator (the caller passes one in), or
imports the solver's kernel, the command line, the terminal game, SQLite or numpy at module
level: the desktop (:mod:`kniffel.solver`, :mod:`kniffel.history`, :mod:`kniffel.cli`,
:mod:`kniffel.tui`, :mod:`kniffel.web.server`) builds on it, never the other way round
(``tests/test_layers.py`` checks it).
"""

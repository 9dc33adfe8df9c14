"""Exact optimal play: the solver's value tables, the advisor and the optimal computer player.

>>> from kniffel.solver import solve_in_memory
>>> from kniffel.engine.rules import RuleSet
>>> table = solve_in_memory(RuleSet.preset("yahtzee"), max_open=1)
>>> table.layout.max_open
1
"""

from kniffel.extras import require

# numpy (kniffel[solver]): where it is missing, importing the solver raises one sentence
# naming the extra (MissingExtraError) instead of numpy's ImportError
require("solver")

from kniffel.solver.solve import Progress, set_threads, solve, solve_in_memory
from kniffel.solver.table import (
    TableMismatchError,
    TableMissingError,
    ValueTable,
    cache_dir,
    load_table,
)
from kniffel.solver.tables import SolverError

__all__ = [
    "Progress",
    "SolverError",
    "TableMismatchError",
    "TableMissingError",
    "ValueTable",
    "cache_dir",
    "load_table",
    "set_threads",
    "solve",
    "solve_in_memory",
]

"""The desktop's own computer player as the installed package lists it: the solver's exact
``optimal`` player (the entry point ``optimal`` of the group ``kniffel.players``, see
:mod:`kniffel.engine.strategy`).

Light to load, and outside :mod:`kniffel.solver` (whose package loads numpy and the compiled
kernel): listing the computer players loads neither; they are loaded when the optimal player
is built (:class:`kniffel.solver.advise.OptimalStrategy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kniffel.engine.rules import RuleSet
    from kniffel.engine.strategy import Strategy


class OptimalPlayer:
    """Builds the optimal player of a rule set (the registry's factory)."""

    name = "optimal"
    #: Where the player is listed among the computer players: after greedy, before the expert.
    order = 30

    def __repr__(self) -> str:
        return "kniffel.players.optimal"

    def __call__(self, rules: RuleSet) -> Strategy:
        """The exact optimal player of ``rules``."""
        from kniffel.solver.advise import OptimalStrategy

        return OptimalStrategy(rules)


#: The factory the entry point names.
optimal = OptimalPlayer()

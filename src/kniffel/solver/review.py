"""Reviewing a played game: every decision against the optimal choice, like a proficiency test.

Each decision of a dice-mode game (keep and throw again, hand in a chip, score, strike) is set
against the advisor's options for the position it was made in: the expected final score of the
choice taken, of the best choice, and the expected points lost. Where no value table covers a
position (and it is too far from the end to solve on the spot) the expert
(:mod:`kniffel.engine.expert`: exact within the turn, its fitted model at the turn's end) judges
it instead, and the decision says so (``source == "model"``); only when the expert cannot either
is it listed with the reason.
The expert steps in through :meth:`Advisor.estimate`, the same path as ``kniffel advise``'s; the
replay and the review's types are the engine's (:mod:`kniffel.engine.review`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kniffel.engine.expert import Expert
from kniffel.engine.game import Game
from kniffel.engine.review import Decision, Review, Uncovered, review_decisions
from kniffel.solver.advise import Advisor

__all__ = ["Decision", "Review", "Uncovered", "review"]


def review(game: Game, *, directory: Path | None = None, build: bool = False,
           expert: Expert | bool = True,
           progress: Callable[[int, int], None] | None = None,
           to_win: bool = True) -> Review:
    """Judge every decision of ``game`` (see the module docstring).

    Tables are read from ``directory`` (the user's cache by default); with ``build`` a missing
    table of a classic rule set is computed and stored. ``expert`` judges what no table covers
    (True: the packaged expert of the game's rules; False: nobody, such decisions are listed as
    not judged). ``progress(done, total)`` hears how many of the game's actions are done.
    ``to_win``: in a game of two or more players, every decision's chance to win beside its
    points (:func:`kniffel.engine.winning.win_advisor`; where the rule set has no chance model
    the points stand alone).
    """
    advisor = Advisor(game.rules, directory=directory, build=build, expert=expert)
    win = None
    if to_win and len(game.players) > 1:
        from kniffel.engine.errors import KniffelError
        from kniffel.engine.winning import win_advisor

        try:
            win = win_advisor(game.rules)
        except KniffelError:
            win = None
    return review_decisions(game, advisor.advise, advisor.estimate, progress=progress, win=win)

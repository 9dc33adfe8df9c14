"""Reviewing a played game: every decision against the optimal choice, like a proficiency test.

Each decision of a dice-mode game (keep and throw again, hand in a chip, score, strike) is set
against the advisor's options for the position it was made in: the expected final score of the
choice taken, of the best choice, and the expected points lost. Positions no value table covers
(and too far from the end to solve on the spot) are listed with the reason instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kniffel.errors import IllegalMoveError
from kniffel.game import Action, Game, Mode, Outcome, Score, Strike, Throw, UseChip
from kniffel.solver.advise import Advisor, Option, Position
from kniffel.solver.table import TableMissingError


@dataclass(frozen=True)
class Decision:
    """One decision: ``index`` in the game's action list, the player, the round, the position,
    the option taken and the best one; ``loss`` = best expected − taken expected (≥ 0)."""

    index: int
    player: int
    round: int
    position: Position
    taken: Option
    best: Option

    @property
    def loss(self) -> float:
        return max(0.0, self.best.expected - self.taken.expected)


@dataclass(frozen=True)
class Uncovered:
    """A decision that could not be judged, and why (no table covers its position)."""

    index: int
    player: int
    round: int
    action: Action
    reason: str


@dataclass(frozen=True)
class Review:
    """The judged decisions of a game in order, and those that could not be judged."""

    game: Game
    decisions: tuple[Decision, ...]
    uncovered: tuple[Uncovered, ...]

    def total_loss(self, player: int | None = None) -> float:
        """Expected points lost over all judged decisions (of ``player``, or everyone's)."""
        return sum(d.loss for d in self.decisions if player is None or d.player == player)

    def costliest(self, n: int = 3) -> tuple[Decision, ...]:
        """The ``n`` decisions that lost the most (ties: the earlier first)."""
        ranked = sorted(self.decisions, key=lambda d: (-d.loss, d.index))
        return tuple(d for d in ranked[:n] if d.loss > 0)


def review(game: Game, *, directory: Path | None = None, build: bool = False) -> Review:
    """Judge every decision of ``game`` (see the module docstring).

    Tables are read from ``directory`` (the user's cache by default); with ``build`` a missing
    table of a classic rule set is computed and stored.
    """
    if game.mode is not Mode.DICE:
        raise IllegalMoveError("a review needs a game played with virtual dice (dice mode): a "
                               "score pad does not record the dice", code="review.needs_dice")
    advisor = Advisor(game.rules, directory=directory, build=build)
    replay = Game(game.rules, game.players, mode=game.mode, seed=game.seed,
                  start_player=game.start_player)
    decisions: list[Decision] = []
    uncovered: list[Uncovered] = []
    for index, action in enumerate(game.actions):
        turn = replay.turn
        decision = (isinstance(action, Throw | Score | Strike | UseChip) and turn is not None
                    and turn.roll is not None and not isinstance(action, Outcome))
        if decision:
            player = replay.current_player
            assert player is not None
            pos = Position.from_game(replay)
            try:
                advice = advisor.advise(pos)
            except TableMissingError as e:
                uncovered.append(Uncovered(index, player, replay.round, action, str(e)))
            else:
                taken = next(o for o in advice.options if o.action == action)
                decisions.append(Decision(index, player, replay.round, pos, taken, advice.best))
        replay.apply(action)
    return Review(game, tuple(decisions), tuple(uncovered))

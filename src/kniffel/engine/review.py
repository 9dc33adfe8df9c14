"""Reviews of played games: every decision against the best one, like a proficiency test.

A review replays a dice-mode game and asks a judge (a function from a :class:`Position` to its
:class:`Advice`) about every decision: keep and throw again, hand in a chip, score, strike. The
expert judges in the browser (:func:`review_game`); the desktop's exact review
(:func:`kniffel.solver.review.review`) judges with the solver's tables and lets the expert step
in where none covers a position (:func:`review_decisions`' ``fallback``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kniffel.engine import chances
from kniffel.engine.advice import Advice, Option, Position
from kniffel.engine.errors import IllegalMoveError, KniffelError
from kniffel.engine.expert import Expert, expert_for
from kniffel.engine.game import Action, Game, Mode, Outcome, Score, Strike, Throw, UseChip
from kniffel.engine.messages import render
from kniffel.engine.rules import Lang
from kniffel.engine.winning import WinAdvisor, win_advisor

if TYPE_CHECKING:
    from kniffel.engine.winning import WinAdvisor, WinOption


@dataclass(frozen=True)
class Decision:
    """One decision: ``index`` in the game's action list, the player, the round, the position,
    the option taken and the best one; ``loss`` = best expected − taken expected (≥ 0);
    ``source`` where the values come from ("table", "endgame", "model")."""

    index: int
    player: int
    round: int
    position: Position
    taken: Option
    best: Option
    source: str = "table"
    #: The chance to win of the choice taken and the choice with the best chance to win (a
    #: game of two or more players judged with a :class:`~kniffel.engine.winning.WinAdvisor`;
    #: None where nobody judged the chances).
    win_taken: float | None = None
    win_best: WinOption | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best.expected - self.taken.expected)

    @property
    def win_loss(self) -> float:
        """The chance to win the choice taken gave away against the best one (0–1; 0 where the
        chances were not judged)."""
        if self.win_taken is None or self.win_best is None:
            return 0.0
        return max(0.0, self.win_best.win - self.win_taken)


@dataclass(frozen=True)
class Uncovered:
    """A decision that could not be judged, and why (no table covers its position): ``reason``
    in English (for logs and JSON), ``errors`` the errors behind it (for :meth:`why`)."""

    index: int
    player: int
    round: int
    action: Action
    reason: str
    errors: tuple[KniffelError, ...] = field(default=(), compare=False)

    def why(self, lang: Lang = "de") -> str:
        """Why the decision is not judged, in a player's words (``reason`` when no error says
        it)."""
        return " ".join(render(e, lang) for e in self.errors) if self.errors else self.reason


@dataclass(frozen=True)
class Review:
    """The judged decisions of a game in order, and those that could not be judged."""

    game: Game
    decisions: tuple[Decision, ...]
    uncovered: tuple[Uncovered, ...]

    def total_loss(self, player: int | None = None) -> float:
        """Expected points lost over all judged decisions (of ``player``, or everyone's)."""
        return sum(d.loss for d in self.decisions if player is None or d.player == player)

    @property
    def judges_wins(self) -> bool:
        """Whether the decisions carry their chances to win (a game of two or more players
        reviewed with a win advisor)."""
        return any(d.win_best is not None for d in self.decisions)

    def total_win_loss(self, player: int | None = None) -> float:
        """The chance to win given away over all judged decisions, summed (of ``player``, or
        everyone's): each decision's against the position it was made in."""
        return sum(d.win_loss for d in self.decisions if player is None or d.player == player)

    def costliest_for_win(self, n: int = 3, player: int | None = None,
                          ) -> tuple[Decision, ...]:
        """The ``n`` decisions (of ``player``, or everyone's) that gave away the most chance to
        win (ties: the earlier first; none that gave away nothing)."""
        ranked = sorted((d for d in self.decisions if player is None or d.player == player),
                        key=lambda d: (-d.win_loss, d.index))
        return tuple(d for d in ranked[:n] if d.win_loss > 0)

    def costliest(self, n: int = 3, player: int | None = None) -> tuple[Decision, ...]:
        """The ``n`` decisions (of ``player``, or everyone's) that lost the most (ties: the
        earlier first; none that lost nothing)."""
        ranked = sorted((d for d in self.decisions if player is None or d.player == player),
                        key=lambda d: (-d.loss, d.index))
        return tuple(d for d in ranked[:n] if d.loss > 0)

    def by_source(self) -> dict[str, int]:
        """How many decisions each source of values judged."""
        out: dict[str, int] = {}
        for d in self.decisions:
            out[d.source] = out.get(d.source, 0) + 1
        return out


Judge = Callable[[Position], Advice]
#: Why a decision is not judged: the errors of every judge asked (the table's, the expert's).
NotJudged = tuple[KniffelError, ...]


def review_decisions(game: Game, judge: Judge,
                     fallback: Callable[[Position, Exception], Advice | str | NotJudged]
                     | None = None, *,
                     progress: Callable[[int, int], None] | None = None,
                     win: WinAdvisor | None = None) -> Review:
    """Replay ``game`` and judge every decision with ``judge`` (when it raises a
    :class:`KniffelError`, ``fallback`` gives other advice or why it is not judged: a reason,
    or the errors behind it). ``progress(done, total)`` hears after each action how many of
    the game's actions are replayed (a review of a long Extreme game takes half a minute).

    With ``win`` (a game of two or more players) every judged decision carries its chance to
    win and the best chance of its position too (:meth:`WinAdvisor.advise
    <kniffel.engine.winning.WinAdvisor.advise>`, which remembers its work within a turn; a
    position it cannot judge keeps the points alone)."""
    if game.mode is not Mode.DICE:
        raise IllegalMoveError("a review needs a game played with virtual dice (dice mode): a "
                               "score pad does not record the dice", code="review.needs_dice")
    replay = game.at_start()
    decisions: list[Decision] = []
    uncovered: list[Uncovered] = []
    for index, action in enumerate(game.actions):
        turn = replay.turn
        if (isinstance(action, Throw | Score | Strike | UseChip) and turn is not None
                and turn.roll is not None and not isinstance(action, Outcome)):
            player = replay.current_player
            assert player is not None
            pos = Position.from_game(replay)
            advice: Advice | str | NotJudged
            try:
                advice = judge(pos)
            except KniffelError as e:
                if fallback is None:
                    raise
                advice = fallback(pos, e)
            if isinstance(advice, str):
                uncovered.append(Uncovered(index, player, replay.round, action, advice))
            elif isinstance(advice, tuple):
                reason = "; ".join(str(e) for e in advice)
                uncovered.append(Uncovered(index, player, replay.round, action, reason,
                                           advice))
            else:
                taken = next(o for o in advice.options if o.action == action)
                win_taken, win_best = _win_judged(win, replay, pos, action)
                decisions.append(Decision(index, player, replay.round, pos, taken, advice.best,
                                          advice.source, win_taken, win_best))
        replay.apply(action)
        if progress is not None:
            progress(index + 1, len(game.actions))
    return Review(game, tuple(decisions), tuple(uncovered))


def _win_judged(win: WinAdvisor | None, game: Game, position: Position, action: Action,
                ) -> tuple[float | None, WinOption | None]:
    """The chance to win of ``action`` in ``game`` and the option with the best chance (both
    None without ``win``, in a game of one player, or where the chances cannot be computed:
    the points judge the decision alone)."""
    if win is None or len(game.players) < 2:
        return None, None
    try:
        advice = win.advise(game, position)
    except KniffelError:
        return None, None
    taken = next((o for o in advice.options if o.action == action), None)
    if taken is None:
        return None, None
    return taken.win, advice.for_win


#: The decimals a review shows a player's split with.
SHOWN_DIGITS = 1


@dataclass(frozen=True)
class LuckSkill:
    """How a player's result came about: ``expected`` the expected final total at the game's
    start (if every decision is the best), ``final`` the total reached, ``skill`` the points
    the player's judged decisions lost (≥ 0), ``luck`` the rest of the difference,
    ``final − expected + skill`` (the dice: positive when they were kind)."""

    player: int
    expected: float
    final: int
    skill: float
    luck: float

    def shown(self, digits: int = SHOWN_DIGITS) -> LuckSkill:
        """The split as a review shows it, to ``digits`` decimals: the expected total and the
        lost points rounded, luck the rest of the rounded numbers, so that the shown numbers
        add up (``final = expected − skill + luck``; luck rounded on its own can miss by one
        in the last digit)."""
        expected, skill = round(self.expected, digits), round(self.skill, digits)
        return LuckSkill(self.player, expected, self.final, skill,
                         round(self.final - expected + skill, digits))


def luck_and_skill(review: Review, expected: float) -> tuple[LuckSkill, ...]:
    """Every player's split of ``final − expected`` into luck and lost points, for a reviewed
    game whose players all expected ``expected`` at its start
    (:func:`kniffel.engine.chances.start_expectation`)."""
    out = []
    for player, total in enumerate(review.game.scores()):
        skill = review.total_loss(player)
        out.append(LuckSkill(player, expected, total, skill, total - expected + skill))
    return tuple(out)


def luck_skill_split(review: Review, *, model: chances.ChanceModel | None = None,
                     ) -> tuple[LuckSkill, ...]:
    """Every player's result of a finished reviewed game split into the expected total at the
    start with best play (:func:`kniffel.engine.chances.start_expectation`, by ``model`` where
    given), the points the decisions lost and luck (:func:`luck_and_skill`; a review shows
    :meth:`LuckSkill.shown`); empty while the game is not over, or where the rule set has no
    values to expect from."""
    if not review.game.is_over():
        return ()
    try:
        expected = chances.start_expectation(review.game.rules, model=model)
    except KniffelError:
        return ()
    return luck_and_skill(review, expected)


def review_game(game: Game, *, expert: Expert | None = None,
                win: WinAdvisor | None = None) -> Review:
    """Judge every decision of ``game`` by the expert (no solver needed: works in the
    browser); with ``win``, each decision's chance to win too (:func:`review_decisions`)."""
    judge = expert or expert_for(game.rules)
    return review_decisions(game, judge.advise, win=win)


@dataclass(frozen=True)
class WinJudged:
    """A judged decision (``index`` in the game's actions) by its chance to win
    (:mod:`kniffel.engine.winning`): the chance of the choice taken and of the best choice to
    win (``best``, with its action), the chances exact (the last round) or the win-chance
    model's; ``loss`` = best − taken (≥ 0)."""

    index: int
    player: int
    taken: float
    best: float
    best_action: Action
    exact: bool

    @property
    def loss(self) -> float:
        return max(0.0, self.best - self.taken)


def review_wins(review: Review, *, advisor: WinAdvisor | None = None) -> dict[int, WinJudged]:
    """Every judged decision of ``review`` by its chance to win, by action index: the game is
    replayed once and each decision asked of the :class:`~kniffel.engine.winning.WinAdvisor`
    (which remembers each turn's computation, so a turn's three decisions cost about one).
    Empty for a game of one player: there is nothing to win against."""
    game = review.game
    if len(game.players) < 2:
        return {}
    judge = advisor if advisor is not None else win_advisor(game.rules)
    wanted = {d.index: d for d in review.decisions}
    replay = game.at_start()
    out: dict[int, WinJudged] = {}
    for index, action in enumerate(game.actions):
        d = wanted.get(index)
        if d is not None:
            advice = judge.advise(replay, d.position)
            taken = next(o for o in advice.options if o.action == d.taken.action)
            best = advice.for_win
            out[index] = WinJudged(index, d.player, taken.win, best.win, best.action,
                                   advice.exact)
        replay.apply(action)
    return out


__all__ = ["SHOWN_DIGITS", "Decision", "Judge", "LuckSkill", "NotJudged", "Review", "Uncovered",
           "WinJudged", "luck_and_skill", "luck_skill_split", "review_decisions", "review_game",
           "review_wins"]

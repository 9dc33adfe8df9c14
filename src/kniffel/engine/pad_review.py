"""The coach for real dice: the expert's advice at a score pad's position, and the review of a
score pad game's entries whose dice were typed in.

On the score pad (:attr:`Mode.PAD <kniffel.engine.game.Mode>`) the dice are real: the game knows
a player's sheet and chips, and the dice only where they were typed in. :func:`pad_position` is
the decision point of the player to move with a typed roll after a given throw (which throw it
is, the page asks the player), :func:`pad_advice` the expert's advice there, exactly as the dice
game's hint gives it. :func:`review_pad` replays a pad game and judges every entry that recorded
its typed dice (:class:`~kniffel.engine.actions.Enter` and :class:`Strike` with ``dice``): the
box chosen against the best box for those dice after the turn's last throw. Entries without
typed dice, or whose position no values cover, are counted, not judged.

Pure Python, no I/O: it runs in the browser (Pyodide) too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from kniffel.engine.advice import Advice, Option, Position
from kniffel.engine.dice import Roll
from kniffel.engine.errors import GameOverError, IllegalMoveError, KniffelError
from kniffel.engine.expert import Expert, expert_for
from kniffel.engine.game import Enter, Game, Mode, Score, Strike, UseChip
from kniffel.engine.rules import Box, Entry, RuleSet, choices
from kniffel.engine.turns import pad_action

#: A judge: the advice of a position (the expert's :meth:`~Expert.advise` by default).
Judge = Callable[[Position], Advice]


def last_throw(rules: RuleSet, chip_used: bool) -> int:
    """The number of the last throw of a turn: the rule set's throws, one more after a chip."""
    return rules.rolls + (1 if chip_used else 0)


def pad_position(game: Game, roll: Roll, rolls_used: int) -> Position:
    """The decision point of the player to move in the score pad ``game`` with the typed
    ``roll`` lying after throw number ``rolls_used`` (1 to the rule set's throws; one more
    after a chip, which counts as handed in for that throw even where the pad has not recorded
    it yet): the player's filled boxes, extra points and chips, as the sheet holds them."""
    rules = game.rules
    if game.mode is not Mode.PAD:
        raise IllegalMoveError("the coach for real dice is for score pad games",
                               code="coach.needs_pad")
    turn = game.turn
    if turn is None:
        raise GameOverError("the game is over", code="move.game_over")
    rules.check_roll(roll)
    most = last_throw(rules, rules.chips > 0)
    if isinstance(rolls_used, bool) or not isinstance(rolls_used, int) or not (
            1 <= rolls_used <= most):
        raise IllegalMoveError(f"the throw must be number 1–{most}, got {rolls_used!r}",
                               code="coach.throw_range",
                               params={"most": most, "got": repr(rolls_used)})
    sheet = game.sheet(turn.player)
    chips_left = sheet.chips_left
    chip_used = turn.chip_used
    if rolls_used > rules.rolls and not chip_used:
        if chips_left == 0:
            raise IllegalMoveError("no chip is left for one more throw",
                                   code="coach.no_chip_left")
        chips_left -= 1  # the chip for this throw, not yet handed in on the pad
        chip_used = True
    return Position(rules, dict(sheet.entries), chips_left, roll, rolls_used, chip_used, None,
                    sheet.extra_bonus)


def pad_advice(game: Game, roll: Roll, rolls_used: int, *,
               expert: Expert | None = None) -> Advice:
    """The expert's advice (:meth:`Expert.advise`) at :func:`pad_position`: before the last
    throw which dice to keep, after it the chip or the box, every choice with its expected final
    score, best first."""
    position = pad_position(game, roll, rolls_used)
    return (expert or expert_for(game.rules)).advise(position)


def after_chip(advice: Advice, *, expert: Expert | None = None) -> Option | None:
    """What to do with the same dice once the chip that ``advice`` puts first is handed in:
    the expert's best choice there (which dice to keep for the 4th throw, or to throw them
    all), so that a tip to hand in a chip says which dice stay; None where the best choice of
    ``advice`` is no chip."""
    pos = advice.position
    if not isinstance(advice.best.action, UseChip):
        return None
    assert pos.chips_left  # a chip is the best choice: one is left
    handed_in = replace(pos, chips_left=pos.chips_left - 1, chip_used=True)
    return (expert or expert_for(pos.rules)).advise(handed_in).best


def typed_throws(game: Game) -> tuple[int, ...]:
    """The throws the typed dice of the player to move in the score pad ``game`` may lie after,
    as the coach offers them: 1 to the rule set's throws, and one more (the chip's) where the
    player has a chip left or handed one in this turn; after a chip only the last two (a chip
    follows the last throw). None at all when the game is over."""
    turn = game.turn
    if turn is None:
        return ()
    rules = game.rules
    first = rules.rolls if turn.chip_used else 1
    chip = rules.chips > 0 and (turn.chip_used or game.sheet(turn.player).chips_left > 0)
    return tuple(range(first, rules.rolls + 1)) + ((rules.rolls + 1,) if chip else ())


def typed_throw(game: Game, roll: Roll, before: tuple[Roll, int] | None = None) -> int:
    """The throw the dice ``roll`` just typed by the player to move in the score pad ``game``
    lie after, given the dice typed before in this turn and the throw they lay after
    (``before``; None for the turn's first dice): the turn's last throw for the first dice
    (the 3rd, the 4th after a chip handed in); the same throw for the same dice typed again;
    the next throw for other dice (the player threw again), but never past the turn's last
    throw (then they put the dice right). A throw the coach does not offer now is no
    ``before``."""
    turn = game.turn
    if turn is None:
        raise GameOverError("the game is over", code="move.game_over")
    last = last_throw(game.rules, turn.chip_used)
    if before is None or before[1] not in typed_throws(game):
        return last
    dice, throw = before
    if dice == roll:
        return throw
    return max(throw, min(throw + 1, last))


@dataclass(frozen=True)
class PadJudged:
    """One judged pad entry: ``index`` in the game's actions, the player, the round, the
    position after the turn's last throw, the entry as written, the option it is among the
    expert's and the best box (a score or strike: the chip is no entry); ``source`` where the
    values come from ("table", "endgame", "model")."""

    index: int
    player: int
    round: int
    position: Position
    action: Enter | Strike
    taken: Option
    best: Option
    source: str

    @property
    def loss(self) -> float:
        """Expected final points the entry lost against the best box (≥ 0)."""
        return max(0.0, self.best.expected - self.taken.expected)

    @property
    def best_taken(self) -> bool:
        """Whether the entry was the best box (or one exactly as good)."""
        return self.taken.action == self.best.action or self.loss == 0.0


@dataclass(frozen=True)
class PadReview:
    """The judged entries of a pad game in order, and how many entries were not judged:
    ``without_dice`` had no typed dice, ``without_values`` a position no values cover."""

    game: Game
    entries: tuple[PadJudged, ...]
    without_dice: int
    without_values: int

    @property
    def not_judged(self) -> int:
        """Every entry that could not be judged."""
        return self.without_dice + self.without_values

    def total_loss(self, player: int | None = None) -> float:
        """Expected points lost over the judged entries (of ``player``, or everyone's)."""
        return sum(e.loss for e in self.entries if player is None or e.player == player)


def _entry_options(advice: Advice) -> list[Option]:
    """The options of ``advice`` that fill a box (score or strike), best first."""
    return [o for o in advice.options if isinstance(o.action, Score | Strike)]


def _taken(position: Position, action: Enter | Strike, options: list[Option]) -> Option | None:
    """The expert's option that is the pad entry ``action`` for the position's roll: the
    choice whose pad action (:func:`~kniffel.engine.turns.pad_action`) it writes."""
    assert position.roll is not None
    plain = (Enter(action.box, action.points, action.extra_kniffel)
             if isinstance(action, Enter) else Strike(action.box))
    entries: dict[Box, Entry] = dict(position.entries)
    for c in choices(position.rules, entries, position.roll):
        if pad_action(c) == plain:
            wanted = Strike(c.box) if c.strike else Score(c.box)
            return next((o for o in options if o.action == wanted), None)
    return None


def review_pad(game: Game, *, judge: Judge | None = None) -> PadReview:
    """Replay the score pad ``game`` and judge every entry that recorded typed dice with
    ``judge`` (the expert of the game's rule set by default) at the position after the turn's
    last throw (the chip counted where it was handed in): the box chosen against the best box
    for those dice. An entry without typed dice, or where the judge has no values (it raises a
    :class:`KniffelError`), is counted, not judged."""
    if game.mode is not Mode.PAD:
        raise IllegalMoveError("the coach for real dice is for score pad games",
                               code="coach.needs_pad")
    rules = game.rules
    replay = game.at_start()
    advise: Judge | None = judge
    no_values = False
    judged: list[PadJudged] = []
    without_dice = without_values = 0
    for index, action in enumerate(game.actions):
        turn = replay.turn
        if isinstance(action, Enter | Strike) and turn is not None:
            if action.dice is None:
                without_dice += 1
            else:
                if advise is None and not no_values:
                    try:
                        advise = expert_for(rules).advise
                    except KniffelError:
                        no_values = True
                found = None if advise is None else _judge(replay, index, action, advise)
                if found is None:
                    without_values += 1
                else:
                    judged.append(found)
        replay.apply(action)
    return PadReview(game, tuple(judged), without_dice, without_values)


def _judge(replay: Game, index: int, action: Enter | Strike, advise: Judge) -> PadJudged | None:
    """The judged entry ``action`` (with typed dice) of the player to move in ``replay``; None
    where the judge has no values for its position."""
    turn = replay.turn
    assert turn is not None
    assert action.dice is not None
    sheet = replay.sheet(turn.player)
    position = Position(replay.rules, dict(sheet.entries), sheet.chips_left, action.dice,
                        last_throw(replay.rules, turn.chip_used), turn.chip_used, None,
                        sheet.extra_bonus)
    try:
        advice = advise(position)
    except KniffelError:
        return None
    options = _entry_options(advice)
    taken = _taken(position, action, options)
    if taken is None or not options:
        return None
    return PadJudged(index, turn.player, replay.round, position, action, taken, options[0],
                     advice.source)


__all__ = ["Judge", "PadJudged", "PadReview", "after_chip", "last_throw", "pad_advice",
           "pad_position", "review_pad", "typed_throw", "typed_throws"]

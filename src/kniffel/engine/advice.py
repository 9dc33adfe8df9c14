"""What advice is: a player's decision point (:class:`Position`), each legal choice with its
expected final score (:class:`Option`) and all of them ranked (:class:`Advice`).

Pure Python (no numpy): the exact advisor (:mod:`kniffel.solver.advise`), the expert player
(:mod:`kniffel.engine.expert`) and the browser all speak these types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kniffel.engine.dice import Keep, Roll
from kniffel.engine.errors import IllegalMoveError
from kniffel.engine.game import Action, Game, Mode, Score, Strike, Throw, UseChip
from kniffel.engine.messages import dice_text, text
from kniffel.engine.rules import Box, Entry, Lang, RuleSet

#: Where the values of an :class:`Advice` come from: the exact value table, an endgame solved
#: on the spot, or the expert's fitted value model.
SOURCES = ("table", "endgame", "model")


@dataclass(frozen=True)
class Position:
    """One player's decision point: the filled boxes, chips, and the turn so far.

    ``roll`` is None before the first throw of the turn; ``rolls_used`` counts the throws made
    (1–3, or 4 after a chip); ``upper_sum`` overrides the sum of the upper boxes' points when
    given (for a sheet whose upper points are known only in total).
    """

    rules: RuleSet
    entries: Mapping[Box, Entry] = field(default_factory=dict)
    chips_left: int | None = None
    roll: Roll | None = None
    rolls_used: int = 0
    chip_used: bool = False
    upper_sum: int | None = None
    extra_bonus: int = 0

    def __post_init__(self) -> None:
        rules = self.rules
        for box in self.entries:
            rules.box(box)
        chips = rules.chips if self.chips_left is None else self.chips_left
        object.__setattr__(self, "chips_left", chips)
        if self.upper_sum is not None:
            most = sum(rules.max_points(b) for b in rules.upper_boxes)
            if (isinstance(self.upper_sum, bool) or not isinstance(self.upper_sum, int)
                    or not 0 <= self.upper_sum <= most):
                raise IllegalMoveError(f"the upper sum must be 0–{most} for {rules.name}, got "
                                       f"{self.upper_sum!r}", code="advise.upper_range",
                                       params={"most": most, "rules": rules.name,
                                               "got": repr(self.upper_sum)})
        if chips and not rules.chips:
            raise IllegalMoveError(f"{rules.name} is played without chips, got {chips}",
                                   code="advise.no_chips",
                                   params={"rules": rules.name, "got": chips})
        if not 0 <= chips <= rules.chips:
            raise IllegalMoveError(f"chips left must be 0–{rules.chips} for {rules.name}, "
                                   f"got {chips}", code="advise.chips_range",
                                   params={"most": rules.chips, "rules": rules.name,
                                           "got": chips})
        if self.chip_used and (rules.chips == 0 or chips >= rules.chips):
            raise IllegalMoveError(f"a chip was used this turn, but {chips} of {rules.chips} "
                                   "chips are left", code="advise.chip_used_but_all_left",
                                   params={"chips": chips, "most": rules.chips})
        allowed = rules.rolls + (1 if self.chip_used else 0)
        if self.roll is None:
            if self.rolls_used or self.chip_used:
                raise IllegalMoveError("a turn with throws made needs the dice on the table",
                                       code="advise.dice_needed")
        else:
            rules.check_roll(self.roll)
            if not 1 <= self.rolls_used <= allowed:
                raise IllegalMoveError(f"rolls used must be 1–{allowed}, got {self.rolls_used}",
                                       code="advise.rolls_used_range",
                                       params={"most": allowed, "got": self.rolls_used})
            if self.chip_used and self.rolls_used < rules.rolls:
                raise IllegalMoveError(f"a chip is handed in after the {rules.rolls}rd throw, "
                                       f"but only {self.rolls_used} were made",
                                       code="advise.chip_too_early",
                                       params={"rolls": rules.rolls, "got": self.rolls_used})
        if len(self.entries) == len(rules.boxes):
            raise IllegalMoveError("the sheet is full: there is nothing to decide",
                                   code="advise.sheet_full")

    @property
    def upper_total(self) -> int:
        if self.upper_sum is not None:
            return self.upper_sum
        return sum(e.points for b, e in self.entries.items() if b.is_upper)

    @property
    def score_so_far(self) -> int:
        """Points on the sheet now: upper sum, bonus, lower sum, extra-Kniffel points."""
        rules = self.rules
        upper = self.upper_total
        bonus = rules.bonus_points if upper >= rules.bonus_threshold else 0
        lower = sum(e.points for b, e in self.entries.items() if not b.is_upper)
        return upper + bonus + lower + self.extra_bonus

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of the player to move in a dice-mode ``game``."""
        if game.mode is not Mode.DICE:
            raise IllegalMoveError("advice needs a game with virtual dice (dice mode)",
                                   code="advise.needs_dice_mode")
        if game.is_over():
            raise IllegalMoveError("the game is over", code="move.game_over")
        if game.is_chance_node():
            raise IllegalMoveError("the dice are rolling: wait for their outcome",
                                   code="move.dice_rolling")
        player = game.current_player
        turn = game.turn
        assert player is not None
        assert turn is not None
        sheet = game.sheet(player)
        return cls(game.rules, dict(sheet.entries), sheet.chips_left, turn.roll,
                   turn.rolls_used, turn.chip_used, None, sheet.extra_bonus)


@dataclass(frozen=True)
class Option:
    """A legal choice and its expected final score under optimal play from then on."""

    action: Action
    expected: float
    loss: float
    points: int | None = None

    def describe(self, rules: RuleSet, lang: Lang = "de") -> str:
        """The choice in words."""
        a = self.action
        if isinstance(a, Throw):
            if a.keep == Keep():
                return text("advice.throw_all", lang)
            return text("advice.keep", lang, kept=dice_text(a.keep.d6, a.keep.d10, lang))
        if isinstance(a, UseChip):
            return text("advice.chip", lang)
        if isinstance(a, Score):
            return text("advice.score_one" if self.points == 1 else "advice.score", lang,
                        name=rules.box_name(a.box, lang), points=self.points)
        if isinstance(a, Strike):
            return text("advice.strike", lang, name=rules.box_name(a.box, lang))
        return repr(a)


@dataclass(frozen=True)
class Advice:
    """Every legal choice of ``position``, best first."""

    position: Position
    options: tuple[Option, ...]
    score_so_far: int
    source: str

    @property
    def best(self) -> Option:
        return self.options[0]

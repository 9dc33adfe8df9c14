"""Rule sets and scoring: the boxes of the score sheet, what each one scores, and the presets.

The five presets are values of :class:`RuleSet`: ``extreme`` (Kniffel Extreme, the default),
``kniffel`` (classic German rules), ``kniffel-championship`` (the championship rules),
``yahtzee`` (official Hasbro rules) and ``kniffel-anleitung`` (seed 004's rule sheet as
written: free strikes, 100 for every further Kniffel, no joker). What a box scores for a roll
does not depend on the rule set; what a player may enter, strike and earn beyond it does, and
:func:`choices` computes that.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType
from typing import Literal

from kniffel.engine.catalog import word
from kniffel.engine.dice import Roll, all_rolls
from kniffel.engine.errors import InvalidDiceError, UnknownBoxError, UnknownRuleSetError

Lang = Literal["de", "en"]


class Box(enum.Enum):
    """A box of the score sheet; its value is the canonical id used in the API, saves and JSON."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIRS = "two_pairs"
    FOUR_OF_A_KIND = "four_of_a_kind"
    THREE_PAIRS = "three_pairs"
    TWO_TRIPLES = "two_triples"
    FULL_HOUSE = "full_house"
    LARGE_FULL_HOUSE = "large_full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    HIGHWAY = "highway"
    KNIFFEL = "kniffel"
    KNIFFEL_EXTREME = "kniffel_extreme"
    TEN_OR_LESS = "ten_or_less"
    THIRTY_THREE_OR_MORE = "thirty_three_or_more"
    CHANCE = "chance"
    SUPER_CHANCE = "super_chance"

    def __repr__(self) -> str:
        return f"Box.{self.name}"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def _missing_(cls, value: object) -> Box:
        """``Box("Chance")``, ``Box("full-house")``: a box by its id in any case, with ``-`` or
        a space for ``_``; anything else raises :class:`UnknownBoxError` (a ValueError)."""
        if isinstance(value, str):
            key = value.strip().lower().replace("-", "_").replace(" ", "_")
            found = cls._value2member_map_.get(key)
            if isinstance(found, Box):
                return found
        ids = ", ".join(b.value for b in cls)
        raise UnknownBoxError(f"unknown box {value!r}; the boxes are: {ids}",
                              code="box.unknown", params={"name": str(value)})

    @classmethod
    def parse(cls, text: str | Box) -> Box:
        """The box with id ``text`` (case and ``-``/``_`` are ignored); raises UnknownBoxError."""
        if isinstance(text, Box):
            return text
        return cls(text)

    @property
    def face(self) -> int | None:
        """For an upper box the face it counts (1–6), else None."""
        return _FACES.get(self)

    @property
    def is_upper(self) -> bool:
        """Whether the box belongs to the upper section (ones … sixes)."""
        return self in _FACES


_FACES = {Box.ONES: 1, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 5, Box.SIXES: 6}
UPPER_BOXES = tuple(_FACES)


@dataclass(frozen=True, slots=True)
class BoxText:
    """A box's name and the description of its condition and points, in German and English."""

    name_de: str
    name_en: str
    rule_de: str
    rule_en: str

    def name(self, lang: Lang = "de") -> str:
        return self.name_de if lang == "de" else self.name_en

    def rule(self, lang: Lang = "de") -> str:
        return self.rule_de if lang == "de" else self.rule_en


def _box_text(box: Box) -> BoxText:
    """The catalog's words of ``box`` (``box.name.*`` and ``box.rule.*``)."""
    return BoxText(word(f"box.name.{box.value}", "de"), word(f"box.name.{box.value}", "en"),
                   word(f"box.rule.{box.value}", "de"), word(f"box.rule.{box.value}", "en"))


#: Every box's name and rule in German and English, from the catalog.
BOX_TEXTS: Mapping[Box, BoxText] = MappingProxyType({box: _box_text(box) for box in Box})

#: The flat points of the boxes that score a fixed amount.
FLAT_POINTS: Mapping[Box, int] = MappingProxyType({
    Box.THREE_PAIRS: 35, Box.TWO_TRIPLES: 45, Box.FULL_HOUSE: 25, Box.LARGE_FULL_HOUSE: 45,
    Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.HIGHWAY: 50, Box.KNIFFEL: 50,
    Box.KNIFFEL_EXTREME: 75, Box.TEN_OR_LESS: 40, Box.THIRTY_THREE_OR_MORE: 40,
})


def _longest_run(counts: tuple[int, ...]) -> int:
    best = run = 0
    for c in counts:
        run = run + 1 if c else 0
        best = max(best, run)
    return best


def evaluate(roll: Roll) -> Mapping[Box, int | None]:
    """For every box, the points ``roll`` scores there, or None where it does not fit.

    The conditions are those of the rule texts and hold for five or six dice alike: a box fits
    when the roll meets its condition (an upper box: at least one die shows its face; chance and
    super chance: always). Anything but a :class:`Roll` raises :class:`InvalidDiceError`.
    """
    if type(roll) is not Roll:
        raise InvalidDiceError(f"the dice must be a Roll, got {roll!r}", code="dice.invalid")
    return _evaluate(roll)


def evaluate_uncached(roll: Roll) -> Mapping[Box, int | None]:
    """:func:`evaluate` computed afresh, without its check and cache (the vector tables, which
    take every roll once, and the benchmarks)."""
    counts = roll.counts()
    total = sum(roll.values)
    mult = sorted((c for c in counts if c), reverse=True)
    m1 = mult[0]
    m2 = mult[1] if len(mult) > 1 else 0
    pairs = sum(1 for c in mult if c >= 2)
    triples = sum(1 for c in mult if c >= 3)
    run = _longest_run(counts)
    fits = {
        Box.THREE_OF_A_KIND: m1 >= 3,
        Box.TWO_PAIRS: pairs >= 2,
        Box.FOUR_OF_A_KIND: m1 >= 4,
        Box.THREE_PAIRS: pairs >= 3,
        Box.TWO_TRIPLES: triples >= 2,
        Box.FULL_HOUSE: m1 >= 3 and m2 >= 2,
        Box.LARGE_FULL_HOUSE: m1 >= 4 and m2 >= 2,
        Box.SMALL_STRAIGHT: run >= 4,
        Box.LARGE_STRAIGHT: run >= 5,
        Box.HIGHWAY: run >= 6,
        Box.KNIFFEL: m1 >= 5,
        Box.KNIFFEL_EXTREME: m1 >= 6,
        Box.TEN_OR_LESS: total <= 10,
        Box.THIRTY_THREE_OR_MORE: total >= 33,
    }
    out: dict[Box, int | None] = {}
    for box in Box:
        face = _FACES.get(box)
        if face is not None:
            out[box] = face * counts[face] if counts[face] else None
        elif box in FLAT_POINTS:
            out[box] = FLAT_POINTS[box] if fits[box] else None
        elif box is Box.SUPER_CHANCE:
            out[box] = 2 * total
        elif box is Box.CHANCE or fits[box]:
            out[box] = total
        else:
            out[box] = None
    return MappingProxyType(out)


_evaluate = cache(evaluate_uncached)


def points(box: Box | str, roll: Roll) -> int:
    """The points ``roll`` scores in ``box`` (0 where it does not fit); ``box`` may be given
    by its id ("chance")."""
    return evaluate(roll)[box if isinstance(box, Box) else Box.parse(box)] or 0


def fits(box: Box | str, roll: Roll) -> bool:
    """Whether ``roll`` meets the condition of ``box`` (a :class:`Box` or its id)."""
    return evaluate(roll)[box if isinstance(box, Box) else Box.parse(box)] is not None


def is_kniffel(roll: Roll) -> bool:
    """Whether at least five dice show the same face."""
    return max(roll.counts()) >= 5


class StrikeRule(enum.Enum):
    """When a player may strike a box (enter 0) instead of scoring."""

    #: Only when the roll fits no open box; a roll that fits some open box must go in one of them.
    FORCED = "forced"
    #: Any open box, any time (the "Meisterschaftsregel", a common house rule).
    FREE = "free"
    #: Any roll may be entered in any open box, scoring 0 where it does not fit (Yahtzee).
    ANY_BOX = "any_box"

    def __repr__(self) -> str:
        return f"StrikeRule.{self.name}"


class ExtraKniffel(enum.Enum):
    """What a further Kniffel earns once the kniffel box is filled."""

    #: Nothing special (Kniffel Extreme): the roll is entered like any other.
    NONE = "none"
    #: Classic Kniffel (seed 003): while the kniffel box holds 50, a bonus and the roll may go in
    #: any open box at that box's highest possible points.
    ANY_BOX_AT_MAXIMUM = "any_box_at_maximum"
    #: Championship rules: while the kniffel box holds 50, a bonus and the roll must go in another
    #: fitting open box (upper box of its face, three/four of a kind, chance) at its real points;
    #: if none is open, a box of the player's choice is struck.
    CHAMPIONSHIP = "championship"
    #: Hasbro's Yahtzee as Verhoeff's solver reads it (free-choice joker): once the yahtzee box is
    #: filled, a further Yahtzee earns the bonus while the box holds 50 and may go in any open box;
    #: when the upper box of its face is already filled it is a joker, so full house and the
    #: straights score their full points.
    FREE_JOKER = "free_joker"
    #: The stricter forced-joker reading: once the yahtzee box is filled, a further Yahtzee must go
    #: in the upper box of its face if open, else any open lower box (full house and straights at
    #: their full points), else 0 in an open upper box; the bonus only while the box holds 50.
    FORCED_JOKER = "forced_joker"
    #: Seed 004 as written ("Kniffel - ein Fünfling (5 gleiche Augen); man erhält pauschal 50
    #: Punkte und für jeden weiteren Kniffel nochmals 100 Punkte"), which names no joker: while
    #: the kniffel box holds 50, a further Kniffel earns the bonus and is entered like any other
    #: roll, in a box it fits at its real points (its upper box, three/four of a kind, chance) or
    #: struck as the strike rule allows; the bonus comes with every one of these choices. The
    #: seed leaves open what happens while the box is open or struck; read literally, "weiterer"
    #: Kniffel is one after the Kniffel that got the 50, so a Kniffel then earns nothing extra.
    BONUS_ONLY = "bonus_only"

    def __repr__(self) -> str:
        return f"ExtraKniffel.{self.name}"


@dataclass(frozen=True)
class RuleSet:
    """A complete rule set: its boxes in sheet order, dice, bonus, chips and special rules.

    Build one with :meth:`preset`; ``RuleSet.preset("extreme", free_strike=True)`` adds the
    free-strike house rule.
    """

    name: str
    title_de: str
    title_en: str
    boxes: tuple[Box, ...]
    d10: bool
    bonus_threshold: int
    bonus_points: int
    chips: int
    strike: StrikeRule
    extra_kniffel: ExtraKniffel
    extra_kniffel_bonus: int
    rolls: int = 3
    names_en: Mapping[Box, str] = field(default_factory=dict, compare=False, hash=False)

    def __repr__(self) -> str:
        for free in (False, True):
            try:
                if preset(self.name, free_strike=free) == self:
                    extra = ", free_strike=True" if free else ""
                    return f"RuleSet.preset({self.name!r}{extra})"
            except UnknownRuleSetError:
                break
        return (f"RuleSet(name={self.name!r}, title_de={self.title_de!r}, "
                f"title_en={self.title_en!r}, boxes={self.boxes!r}, d10={self.d10!r}, "
                f"bonus_threshold={self.bonus_threshold!r}, bonus_points={self.bonus_points!r}, "
                f"chips={self.chips!r}, strike={self.strike!r}, "
                f"extra_kniffel={self.extra_kniffel!r}, "
                f"extra_kniffel_bonus={self.extra_kniffel_bonus!r}, rolls={self.rolls!r})")

    @staticmethod
    def preset(name: str, *, free_strike: bool = False) -> RuleSet:
        """The preset called ``name`` (see :data:`PRESETS`), with the free-strike house rule if
        asked. Raises :class:`UnknownRuleSetError` for an unknown name."""
        return preset(name, free_strike=free_strike)

    @property
    def free_strike(self) -> bool:
        """Whether any open box may be struck at any time."""
        return self.strike is StrikeRule.FREE

    def title(self, lang: Lang = "de") -> str:
        """The rule set's display name."""
        return self.title_de if lang == "de" else self.title_en

    def box_name(self, box: Box, lang: Lang = "de") -> str:
        """The display name of ``box`` in this rule set."""
        if lang == "en" and box in self.names_en:
            return self.names_en[box]
        return BOX_TEXTS[box].name(lang)

    def box(self, box: str | Box) -> Box:
        """The box ``box`` if this rule set has it; raises :class:`UnknownBoxError` otherwise."""
        parsed = Box.parse(box)
        if parsed not in self.boxes:
            raise UnknownBoxError(f"the rule set {self.name!r} has no box {parsed.value!r}; "
                                  f"its boxes are: {', '.join(b.value for b in self.boxes)}",
                                  code="box.not_in_rules",
                                  params={"box": parsed.value, "rules": self.name})
        return parsed

    @property
    def upper_boxes(self) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if b.is_upper)

    @property
    def lower_boxes(self) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if not b.is_upper)

    @property
    def dice_count(self) -> int:
        """How many dice a roll has: 5, or 6 with the d10."""
        return 6 if self.d10 else 5

    def parse_roll(self, text: str | list[str] | list[int]) -> Roll:
        """Read a roll for this rule set (six values with the d10 last, or five)."""
        return Roll.parse(text, d10=self.d10)

    def check_roll(self, roll: Roll) -> Roll:
        """Return ``roll`` if it belongs to this rule set (with or without the d10)."""
        if self.d10 and roll.d10 is None:
            raise InvalidDiceError(f"{self.name} is played with a d10, but the roll {roll!r} "
                                   f"has none", code="dice.d10_missing",
                                   params={"rules": self.name})
        if not self.d10 and roll.d10 is not None:
            raise InvalidDiceError(f"{self.name} has no d10, but the roll {roll!r} has one",
                                   code="dice.d10_extra", params={"rules": self.name})
        return roll

    def possible_points(self, box: Box) -> frozenset[int]:
        """Every number of points ``box`` can hold on a sheet of this rule set (0 is a strike)."""
        return _possible_points(self.d10)[self.box(box)]

    def max_points(self, box: Box) -> int:
        """The highest number of points ``box`` can hold."""
        return _max_points(self.d10)[self.box(box)]


@cache
def _max_points(d10: bool) -> Mapping[Box, int]:
    return MappingProxyType({box: max(v) for box, v in _possible_points(d10).items()})


@cache
def _possible_points(d10: bool) -> Mapping[Box, frozenset[int]]:
    found: dict[Box, set[int]] = {box: {0} for box in Box}
    for roll in all_rolls(d10=d10):
        for box, value in evaluate(roll).items():
            if value is not None:
                found[box].add(value)
    return MappingProxyType({box: frozenset(v) for box, v in found.items()})


EXTREME_BOXES = tuple(Box)
CLASSIC_BOXES = (
    Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES,
    Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.FULL_HOUSE, Box.SMALL_STRAIGHT,
    Box.LARGE_STRAIGHT, Box.KNIFFEL, Box.CHANCE,
)

_PRESETS: dict[str, RuleSet] = {
    "extreme": RuleSet(
        name="extreme", title_de=word("rules.title.extreme", "de"),
        title_en=word("rules.title.extreme", "en"),
        boxes=EXTREME_BOXES, d10=True, bonus_threshold=73, bonus_points=45, chips=3,
        strike=StrikeRule.FORCED, extra_kniffel=ExtraKniffel.NONE, extra_kniffel_bonus=0,
    ),
    "kniffel": RuleSet(
        name="kniffel", title_de=word("rules.title.kniffel", "de"),
        title_en=word("rules.title.kniffel", "en"),
        boxes=CLASSIC_BOXES, d10=False, bonus_threshold=63, bonus_points=35, chips=0,
        strike=StrikeRule.FORCED, extra_kniffel=ExtraKniffel.ANY_BOX_AT_MAXIMUM,
        extra_kniffel_bonus=50,
    ),
    "kniffel-championship": RuleSet(
        name="kniffel-championship", title_de=word("rules.title.kniffel-championship", "de"),
        title_en=word("rules.title.kniffel-championship", "en"),
        boxes=CLASSIC_BOXES, d10=False, bonus_threshold=63, bonus_points=35, chips=0,
        strike=StrikeRule.FREE, extra_kniffel=ExtraKniffel.CHAMPIONSHIP, extra_kniffel_bonus=50,
    ),
    "yahtzee": RuleSet(
        name="yahtzee", title_de=word("rules.title.yahtzee", "de"),
        title_en=word("rules.title.yahtzee", "en"),
        boxes=CLASSIC_BOXES, d10=False, bonus_threshold=63, bonus_points=35, chips=0,
        strike=StrikeRule.ANY_BOX, extra_kniffel=ExtraKniffel.FREE_JOKER,
        extra_kniffel_bonus=100, names_en={Box.KNIFFEL: word("box.name.kniffel.yahtzee", "en")},
    ),
    # Seed 004 ("Kniffel Anleitung") exactly as written: bonus 35 at 63, 50 for the Kniffel and
    # 100 more for every further one (no joker), and "will er nichts eintragen, kann er einen
    # Wert streichen (0 Punkte)": any open box may be struck at any time.
    "kniffel-anleitung": RuleSet(
        name="kniffel-anleitung", title_de=word("rules.title.kniffel-anleitung", "de"),
        title_en=word("rules.title.kniffel-anleitung", "en"),
        boxes=CLASSIC_BOXES, d10=False, bonus_threshold=63, bonus_points=35, chips=0,
        strike=StrikeRule.FREE, extra_kniffel=ExtraKniffel.BONUS_ONLY, extra_kniffel_bonus=100,
    ),
}

#: The names of the preset rule sets; the first is the default.
PRESETS: tuple[str, ...] = tuple(_PRESETS)
DEFAULT_RULES = "extreme"


def preset(name: str, *, free_strike: bool = False) -> RuleSet:
    """The preset rule set called ``name`` (in any case), with the free-strike house rule if
    asked; :class:`UnknownRuleSetError` for any other name or value."""
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else None
    try:
        if not isinstance(free_strike, bool):
            raise KeyError(free_strike)
        rules = _PRESETS[key or ""]
    except KeyError:
        raise UnknownRuleSetError(
            f"unknown rule set {name!r}; the rule sets are: {', '.join(PRESETS)}",
            code="rules.unknown", params={"name": str(name), "choices": list(PRESETS)},
        ) from None
    if free_strike and rules.strike is StrikeRule.FORCED:
        return replace(rules, strike=StrikeRule.FREE)
    return rules


@dataclass(frozen=True, slots=True)
class Entry:
    """What stands in a filled box: its points and whether it was struck (entered as 0)."""

    points: int
    struck: bool = False

    def __repr__(self) -> str:
        return f"Entry({self.points!r}, struck=True)" if self.struck else f"Entry({self.points!r})"


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to enter the current roll: score ``box`` with ``points``, or strike it (0 points).

    ``bonus`` is the extra points a further Kniffel earns with it (the same for every choice of
    that roll).
    """

    box: Box
    points: int
    strike: bool = False
    bonus: int = 0


#: The boxes a Yahtzee joker scores at their full points although it does not fit them.
_JOKER_FLAT = frozenset({Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT})


def choices(rules: RuleSet, sheet: Mapping[Box, Entry], roll: Roll) -> tuple[Choice, ...]:
    """Every legal way for a player with the filled boxes ``sheet`` to enter ``roll``.

    Applies the rule set's strike rule and its rule for a further Kniffel; the result lists the
    scoring choices in sheet order, then the strike choices.
    """
    rules.check_roll(roll)
    open_boxes = [b for b in rules.boxes if b not in sheet]
    if not open_boxes:
        return ()
    values = evaluate(roll)
    kniffel_entry = sheet.get(Box.KNIFFEL)
    further = (is_kniffel(roll) and kniffel_entry is not None
               and rules.extra_kniffel is not ExtraKniffel.NONE)
    holds_50 = kniffel_entry is not None and kniffel_entry.points > 0
    scores: list[tuple[Box, int]]
    bonus = 0

    if further and rules.extra_kniffel is ExtraKniffel.FREE_JOKER:
        bonus = rules.extra_kniffel_bonus if holds_50 else 0
        joker = UPPER_BOXES[roll.d6[0] - 1] not in open_boxes
        scores = [(b, FLAT_POINTS[b] if joker and b in _JOKER_FLAT else values[b] or 0)
                  for b in open_boxes]
        return tuple(Choice(b, p, strike=False, bonus=bonus) for b, p in scores)

    if further and rules.extra_kniffel is ExtraKniffel.FORCED_JOKER:
        bonus = rules.extra_kniffel_bonus if holds_50 else 0
        face = roll.d6[0]
        upper = UPPER_BOXES[face - 1]
        if upper in open_boxes:
            scores = [(upper, values[upper] or 0)]
        elif lower := [b for b in open_boxes if not b.is_upper]:
            scores = [(b, FLAT_POINTS[b] if b in _JOKER_FLAT else values[b] or 0) for b in lower]
        else:
            scores = [(b, 0) for b in open_boxes]
        return tuple(Choice(b, p, strike=False, bonus=bonus) for b, p in scores)

    if further and holds_50 and rules.extra_kniffel is ExtraKniffel.BONUS_ONLY:
        bonus = rules.extra_kniffel_bonus  # no joker: the roll is entered like any other below
    if further and holds_50 and rules.extra_kniffel is ExtraKniffel.ANY_BOX_AT_MAXIMUM:
        bonus = rules.extra_kniffel_bonus
        scores = [(b, rules.max_points(b)) for b in open_boxes]
        strikes = open_boxes if rules.strike is StrikeRule.FREE else []
    elif further and holds_50 and rules.extra_kniffel is ExtraKniffel.CHAMPIONSHIP:
        bonus = rules.extra_kniffel_bonus
        allowed = (UPPER_BOXES[roll.d6[0] - 1], Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND,
                   Box.CHANCE)
        scores = [(b, values[b] or 0) for b in open_boxes if b in allowed]
        strikes = [] if scores else open_boxes
    elif rules.strike is StrikeRule.ANY_BOX:
        scores = [(b, values[b] or 0) for b in open_boxes]
        strikes = []
    else:
        scores = [(b, v) for b in open_boxes if (v := values[b]) is not None]
        strikes = open_boxes if (rules.strike is StrikeRule.FREE or not scores) else []
    return (tuple(Choice(b, p, bonus=bonus) for b, p in scores)
            + tuple(Choice(b, 0, strike=True, bonus=bonus) for b in strikes))


def describe(rules: RuleSet, lang: Lang = "de") -> tuple[str, ...]:
    """The rule set's turn, bonus, chip, strike and further-Kniffel rules as sentences (the
    catalog's ``rules.*`` words)."""
    dice = word("rules.dice.d10" if rules.d10 else "rules.dice.d6", lang)
    lines = [
        word("rules.turn", lang).format(dice=dice, rolls=rules.rolls),
        word("rules.bonus", lang).format(points=rules.bonus_points,
                                         threshold=rules.bonus_threshold),
    ]
    if rules.chips:
        lines.append(word("rules.chips", lang).format(chips=rules.chips, throw=rules.rolls + 1))
    strike = rules.strike.value
    if rules.strike is StrikeRule.FREE and rules.name == "kniffel-anleitung":
        strike = "free_anleitung"  # seed 004's own rule, not the championship house rule
    lines.append(word(f"rules.strike.{strike}", lang))
    lines.append(word(f"rules.extra.{rules.extra_kniffel.value}", lang).format(
        bonus=rules.extra_kniffel_bonus))
    return tuple(lines)

"""Tests for kniffel.engine.rules: what every box scores, the presets, and the legal choices per
rule set.

The expected values come from the rule texts (seeds 000–004, issue 2), or from the naive scorer
below, which is written straight from the rule texts and shares no code with kniffel.engine.rules.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kniffel.engine.dice import Roll, all_rolls
from kniffel.engine.errors import (
    InvalidDiceError,
    KniffelError,
    UnknownBoxError,
    UnknownRuleSetError,
)
from kniffel.engine.rules import (
    BOX_TEXTS,
    DEFAULT_RULES,
    PRESETS,
    Box,
    Choice,
    Entry,
    ExtraKniffel,
    RuleSet,
    StrikeRule,
    choices,
    evaluate,
    fits,
    points,
    preset,
)

EXTREME = preset("extreme")
CLASSIC = preset("kniffel")
CHAMPIONSHIP = preset("kniffel-championship")
YAHTZEE = preset("yahtzee")
ALL_PRESETS = (EXTREME, CLASSIC, CHAMPIONSHIP, YAHTZEE)

# Copied from the spec, section 1 "Rule sets".
_SPEC_EXTREME_TEXT = (
    "ones twos threes fours fives sixes three_of_a_kind two_pairs four_of_a_kind three_pairs "
    "two_triples full_house large_full_house small_straight large_straight highway kniffel "
    "kniffel_extreme ten_or_less thirty_three_or_more chance super_chance"
)
_SPEC_CLASSIC_TEXT = (
    "ones twos threes fours fives sixes three_of_a_kind four_of_a_kind full_house small_straight "
    "large_straight kniffel chance"
)
SPEC_EXTREME_BOXES = _SPEC_EXTREME_TEXT.split()
SPEC_CLASSIC_BOXES = _SPEC_CLASSIC_TEXT.split()

SPEC_CLASSIC_BOXES_AS_BOXES = tuple(Box(v) for v in SPEC_CLASSIC_BOXES)

UPPER = (Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES)

EVAL_NAMESPACE: dict[str, object] = {
    "Roll": Roll,
    "Box": Box,
    "RuleSet": RuleSet,
    "StrikeRule": StrikeRule,
    "ExtraKniffel": ExtraKniffel,
}


def x(text: str) -> Roll:
    """An Extreme roll: five d6, then the d10."""
    return Roll.parse(text, d10=True)


def c(text: str) -> Roll:
    """A classic roll of five d6."""
    return Roll.parse(text, d10=False)


# --- a naive scorer written from the rule texts -----------------------------------------------


def naive_evaluate(values: Sequence[int]) -> dict[Box, int | None]:
    """Points per box for the dice ``values`` (None: the condition is not met)."""
    vals = list(values)
    total = sum(vals)
    distinct = set(vals)

    def faces_at_least(n: int) -> list[int]:
        return [v for v in distinct if vals.count(v) >= n]

    def has_run(length: int) -> bool:
        return any(all(start + i in distinct for i in range(length)) for start in range(10))

    def a_then_other(n: int, m: int) -> bool:
        return any(a != b for a in faces_at_least(n) for b in faces_at_least(m))

    flat: dict[Box, tuple[bool, int]] = {
        Box.THREE_PAIRS: (len(faces_at_least(2)) >= 3, 35),
        Box.TWO_TRIPLES: (len(faces_at_least(3)) >= 2, 45),
        Box.FULL_HOUSE: (a_then_other(3, 2), 25),
        Box.LARGE_FULL_HOUSE: (a_then_other(4, 2), 45),
        Box.SMALL_STRAIGHT: (has_run(4), 30),
        Box.LARGE_STRAIGHT: (has_run(5), 40),
        Box.HIGHWAY: (has_run(6), 50),
        Box.KNIFFEL: (bool(faces_at_least(5)), 50),
        Box.KNIFFEL_EXTREME: (bool(faces_at_least(6)), 75),
        Box.TEN_OR_LESS: (total <= 10, 40),
        Box.THIRTY_THREE_OR_MORE: (total >= 33, 40),
    }
    summed: dict[Box, bool] = {
        Box.THREE_OF_A_KIND: bool(faces_at_least(3)),
        Box.FOUR_OF_A_KIND: bool(faces_at_least(4)),
        Box.TWO_PAIRS: len(faces_at_least(2)) >= 2,
        Box.CHANCE: True,
    }
    out: dict[Box, int | None] = {}
    for face, box in enumerate(UPPER, start=1):
        out[box] = face * vals.count(face) if face in distinct else None
    for box, (ok, pts) in flat.items():
        out[box] = pts if ok else None
    for box, ok in summed.items():
        out[box] = total if ok else None
    out[Box.SUPER_CHANCE] = 2 * total
    assert set(out) == set(Box)
    return out


def every_sorted_roll(*, d10: bool) -> Iterable[tuple[int, ...]]:
    """Every distinct roll as its values, enumerated here without kniffel.engine.dice."""
    for d6 in itertools.combinations_with_replacement(range(1, 7), 5):
        if d10:
            for ten in range(10):
                yield (*d6, ten)
        else:
            yield d6


# --- the rulebook examples --------------------------------------------------------------------

RULEBOOK_EXAMPLE = {
    Box.FIVES: 15,
    Box.SIXES: 18,
    Box.THREE_OF_A_KIND: 33,
    Box.TWO_PAIRS: 33,
    Box.TWO_TRIPLES: 45,
    Box.FULL_HOUSE: 25,
    Box.THIRTY_THREE_OR_MORE: 40,
    Box.CHANCE: 33,
    Box.SUPER_CHANCE: 66,
}


@pytest.mark.parametrize("roll", [x("5 5 5 6 6 6"), x("5 5 6 6 6 5")])
def test_rulebook_example_three_fives_three_sixes_fits_exactly_the_listed_boxes(
    roll: Roll,
) -> None:
    got = {box: pts for box, pts in evaluate(roll).items() if pts is not None}
    assert got == RULEBOOK_EXAMPLE


def test_rulebook_example_holds_with_the_d10_as_a_six_or_as_a_five() -> None:
    assert Roll((5, 5, 5, 6, 6), d10=6) == x("5 5 5 6 6 6")
    assert Roll((5, 5, 6, 6, 6), d10=5) == x("5 5 6 6 6 5")
    for roll in (x("5 5 5 6 6 6"), x("5 5 6 6 6 5")):
        for box in EXTREME.boxes:
            assert fits(box, roll) == (box in RULEBOOK_EXAMPLE)
            assert points(box, roll) == RULEBOOK_EXAMPLE.get(box, 0)


def test_classic_melanie_example_three_fives_two_threes() -> None:
    roll = c("5 5 5 3 3")
    got = {box: evaluate(roll)[box] for box in CLASSIC.boxes if evaluate(roll)[box] is not None}
    # Seed 003: fives 15, threes 6, three of a kind 21, full house 25; chance takes any roll.
    assert got == {
        Box.THREES: 6,
        Box.FIVES: 15,
        Box.THREE_OF_A_KIND: 21,
        Box.FULL_HOUSE: 25,
        Box.CHANCE: 21,
    }


def test_championship_example_five_fours_scores_twenty_in_fitting_boxes() -> None:
    roll = c("4 4 4 4 4")
    for box in (Box.FOURS, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.CHANCE):
        assert points(box, roll) == 20
    for box in (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT):
        assert not fits(box, roll)
    assert points(Box.KNIFFEL, roll) == 50


# --- upper boxes ------------------------------------------------------------------------------


def test_upper_box_counts_the_d10_showing_its_face() -> None:
    assert points(Box.FIVES, x("1 2 3 4 5 5")) == 10
    assert points(Box.ONES, x("1 2 3 4 5 1")) == 2
    assert points(Box.SIXES, x("6 6 1 2 3 6")) == 18
    assert points(Box.TWOS, x("1 1 3 4 5 2")) == 2


def test_six_fives_with_the_d10_score_thirty_in_fives() -> None:
    assert points(Box.FIVES, x("5 5 5 5 5 5")) == 30


@pytest.mark.parametrize("ten", [0, 7, 8, 9])
def test_d10_zero_seven_eight_nine_count_in_no_upper_box(ten: int) -> None:
    roll = x(f"1 1 2 3 4 {ten}")
    assert {box: points(box, roll) for box in UPPER} == {
        Box.ONES: 2, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 0, Box.SIXES: 0,
    }


def test_upper_box_needs_at_least_one_die_of_its_face() -> None:
    roll = x("1 1 2 3 4 0")
    assert not fits(Box.FIVES, roll)
    assert not fits(Box.SIXES, roll)
    assert fits(Box.FIVES, x("1 1 2 3 4 5"))
    assert not fits(Box.SIXES, c("1 2 3 4 5"))
    assert fits(Box.ONES, c("1 2 3 4 5"))


# --- Extreme lower boxes ----------------------------------------------------------------------


def test_three_of_a_kind_scores_the_sum_of_all_six_dice() -> None:
    assert points(Box.THREE_OF_A_KIND, x("2 2 2 5 6 9")) == 26


def test_three_of_a_kind_counts_the_d10_as_the_third() -> None:
    assert points(Box.THREE_OF_A_KIND, x("1 2 2 5 6 2")) == 18


def test_three_of_a_kind_needs_three_equal() -> None:
    assert not fits(Box.THREE_OF_A_KIND, x("2 2 5 5 6 9"))


def test_three_of_a_kind_can_reach_thirty_nine() -> None:
    # Seed 000: "bis zu 39".
    assert points(Box.THREE_OF_A_KIND, x("6 6 6 6 6 9")) == 39
    assert EXTREME.max_points(Box.THREE_OF_A_KIND) == 39


def test_four_of_a_kind_needs_four_equal_and_scores_the_sum() -> None:
    assert points(Box.FOUR_OF_A_KIND, x("3 3 3 3 6 9")) == 27
    assert points(Box.FOUR_OF_A_KIND, x("3 3 3 1 6 3")) == 19
    assert not fits(Box.FOUR_OF_A_KIND, x("3 3 3 6 6 6"))


def test_two_pairs_fits_two_different_pairs_and_scores_the_sum() -> None:
    assert points(Box.TWO_PAIRS, x("1 1 2 2 3 4")) == 13
    assert points(Box.TWO_PAIRS, x("1 3 3 4 5 1")) == 17


def test_two_pairs_accepts_four_plus_two() -> None:
    assert points(Box.TWO_PAIRS, x("3 3 3 3 6 6")) == 24


def test_two_pairs_rejects_four_plus_one_plus_one() -> None:
    assert not fits(Box.TWO_PAIRS, x("3 3 3 3 1 6"))


def test_two_pairs_rejects_six_equal() -> None:
    assert not fits(Box.TWO_PAIRS, x("4 4 4 4 4 4"))


def test_two_pairs_rejects_five_plus_one() -> None:
    assert not fits(Box.TWO_PAIRS, x("4 4 4 4 4 1"))


def test_two_pairs_can_reach_thirty_seven() -> None:
    # Seed 000: "bis zu 37".
    assert points(Box.TWO_PAIRS, x("6 6 6 5 5 9")) == 37
    assert EXTREME.max_points(Box.TWO_PAIRS) == 37


def test_three_pairs_scores_35_for_three_different_pairs() -> None:
    assert points(Box.THREE_PAIRS, x("1 1 2 2 3 3")) == 35
    assert points(Box.THREE_PAIRS, x("6 6 1 4 4 1")) == 35


def test_three_pairs_rejects_four_plus_two_and_six_equal() -> None:
    assert not fits(Box.THREE_PAIRS, x("3 3 3 3 6 6"))
    assert not fits(Box.THREE_PAIRS, x("2 2 2 2 2 2"))
    assert not fits(Box.THREE_PAIRS, x("2 2 3 3 4 5"))


def test_three_pairs_rejects_two_triples() -> None:
    # 3+3 has only two different values, each at least twice.
    assert not fits(Box.THREE_PAIRS, x("2 2 2 3 3 3"))


def test_two_triples_scores_45_for_two_different_triples() -> None:
    assert points(Box.TWO_TRIPLES, x("2 2 2 3 3 3")) == 45


def test_two_triples_rejects_four_plus_two_and_six_equal() -> None:
    assert not fits(Box.TWO_TRIPLES, x("2 2 2 2 3 3"))
    assert not fits(Box.TWO_TRIPLES, x("2 2 2 2 2 2"))


def test_extreme_full_house_accepts_three_plus_two_plus_one() -> None:
    assert points(Box.FULL_HOUSE, x("4 4 4 3 3 9")) == 25


def test_extreme_full_house_accepts_three_plus_three() -> None:
    assert points(Box.FULL_HOUSE, x("4 4 4 3 3 3")) == 25


def test_extreme_full_house_accepts_four_plus_two() -> None:
    assert points(Box.FULL_HOUSE, x("4 4 4 4 3 3")) == 25


def test_extreme_full_house_rejects_five_plus_one() -> None:
    assert not fits(Box.FULL_HOUSE, x("4 4 4 4 4 3"))


def test_extreme_full_house_rejects_six_equal_and_three_plus_singles() -> None:
    assert not fits(Box.FULL_HOUSE, x("4 4 4 4 4 4"))
    assert not fits(Box.FULL_HOUSE, x("4 4 4 1 2 3"))
    assert not fits(Box.FULL_HOUSE, x("4 4 4 4 1 2"))


def test_large_full_house_scores_45_for_four_plus_two() -> None:
    assert points(Box.LARGE_FULL_HOUSE, x("6 6 6 6 1 1")) == 45
    assert points(Box.LARGE_FULL_HOUSE, x("6 6 6 1 1 6")) == 45


def test_large_full_house_rejects_five_plus_one_three_plus_three_and_six_equal() -> None:
    assert not fits(Box.LARGE_FULL_HOUSE, x("6 6 6 6 6 1"))
    assert not fits(Box.LARGE_FULL_HOUSE, x("6 6 6 1 1 1"))
    assert not fits(Box.LARGE_FULL_HOUSE, x("6 6 6 6 6 6"))
    assert not fits(Box.LARGE_FULL_HOUSE, x("6 6 6 6 1 2"))


def test_small_straight_scores_30_for_four_in_a_row() -> None:
    assert points(Box.SMALL_STRAIGHT, x("3 4 5 6 6 9")) == 30
    assert points(Box.SMALL_STRAIGHT, x("1 2 3 4 3 9")) == 30  # rulebook example


def test_small_straight_runs_from_the_d10_zero() -> None:
    assert points(Box.SMALL_STRAIGHT, x("1 2 3 6 6 0")) == 30
    assert not fits(Box.SMALL_STRAIGHT, x("1 2 3 6 6 9"))


def test_small_straight_runs_to_the_d10_seven() -> None:
    assert points(Box.SMALL_STRAIGHT, x("4 5 6 1 1 7")) == 30
    assert not fits(Box.SMALL_STRAIGHT, x("4 5 6 1 1 8"))


def test_small_straight_rejects_a_gap() -> None:
    assert not fits(Box.SMALL_STRAIGHT, x("1 2 4 5 6 9"))


def test_large_straight_scores_40_for_five_in_a_row() -> None:
    assert points(Box.LARGE_STRAIGHT, x("2 3 4 5 6 3")) == 40  # rulebook example


def test_large_straight_runs_three_to_seven_with_the_d10() -> None:
    assert points(Box.LARGE_STRAIGHT, x("3 4 5 6 6 7")) == 40
    roll = x("3 4 5 6 6 8")
    assert not fits(Box.LARGE_STRAIGHT, roll)
    assert fits(Box.SMALL_STRAIGHT, roll)


def test_large_straight_runs_zero_to_four_with_the_d10() -> None:
    assert points(Box.LARGE_STRAIGHT, x("1 2 3 4 4 0")) == 40


def test_highway_scores_50_for_six_in_a_row() -> None:
    assert points(Box.HIGHWAY, x("1 2 3 4 5 6")) == 50
    assert points(Box.HIGHWAY, x("2 3 4 5 6 7")) == 50
    assert points(Box.HIGHWAY, x("1 2 3 4 5 0")) == 50
    assert points(Box.HIGHWAY, x("1 3 4 5 6 2")) == 50


def test_highway_rejects_five_in_a_row() -> None:
    roll = x("1 2 3 4 5 8")
    assert not fits(Box.HIGHWAY, roll)
    assert points(Box.LARGE_STRAIGHT, roll) == 40


def test_kniffel_scores_50_for_five_equal_d6() -> None:
    assert points(Box.KNIFFEL, x("2 2 2 2 2 9")) == 50


def test_kniffel_counts_the_d10_as_the_fifth() -> None:
    assert points(Box.KNIFFEL, x("2 2 2 2 5 2")) == 50


def test_kniffel_accepts_six_equal() -> None:
    assert points(Box.KNIFFEL, x("2 2 2 2 2 2")) == 50


def test_kniffel_rejects_four_equal() -> None:
    assert not fits(Box.KNIFFEL, x("2 2 2 2 5 5"))


def test_kniffel_extreme_scores_75_for_six_equal() -> None:
    assert points(Box.KNIFFEL_EXTREME, x("6 6 6 6 6 6")) == 75
    assert points(Box.KNIFFEL_EXTREME, x("1 1 1 1 1 1")) == 75


def test_kniffel_extreme_rejects_five_equal() -> None:
    assert not fits(Box.KNIFFEL_EXTREME, x("6 6 6 6 6 5"))
    assert not fits(Box.KNIFFEL_EXTREME, x("6 6 6 6 5 6"))


def test_ten_or_less_fits_a_sum_of_ten_but_not_eleven() -> None:
    assert points(Box.TEN_OR_LESS, x("1 1 1 1 1 5")) == 40
    assert points(Box.TEN_OR_LESS, x("1 1 2 2 2 2")) == 40
    assert points(Box.TEN_OR_LESS, x("1 1 1 1 1 0")) == 40
    assert not fits(Box.TEN_OR_LESS, x("1 1 1 1 1 6"))
    assert not fits(Box.TEN_OR_LESS, x("1 1 1 1 2 5"))


def test_thirty_three_or_more_fits_a_sum_of_33_but_not_32() -> None:
    assert points(Box.THIRTY_THREE_OR_MORE, x("6 6 6 6 6 3")) == 40
    assert points(Box.THIRTY_THREE_OR_MORE, x("6 6 6 5 1 9")) == 40
    assert not fits(Box.THIRTY_THREE_OR_MORE, x("6 6 6 6 6 2"))
    assert not fits(Box.THIRTY_THREE_OR_MORE, x("6 6 6 5 1 8"))


def test_chance_scores_the_sum_of_all_six_dice_and_super_chance_twice_that() -> None:
    roll = x("1 2 3 4 6 9")
    assert points(Box.CHANCE, roll) == 25
    assert points(Box.SUPER_CHANCE, roll) == 50
    assert points(Box.CHANCE, x("1 1 1 1 1 0")) == 5


# --- classic boxes ----------------------------------------------------------------------------


def test_classic_full_house_needs_three_and_two_of_another_value() -> None:
    assert points(Box.FULL_HOUSE, c("4 4 4 1 1")) == 25  # seed 003's example
    assert not fits(Box.FULL_HOUSE, c("4 4 4 4 1"))
    assert not fits(Box.FULL_HOUSE, c("4 4 4 4 4"))
    assert not fits(Box.FULL_HOUSE, c("4 4 4 1 2"))


def test_classic_straights_need_four_and_five_in_a_row() -> None:
    for small in ("1 2 3 4 3", "2 3 4 5 2", "3 4 5 6 1", "1 2 3 4 6"):
        assert points(Box.SMALL_STRAIGHT, c(small)) == 30
        assert not fits(Box.LARGE_STRAIGHT, c(small))
    for large in ("1 2 3 4 5", "2 3 4 5 6"):
        assert points(Box.LARGE_STRAIGHT, c(large)) == 40
        assert points(Box.SMALL_STRAIGHT, c(large)) == 30
    assert not fits(Box.SMALL_STRAIGHT, c("1 2 4 5 6"))


def test_classic_three_and_four_of_a_kind_score_all_five_dice() -> None:
    assert points(Box.THREE_OF_A_KIND, c("2 2 2 5 6")) == 17
    assert points(Box.FOUR_OF_A_KIND, c("2 2 2 2 6")) == 14
    assert not fits(Box.FOUR_OF_A_KIND, c("2 2 2 6 6"))


def test_classic_kniffel_scores_50_and_chance_the_sum() -> None:
    assert points(Box.KNIFFEL, c("3 3 3 3 3")) == 50
    assert not fits(Box.KNIFFEL, c("3 3 3 3 2"))
    assert points(Box.CHANCE, c("3 3 3 3 2")) == 14


# --- exhaustive comparisons and invariants ----------------------------------------------------


def test_evaluate_matches_the_naive_scorer_on_all_2520_extreme_rolls() -> None:
    seen = 0
    for values in every_sorted_roll(d10=True):
        roll = Roll(values[:5], values[5])
        assert dict(evaluate(roll)) == naive_evaluate(values), roll
        seen += 1
    assert seen == 2520


def test_evaluate_matches_the_naive_scorer_on_all_252_classic_rolls() -> None:
    seen = 0
    for values in every_sorted_roll(d10=False):
        got = evaluate(Roll(values))
        expected = naive_evaluate(values)
        assert {b: got[b] for b in CLASSIC.boxes} == {b: expected[b] for b in CLASSIC.boxes}
        seen += 1
    assert seen == 252


def test_points_and_fits_agree_with_evaluate_on_all_rolls() -> None:
    for roll in (*all_rolls(d10=True), *all_rolls(d10=False)):
        values = evaluate(roll)
        for box in Box:
            assert fits(box, roll) == (values[box] is not None)
            assert points(box, roll) == (values[box] or 0)


def test_super_chance_is_twice_chance_on_all_extreme_rolls() -> None:
    for roll in all_rolls(d10=True):
        assert points(Box.CHANCE, roll) == sum(roll.values)
        assert points(Box.SUPER_CHANCE, roll) == 2 * points(Box.CHANCE, roll)
        assert fits(Box.CHANCE, roll)
        assert fits(Box.SUPER_CHANCE, roll)


IMPLICATIONS: tuple[tuple[Box, Box], ...] = (
    (Box.KNIFFEL_EXTREME, Box.KNIFFEL),
    (Box.KNIFFEL, Box.FOUR_OF_A_KIND),
    (Box.FOUR_OF_A_KIND, Box.THREE_OF_A_KIND),
    (Box.HIGHWAY, Box.LARGE_STRAIGHT),
    (Box.LARGE_STRAIGHT, Box.SMALL_STRAIGHT),
    (Box.LARGE_FULL_HOUSE, Box.FULL_HOUSE),
    (Box.LARGE_FULL_HOUSE, Box.TWO_PAIRS),
    (Box.LARGE_FULL_HOUSE, Box.FOUR_OF_A_KIND),
    (Box.TWO_TRIPLES, Box.FULL_HOUSE),
    (Box.TWO_TRIPLES, Box.TWO_PAIRS),
    (Box.THREE_PAIRS, Box.TWO_PAIRS),
    (Box.FULL_HOUSE, Box.THREE_OF_A_KIND),
    (Box.FULL_HOUSE, Box.TWO_PAIRS),
)


@pytest.mark.parametrize(("strong", "weak"), IMPLICATIONS)
def test_a_roll_fitting_a_box_fits_its_weaker_sibling_on_all_extreme_rolls(
    strong: Box, weak: Box
) -> None:
    strong_count = 0
    for roll in all_rolls(d10=True):
        if fits(strong, roll):
            strong_count += 1
            assert fits(weak, roll), (strong, weak, roll)
    assert strong_count > 0, "the stronger box fits at least one roll"


@pytest.mark.parametrize(("strong", "weak"), IMPLICATIONS)
def test_a_roll_fitting_a_box_fits_its_weaker_sibling_on_all_classic_rolls(
    strong: Box, weak: Box
) -> None:
    for roll in all_rolls(d10=False):
        if fits(strong, roll):
            assert fits(weak, roll), (strong, weak, roll)


def test_sum_boxes_score_the_total_wherever_they_fit() -> None:
    for roll in all_rolls(d10=True):
        for box in (Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.TWO_PAIRS):
            if fits(box, roll):
                assert points(box, roll) == roll.total


def test_upper_boxes_score_face_times_count_on_all_extreme_rolls() -> None:
    for roll in all_rolls(d10=True):
        for face, box in enumerate(UPPER, start=1):
            assert points(box, roll) == face * roll.values.count(face)


def test_ten_or_less_and_thirty_three_or_more_never_fit_together() -> None:
    for roll in all_rolls(d10=True):
        assert not (fits(Box.TEN_OR_LESS, roll) and fits(Box.THIRTY_THREE_OR_MORE, roll))
        assert fits(Box.TEN_OR_LESS, roll) == (roll.total <= 10)
        assert fits(Box.THIRTY_THREE_OR_MORE, roll) == (roll.total >= 33)


@st.composite
def extreme_rolls(draw: st.DrawFn) -> Roll:
    d6 = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))
    return Roll(d6, draw(st.integers(0, 9)))


@st.composite
def classic_rolls(draw: st.DrawFn) -> Roll:
    return Roll(draw(st.lists(st.integers(1, 6), min_size=5, max_size=5)))


@given(extreme_rolls(), st.permutations(range(5)))
def test_evaluate_does_not_depend_on_the_order_of_the_d6(roll: Roll, order: list[int]) -> None:
    shuffled = Roll([roll.d6[i] for i in order], roll.d10)
    assert evaluate(shuffled) == evaluate(roll)


@given(extreme_rolls())
def test_every_extreme_score_is_a_possible_point_value(roll: Roll) -> None:
    for box in EXTREME.boxes:
        assert points(box, roll) in EXTREME.possible_points(box)


@given(classic_rolls())
def test_every_classic_score_is_a_possible_point_value(roll: Roll) -> None:
    for rules in (CLASSIC, CHAMPIONSHIP, YAHTZEE):
        for box in rules.boxes:
            assert points(box, roll) in rules.possible_points(box)


# --- possible_points and max_points -----------------------------------------------------------


def test_extreme_fives_can_hold_zero_to_thirty_in_steps_of_five() -> None:
    assert EXTREME.possible_points(Box.FIVES) == frozenset(range(0, 31, 5))


def test_classic_fives_can_hold_zero_to_twenty_five_in_steps_of_five() -> None:
    for rules in (CLASSIC, CHAMPIONSHIP, YAHTZEE):
        assert rules.possible_points(Box.FIVES) == frozenset(range(0, 26, 5))


def test_upper_boxes_can_hold_every_multiple_of_their_face() -> None:
    for face, box in enumerate(UPPER, start=1):
        assert EXTREME.possible_points(box) == frozenset(face * n for n in range(7))
        assert CLASSIC.possible_points(box) == frozenset(face * n for n in range(6))


def test_full_house_can_hold_only_zero_or_twenty_five() -> None:
    assert EXTREME.possible_points(Box.FULL_HOUSE) == {0, 25}
    assert CLASSIC.possible_points(Box.FULL_HOUSE) == {0, 25}


def test_flat_boxes_can_hold_zero_or_their_points() -> None:
    for box, pts in {
        Box.THREE_PAIRS: 35, Box.TWO_TRIPLES: 45, Box.LARGE_FULL_HOUSE: 45,
        Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.HIGHWAY: 50, Box.KNIFFEL: 50,
        Box.KNIFFEL_EXTREME: 75, Box.TEN_OR_LESS: 40, Box.THIRTY_THREE_OR_MORE: 40,
    }.items():
        assert EXTREME.possible_points(box) == {0, pts}


@pytest.mark.parametrize("d10", [True, False])
def test_sum_boxes_can_hold_only_sums_a_qualifying_roll_can_have(d10: bool) -> None:
    rules = EXTREME if d10 else CLASSIC
    boxes = [b for b in rules.boxes if not b.is_upper]
    reachable: dict[Box, set[int]] = {b: {0} for b in boxes}
    for values in every_sorted_roll(d10=d10):
        for box, pts in naive_evaluate(values).items():
            if box in reachable and pts is not None:
                reachable[box].add(pts)
    for box in boxes:
        assert rules.possible_points(box) == reachable[box], box


def test_three_of_a_kind_cannot_hold_an_impossible_sum() -> None:
    classic = CLASSIC.possible_points(Box.THREE_OF_A_KIND)
    assert {1, 2, 3, 4, 31} & classic == set()
    assert {5, 30} <= classic
    extreme = EXTREME.possible_points(Box.THREE_OF_A_KIND)
    assert {4, 40} & extreme == set()
    assert {5, 39} <= extreme


def test_max_points_per_box() -> None:
    assert CLASSIC.max_points(Box.ONES) == 5
    assert CLASSIC.max_points(Box.SIXES) == 30
    assert CLASSIC.max_points(Box.CHANCE) == 30
    assert CLASSIC.max_points(Box.THREE_OF_A_KIND) == 30
    assert EXTREME.max_points(Box.SIXES) == 36
    assert EXTREME.max_points(Box.CHANCE) == 39
    assert EXTREME.max_points(Box.SUPER_CHANCE) == 78


def test_possible_points_rejects_a_box_the_rule_set_lacks() -> None:
    with pytest.raises(UnknownBoxError, match="highway"):
        CLASSIC.possible_points(Box.HIGHWAY)


# --- presets ----------------------------------------------------------------------------------


def test_presets_are_the_five_named_rule_sets_with_extreme_the_default() -> None:
    assert set(PRESETS) == {"extreme", "kniffel", "kniffel-championship", "yahtzee",
                            "kniffel-anleitung"}
    assert DEFAULT_RULES == "extreme" == PRESETS[0]
    for name in PRESETS:
        assert preset(name).name == name
        assert RuleSet.preset(name) == preset(name)


def test_extreme_boxes_are_the_spec_list_in_sheet_order() -> None:
    assert [b.value for b in EXTREME.boxes] == SPEC_EXTREME_BOXES
    assert len(EXTREME.boxes) == 22


@pytest.mark.parametrize("rules", [CLASSIC, CHAMPIONSHIP, YAHTZEE])
def test_classic_boxes_are_the_spec_list_in_sheet_order(rules: RuleSet) -> None:
    assert [b.value for b in rules.boxes] == SPEC_CLASSIC_BOXES
    assert len(rules.boxes) == 13


def test_upper_and_lower_boxes_split_the_sheet() -> None:
    for rules in ALL_PRESETS:
        assert rules.upper_boxes == UPPER
        assert rules.upper_boxes + rules.lower_boxes == rules.boxes
    for box in Box:
        assert box.is_upper == (box in UPPER)
        assert box.face == (UPPER.index(box) + 1 if box in UPPER else None)


def test_extreme_has_d10_bonus_45_at_73_and_three_chips() -> None:
    assert EXTREME.d10
    assert EXTREME.dice_count == 6
    assert (EXTREME.bonus_threshold, EXTREME.bonus_points) == (73, 45)
    assert EXTREME.chips == 3
    assert EXTREME.rolls == 3


@pytest.mark.parametrize("rules", [CLASSIC, CHAMPIONSHIP, YAHTZEE])
def test_classic_rule_sets_have_five_d6_bonus_35_at_63_and_no_chips(rules: RuleSet) -> None:
    assert not rules.d10
    assert rules.dice_count == 5
    assert (rules.bonus_threshold, rules.bonus_points) == (63, 35)
    assert rules.chips == 0
    assert rules.rolls == 3


def test_strike_and_further_kniffel_rules_per_preset() -> None:
    assert (EXTREME.strike, EXTREME.extra_kniffel, EXTREME.extra_kniffel_bonus) == (
        StrikeRule.FORCED, ExtraKniffel.NONE, 0)
    assert (CLASSIC.strike, CLASSIC.extra_kniffel, CLASSIC.extra_kniffel_bonus) == (
        StrikeRule.FORCED, ExtraKniffel.ANY_BOX_AT_MAXIMUM, 50)
    assert (CHAMPIONSHIP.strike, CHAMPIONSHIP.extra_kniffel,
            CHAMPIONSHIP.extra_kniffel_bonus) == (StrikeRule.FREE, ExtraKniffel.CHAMPIONSHIP, 50)
    assert (YAHTZEE.strike, YAHTZEE.extra_kniffel, YAHTZEE.extra_kniffel_bonus) == (
        StrikeRule.ANY_BOX, ExtraKniffel.FREE_JOKER, 100)


def test_free_strike_option_turns_forced_striking_free() -> None:
    assert not EXTREME.free_strike
    assert preset("extreme", free_strike=True).free_strike
    assert preset("kniffel", free_strike=True).free_strike
    assert CHAMPIONSHIP.free_strike
    assert preset("extreme", free_strike=True) != EXTREME
    assert dataclasses.replace(preset("extreme", free_strike=True),
                               strike=StrikeRule.FORCED) == EXTREME


def test_unknown_rule_set_raises_unknown_rule_set_error_naming_it() -> None:
    with pytest.raises(UnknownRuleSetError, match="schummel"):
        preset("schummel")
    with pytest.raises(UnknownRuleSetError, match="poker"):
        RuleSet.preset("poker")
    assert issubclass(UnknownRuleSetError, KniffelError)


@pytest.mark.parametrize(
    "rules",
    [*ALL_PRESETS, preset("extreme", free_strike=True), preset("kniffel", free_strike=True)],
)
def test_rule_set_repr_rebuilds_the_preset(rules: RuleSet) -> None:
    rebuilt = eval(repr(rules), EVAL_NAMESPACE)
    assert rebuilt == rules
    assert rebuilt.free_strike == rules.free_strike


def test_rule_set_repr_rebuilds_a_custom_rule_set() -> None:
    custom = dataclasses.replace(EXTREME, name="house", chips=1, bonus_points=50)
    assert eval(repr(custom), EVAL_NAMESPACE) == custom


def test_box_repr_rebuilds_every_box() -> None:
    for box in Box:
        assert eval(repr(box), EVAL_NAMESPACE) is box


def test_box_parse_reads_every_canonical_id() -> None:
    for box in Box:
        assert Box.parse(box.value) is box
        assert Box.parse(box) is box
        assert str(box) == box.value


@pytest.mark.parametrize("text", ["yahtzee", "sevens", "", "full house!"])
def test_box_parse_unknown_raises_unknown_box_error_naming_the_value(text: str) -> None:
    with pytest.raises(UnknownBoxError) as info:
        Box.parse(text)
    assert repr(text) in str(info.value)


def test_rule_set_box_rejects_boxes_the_rule_set_lacks() -> None:
    assert CLASSIC.box("kniffel") is Box.KNIFFEL
    assert EXTREME.box(Box.HIGHWAY) is Box.HIGHWAY
    for rules in (CLASSIC, CHAMPIONSHIP, YAHTZEE):
        for box in set(Box) - set(SPEC_CLASSIC_BOXES_AS_BOXES):
            with pytest.raises(UnknownBoxError, match=box.value):
                rules.box(box)
    with pytest.raises(UnknownBoxError, match="highway"):
        CLASSIC.box("highway")



def test_check_roll_rejects_a_roll_with_the_wrong_dice() -> None:
    with pytest.raises(InvalidDiceError, match="d10"):
        EXTREME.check_roll(c("1 2 3 4 5"))
    with pytest.raises(InvalidDiceError, match="d10"):
        CLASSIC.check_roll(x("1 2 3 4 5 6"))
    assert EXTREME.parse_roll("5 5 5 6 6 6") == x("5 5 5 6 6 6")
    assert CLASSIC.parse_roll("5 5 5 6 6") == c("5 5 5 6 6")


# --- box names --------------------------------------------------------------------------------


def test_every_box_has_a_german_and_an_english_name() -> None:
    assert set(BOX_TEXTS) == set(Box)
    for rules in ALL_PRESETS:
        for lang in ("de", "en"):
            names = [rules.box_name(b, lang) for b in rules.boxes]
            assert all(n.strip() for n in names)
            assert len(set(names)) == len(names), (rules.name, lang)
    for text in BOX_TEXTS.values():
        assert text.rule("de").strip()
        assert text.rule("en").strip()


def test_german_box_names_follow_the_extreme_pad() -> None:
    # Seed 002's table ("Feld").
    expected = {
        Box.THREE_OF_A_KIND: "Dreierpasch", Box.TWO_PAIRS: "Zwei Paare",
        Box.FOUR_OF_A_KIND: "Viererpasch", Box.THREE_PAIRS: "Drei Paare",
        Box.TWO_TRIPLES: "Zwei Dreier", Box.FULL_HOUSE: "Full House",
        Box.LARGE_FULL_HOUSE: "Großes Full House", Box.SMALL_STRAIGHT: "Kleine Straße",
        Box.LARGE_STRAIGHT: "Große Straße", Box.HIGHWAY: "Highway", Box.KNIFFEL: "Kniffel",
        Box.KNIFFEL_EXTREME: "Kniffel Extreme", Box.TEN_OR_LESS: "10 oder weniger",
        Box.THIRTY_THREE_OR_MORE: "33 oder mehr", Box.CHANCE: "Chance",
        Box.SUPER_CHANCE: "Super-Chance",
    }
    assert {b: EXTREME.box_name(b, "de") for b in expected} == expected


def test_english_box_names_follow_the_extreme_rulebook() -> None:
    # Seed 001's English rulebook.
    expected = {
        Box.ONES: "Ones", Box.TWOS: "Twos", Box.THREES: "Threes", Box.FOURS: "Fours",
        Box.FIVES: "Fives", Box.SIXES: "Sixes", Box.THREE_OF_A_KIND: "Three of a Kind",
        Box.TWO_PAIRS: "Two Pairs", Box.FOUR_OF_A_KIND: "Four of a Kind",
        Box.THREE_PAIRS: "Three Pairs", Box.TWO_TRIPLES: "Two Triples",
        Box.FULL_HOUSE: "Full House", Box.LARGE_FULL_HOUSE: "Large Full House",
        Box.SMALL_STRAIGHT: "Small Straight", Box.LARGE_STRAIGHT: "Large Straight",
        Box.KNIFFEL: "Kniffel", Box.TEN_OR_LESS: "10 or Less",
        Box.THIRTY_THREE_OR_MORE: "33 or More", Box.CHANCE: "Chance",
        Box.SUPER_CHANCE: "Super Chance",
    }
    assert {b: EXTREME.box_name(b, "en") for b in expected} == expected


def test_yahtzee_calls_the_kniffel_box_yahtzee_in_english() -> None:
    assert YAHTZEE.box_name(Box.KNIFFEL, "en") == "Yahtzee"
    assert CLASSIC.box_name(Box.KNIFFEL, "en") == "Kniffel"


# --- choices: helpers -------------------------------------------------------------------------

STRUCK = Entry(0, struck=True)


def sheet_open(rules: RuleSet, open_boxes: Iterable[Box], *,
               kniffel: Entry = STRUCK) -> dict[Box, Entry]:
    """A sheet where only ``open_boxes`` are open; the kniffel box (unless open) holds
    ``kniffel``, every other filled box is struck."""
    still_open = set(open_boxes)
    assert still_open <= set(rules.boxes)
    return {
        b: (kniffel if b is Box.KNIFFEL else STRUCK)
        for b in rules.boxes
        if b not in still_open
    }


def only_kniffel_filled(entry: Entry) -> dict[Box, Entry]:
    return {Box.KNIFFEL: entry}


def scored(cs: Iterable[Choice]) -> dict[Box, int]:
    out: dict[Box, int] = {}
    for ch in cs:
        if not ch.strike:
            assert ch.box not in out, f"{ch.box} offered twice"
            out[ch.box] = ch.points
    return out


def struck(cs: Iterable[Choice]) -> set[Box]:
    out: set[Box] = set()
    for ch in cs:
        if ch.strike:
            assert ch.points == 0
            assert ch.box not in out, f"{ch.box} struck twice"
            out.add(ch.box)
    return out


def bonus_of(cs: Sequence[Choice]) -> int:
    bonuses = {ch.bonus for ch in cs}
    assert len(bonuses) == 1, "every choice of one roll carries the same bonus"
    return bonuses.pop()


def fitting(roll: Roll, boxes: Iterable[Box]) -> dict[Box, int]:
    """The boxes among ``boxes`` whose condition the roll meets, with naive points."""
    naive = naive_evaluate(roll.values)
    return {b: p for b in boxes if (p := naive[b]) is not None}


# --- choices: Kniffel Extreme -----------------------------------------------------------------


def test_extreme_empty_sheet_offers_the_rulebook_example_boxes_and_no_strike() -> None:
    cs = choices(EXTREME, {}, x("5 5 5 6 6 6"))
    assert scored(cs) == RULEBOOK_EXAMPLE
    assert struck(cs) == set()
    assert bonus_of(cs) == 0


def test_extreme_forced_strike_a_fitting_roll_must_go_in_a_fitting_box() -> None:
    sheet = sheet_open(EXTREME, [Box.FIVES, Box.HIGHWAY, Box.ONES])
    cs = choices(EXTREME, sheet, x("5 5 5 6 6 6"))
    assert scored(cs) == {Box.FIVES: 15}
    assert struck(cs) == set()


def test_extreme_forced_strike_a_roll_fitting_no_open_box_strikes_any_open_box() -> None:
    open_boxes = [Box.ONES, Box.HIGHWAY, Box.KNIFFEL_EXTREME, Box.TEN_OR_LESS]
    cs = choices(EXTREME, sheet_open(EXTREME, open_boxes), x("5 5 5 6 6 6"))
    assert scored(cs) == {}
    assert struck(cs) == set(open_boxes)


def test_extreme_upper_box_fits_when_only_the_d10_shows_its_face() -> None:
    sheet = sheet_open(EXTREME, [Box.TWOS, Box.HIGHWAY])
    assert scored(choices(EXTREME, sheet, x("1 1 3 4 6 2"))) == {Box.TWOS: 2}
    cs = choices(EXTREME, sheet, x("1 1 3 4 6 9"))
    assert scored(cs) == {}
    assert struck(cs) == {Box.TWOS, Box.HIGHWAY}


def test_extreme_chance_always_fits_so_it_prevents_a_strike() -> None:
    sheet = sheet_open(EXTREME, [Box.SUPER_CHANCE, Box.KNIFFEL_EXTREME])
    cs = choices(EXTREME, sheet, x("1 2 4 5 6 9"))
    assert scored(cs) == {Box.SUPER_CHANCE: 54}
    assert struck(cs) == set()


def test_extreme_free_strike_offers_strikes_of_every_open_box_always() -> None:
    rules = preset("extreme", free_strike=True)
    open_boxes = [Box.FIVES, Box.HIGHWAY, Box.CHANCE]
    cs = choices(rules, sheet_open(rules, open_boxes), x("5 5 5 6 6 6"))
    assert scored(cs) == {Box.FIVES: 15, Box.CHANCE: 33}
    assert struck(cs) == set(open_boxes)


def test_extreme_has_no_bonus_for_a_further_kniffel_or_kniffel_extreme() -> None:
    roll = x("4 4 4 4 4 4")
    sheet = {Box.KNIFFEL: Entry(50)}
    cs = choices(EXTREME, sheet, roll)
    assert bonus_of(cs) == 0
    assert scored(cs) == fitting(roll, [b for b in EXTREME.boxes if b is not Box.KNIFFEL])
    assert struck(cs) == set()
    sheet = {Box.KNIFFEL: Entry(50), Box.KNIFFEL_EXTREME: Entry(75)}
    assert bonus_of(choices(EXTREME, sheet, roll)) == 0


def test_extreme_further_kniffel_has_no_joker_and_fits_only_its_real_boxes() -> None:
    roll = x("3 3 3 3 3 9")
    sheet = sheet_open(EXTREME, [Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.THREES],
                       kniffel=Entry(50))
    cs = choices(EXTREME, sheet, roll)
    assert scored(cs) == {Box.THREES: 15}
    assert struck(cs) == set()


def test_choices_of_a_full_sheet_are_empty() -> None:
    for rules in ALL_PRESETS:
        full = {b: STRUCK for b in rules.boxes}
        roll = x("1 2 3 4 5 6") if rules.d10 else c("1 2 3 4 5")
        assert choices(rules, full, roll) == ()


def test_choices_reject_a_roll_with_the_wrong_dice() -> None:
    with pytest.raises(InvalidDiceError):
        choices(EXTREME, {}, c("1 2 3 4 5"))
    with pytest.raises(InvalidDiceError):
        choices(YAHTZEE, {}, x("1 2 3 4 5 6"))


def test_choices_list_scores_in_sheet_order_then_strikes() -> None:
    rules = preset("extreme", free_strike=True)
    cs = choices(rules, {}, x("5 5 5 6 6 6"))
    scores = [ch.box for ch in cs if not ch.strike]
    strikes = [ch.box for ch in cs if ch.strike]
    assert [ch.strike for ch in cs] == [False] * len(scores) + [True] * len(strikes)
    assert scores == [b for b in rules.boxes if b in scores]
    assert strikes == list(rules.boxes)


@given(
    extreme_rolls(),
    st.sets(st.sampled_from(EXTREME.boxes)),
    st.booleans(),
)
def test_extreme_choices_follow_the_strike_rule_for_any_sheet(
    roll: Roll, filled: set[Box], free: bool
) -> None:
    rules = preset("extreme", free_strike=free)
    sheet = {b: Entry(50) if b is Box.KNIFFEL else STRUCK for b in filled}
    open_boxes = [b for b in rules.boxes if b not in filled]
    cs = choices(rules, sheet, roll)
    expected_scores = fitting(roll, open_boxes)
    assert scored(cs) == expected_scores
    if free or not expected_scores:
        assert struck(cs) == set(open_boxes)
    else:
        assert struck(cs) == set()
    assert all(ch.bonus == 0 for ch in cs)


# --- choices: classic kniffel -----------------------------------------------------------------


def test_classic_melanie_roll_offers_its_fitting_boxes() -> None:
    cs = choices(CLASSIC, {}, c("5 5 5 3 3"))
    assert scored(cs) == {Box.THREES: 6, Box.FIVES: 15, Box.THREE_OF_A_KIND: 21,
                          Box.FULL_HOUSE: 25, Box.CHANCE: 21}
    assert struck(cs) == set()


def test_classic_forced_strike_when_no_open_box_fits() -> None:
    open_boxes = [Box.FULL_HOUSE, Box.KNIFFEL, Box.SIXES]
    cs = choices(CLASSIC, sheet_open(CLASSIC, open_boxes), c("1 2 3 4 5"))
    assert scored(cs) == {}
    assert struck(cs) == set(open_boxes)


def test_classic_first_kniffel_scores_normally_without_bonus() -> None:
    cs = choices(CLASSIC, {}, c("6 6 6 6 6"))
    assert scored(cs) == {Box.SIXES: 30, Box.THREE_OF_A_KIND: 30, Box.FOUR_OF_A_KIND: 30,
                          Box.KNIFFEL: 50, Box.CHANCE: 30}
    assert bonus_of(cs) == 0


def test_classic_further_kniffel_earns_50_and_any_open_box_at_its_maximum() -> None:
    cs = choices(CLASSIC, only_kniffel_filled(Entry(50)), c("2 2 2 2 2"))
    # Seed 003: the highest possible points of each box, whatever the faces.
    assert scored(cs) == {
        Box.ONES: 5, Box.TWOS: 10, Box.THREES: 15, Box.FOURS: 20, Box.FIVES: 25,
        Box.SIXES: 30, Box.THREE_OF_A_KIND: 30, Box.FOUR_OF_A_KIND: 30, Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.CHANCE: 30,
    }
    assert struck(cs) == set()
    assert bonus_of(cs) == 50


def test_classic_further_kniffel_with_few_open_boxes_scores_their_maximum() -> None:
    sheet = sheet_open(CLASSIC, [Box.LARGE_STRAIGHT, Box.ONES], kniffel=Entry(50))
    cs = choices(CLASSIC, sheet, c("6 6 6 6 6"))
    assert scored(cs) == {Box.LARGE_STRAIGHT: 40, Box.ONES: 5}
    assert struck(cs) == set()
    assert bonus_of(cs) == 50


def test_classic_further_kniffel_with_kniffel_box_struck_has_no_bonus_and_normal_rules() -> None:
    cs = choices(CLASSIC, only_kniffel_filled(STRUCK), c("2 2 2 2 2"))
    assert scored(cs) == {Box.TWOS: 10, Box.THREE_OF_A_KIND: 10, Box.FOUR_OF_A_KIND: 10,
                          Box.CHANCE: 10}
    assert struck(cs) == set()
    assert bonus_of(cs) == 0
    sheet = sheet_open(CLASSIC, [Box.FULL_HOUSE, Box.SMALL_STRAIGHT], kniffel=STRUCK)
    cs = choices(CLASSIC, sheet, c("2 2 2 2 2"))
    assert scored(cs) == {}
    assert struck(cs) == {Box.FULL_HOUSE, Box.SMALL_STRAIGHT}
    assert bonus_of(cs) == 0


def test_classic_with_free_strike_offers_strikes_always() -> None:
    rules = preset("kniffel", free_strike=True)
    cs = choices(rules, {}, c("5 5 5 3 3"))
    assert scored(cs) == fitting(c("5 5 5 3 3"), rules.boxes)
    assert struck(cs) == set(rules.boxes)


# --- choices: kniffel-championship ------------------------------------------------------------


def test_championship_any_open_box_may_be_struck_at_any_time() -> None:
    roll = c("5 5 5 3 3")
    cs = choices(CHAMPIONSHIP, {}, roll)
    assert scored(cs) == fitting(roll, CHAMPIONSHIP.boxes)
    assert struck(cs) == set(CHAMPIONSHIP.boxes)
    assert bonus_of(cs) == 0


def test_championship_further_kniffel_must_go_in_a_fitting_box_at_real_points() -> None:
    cs = choices(CHAMPIONSHIP, only_kniffel_filled(Entry(50)), c("4 4 4 4 4"))
    # Seed 003: fours, three of a kind, four of a kind or chance, each 20; not full house or
    # the straights; no strike while one of these is open.
    assert scored(cs) == {Box.FOURS: 20, Box.THREE_OF_A_KIND: 20, Box.FOUR_OF_A_KIND: 20,
                          Box.CHANCE: 20}
    assert struck(cs) == set()
    assert bonus_of(cs) == 50


def test_championship_further_kniffel_goes_in_the_remaining_fitting_box() -> None:
    sheet = sheet_open(CHAMPIONSHIP, [Box.CHANCE, Box.FULL_HOUSE, Box.LARGE_STRAIGHT, Box.ONES],
                       kniffel=Entry(50))
    cs = choices(CHAMPIONSHIP, sheet, c("4 4 4 4 4"))
    assert scored(cs) == {Box.CHANCE: 20}
    assert struck(cs) == set()
    assert bonus_of(cs) == 50


def test_championship_further_kniffel_with_no_fitting_box_open_strikes_with_bonus() -> None:
    open_boxes = [Box.ONES, Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT]
    sheet = sheet_open(CHAMPIONSHIP, open_boxes, kniffel=Entry(50))
    cs = choices(CHAMPIONSHIP, sheet, c("4 4 4 4 4"))
    assert scored(cs) == {}
    assert struck(cs) == set(open_boxes)
    assert bonus_of(cs) == 50


def test_championship_kniffel_with_kniffel_box_struck_has_no_bonus_and_normal_rules() -> None:
    cs = choices(CHAMPIONSHIP, only_kniffel_filled(STRUCK), c("4 4 4 4 4"))
    assert scored(cs) == {Box.FOURS: 20, Box.THREE_OF_A_KIND: 20, Box.FOUR_OF_A_KIND: 20,
                          Box.CHANCE: 20}
    assert struck(cs) == set(CHAMPIONSHIP.boxes) - {Box.KNIFFEL}
    assert bonus_of(cs) == 0


def test_championship_first_kniffel_scores_normally() -> None:
    cs = choices(CHAMPIONSHIP, {}, c("4 4 4 4 4"))
    assert scored(cs)[Box.KNIFFEL] == 50
    assert bonus_of(cs) == 0


# --- choices: yahtzee -------------------------------------------------------------------------


def test_yahtzee_any_open_box_may_be_scored_zero_where_the_roll_does_not_fit() -> None:
    roll = c("1 2 3 4 6")
    cs = choices(YAHTZEE, {}, roll)
    assert scored(cs) == {
        Box.ONES: 1, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 0, Box.SIXES: 6,
        Box.THREE_OF_A_KIND: 0, Box.FOUR_OF_A_KIND: 0, Box.FULL_HOUSE: 0,
        Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 0, Box.KNIFFEL: 0, Box.CHANCE: 16,
    }
    assert struck(cs) == set()


@given(classic_rolls(), st.sets(st.sampled_from(YAHTZEE.boxes)))
def test_yahtzee_without_joker_scores_every_open_box_at_its_real_points(
    roll: Roll, filled: set[Box]
) -> None:
    if len(set(roll.d6)) == 1 and Box.KNIFFEL in filled:
        return  # the joker applies; tested below
    sheet = {b: STRUCK for b in filled}
    cs = choices(YAHTZEE, sheet, roll)
    naive = naive_evaluate(roll.values)
    assert scored(cs) == {b: naive[b] or 0 for b in YAHTZEE.boxes if b not in filled}
    assert struck(cs) == set()
    if cs:
        assert bonus_of(cs) == 0


def test_yahtzee_first_yahtzee_scores_50_without_bonus() -> None:
    cs = choices(YAHTZEE, {}, c("5 5 5 5 5"))
    assert scored(cs)[Box.KNIFFEL] == 50
    assert scored(cs)[Box.FULL_HOUSE] == 0
    assert bonus_of(cs) == 0


def test_yahtzee_further_yahtzee_may_go_in_any_open_box_while_its_upper_box_is_open() -> None:
    cs = choices(YAHTZEE, only_kniffel_filled(Entry(50)), c("5 5 5 5 5"))
    offered = scored(cs)
    assert offered[Box.FIVES] == 25
    assert offered[Box.ONES] == 0
    assert offered[Box.THREE_OF_A_KIND] == 25
    assert offered[Box.FULL_HOUSE] == 0, "no joker while the fives box is open"
    assert offered[Box.LARGE_STRAIGHT] == 0
    assert set(offered) == set(YAHTZEE.boxes) - {Box.KNIFFEL}
    assert struck(cs) == set()
    assert bonus_of(cs) == 100


def test_yahtzee_joker_scores_full_house_and_straights_in_full_once_its_upper_box_is_filled(
) -> None:
    sheet = {Box.KNIFFEL: Entry(50), Box.FIVES: Entry(15)}
    cs = choices(YAHTZEE, sheet, c("5 5 5 5 5"))
    assert scored(cs) == {
        Box.ONES: 0, Box.TWOS: 0, Box.THREES: 0, Box.FOURS: 0, Box.SIXES: 0,
        Box.THREE_OF_A_KIND: 25, Box.FOUR_OF_A_KIND: 25, Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.CHANCE: 25,
    }
    assert bonus_of(cs) == 100


def test_yahtzee_joker_applies_without_bonus_when_the_yahtzee_box_holds_zero() -> None:
    for zero in (Entry(0), STRUCK):
        sheet = {Box.KNIFFEL: zero, Box.FIVES: Entry(15)}
        cs = choices(YAHTZEE, sheet, c("5 5 5 5 5"))
        assert scored(cs)[Box.FULL_HOUSE] == 25
        assert scored(cs)[Box.LARGE_STRAIGHT] == 40
        assert bonus_of(cs) == 0
        cs = choices(YAHTZEE, only_kniffel_filled(zero), c("5 5 5 5 5"))
        assert scored(cs)[Box.FULL_HOUSE] == 0
        assert bonus_of(cs) == 0


#: The stricter forced-joker reading of Hasbro's rules, a rule variant the engine also knows.
YAHTZEE_FORCED = dataclasses.replace(YAHTZEE, extra_kniffel=ExtraKniffel.FORCED_JOKER)


def test_forced_joker_variant_forces_the_upper_box_of_its_face_when_open() -> None:
    cs = choices(YAHTZEE_FORCED, only_kniffel_filled(Entry(50)), c("5 5 5 5 5"))
    assert scored(cs) == {Box.FIVES: 25}
    assert struck(cs) == set()
    assert bonus_of(cs) == 100


def test_forced_joker_variant_uses_an_open_lower_box_in_full_when_face_box_filled() -> None:
    sheet = {Box.KNIFFEL: Entry(50), Box.FIVES: Entry(15)}
    cs = choices(YAHTZEE_FORCED, sheet, c("5 5 5 5 5"))
    assert scored(cs) == {
        Box.THREE_OF_A_KIND: 25, Box.FOUR_OF_A_KIND: 25, Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.CHANCE: 25,
    }
    assert struck(cs) == set()
    assert bonus_of(cs) == 100


def test_forced_joker_variant_with_only_some_lower_boxes_open() -> None:
    sheet = sheet_open(YAHTZEE_FORCED, [Box.ONES, Box.LARGE_STRAIGHT, Box.CHANCE],
                       kniffel=Entry(50))
    cs = choices(YAHTZEE_FORCED, sheet, c("3 3 3 3 3"))
    assert scored(cs) == {Box.LARGE_STRAIGHT: 40, Box.CHANCE: 15}
    assert bonus_of(cs) == 100


def test_forced_joker_variant_scores_zero_upper_when_no_lower_box_is_open() -> None:
    sheet = sheet_open(YAHTZEE_FORCED, [Box.ONES, Box.SIXES], kniffel=Entry(50))
    cs = choices(YAHTZEE_FORCED, sheet, c("3 3 3 3 3"))
    offered = {ch.box: ch.points for ch in cs}
    assert offered == {Box.ONES: 0, Box.SIXES: 0}
    assert bonus_of(cs) == 100


def test_forced_joker_variant_applies_without_bonus_when_the_yahtzee_box_holds_zero() -> None:
    for zero in (Entry(0), STRUCK):
        cs = choices(YAHTZEE_FORCED, only_kniffel_filled(zero), c("5 5 5 5 5"))
        assert scored(cs) == {Box.FIVES: 25}
        assert bonus_of(cs) == 0
        sheet = {Box.KNIFFEL: zero, Box.FIVES: Entry(15)}
        cs = choices(YAHTZEE_FORCED, sheet, c("5 5 5 5 5"))
        assert scored(cs)[Box.FULL_HOUSE] == 25
        assert scored(cs)[Box.LARGE_STRAIGHT] == 40
        assert Box.ONES not in scored(cs)
        assert bonus_of(cs) == 0


# --- choices: properties over every rule set --------------------------------------------------


@given(
    st.sampled_from([*ALL_PRESETS, preset("extreme", free_strike=True),
                     preset("kniffel", free_strike=True)]),
    st.data(),
)
def test_choices_only_name_open_boxes_of_the_rule_set(rules: RuleSet, data: st.DataObject) -> None:
    roll = data.draw(extreme_rolls() if rules.d10 else classic_rolls())
    filled = data.draw(st.sets(st.sampled_from(rules.boxes)))
    kniffel = data.draw(st.sampled_from([Entry(50), Entry(0), STRUCK]))
    sheet = {b: kniffel if b is Box.KNIFFEL else STRUCK for b in filled}
    cs = choices(rules, sheet, roll)
    open_boxes = set(rules.boxes) - filled
    assert {ch.box for ch in cs} <= open_boxes
    scored(cs)
    struck(cs)
    if open_boxes:
        assert cs, "there is always something to do with an open box"
        bonus = bonus_of(cs)
        assert bonus in (0, rules.extra_kniffel_bonus)
        if bonus:
            assert Box.KNIFFEL in filled
            assert kniffel.points == 50
            assert max(roll.counts()) >= 5
    else:
        assert cs == ()

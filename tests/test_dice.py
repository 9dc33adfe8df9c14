"""Tests for kniffel.engine.dice: rolls, keeps, sub-keeps, outcome distributions and seeded rolling.

Expectations come from the spec (issue 2) and the rule texts, or from plain brute-force
enumerations written here, never from the implementation's own output.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kniffel.engine.dice import Keep, Roll, all_rolls, outcomes, roll_dice, seeded_rng, sub_keeps
from kniffel.engine.errors import InvalidDiceError, InvalidKeepError, KniffelError
from kniffel.engine.rules import Box, ExtraKniffel, RuleSet, StrikeRule

EVAL_NAMESPACE: dict[str, object] = {
    "Roll": Roll,
    "Keep": Keep,
    "Box": Box,
    "RuleSet": RuleSet,
    "StrikeRule": StrikeRule,
    "ExtraKniffel": ExtraKniffel,
}

d6_faces = st.integers(min_value=1, max_value=6)
d10_faces = st.integers(min_value=0, max_value=9)
five_d6 = st.lists(d6_faces, min_size=5, max_size=5)


@st.composite
def extreme_rolls(draw: st.DrawFn) -> Roll:
    return Roll(draw(five_d6), draw(d10_faces))


@st.composite
def classic_rolls(draw: st.DrawFn) -> Roll:
    return Roll(draw(five_d6))


any_roll = st.one_of(extreme_rolls(), classic_rolls())


@st.composite
def keeps(draw: st.DrawFn) -> Keep:
    kept = draw(st.lists(d6_faces, max_size=5))
    ten = draw(st.none() | d10_faces)
    return Keep(kept, ten)


# --- Roll -------------------------------------------------------------------------------------


def test_roll_sorts_the_d6_and_keeps_the_d10_apart() -> None:
    roll = Roll((6, 5, 5, 6, 5), d10=6)
    assert roll.d6 == (5, 5, 5, 6, 6)
    assert roll.d10 == 6
    assert roll.values == (5, 5, 5, 6, 6, 6)
    assert roll.total == 33


def test_roll_without_d10_has_five_values() -> None:
    roll = Roll([3, 1, 2, 5, 4])
    assert roll.d6 == (1, 2, 3, 4, 5)
    assert roll.d10 is None
    assert roll.values == (1, 2, 3, 4, 5)
    assert roll.total == 15


def test_rolls_with_the_same_faces_on_the_same_dice_are_equal_and_hash_equal() -> None:
    a = Roll((6, 5, 5, 6, 5), d10=6)
    b = Roll((5, 6, 5, 6, 5), d10=6)
    assert a == b
    assert hash(a) == hash(b)


def test_the_d10_is_not_interchangeable_with_a_d6() -> None:
    # Same multiset of six faces, but a different face on the d10: different rolls.
    assert Roll((5, 5, 5, 6, 6), d10=6) != Roll((5, 5, 6, 6, 6), d10=5)
    assert Roll((1, 2, 3, 4, 5), d10=6) != Roll((1, 2, 3, 4, 5))


@given(five_d6, st.none() | d10_faces, st.randoms(use_true_random=False))
def test_roll_is_independent_of_the_order_of_the_d6(
    faces: list[int], ten: int | None, rng: random.Random
) -> None:
    shuffled = list(faces)
    rng.shuffle(shuffled)
    assert Roll(faces, ten) == Roll(shuffled, ten)
    assert list(Roll(faces, ten).d6) == sorted(faces)


@given(any_roll)
def test_roll_repr_rebuilds_the_roll(roll: Roll) -> None:
    assert eval(repr(roll), EVAL_NAMESPACE) == roll


@pytest.mark.parametrize(
    ("d6", "d10", "named"),
    [
        ((1, 2, 3, 4), None, "4"),
        ((1, 2, 3, 4, 5, 6), None, "6"),
        ((), 3, "0"),
        ((0, 2, 3, 4, 5), 3, "0"),
        ((1, 2, 3, 4, 7), 3, "7"),
        ((1, 2, 3, 4, 5), 10, "10"),
        ((1, 2, 3, 4, 5), -1, "-1"),
    ],
)
def test_invalid_dice_raise_invalid_dice_error_naming_the_value(
    d6: tuple[int, ...], d10: int | None, named: str
) -> None:
    with pytest.raises(InvalidDiceError) as info:
        Roll(d6, d10)
    assert named in str(info.value)


@pytest.mark.parametrize(
    ("d6", "d10", "named"),
    [
        ((1, 2, True, 4, 5), None, "True"),
        ((1, 2, 3, 4, 5), True, "True"),
        ((1, 2, 3, 4, 5), False, "False"),
        ((1, 2, 3.0, 4, 5), None, "3.0"),
        ((1, 2, "3", 4, 5), None, "'3'"),
        ((1, 2, 3, 4, 5), 4.5, "4.5"),
        ((1, 2, 3, 4, None), None, "None"),
    ],
)
def test_non_integer_dice_raise_invalid_dice_error_naming_the_value(
    d6: tuple[object, ...], d10: object, named: str
) -> None:
    with pytest.raises(InvalidDiceError) as info:
        Roll(d6, d10)  # type: ignore[arg-type]
    assert named in str(info.value)


def test_invalid_dice_error_is_a_kniffel_error_and_a_value_error() -> None:
    with pytest.raises(KniffelError):
        Roll((1, 2, 3, 4, 9))
    with pytest.raises(ValueError, match="9"):
        Roll((1, 2, 3, 4, 9))


@given(five_d6, d10_faces)
def test_every_legal_face_combination_builds_a_roll(faces: list[int], ten: int) -> None:
    assert Roll(faces, ten).total == sum(faces) + ten


# --- Roll.parse -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["5 5 5 6 6 6", "5,5,5,6,6,6", "5, 5, 5, 6, 6, 6", "  6 5\t5 6 5   6 ", "6,5,6,5,5,6"],
)
def test_roll_parse_reads_text_with_the_d10_last(text: str) -> None:
    assert Roll.parse(text, d10=True) == Roll((5, 5, 5, 6, 6), d10=6)


def test_roll_parse_takes_the_last_value_as_the_d10() -> None:
    assert Roll.parse("5 5 6 6 6 5", d10=True) == Roll((5, 5, 6, 6, 6), d10=5)
    assert Roll.parse("1 2 3 4 5 0", d10=True).d10 == 0
    assert Roll.parse("1 2 3 4 5 9", d10=True).d10 == 9


def test_roll_parse_reads_lists_of_ints_and_of_strings() -> None:
    expected = Roll((5, 5, 5, 6, 6), d10=6)
    assert Roll.parse([5, 5, 5, 6, 6, 6], d10=True) == expected
    assert Roll.parse(["5", "5", "5", "6", "6", "6"], d10=True) == expected
    assert Roll.parse([6, 6, 5, 5, 5], d10=False) == Roll((5, 5, 5, 6, 6))


@pytest.mark.parametrize(
    ("text", "d10", "named"),
    [
        ("5 5 5 6 6", True, "5"),
        ("5 5 5 6 6 6 6", True, "7"),
        ("5 5 5 6 6 6", False, "6"),
        ("", True, "0"),
        ("5 5 5 6 x 6", True, "'x'"),
        ("5 5 5 6 6 10", True, "10"),
        ("5 5 5 6 6 -1", True, "-1"),
        ("5 5 5 6 7 6", True, "7"),
        ("0 5 5 6 6 6", True, "0"),
        ("5 5 5 6 2.5 6", True, "2.5"),
    ],
)
def test_roll_parse_rejects_bad_dice_with_a_message_naming_the_problem(
    text: str, d10: bool, named: str
) -> None:
    with pytest.raises(InvalidDiceError) as info:
        Roll.parse(text, d10=d10)
    assert named in str(info.value)


def test_roll_parse_rejects_bools_in_a_list() -> None:
    with pytest.raises(InvalidDiceError, match="True"):
        Roll.parse([5, 5, 5, 6, True, 6], d10=True)


@given(any_roll)
def test_roll_parse_round_trips_the_values(roll: Roll) -> None:
    has_d10 = roll.d10 is not None
    text = " ".join(map(str, roll.values))
    assert Roll.parse(text, d10=has_d10) == roll
    assert Roll.parse(",".join(map(str, roll.values)), d10=has_d10) == roll
    assert Roll.parse(list(roll.values), d10=has_d10) == roll


# --- Keep -------------------------------------------------------------------------------------


def test_keep_sorts_its_d6_and_counts_its_size() -> None:
    keep = Keep((6, 5, 5), d10=5)
    assert keep.d6 == (5, 5, 6)
    assert keep.d10 == 5
    assert keep.size == 4
    assert Keep().size == 0
    assert Keep(d10=0).size == 1


@pytest.mark.parametrize(
    "keep", [Keep(), Keep((5,)), Keep((5, 5), d10=5), Keep(d10=0), Keep((1, 2, 3, 4, 6), d10=9)]
)
def test_keep_repr_rebuilds_the_keep(keep: Keep) -> None:
    assert eval(repr(keep), EVAL_NAMESPACE) == keep


@given(keeps())
def test_keep_repr_rebuilds_any_keep(keep: Keep) -> None:
    assert eval(repr(keep), EVAL_NAMESPACE) == keep


@pytest.mark.parametrize(
    ("d6", "d10", "named"),
    [
        ((1, 1, 1, 1, 1, 1), None, "6"),
        ((0,), None, "0"),
        ((7,), None, "7"),
        ((1,), 10, "10"),
        ((1,), -1, "-1"),
        ((True,), None, "True"),
        ((), True, "True"),
    ],
)
def test_invalid_keep_raises_invalid_keep_error_naming_the_value(
    d6: tuple[int, ...], d10: int | None, named: str
) -> None:
    with pytest.raises(InvalidKeepError) as info:
        Keep(d6, d10)
    assert named in str(info.value)


def test_keep_is_part_of_a_roll_as_a_multiset_with_the_d10_apart() -> None:
    roll = Roll((5, 5, 5, 6, 6), d10=6)
    assert Keep().is_part_of(roll)
    assert Keep((5, 5, 5)).is_part_of(roll)
    assert Keep((6, 6), d10=6).is_part_of(roll)
    assert Keep.everything(roll).is_part_of(roll)
    # Only two d6 show 6; the d10's 6 is not a d6.
    assert not Keep((6, 6, 6)).is_part_of(roll)
    assert not Keep((5, 5, 5, 5)).is_part_of(roll)
    assert not Keep((4,)).is_part_of(roll)
    assert not Keep(d10=5).is_part_of(roll)
    assert not Keep(d10=5).is_part_of(Roll((5, 5, 5, 5, 5)))


def test_keep_check_part_of_raises_for_dice_not_in_the_roll() -> None:
    roll = Roll((1, 2, 3, 4, 5), d10=0)
    Keep((1, 2), d10=0).check_part_of(roll)
    with pytest.raises(InvalidKeepError, match="6"):
        Keep((6,)).check_part_of(roll)


def test_keep_from_positions_picks_sorted_d6_and_position_five_is_the_d10() -> None:
    roll = Roll((6, 1, 4, 1, 3), d10=7)  # d6 sorted: 1 1 3 4 6
    assert Keep.from_positions(roll, [0, 1]) == Keep((1, 1))
    assert Keep.from_positions(roll, [4, 2]) == Keep((3, 6))
    assert Keep.from_positions(roll, [5]) == Keep(d10=7)
    assert Keep.from_positions(roll, range(6)) == Keep.everything(roll)
    assert Keep.from_positions(roll, []) == Keep()
    assert Keep.from_positions(roll, [0, 0, 0]) == Keep((1,))


@pytest.mark.parametrize(
    ("roll", "position"),
    [(Roll((1, 2, 3, 4, 5), d10=0), 6), (Roll((1, 2, 3, 4, 5)), 5), (Roll((1, 2, 3, 4, 5)), -1)],
)
def test_keep_from_positions_rejects_a_position_outside_the_roll(
    roll: Roll, position: int
) -> None:
    with pytest.raises(InvalidKeepError, match="no die"):
        Keep.from_positions(roll, [0, position])


@given(any_roll, st.sets(st.integers(min_value=0, max_value=5)))
def test_keep_from_positions_is_part_of_the_roll(roll: Roll, positions: set[int]) -> None:
    valid = {p for p in positions if p < len(roll.values)}
    keep = Keep.from_positions(roll, valid)
    assert keep.is_part_of(roll)
    assert keep.size == len(valid)
    assert sorted(keep.d6) == sorted(roll.values[p] for p in valid if p < 5)


# --- sub_keeps --------------------------------------------------------------------------------


def _expected_sub_keep_count(roll: Roll) -> int:
    """Sub-multisets of the d6 (product of count+1) times keep-or-not for the d10."""
    n = math.prod(c + 1 for c in Counter(roll.d6).values())
    return n * (2 if roll.d10 is not None else 1)


def test_sub_keeps_of_six_distinct_values_is_two_to_the_sixth() -> None:
    assert len(sub_keeps(Roll((1, 2, 3, 4, 5), d10=6))) == 2**5 * 2


def test_sub_keeps_of_six_equal_values_is_six_times_two() -> None:
    # 0..5 fives among the d6, and the d10 kept or not.
    assert len(sub_keeps(Roll((5, 5, 5, 5, 5), d10=5))) == 6 * 2


def test_sub_keeps_of_a_classic_roll_has_no_d10() -> None:
    keeps_ = sub_keeps(Roll((2, 2, 3, 3, 3)))
    assert len(keeps_) == 3 * 4
    assert all(k.d10 is None for k in keeps_)


def test_sub_keeps_run_from_keeping_nothing_to_keeping_everything() -> None:
    roll = Roll((1, 1, 3, 4, 6), d10=8)
    got = sub_keeps(roll)
    assert Keep() in got
    assert Keep.everything(roll) in got


@given(any_roll)
def test_sub_keeps_are_exactly_the_distinct_keeps_of_every_position_subset(roll: Roll) -> None:
    got = sub_keeps(roll)
    assert len(got) == len(set(got)) == _expected_sub_keep_count(roll)
    n = len(roll.values)
    brute = {
        Keep.from_positions(roll, chosen)
        for r in range(n + 1)
        for chosen in itertools.combinations(range(n), r)
    }
    assert set(got) == brute
    assert all(k.is_part_of(roll) for k in got)


# --- outcomes and all_rolls -------------------------------------------------------------------


def _brute_force_outcomes(keep: Keep, *, d10: bool) -> dict[Roll, float]:
    """Every sequence of the re-rolled dice, equally likely, collapsed to rolls."""
    free = 5 - len(keep.d6)
    tens: list[int | None]
    if not d10:
        tens = [None]
    elif keep.d10 is not None:
        tens = [keep.d10]
    else:
        tens = list(range(10))
    seen: Counter[Roll] = Counter()
    for faces in itertools.product(range(1, 7), repeat=free):
        for ten in tens:
            seen[Roll((*keep.d6, *faces), ten)] += 1
    total = sum(seen.values())
    assert total == 6**free * len(tens)
    return {roll: n / total for roll, n in seen.items()}


@pytest.mark.parametrize(
    ("keep", "d10"),
    [
        (Keep(), True),
        (Keep(), False),
        (Keep((5, 5)), True),
        (Keep((5, 5)), False),
        (Keep((1, 2, 3), d10=0), True),
        (Keep(d10=7), True),
        (Keep((6, 6, 6, 6)), True),
        (Keep((1, 2, 3, 4, 5), d10=6), True),
        (Keep((1, 2, 3, 4, 5)), True),
        (Keep((1, 2, 3, 4, 5)), False),
    ],
)
def test_outcomes_match_a_brute_force_enumeration_of_all_sequences(keep: Keep, d10: bool) -> None:
    got = outcomes(keep, d10=d10)
    expected = _brute_force_outcomes(keep, d10=d10)
    got_map = dict(got)
    assert len(got_map) == len(got), "each roll appears once"
    assert set(got_map) == set(expected)
    for roll, p in expected.items():
        assert got_map[roll] == pytest.approx(p, rel=1e-12)


@given(keeps(), st.booleans())
def test_outcome_probabilities_sum_to_one_and_every_outcome_contains_the_keep(
    keep: Keep, d10: bool
) -> None:
    if keep.d10 is not None and not d10:
        with pytest.raises(InvalidKeepError):
            outcomes(keep, d10=d10)
        return
    got = outcomes(keep, d10=d10)
    assert math.fsum(p for _, p in got) == pytest.approx(1.0, abs=1e-12)
    assert all(p > 0 for _, p in got)
    for roll, _ in got:
        assert keep.is_part_of(roll)
        assert (roll.d10 is not None) == d10


def test_outcomes_of_keeping_everything_is_that_roll_for_sure() -> None:
    roll = Roll((2, 3, 3, 5, 6), d10=9)
    assert outcomes(Keep.everything(roll), d10=True) == ((roll, 1.0),)


def test_outcomes_reject_a_kept_d10_without_a_d10() -> None:
    with pytest.raises(InvalidKeepError, match="d10"):
        outcomes(Keep(d10=3), d10=False)


def test_all_rolls_gives_2520_distinct_extreme_rolls() -> None:
    rolls = all_rolls(d10=True)
    assert len(rolls) == len(set(rolls)) == 2520
    expected = {
        Roll(d6, ten)
        for d6 in itertools.combinations_with_replacement(range(1, 7), 5)
        for ten in range(10)
    }
    assert set(rolls) == expected


def test_all_rolls_gives_252_distinct_classic_rolls() -> None:
    rolls = all_rolls(d10=False)
    assert len(rolls) == len(set(rolls)) == 252
    assert set(rolls) == {Roll(p) for p in itertools.product(range(1, 7), repeat=5)}


# --- roll_dice and seeded_rng -----------------------------------------------------------------


def test_roll_dice_with_a_seeded_random_is_deterministic() -> None:
    keep = Keep((4, 4), d10=2)
    first = [roll_dice(keep, random.Random(1234), d10=True) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng_a, rng_b = random.Random(99), random.Random(99)
    seq_a = [roll_dice(Keep(), rng_a, d10=True) for _ in range(20)]
    seq_b = [roll_dice(Keep(), rng_b, d10=True) for _ in range(20)]
    assert seq_a == seq_b
    assert len(set(seq_a)) > 1, "twenty rolls of a generator are not all the same"


@given(keeps(), st.integers(min_value=0, max_value=2**32))
def test_roll_dice_respects_the_keep(keep: Keep, seed: int) -> None:
    roll = roll_dice(keep, random.Random(seed), d10=True)
    assert keep.is_part_of(roll)
    if keep.d10 is not None:
        assert roll.d10 == keep.d10
    else:
        assert roll.d10 is not None


@given(st.lists(d6_faces, max_size=5), st.integers(min_value=0, max_value=2**32))
def test_roll_dice_without_d10_rolls_five_d6_only(kept: list[int], seed: int) -> None:
    keep = Keep(kept)
    roll = roll_dice(keep, random.Random(seed), d10=False)
    assert roll.d10 is None
    assert keep.is_part_of(roll)


def test_roll_dice_rejects_a_kept_d10_without_a_d10() -> None:
    with pytest.raises(InvalidKeepError, match="d10"):
        roll_dice(Keep(d10=4), random.Random(0), d10=False)


def test_roll_dice_covers_every_face_of_both_dice() -> None:
    rng = random.Random(7)
    d6_seen: set[int] = set()
    d10_seen: set[int] = set()
    for _ in range(600):
        roll = roll_dice(Keep(), rng, d10=True)
        d6_seen.update(roll.d6)
        assert roll.d10 is not None
        d10_seen.add(roll.d10)
    assert d6_seen == set(range(1, 7))
    assert d10_seen == set(range(10))


def test_seeded_rng_is_reproducible_from_seed_and_step() -> None:
    def draw(seed: int, step: int) -> list[int]:
        rng = seeded_rng(seed, step)
        return [rng.randrange(1_000_000) for _ in range(8)]

    assert draw(42, 3) == draw(42, 3)
    assert draw(42, 3) != draw(42, 4)
    assert draw(42, 3) != draw(43, 3)
    # seed and step are not simply added or swapped
    assert draw(1, 2) != draw(2, 1)
    assert draw(1, 2) != draw(0, 3)


def test_seeded_rng_rolls_reproduce_a_throw() -> None:
    keep = Keep((6,))
    assert roll_dice(keep, seeded_rng(5, 0), d10=True) == roll_dice(
        keep, seeded_rng(5, 0), d10=True
    )

"""kniffel.engine.endgame: the exact distribution of the points still to come where few boxes
are open, checked against the exact tables, against a brute-force expectimax written here from
the rules' texts (every roll and keep enumerated by hand, no dice index), and numpy against
pure Python."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest

from kniffel.engine.advice import Position
from kniffel.engine.chances import ChanceModel, PlayerState
from kniffel.engine.dice import Keep, roll_dice
from kniffel.engine.endgame import LIMIT, Endgame, endgame_rest
from kniffel.engine.game import Throw, UseChip
from kniffel.engine.rules import Box, Entry, RuleSet, preset
from kniffel.engine.values import values_for
from kniffel.engine.vectors import numpy_available

CLASSIC = ("kniffel", "kniffel-championship", "yahtzee", "kniffel-anleitung")
UPPER = (Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES)


def _sheet(rules: RuleSet, open_boxes: tuple[Box, ...], kniffel: int | None = None
           ) -> dict[Box, Entry]:
    """A sheet with every box but ``open_boxes`` filled (the kniffel box with ``kniffel``
    points when given)."""
    entries = {b: Entry(0, struck=True) for b in rules.boxes if b not in open_boxes}
    if kniffel is not None and Box.KNIFFEL in entries:
        entries[Box.KNIFFEL] = Entry(kniffel)
    return entries


def _moments(dist_offset: int, probs: tuple[float, ...]) -> tuple[float, float]:
    m1 = sum((dist_offset + k) * p for k, p in enumerate(probs))
    m2 = sum((dist_offset + k) ** 2 * p for k, p in enumerate(probs))
    return m1, m2


# --- a brute-force expectimax of the classic rules (five d6, three throws) ---------------------

#: The classic boxes in sheet order with their flat points and highest points.
FLAT = {Box.FULL_HOUSE: 25, Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.KNIFFEL: 50}
HIGHEST = {**{b: 5 * (i + 1) for i, b in enumerate(UPPER)}, Box.THREE_OF_A_KIND: 30,
           Box.FOUR_OF_A_KIND: 30, Box.CHANCE: 30, **FLAT}
SHEET_ORDER = (*UPPER, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.FULL_HOUSE,
               Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT, Box.KNIFFEL, Box.CHANCE)


def score(box: Box, dice: tuple[int, ...]) -> int | None:
    """The points of ``dice`` in ``box`` as the rule texts say, None where they do not fit."""
    counts = sorted(Counter(dice).values(), reverse=True)
    faces = set(dice)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * dice.count(face) if face in faces else None
    if box is Box.THREE_OF_A_KIND:
        return sum(dice) if counts[0] >= 3 else None
    if box is Box.FOUR_OF_A_KIND:
        return sum(dice) if counts[0] >= 4 else None
    if box is Box.FULL_HOUSE:
        return 25 if counts == [3, 2] else None
    if box is Box.SMALL_STRAIGHT:
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(r <= faces for r in runs) else None
    if box is Box.LARGE_STRAIGHT:
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else None
    if box is Box.KNIFFEL:
        return 50 if counts[0] == 5 else None
    assert box is Box.CHANCE
    return sum(dice)


def options(name: str, open_boxes: tuple[Box, ...], kniffel: int | None,
            dice: tuple[int, ...]) -> list[tuple[Box, int, int]]:
    """Every way to enter ``dice`` as (box, points, extra points), scoring choices in sheet
    order, then strikes; ``kniffel``: the kniffel box's points (None while open)."""
    fits = [(b, p) for b in open_boxes if (p := score(b, dice)) is not None]
    every = [(b, 0) for b in open_boxes]
    further = len(set(dice)) == 1 and kniffel is not None
    face_box = UPPER[dice[0] - 1]
    if name == "kniffel":  # forced strike; a further Kniffel on 50: any box at its highest
        if further and kniffel == 50:
            return [(b, HIGHEST[b], 50) for b in open_boxes]
        return [(b, p, 0) for b, p in (fits or every)]
    if name == "kniffel-championship":  # free strike; a further Kniffel on 50: its own boxes
        if further and kniffel == 50:
            allowed = (face_box, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.CHANCE)
            mine = [(b, p, 50) for b, p in fits if b in allowed]
            return mine or [(b, 0, 50) for b in open_boxes]
        return [(b, p, 0) for b, p in fits + every]
    if name == "yahtzee":  # any box, 0 where it does not fit; the free joker
        if further:
            joker = face_box not in open_boxes
            extra = 100 if kniffel == 50 else 0
            return [(b, FLAT[b] if joker and b in FLAT and b is not Box.KNIFFEL else
                     score(b, dice) or 0, extra) for b in open_boxes]
        return [(b, score(b, dice) or 0, 0) for b in open_boxes]
    assert name == "kniffel-anleitung"  # free strike; 100 more for a further Kniffel on 50
    extra = 100 if further and kniffel == 50 else 0
    return [(b, p, extra) for b, p in fits + every]


ROLLS: tuple[tuple[int, ...], ...] = tuple(
    itertools.combinations_with_replacement(range(1, 7), 5))


@cache
def rethrow(kept: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The rolls re-throwing every die but ``kept`` brings, with their probabilities."""
    n = 5 - len(kept)
    found: Counter[tuple[int, ...]] = Counter()
    for fresh in itertools.product(range(1, 7), repeat=n):
        found[tuple(sorted(kept + fresh))] += 1
    return tuple((r, c / 6 ** n) for r, c in sorted(found.items()))


@cache
def keeps(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The dice one may keep for a re-throw (not all five), by size, then faces."""
    subs = {c for n in range(5) for c in itertools.combinations(dice, n)}
    return tuple(sorted(subs, key=lambda c: (len(c), c)))


Moments = tuple[float, float]


class BruteForce:
    """The first two moments of the points still to come under optimal play (ties: entering
    first, then the first keep, the first entry of :func:`options`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.memo: dict[tuple[tuple[Box, ...], int, int | None], Moments] = {}

    def rest(self, open_boxes: tuple[Box, ...], upper: int, kniffel: int | None) -> Moments:
        if not open_boxes:
            return 0.0, 0.0
        key = (open_boxes, upper, kniffel)
        if key not in self.memo:
            self.memo[key] = self._turn(open_boxes, upper, kniffel)
        return self.memo[key]

    def _enter(self, open_boxes: tuple[Box, ...], upper: int, kniffel: int | None,
               dice: tuple[int, ...]) -> Moments:
        best: Moments | None = None
        for box, points, extra in options(self.name, open_boxes, kniffel, dice):
            gain = points + extra
            up = upper
            if box in UPPER:
                if up < 63 <= up + points:
                    gain += 35
                up += points
            kn = points if box is Box.KNIFFEL else kniffel
            m1, m2 = self.rest(tuple(b for b in open_boxes if b is not box), up, kn)
            here = (gain + m1, gain * gain + 2 * gain * m1 + m2)
            if best is None or here[0] > best[0]:
                best = here
        assert best is not None
        return best

    def _turn(self, open_boxes: tuple[Box, ...], upper: int, kniffel: int | None) -> Moments:
        enter: dict[tuple[int, ...], Moments] = {
            d: self._enter(open_boxes, upper, kniffel, d) for d in ROLLS}
        after = enter  # after the third throw: enter
        for _ in range(2):  # after the second, then the first throw: enter or re-throw
            kept_worth: dict[tuple[int, ...], Moments] = {}
            worth: dict[tuple[int, ...], Moments] = {}
            for dice in ROLLS:
                best = enter[dice]
                for kept in keeps(dice):
                    if kept not in kept_worth:
                        outcomes = rethrow(kept)
                        kept_worth[kept] = (sum(p * after[r][0] for r, p in outcomes),
                                            sum(p * after[r][1] for r, p in outcomes))
                    if kept_worth[kept][0] > best[0]:
                        best = kept_worth[kept]
                worth[dice] = best
            after = worth
        start = rethrow(())
        return (sum(p * after[r][0] for r, p in start), sum(p * after[r][1] for r, p in start))


# the states: (rule set, open boxes, upper sum, kniffel box's points or None while open)
BRUTE_CASES = [
    ("kniffel", (Box.CHANCE,), 40, 50),
    ("kniffel", (Box.SIXES,), 45, 50),  # three sixes reach the bonus
    ("kniffel", (Box.FOURS,), 51, 0),  # three fours reach it
    ("kniffel", (Box.KNIFFEL,), 70, None),
    ("kniffel", (Box.SMALL_STRAIGHT,), 63, 50),
    ("kniffel", (Box.FULL_HOUSE,), 20, 0),
    ("kniffel", (Box.FIVES, Box.KNIFFEL), 48, None),
    ("kniffel", (Box.SIXES, Box.CHANCE), 45, 50),
    ("kniffel", (Box.LARGE_STRAIGHT, Box.FOUR_OF_A_KIND), 70, 50),
    ("kniffel-championship", (Box.SIXES,), 47, 50),
    ("kniffel-championship", (Box.THREE_OF_A_KIND, Box.CHANCE), 30, 50),
    ("yahtzee", (Box.FULL_HOUSE,), 70, 50),
    ("yahtzee", (Box.THREES, Box.LARGE_STRAIGHT), 56, 50),
    ("kniffel-anleitung", (Box.TWOS,), 57, 50),
    ("kniffel-anleitung", (Box.FOUR_OF_A_KIND, Box.FULL_HOUSE), 63, 50),
]


def _case_id(case: tuple[str, tuple[Box, ...], int, int | None]) -> str:
    name, open_boxes, upper, kniffel = case
    return f"{name}-{'+'.join(b.value for b in open_boxes)}-{upper}-{kniffel}"


@pytest.mark.parametrize("case", BRUTE_CASES, ids=[_case_id(c) for c in BRUTE_CASES])
@pytest.mark.parametrize("use_numpy", [False, True], ids=["python", "numpy"])
def test_the_exact_moments_equal_a_brute_force_expectimax(
        case: tuple[str, tuple[Box, ...], int, int | None], use_numpy: bool) -> None:
    if use_numpy and not numpy_available():
        pytest.skip("numpy is not installed")
    name, open_boxes, upper, kniffel = case
    rules = preset(name)
    dist = Endgame(rules, use_numpy=use_numpy).rest(_sheet(rules, open_boxes, kniffel),
                                                   upper, 0)
    brute = BruteForce(name).rest(tuple(b for b in SHEET_ORDER if b in open_boxes), upper,
                                  kniffel)
    m1, m2 = _moments(dist.offset, dist.probs)
    assert sum(dist.probs) == pytest.approx(1.0, abs=1e-12)
    assert m1 == pytest.approx(brute[0], rel=1e-10, abs=1e-10)
    assert m2 == pytest.approx(brute[1], rel=1e-10, abs=1e-10)


# --- the exact tables ------------------------------------------------------------------------

TABLE_CASES: list[tuple[tuple[Box, ...], int, int | None]] = [
    ((Box.ONES,), 62, 50), ((Box.SIXES,), 33, 0), ((Box.KNIFFEL,), 10, None),
    ((Box.CHANCE,), 63, 50), ((Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND), 63, 50),
    ((Box.FOURS, Box.FIVES), 40, 50), ((Box.TWOS, Box.KNIFFEL), 55, None),
    ((Box.LARGE_STRAIGHT, Box.SMALL_STRAIGHT), 20, 0),
]


@pytest.mark.parametrize("name", CLASSIC)
def test_the_mean_is_the_exact_tables_value(name: str, classic_tables_solved: Path) -> None:
    rules = preset(name)
    values = values_for(rules, build=False)
    model = ChanceModel(rules, values=values)
    endgame = Endgame(rules)
    for open_boxes, upper, kniffel in TABLE_CASES:
        entries = _sheet(rules, open_boxes, kniffel)
        state = PlayerState(entries, 0, upper, 0)
        table = model.expected_rest(state)
        dist = endgame.rest(entries, upper, 0)
        assert dist.mean == pytest.approx(table, abs=1e-9), (open_boxes, upper)
        assert endgame.value(entries, upper, 0) == pytest.approx(table, abs=1e-9)


# --- Kniffel Extreme: its own recursion --------------------------------------------------------

EXTREME_CASES: list[tuple[tuple[Box, ...], int, int]] = [
    ((Box.SIXES,), 50, 1), ((Box.KNIFFEL_EXTREME,), 80, 0),
    ((Box.CHANCE, Box.HIGHWAY), 80, 2), ((Box.SIXES, Box.CHANCE), 50, 3),
]


@pytest.mark.parametrize(("open_boxes", "upper", "chips"), EXTREME_CASES,
                         ids=["+".join(b.value for b in c[0]) for c in EXTREME_CASES])
def test_the_extreme_mean_is_its_own_recursions_value_and_numpy_gives_the_same(
        open_boxes: tuple[Box, ...], upper: int, chips: int) -> None:
    rules = preset("extreme")
    entries = _sheet(rules, open_boxes)
    python = Endgame(rules, use_numpy=False)
    dist = python.rest(entries, upper, chips)
    assert sum(dist.probs) == pytest.approx(1.0, abs=1e-12)
    assert dist.mean == pytest.approx(python.value(entries, upper, chips), abs=1e-9)
    top = ChanceModel(rules).most_to_come(PlayerState(entries, 0, upper, chips))
    assert dist.offset >= 0
    assert dist.offset + len(dist.probs) - 1 <= top
    if numpy_available():
        assert Endgame(rules, use_numpy=True).rest(entries, upper, chips) == dist


def test_a_chip_is_worth_something_and_chips_beyond_the_open_boxes_nothing() -> None:
    rules = preset("extreme")
    entries = _sheet(rules, (Box.KNIFFEL,))
    endgame = Endgame(rules, use_numpy=False)
    none, one, three = (endgame.value(entries, 0, c) for c in (0, 1, 3))
    assert one > none
    assert endgame.rest(entries, 0, 3) == endgame.rest(entries, 0, 1)
    assert three == one


# --- pure Python and numpy ---------------------------------------------------------------------


@pytest.mark.skipif(not numpy_available(), reason="numpy is not installed")
@pytest.mark.parametrize("name", CLASSIC)
def test_pure_python_and_numpy_give_the_same_numbers(name: str) -> None:
    rules = preset(name)
    python, fast = Endgame(rules, use_numpy=False), Endgame(rules, use_numpy=True)
    for open_boxes, upper, kniffel in TABLE_CASES:
        entries = _sheet(rules, open_boxes, kniffel)
        assert python.rest(entries, upper, 0) == fast.rest(entries, upper, 0)
        assert python.value(entries, upper, 0) == fast.value(entries, upper, 0)


# --- the function the chance model calls -------------------------------------------------------


def test_endgame_rest_answers_up_to_the_limit_and_none_beyond() -> None:
    rules = preset("kniffel")
    three = (Box.ONES, Box.CHANCE, Box.KNIFFEL)
    assert LIMIT == 2
    assert endgame_rest(rules, _sheet(rules, three), 0, 0) is None
    found = endgame_rest(rules, _sheet(rules, three), 0, 0, limit=3)
    assert found is not None
    assert math.isclose(sum(found.probs), 1.0, abs_tol=1e-12)
    two = endgame_rest(rules, _sheet(rules, three[1:]), 0, 0)
    assert two is not None
    assert two == Endgame(rules).rest(_sheet(rules, three[1:]), 0, 0)
    full: Mapping[Box, Entry] = {b: Entry(1) for b in rules.boxes}
    done = endgame_rest(rules, full, 12, 0)
    assert done is not None
    assert (done.offset, done.probs) == (0, (1.0,))


def test_the_upper_sum_counts_only_while_the_bonus_is_open() -> None:
    rules = preset("kniffel")
    endgame = Endgame(rules, use_numpy=False)
    sixes = _sheet(rules, (Box.SIXES,), 50)
    # 63 and more: the bonus is paid; 32 and less: five sixes give 30 at most, out of reach
    assert endgame.rest(sixes, 63, 0) == endgame.rest(sixes, 90, 0)
    assert endgame.rest(sixes, 20, 0) == endgame.rest(sixes, 32, 0)
    assert endgame.rest(sixes, 33, 0).mean > endgame.rest(sixes, 32, 0).mean
    assert endgame.rest(sixes, 20, 0) == endgame.rest(sixes, 63, 0)
    near = endgame.rest(sixes, 57, 0)  # one six reaches the bonus
    assert near.mean > endgame.rest(sixes, 63, 0).mean + 30
    assert near.quantile(0.01) == 0  # no six at all: nothing


@pytest.mark.skipif(not numpy_available(), reason="the expert's turns take too long without numpy")
def test_the_extreme_distribution_is_that_of_the_experts_turns_played_out() -> None:
    """Turns played with the expert's advice (the same values), a chip after the third throw
    included, end as often on each total as the exact distribution says."""
    rules = preset("extreme")
    entries = _sheet(rules, (Box.SIXES,))
    upper, games = 45, 600  # five sixes (28 points) reach the bonus
    endgame = Endgame(rules, use_numpy=True)
    dist = endgame.rest(entries, upper, 1)
    rng = random.Random(3)
    totals: Counter[int] = Counter()
    chips_used = 0
    for _ in range(games):
        roll, thrown, chip_used = roll_dice(Keep(), rng, d10=True), 1, False
        while True:
            best = endgame.expert.advise(Position(
                rules, entries, chips_left=0 if chip_used else 1, roll=roll,
                rolls_used=thrown, chip_used=chip_used, upper_sum=upper)).best
            if isinstance(best.action, Throw):
                roll, thrown = roll_dice(best.action.keep, rng, d10=True), thrown + 1
            elif isinstance(best.action, UseChip):
                chip_used, chips_used = True, chips_used + 1
            else:
                points = best.points or 0
                totals[points + (45 if upper + points >= 73 else 0)] += 1
                break
    assert chips_used > games // 2  # the chip is handed in most turns
    mean = sum(x * n for x, n in totals.items()) / games
    assert abs(mean - dist.mean) < 4 * math.sqrt(dist.variance / games)
    for k, p in enumerate(dist.probs):
        if p > 0.01:
            share = totals[dist.offset + k] / games
            assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / games) + 1e-9

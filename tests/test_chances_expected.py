"""The expected final total the win chances show is the expert's value, exactly: the mean of every
player's distribution is total + V at every number of open boxes (the exact table of the classic
rule sets; the expert's value on Kniffel Extreme, the solved optimum where it is known), and the
distribution stays within what the open boxes can still bring (kniffel.engine.chances)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.engine.advice import Position
from kniffel.engine.chances import (
    ChanceModel,
    Distribution,
    PlayerState,
    SpreadModel,
    chance_model,
    start_expectation,
    tilted,
    win_chances,
)
from kniffel.engine.expert import expert_for
from kniffel.engine.expert_model import load_model, model_from_packed, pack_model
from kniffel.engine.game import Game
from kniffel.engine.rules import Box, Entry, RuleSet, preset
from kniffel.engine.values import known_value, values_for

#: The solved optimum of an empty Kniffel Extreme sheet (docs/solved.md, README).
EXTREME_OPTIMUM = 646.4189
CLASSIC = ("kniffel", "yahtzee", "kniffel-championship", "kniffel-anleitung")


def random_state(rules: RuleSet, n_open: int, rng: random.Random) -> PlayerState:
    """A turn-start state of ``rules`` with ``n_open`` boxes open: the others filled with points
    they can hold (struck about one time in five), chips at random."""
    filled = rng.sample(list(rules.boxes), len(rules.boxes) - n_open)
    entries: dict[Box, Entry] = {}
    for box in filled:
        options = sorted(rules.possible_points(box))
        points = 0 if not options or rng.random() < 0.2 else rng.choice(options)
        entries[box] = Entry(points)
    upper = sum(e.points for b, e in entries.items() if b.is_upper)
    lower = sum(e.points for b, e in entries.items() if not b.is_upper)
    bonus = rules.bonus_points if upper >= rules.bonus_threshold else 0
    chips = rng.randint(0, min(rules.chips, n_open)) if rules.chips else 0
    return PlayerState(entries, upper + bonus + lower, upper, chips)


def states(rules: RuleSet, per_open: int, seed: int) -> list[PlayerState]:
    rng = random.Random(seed)
    return [random_state(rules, n, rng) for n in range(len(rules.boxes) + 1)
            for _ in range(per_open)]


def assert_exact_mean_within_bounds(model: ChanceModel, state: PlayerState,
                                    expected: float) -> None:
    dist = model.final(state)
    assert math.fsum(dist.probs) == pytest.approx(1.0, abs=1e-12)
    assert dist.mean == pytest.approx(expected, abs=1e-6)
    assert all(p >= 0 for p in dist.probs)
    top = state.total + model.most_to_come(state)
    assert state.total <= dist.offset
    assert dist.offset + len(dist.probs) - 1 <= top


@pytest.mark.parametrize("name", CLASSIC)
def test_the_expected_total_is_total_plus_the_exact_tables_value_at_every_number_of_open_boxes(
        classic_tables_solved: Path, name: str) -> None:
    rules = preset(name)
    model = ChanceModel(rules)
    table = values_for(rules)
    bit = {box: 1 << b for b, box in enumerate(rules.boxes)}
    seen = set()
    for state in states(rules, 6 if name == "kniffel" else 2, seed=32):
        mask = sum(bit[b] for b in state.entries)
        kniffel = state.entries.get(Box.KNIFFEL)
        further = model._further and kniffel is not None and kniffel.points > 0
        exact = state.total + table.future(mask, state.upper, 1 if further else 0)
        assert_exact_mean_within_bounds(model, state, exact)
        seen.add(len(rules.boxes) - len(state.entries))
    assert seen == set(range(len(rules.boxes) + 1))


def test_the_issues_late_kniffel_sheet_expects_the_exact_261_1_not_271_6(
        classic_tables_solved: Path) -> None:
    # ones, four of a kind and Kniffel open, the bonus won, 243 points on the sheet
    rules = preset("kniffel")
    entries: dict[Box, Entry] = {b: Entry(0) for b in rules.boxes
                                 if b not in (Box.ONES, Box.FOUR_OF_A_KIND, Box.KNIFFEL)}
    state = PlayerState(entries, 243, 70, 0)
    dist = chance_model(rules).final(state)
    assert dist.mean == pytest.approx(261.0891, abs=1e-3)
    assert dist.offset >= 243


def test_extreme_expects_the_experts_value_at_every_number_of_open_boxes() -> None:
    rules = preset("extreme")
    model = chance_model(rules)
    for state in states(rules, 3, seed=7):
        assert_exact_mean_within_bounds(model, state, state.total + model.expected_rest(state))


def test_extreme_with_two_open_boxes_shows_the_endgames_exact_distribution() -> None:
    # two open boxes bring lumpy points (a Kniffel is 0 or 50): no smooth shape holds them, so
    # Kniffel Extreme's last two rounds are exact as the classic rule sets' are
    from kniffel.engine.endgame import endgame_rest

    rules = preset("extreme")
    model = chance_model(rules)
    rng = random.Random(22)
    for _ in range(4):
        state = random_state(rules, 2, rng)
        exact = endgame_rest(rules, state.entries, state.upper, state.chips)
        assert exact is not None
        rest = model.rest(state)
        assert (rest.offset, rest.probs) == (exact.offset, exact.probs)
        assert_exact_mean_within_bounds(model, state, state.total + exact.mean)
    # three open boxes stay the fitted model (the expert's value plus its shift)
    state = random_state(rules, 3, rng)
    three = endgame_rest(rules, state.entries, state.upper, state.chips, limit=3)
    assert three is not None
    assert model.expected_rest(state) != pytest.approx(three.mean, abs=1e-9)


def test_extremes_expected_total_is_the_model_plus_the_fitted_shift_of_the_experts_play() -> None:
    rules = preset("extreme")
    model = chance_model(rules)
    raw = load_model(rules)
    state = random_state(rules, 9, random.Random(3))
    mask = sum(1 << b for b, box in enumerate(rules.boxes) if box in state.entries)
    assert model.spread.shift  # fitted for the model's rule set
    assert model.expected_rest(state) == pytest.approx(
        raw.future(mask, state.upper, state.chips) + model.spread.shift[9])
    # the classic rule sets play from the exact table: nothing to shift
    assert not chance_model(preset("kniffel")).spread.shift


def test_a_fresh_extreme_sheet_shows_the_solved_optimum_everywhere() -> None:
    rules = preset("extreme")
    assert start_expectation(rules) == pytest.approx(EXTREME_OPTIMUM, abs=1e-4)
    for o in win_chances(Game(rules, ["Anna", "Ben"])).players:
        assert o.expected == pytest.approx(EXTREME_OPTIMUM, abs=1e-4)
    # the hint before the first throw ("im Schnitt … Punkte am Ende")
    advice = expert_for(rules).advise(Position(rules))
    assert advice.options[0].expected == pytest.approx(EXTREME_OPTIMUM, abs=1e-4)


def test_only_the_states_whose_exact_value_the_model_file_records_are_known() -> None:
    rules = preset("extreme")
    model = load_model(rules)
    assert known_value(rules, model, 0, 0, 3) == pytest.approx(EXTREME_OPTIMUM, abs=1e-4)
    assert known_value(rules, model, 0, 0, 2) is None  # fewer chips: not in the file
    assert known_value(rules, model, 1, 1, 3) is None
    # a house rule plays with the same model, but its optimum is another
    house = preset("extreme", free_strike=True)
    assert known_value(house, load_model(house), 0, 0, 3) is None
    assert start_expectation(house) != pytest.approx(EXTREME_OPTIMUM, abs=0.05)


def test_the_browsers_packed_model_knows_the_optimum_too() -> None:
    rules = preset("extreme")
    packed = model_from_packed(rules, pack_model(load_model(rules)))
    assert packed.known(0, 0, 3) == load_model(rules).known(0, 0, 3)
    assert known_value(rules, packed, 0, 0, 3) == pytest.approx(EXTREME_OPTIMUM, abs=1e-4)


def test_the_known_value_of_a_table_is_the_table() -> None:
    rules = preset("kniffel")
    table = values_for(rules)
    assert known_value(rules, table, 5, 3, 0) == table.future(5, 3, 0)


def test_a_spread_model_without_shift_leaves_the_models_value() -> None:
    rules = preset("extreme")
    spread = chance_model(rules).spread
    from dataclasses import replace

    plain = ChanceModel(rules, spread=replace(spread, shift=()))
    state = random_state(rules, 12, random.Random(1))
    mask = sum(1 << b for b, box in enumerate(rules.boxes) if box in state.entries)
    assert plain.expected_rest(state) == load_model(rules).future(mask, state.upper,
                                                                  state.chips)
    assert SpreadModel.from_json("x", spread.to_json()).shift == spread.shift


# --- the tilt ----------------------------------------------------------------------------------


@st.composite
def bases(draw: st.DrawFn) -> tuple[Distribution, float, int]:
    top = draw(st.integers(1, 400))
    lo = draw(st.integers(0, top - 1))
    hi = draw(st.integers(lo + 1, top))
    weights = draw(st.lists(st.floats(0.0, 1.0), min_size=hi - lo + 1, max_size=hi - lo + 1))
    weights[0] = max(weights[0], 1e-3)
    weights[-1] = max(weights[-1], 1e-3)
    total = math.fsum(weights)
    mean = draw(st.floats(0.0, float(top)))
    return Distribution(lo, tuple(w / total for w in weights)), mean, top


@settings(max_examples=200, deadline=None)
@given(case=bases())
def test_a_tilt_hits_any_mean_exactly_within_the_bounds_and_sums_to_one(
        case: tuple[Distribution, float, int]) -> None:
    base, mean, top = case
    got = tilted(base, mean, top)
    assert math.fsum(got.probs) == pytest.approx(1.0, abs=1e-12)
    assert got.mean == pytest.approx(mean, abs=1e-6)
    assert got.offset >= 0
    assert got.offset + len(got.probs) - 1 <= top
    support = [base.offset + k for k, p in enumerate(base.probs) if p > 0]
    if support[0] < mean < support[-1]:  # inside: the same support, the same zeros
        assert got.offset >= support[0]
        assert got.offset + len(got.probs) - 1 <= support[-1]
        for k, p in enumerate(got.probs):
            assert (p > 0) <= (base.probs[got.offset + k - base.offset] > 0) or p < 1e-300


def test_a_tilt_keeps_a_distribution_whose_mean_is_right_and_moves_a_normal_by_its_variance(
        ) -> None:
    base = Distribution(0, (0.25, 0.5, 0.25))
    assert tilted(base, 1.0, 2).probs == pytest.approx(base.probs)
    wide = Distribution(0, tuple(math.exp(-((x - 100) ** 2) / 200) for x in range(201)))
    total = math.fsum(wide.probs)
    wide = Distribution(0, tuple(p / total for p in wide.probs))
    moved = tilted(wide, 103.0, 200)
    assert moved.mean == pytest.approx(103.0, abs=1e-9)
    assert moved.variance == pytest.approx(wide.variance, rel=1e-3)  # a normal keeps its shape


def test_a_mean_at_or_beyond_the_supports_ends_gives_the_two_points_around_it() -> None:
    base = Distribution(10, (0.5, 0.5))
    assert tilted(base, 10.0, 20) == Distribution.point(10)
    assert tilted(base, 4.25, 20) == Distribution(4, (0.75, 0.25))
    assert tilted(base, 25.0, 20) == Distribution.point(20)  # never beyond what can come
    assert tilted(Distribution.point(3), 3.5, 9).mean == pytest.approx(3.5)

"""The win chances' fitted spread model (kniffel/engine/data/chances.json) and its size budget."""

from __future__ import annotations

import math
from importlib import resources

import pytest

from kniffel.engine.chances import (
    ChanceModel,
    PlayerState,
    bonus_features,
    spread_model,
    start_expectation,
)
from kniffel.engine.endgame import endgame_rest
from kniffel.engine.rules import PRESETS, Box, Entry, preset

#: The expert's model and the win chances' data together stay under this many bytes.
DATA_BUDGET = 3_000_000


def test_engine_data_files_stay_within_the_package_size_budget() -> None:
    folder = resources.files("kniffel.engine").joinpath("data")
    sizes = {p.name: len(p.read_bytes()) for p in folder.iterdir() if p.is_file()}
    assert {"chances.json", "expert-extreme.json"} <= set(sizes)
    assert sum(sizes.values()) < DATA_BUDGET, sizes


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_a_fitted_spread_for_each_of_its_boxes(name: str) -> None:
    rules = preset(name)
    spread = spread_model(rules)
    assert spread.rules_name == name
    assert set(rules.boxes) <= set(spread.box_variance)
    assert all(v >= 0 for v in spread.box_variance.values())
    assert all(f > 0 for f in spread.scale)
    # a whole game's spread: the expert's totals spread by tens of points, not by hundreds
    assert 15 < math.sqrt(spread.variance(rules.boxes)) < 150


@pytest.mark.parametrize("name", ["extreme", "kniffel"])
def test_a_house_rule_set_uses_the_spread_of_its_preset(name: str) -> None:
    rules = preset(name, free_strike=True)
    assert spread_model(rules).rules_name == rules.name
    assert spread_model(rules).box_variance.keys() >= set(rules.boxes)


@pytest.mark.parametrize("name", ["extreme", "kniffel"])
def test_the_distribution_at_the_start_keeps_the_expected_total(name: str) -> None:
    rules = preset(name)
    model = ChanceModel(rules)
    dist = model.rest(PlayerState({}, 0, 0, rules.chips))
    assert dist.mean == pytest.approx(start_expectation(rules), abs=1e-6)
    assert dist.quantile(0.1) < dist.mean < dist.quantile(0.9)


def test_the_bonus_is_no_jump_once_reached_or_out_of_reach() -> None:
    rules = preset("kniffel")
    reached = {b: Entry(b.face * 5 if b.face else 0) for b in rules.upper_boxes[:5]}
    assert bonus_features(rules, reached, sum(e.points for e in reached.values()), 0) is None
    dead = {b: Entry(0) for b in rules.upper_boxes[2:]}
    assert bonus_features(rules, dead, 0, 0) is None
    live = {Box.ONES: Entry(3)}
    features = bonus_features(rules, live, 3, 0)
    assert features is not None
    assert features[2] == 5.0


def test_a_live_bonus_makes_the_model_two_humped() -> None:
    rules = preset("kniffel")
    model = ChanceModel(rules, exact_open=0)
    # the sixes and one lower box open, 45 in the upper boxes: three sixes bring the bonus
    entries = {b: Entry(b.face * 3 if b.face else 0) for b in rules.upper_boxes[:5]}
    entries.update({b: Entry(0) for b in rules.lower_boxes[1:]})
    state = PlayerState(entries, 45, 45, 0)
    features = bonus_features(rules, entries, 45, 0)
    assert features is not None
    dist = model.rest(state)
    assert dist.mean == pytest.approx(model.expected_rest(state), abs=1e-6)
    # two humps: a dip between the mode without the bonus and the one with it
    probs = dist.probs
    peaks = [k for k in range(1, len(probs) - 1) if probs[k - 1] < probs[k] >= probs[k + 1]]
    assert len(peaks) == 2
    assert peaks[1] - peaks[0] > 30


@pytest.mark.parametrize("name", ["kniffel", "extreme"])
def test_with_few_boxes_open_the_distribution_is_the_exact_endgame(name: str) -> None:
    rules = preset(name)
    model = ChanceModel(rules)
    entries = {b: Entry(0) for b in rules.boxes[:-1]}
    state = PlayerState(entries, 0, 0, 0)
    exact = endgame_rest(rules, entries, 0, 0, limit=1)
    assert exact is not None
    assert model.rest(state) == exact
    # the expected total is the exact endgame's (on Extreme too, not the model's guess)
    assert exact.mean == pytest.approx(model.expected_rest(state), abs=1e-9)

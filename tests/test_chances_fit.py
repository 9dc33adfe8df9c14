"""Fitting the win chances' spread model (kniffel.chances_fit): the shift of the expert's play
beyond its model, from each turn's exact expectation, and the range's coverage."""

from __future__ import annotations

import math
import random

import pytest

from kniffel.chances_fit import (
    Sample,
    _coverage,
    coverage_scale,
    fit_shift,
    play_samples,
    turn_starts,
    turns_ahead,
)
from kniffel.engine.advice import Position
from kniffel.engine.chances import ChanceModel, PlayerState, spread_model
from kniffel.engine.expert import expert_for
from kniffel.engine.expert_model import load_model
from kniffel.engine.game import Game
from kniffel.engine.rules import Box, Entry, preset
from kniffel.engine.strategy import get_strategy
from kniffel.simulate import play_out


def played(name: str, seed: int) -> Game:
    rules = preset(name)
    game = Game(rules, ["fit"], seed=seed)
    play_out(game, get_strategy("expert", rules), random.Random(seed))
    return game


def test_the_turns_ahead_sum_each_turns_expectation_beyond_the_models_value_to_the_end() -> None:
    rules = preset("extreme")
    states = [s for s, _ in turn_starts(played("extreme", 4))]
    ahead = turns_ahead(rules, states)
    assert len(ahead) == len(states) == len(rules.boxes)
    expert, model = expert_for(rules), load_model(rules)

    def beyond(state: PlayerState) -> float:
        mask = sum(1 << b for b, box in enumerate(rules.boxes) if box in state.entries)
        turn = expert.turn_start_value(Position(rules, state.entries, state.chips))
        return turn - model.future(mask, state.upper, state.chips)

    assert ahead[-1] == pytest.approx(beyond(states[-1]))
    assert ahead[0] == pytest.approx(math.fsum(beyond(s) for s in states), abs=1e-9)
    # before the first throw the expert's turn computation, not the known optimum the hint shows
    assert expert.turn_start_value(Position(rules)) != pytest.approx(646.4189, abs=0.05)


def test_where_the_values_are_an_exact_table_nothing_is_ahead(classic_tables_solved: object
                                                              ) -> None:
    rules = preset("kniffel")
    states = [s for s, _ in turn_starts(played("kniffel", 2))]
    assert turns_ahead(rules, states) == [0.0] * len(states)


def test_the_shift_is_the_mean_ahead_per_number_of_open_boxes_where_30_samples_say_so() -> None:
    rules = preset("extreme")
    one_open = {b: Entry(0) for b in rules.boxes[:-1]}
    two_open = {b: Entry(0) for b in rules.boxes[:-2]}

    def sample(entries: dict[Box, Entry], ahead: float) -> Sample:
        return Sample(PlayerState(entries, 0, 0, 0), 0.0, 0, False, {}, ahead)

    samples = [sample(one_open, float(k % 3)) for k in range(30)]
    samples += [sample(two_open, 5.0) for _ in range(29)]
    shift = fit_shift(rules, samples)
    assert len(shift) == len(rules.boxes) + 1
    assert shift[1] == pytest.approx(1.0)
    assert shift[2] == 0.0  # 29 samples: too few
    assert shift[0] == shift[5] == 0.0


@pytest.mark.solve  # plays 40 games and fits on them: seconds
def test_the_coverage_factors_put_four_fifths_of_what_came_in_the_range(
        classic_tables_solved: object) -> None:
    rules = preset("kniffel")
    samples = play_samples(rules, 40, 3, jobs=1)
    spread = spread_model(rules)
    scale = coverage_scale(rules, spread, samples, most=40, steps=8)
    assert len(scale) == len(spread.scale)
    assert scale[:3] == spread.scale[:3]  # exact endgame: left as it is
    model = ChanceModel(rules, spread=type(spread)(**{**vars(spread), "scale": scale}))
    for n in range(3, len(rules.boxes) + 1):
        rows = [s for s in samples if len(rules.boxes) - len(s.state.entries) == n]
        assert _coverage(model, rows) == pytest.approx(0.8, abs=0.1)

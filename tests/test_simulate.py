"""Simulation: determinism, the summary statistics, and greedy beating random by a wide margin."""

from __future__ import annotations

import random

import pytest

from kniffel import Box, KniffelError, preset
from kniffel.engine.game import Game, Player, PlayerKind
from kniffel.engine.strategy import get_strategy
from kniffel.simulate import SimulationResult, simulate


def _run(rules_name: str, strategy: str, games: int, seed: int) -> SimulationResult:
    rules = preset(rules_name)
    return simulate(rules, get_strategy(strategy, rules), games, seed)


@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_the_same_seed_gives_the_same_result(strategy: str) -> None:
    first = _run("kniffel", strategy, 6, seed=11)
    again = _run("kniffel", strategy, 6, seed=11)
    assert first == again
    assert first.to_json() | {"seconds": 0, "games_per_second": 0} == (
        again.to_json() | {"seconds": 0, "games_per_second": 0})


def test_another_seed_gives_other_games() -> None:
    assert _run("kniffel", "random", 6, seed=1).totals != _run("kniffel", "random", 6,
                                                               seed=2).totals


def test_greedy_beats_random_by_a_wide_margin_in_classic_kniffel() -> None:
    greedy = _run("kniffel", "greedy", 40, seed=3)
    rand = _run("kniffel", "random", 40, seed=3)
    assert greedy.mean > rand.mean + 100
    assert greedy.mean > 200


def test_greedy_beats_random_by_a_wide_margin_in_kniffel_extreme() -> None:
    greedy = _run("extreme", "greedy", 6, seed=3)
    rand = _run("extreme", "random", 6, seed=3)
    assert greedy.mean > rand.mean + 250
    assert min(greedy.totals) > max(rand.totals)


def test_box_points_and_bonus_add_up_to_the_totals() -> None:
    result = _run("extreme", "random", 10, seed=4)
    rules = preset("extreme")
    assert sum(result.box_points.values()) + result.bonus_games * rules.bonus_points == sum(
        result.totals)
    assert set(result.box_points) == set(rules.boxes)
    for box in rules.boxes:
        assert 0 <= result.strike_rate(box) <= 1
        assert result.box_mean(box) == result.box_points[box] / 10


def test_statistics_of_known_totals() -> None:
    boxes = {Box.CHANCE: 30}
    result = SimulationResult("kniffel", "x", 0, (10, 20, 30, 40, 50), boxes, {Box.CHANCE: 1},
                              bonus_games=2)
    assert result.games == 5
    assert result.mean == 30
    assert result.std == pytest.approx(15.811, abs=1e-3)
    assert result.percentiles() == {5: 12.0, 25: 20.0, 50: 30.0, 75: 40.0, 95: 48.0}
    assert result.bonus_rate == 0.4
    assert result.strike_rate(Box.CHANCE) == 0.2
    assert result.box_mean(Box.CHANCE) == 6


def test_progress_is_reported_after_every_game() -> None:
    seen: list[tuple[int, int]] = []
    rules = preset("kniffel")
    simulate(rules, get_strategy("random", rules), 3, 0, progress=lambda d, n: seen.append((d, n)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("games", [0, -1])
def test_at_least_one_game(games: int) -> None:
    with pytest.raises(KniffelError, match=f"at least 1, got {games}"):
        _run("kniffel", "random", games, 0)


@pytest.mark.solve
def test_simulate_gives_the_same_result_whatever_the_number_of_jobs() -> None:
    rules = preset("kniffel")
    strategy = get_strategy("greedy", rules)
    one = simulate(rules, strategy, 12, seed=4, jobs=1)
    seen: list[int] = []
    three = simulate(rules, strategy, 12, seed=4, jobs=3,
                      progress=lambda done, _n: seen.append(done))
    assert three == one
    assert three.totals == one.totals
    assert seen[-1] == 12
    with pytest.raises(KniffelError, match="jobs"):
        simulate(rules, strategy, 2, jobs=0)


@pytest.mark.solve
def test_simulate_counts_the_chips_handed_in_the_same_whatever_the_jobs() -> None:
    from kniffel.engine.game import UseChip
    from kniffel.simulate import chips_used, game_seed, play_out

    rules = preset("extreme")
    one = simulate(rules, get_strategy("greedy", rules), 6, seed=4)
    two = simulate(rules, get_strategy("greedy", rules), 6, seed=4, jobs=2)
    assert one.chips_used == two.chips_used
    assert one.to_json()["chips_per_game"] == one.chips_used / 6
    # the count is the number of chip actions of the games themselves
    counted = 0
    for i in range(6):
        game = Game(rules, [Player("C", PlayerKind.COMPUTER, "greedy")], seed=game_seed(4, i))
        play_out(game, get_strategy("greedy", rules), random.Random(f"strategy:4:{i}"))
        counted += chips_used(game)
        assert chips_used(game) == sum(isinstance(a, UseChip) for a in game.actions) <= 3
    assert counted == one.chips_used

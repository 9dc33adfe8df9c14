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


# --- head to head: a strategy per seat (issue 41) ------------------------------------------------


def test_head_to_head_rotates_the_start_seat_and_shares_a_tie_on_top() -> None:
    from kniffel.simulate import _play_seats_game, head_to_head, win_shares

    rules = preset("kniffel")
    greedy, rand = get_strategy("greedy", rules), get_strategy("random", rules)
    result = head_to_head(rules, [greedy, rand], 6, seed=5)
    assert result.strategies == ("greedy", "random")
    assert result.games == 6
    # every game's win goes to one seat or is shared: the wins add up to the games
    assert sum(result.wins) == pytest.approx(6)
    # a seat's statistics are its totals in game order, game g started by seat g mod 2
    for g in range(6):
        seats = _play_seats_game(rules, (greedy, rand), 5, g)
        assert [s[0] for s in seats] == [result.seats[0].totals[g], result.seats[1].totals[g]]
    assert win_shares((250, 250, 100)) == (0.5, 0.5, 0.0)
    assert win_shares((90, 200)) == (0.0, 1.0)


def test_head_to_head_game_starts_with_the_seat_of_its_number() -> None:
    from kniffel.engine.match import Match
    from kniffel.simulate import game_seed

    rules = preset("kniffel")
    greedy = get_strategy("greedy", rules)
    for g in range(3):
        players = [Player(f"Computer {i + 1}", PlayerKind.COMPUTER, "greedy") for i in range(3)]
        game = Game(rules, players, seed=game_seed(0, g), start_player=g % 3)
        Match(game, strategies=dict.fromkeys(range(3), greedy), rng=random.Random(0))
        assert game.current_player == g % 3


def test_head_to_head_is_the_same_in_one_process_and_in_two() -> None:
    from kniffel.simulate import head_to_head

    rules = preset("kniffel")
    strategies = [get_strategy("greedy", rules), get_strategy("random", rules)]
    one = head_to_head(rules, strategies, 8, seed=2, jobs=1)
    two = head_to_head(rules, strategies, 8, seed=2, jobs=2)
    assert one == two
    assert one.wins[0] > one.wins[1]


@pytest.mark.parametrize("seats", [0, 1, 9])
def test_head_to_head_refuses_fewer_than_two_or_more_than_eight_seats(seats: int) -> None:
    from kniffel.simulate import head_to_head

    rules = preset("kniffel")
    with pytest.raises(KniffelError) as caught:
        head_to_head(rules, [get_strategy("greedy", rules)] * seats, 2)
    assert caught.value.code == "simulate.seats"


def test_the_win_share_interval_is_wilsons_and_stays_within_0_and_1() -> None:
    from kniffel.simulate import wilson

    lo, hi = wilson(0.5, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    assert wilson(0.0, 30)[0] == 0.0
    assert wilson(1.0, 30)[1] == 1.0
    assert wilson(0.0, 30)[1] == pytest.approx(0.1135, abs=1e-4)

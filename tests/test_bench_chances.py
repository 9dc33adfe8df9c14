"""The win-chance benchmark's metrics (``benchmarks/bench_chances.py``): the calibration error, the
Brier skill, the log loss, the Monte Carlo noise correction, the cuts and the bootstrap."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_chances as bench
from kniffel.engine.chances import win_chances
from kniffel.engine.game import Game
from kniffel.engine.rules import preset


def calibrated(cuts: int, players: int, seed: int) -> tuple[list[list[float]], list[list[float]]]:
    """Toy cuts whose winner is drawn from the predictions themselves."""
    rng = random.Random(seed)
    preds, outcomes = [], []
    for _ in range(cuts):
        weights = [rng.random() ** 2 for _ in range(players)]
        ps = [w / sum(weights) for w in weights]
        winner = rng.choices(range(players), weights=ps)[0]
        preds.append(ps)
        outcomes.append([1.0 if i == winner else 0.0 for i in range(players)])
    return preds, outcomes


def test_win_shares_split_a_tie_equally() -> None:
    assert bench.win_shares([300, 410, 410]) == (0.0, 0.5, 0.5)
    assert bench.win_shares([500, 410]) == (1.0, 0.0)
    assert bench.win_shares([7, 7, 7, 7]) == (0.25,) * 4


def test_an_exactly_calibrated_set_has_calibration_error_zero() -> None:
    # 1 in 4 wins for the 0.25 forecasts, 3 in 4 for the 0.75 ones
    preds = [[0.25, 0.75]] * 4
    outcomes = [[1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0]]
    assert bench.calibration_error(preds, outcomes) == pytest.approx(0.0, abs=1e-12)


def test_winners_drawn_from_the_forecast_give_a_calibration_error_near_zero() -> None:
    preds, outcomes = calibrated(20_000, 3, seed=1)
    assert bench.calibration_error(preds, outcomes) < 0.01


def test_an_overconfident_forecast_shows_its_offset_as_calibration_error() -> None:
    # says 0.9 / 0.1, but the first player wins only 6 in 10
    preds = [[0.9, 0.1]] * 10
    outcomes = [[1.0, 0.0]] * 6 + [[0.0, 1.0]] * 4
    assert bench.calibration_error(preds, outcomes) == pytest.approx(0.3)


def test_the_noise_floor_shrinks_with_more_cuts_and_matches_a_calibrated_set() -> None:
    small, _ = calibrated(200, 3, seed=2)
    large, outcomes = calibrated(5_000, 3, seed=3)
    floor = bench.calibration_floor(large)
    assert bench.calibration_floor(small) > floor > 0
    assert bench.calibration_error(large, outcomes) == pytest.approx(floor, abs=0.01)


def test_reliability_bins_hold_every_prediction_and_put_one_in_the_last_bin() -> None:
    preds = [[1.0, 0.0], [0.55, 0.45], [0.5, 0.5]]
    outcomes = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    table = bench.reliability(preds, outcomes)
    assert sum(b.count for b in table) == 6
    assert [(b.lo, b.count) for b in table] == [(0.0, 1), (0.4, 1), (0.5, 3), (0.9, 1)]
    middle = next(b for b in table if b.lo == 0.5)
    assert middle.predicted == pytest.approx(0.55 / 3 + 1.0 / 3)
    assert middle.observed == pytest.approx(1.0 / 3)


def test_the_reference_forecast_has_brier_skill_zero_and_a_perfect_one_skill_one() -> None:
    _, outcomes = calibrated(500, 4, seed=4)
    outcomes += [[0.5, 0.5], [1 / 3, 1 / 3, 0.0, 1 / 3]]
    assert bench.brier_skill(bench.uniform(outcomes), outcomes) == pytest.approx(0.0, abs=1e-12)
    assert bench.brier_skill(outcomes, outcomes) == pytest.approx(1.0)


def test_brier_score_is_the_mean_square_over_every_player() -> None:
    preds = [[0.7, 0.3], [0.2, 0.3, 0.5]]
    outcomes = [[1.0, 0.0], [0.0, 0.0, 1.0]]
    squares = [0.09, 0.09, 0.04, 0.09, 0.25]
    assert bench.brier_score(preds, outcomes) == pytest.approx(sum(squares) / 5)
    # 2 players at 1/2: 0.25 each; 3 players at 1/3: (4/9 + 1/9 + 1/9) / 3
    reference = bench.brier_score(bench.uniform(outcomes), outcomes)
    assert reference == pytest.approx((0.25 + 0.25 + 4 / 9 + 1 / 9 + 1 / 9) / 5)


def test_log_loss_of_the_reference_is_the_mean_of_ln_n_and_a_sure_miss_costs_ln_eps() -> None:
    outcomes = [[1.0, 0.0], [0.0, 1.0, 0.0], [0.25, 0.25, 0.25, 0.25]]
    expected = (math.log(2) + math.log(3) + math.log(4)) / 3
    assert bench.log_loss(bench.uniform(outcomes), outcomes) == pytest.approx(expected)
    assert bench.log_loss([[0.0, 1.0]], [[1.0, 0.0]]) == pytest.approx(-math.log(bench.EPS))
    assert bench.log_loss([[1.0, 0.0]], [[1.0, 0.0]]) == 0.0


def test_long_shots_count_the_wins_of_tiny_predictions_against_their_sum() -> None:
    preds = [[0.9995, 0.0005], [0.0002, 0.9998], [0.5, 0.5]]
    outcomes = [[0.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
    won, expected = bench.long_shots(preds, outcomes)
    assert won == 1
    assert expected == pytest.approx(0.0007)


def test_the_noise_correction_recovers_the_skill_of_the_true_chances() -> None:
    """Monte Carlo frequencies of 8 continuations are noisier than the chances they estimate;
    subtracting each frequency's estimated variance gives back the true chances' skill."""
    rng = random.Random(5)
    truth, outcomes = calibrated(4_000, 2, seed=6)
    freqs, noise = [], []
    count = 8
    for ps in truth:
        wins = sum(rng.random() < ps[0] for _ in range(count)) / count
        var = wins * (1 - wins) * count / (count - 1) / count
        freqs.append([wins, 1 - wins])
        noise.append([var, var])
    true_skill = bench.brier_skill(truth, outcomes)
    assert bench.brier_skill(freqs, outcomes) < true_skill - 0.05
    assert bench.brier_skill(freqs, outcomes, noise) == pytest.approx(true_skill, abs=0.03)


def test_the_bootstrap_interval_holds_the_mean_and_leaves_out_what_is_no_number() -> None:
    values = [float(i % 7) for i in range(300)]
    groups = [[i, i + 1] for i in range(0, 300, 2)]

    def mean(idx: Sequence[int]) -> float:
        return sum(values[i] for i in idx) / len(idx)

    lo, hi = bench.bootstrap(mean, groups, 200, seed=1)
    assert lo < mean(range(300)) < hi
    assert hi - lo < 1.0
    assert bench.bootstrap(lambda idx: 2.0, groups, 50, seed=1) == (2.0, 2.0)
    nan = bench.bootstrap(lambda idx: math.nan, groups, 10, seed=1)
    assert all(math.isnan(v) for v in nan)


def test_cut_points_draw_distinct_turn_starts_from_each_third() -> None:
    for entries in (26, 39, 88):
        cuts = bench.cut_points(entries, 2, random.Random(entries))
        assert len(cuts) == 6
        for e, (stage, draw) in cuts.items():
            assert 0 <= e < entries
            assert e * 3 // entries == stage
            assert draw in (0, 1)
        assert cuts == bench.cut_points(entries, 2, random.Random(entries))


def test_a_played_kniffel_game_gives_cuts_whose_chances_are_those_of_the_replay() -> None:
    cuts, seconds = bench.play_and_cut(("kniffel", 7, 1, 2, 1))
    assert seconds > 0
    assert [c.stage for c in cuts] == [0, 1, 2]
    rules = preset("kniffel")
    for cut in cuts:
        assert len(cut.win) == 3  # game 1: 2 + 1 % 3 players
        assert sum(cut.win) == pytest.approx(1.0)
        assert sum(cut.outcome) == pytest.approx(1.0)
        assert cut.of == 3 * len(rules.boxes)
        replay = Game(rules, bench._names(3), seed=0, actions=cut.prefix)
        assert sum(len(replay.sheet(i).entries) for i in range(3)) == cut.entries
        assert tuple(o.win for o in win_chances(replay).players) == pytest.approx(cut.win)
    game, means, variances = bench.continue_games(("kniffel", 7, cuts[2], 4))
    assert game == 1
    assert sum(means) == pytest.approx(1.0)
    assert all(v >= 0 for v in variances)


def test_the_per_open_box_table_gives_bias_against_the_reference_and_the_ranges_coverage() -> None:
    rows = [bench.TotalRow(0, 3, 100, 120.0, 110, 130, final, 119.0)
            for final in (105, 110, 120, 130, 131)]
    rows.append(bench.TotalRow(1, 1, 50, 60.0, 55, 65, 60, 60.0))
    table = bench.total_table(rows)
    assert [r["open"] for r in table] == [1, 3]
    one, three = table
    assert one["positions"] == 1
    assert one["bias"] == 0.0
    assert three["bias"] == pytest.approx(1.0)
    assert three["bias_max"] == pytest.approx(1.0)
    assert three["error"] == pytest.approx(120.0 - (105 + 110 + 120 + 130 + 131) / 5)
    assert (three["coverage"], three["below"], three["above"]) == pytest.approx((0.6, 0.2, 0.2))


def test_a_played_kniffel_game_gives_a_row_per_turn_start_against_the_exact_table(
        classic_tables_solved: Path) -> None:
    rows, seconds = bench.play_totals(("kniffel", 5, 0, 1))
    assert seconds > 0
    rules = preset("kniffel")
    assert [r.open for r in rows] == list(range(len(rules.boxes), 0, -1))
    for r in rows:
        assert r.expected == pytest.approx(r.reference, abs=1e-6)  # exact: no bias
        assert r.low <= r.high
        assert r.final == rows[0].final

"""kniffel.engine.chances: every player's chance to win, expected final total and range, for
games of every rule set with 1–8 players on the score pad and with the dice; the chance of the
highest total against a brute-force enumeration; the distributions' quantiles and means."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kniffel.engine.chances import (
    Distribution,
    chances_over_game,
    start_expectation,
    win_chances,
    win_probabilities,
)
from kniffel.engine.game import Enter, Game, Mode, Score, Strike
from kniffel.engine.rules import Box, preset
from kniffel.engine.values import values_for

RULE_SETS = ("extreme", "kniffel", "yahtzee", "kniffel-championship", "kniffel-anleitung")
NAMES = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fina", "Gert", "Hanna")


def random_game(rules_name: str, players: int, mode: Mode, steps: int | None,
                seed: int) -> Game:
    """A game of random legal actions (random dice at chance nodes), ``steps`` decisions into
    it (None: to its end)."""
    game = Game(rules_name, list(NAMES[:players]), mode=mode, seed=seed)
    rng = random.Random(seed)
    done = 0
    while not game.is_over() and (steps is None or done < steps):
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        game.apply(rng.choice(game.legal_actions()))
        done += 1
    return game


def is_entry(action: object) -> bool:
    return isinstance(action, Score | Strike | Enter)


# --- partial games ------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_name=st.sampled_from(RULE_SETS), players=st.integers(1, 8),
       mode=st.sampled_from([Mode.PAD, Mode.DICE]), steps=st.integers(0, 400),
       seed=st.integers(0, 10_000))
def test_the_chances_of_any_partial_game_sum_to_one_and_each_range_is_ordered(
        classic_tables_solved: Path, rules_name: str, players: int, mode: Mode, steps: int,
        seed: int) -> None:
    game = random_game(rules_name, players, mode, steps, seed)
    chances = win_chances(game)
    assert len(chances.players) == players
    assert math.fsum(o.win for o in chances.players) == pytest.approx(1.0, abs=1e-9)
    for i, o in enumerate(chances.players):
        sheet = game.sheet(i)
        assert 0.0 <= o.win <= 1.0 + 1e-12
        assert o.name == NAMES[i]
        assert o.total == sheet.total
        assert o.finished == sheet.is_full
        # an exact endgame can leave the mean outside the 10–90 % range (a Kniffel: 0 or 50)
        assert o.low <= o.high
        assert sheet.total <= o.low
        assert sheet.total <= o.expected
    if chances.leader is not None:
        best = chances.players[chances.leader].win
        assert all(o.win < best for j, o in enumerate(chances.players) if j != chances.leader)


@pytest.mark.parametrize("rules_name", RULE_SETS)
def test_a_finished_game_gives_its_winner_everything(classic_tables_solved: Path,
                                                    rules_name: str) -> None:
    for seed in range(3):
        game = random_game(rules_name, 3, Mode.PAD, None, seed)
        assert game.is_over()
        chances = win_chances(game)
        winners = game.winners()
        for i, o in enumerate(chances.players):
            assert o.finished
            assert o.win == pytest.approx(1 / len(winners) if i in winners else 0.0)
            assert o.low == o.high == o.total == game.scores()[i]
            assert o.expected == pytest.approx(o.total)


def test_a_tie_at_the_end_shares_the_win_and_names_no_leader(
        classic_tables_solved: Path) -> None:
    game = Game("kniffel", ["Anna", "Ben", "Cleo"], mode=Mode.PAD)
    for box in game.rules.boxes:
        for player in range(3):
            if box is Box.FULL_HOUSE and player < 2:
                game.apply(Enter(box, 25))
            else:
                game.apply(Strike(box))
    assert game.is_over()
    chances = win_chances(game)
    assert [o.win for o in chances.players] == pytest.approx([0.5, 0.5, 0.0])
    assert chances.leader is None


@pytest.mark.parametrize("rules_name", RULE_SETS)
def test_players_in_identical_positions_get_equal_chances(classic_tables_solved: Path,
                                                          rules_name: str) -> None:
    rng = random.Random(5)
    game = Game(rules_name, ["Anna", "Ben", "Cleo"], mode=Mode.PAD)
    rounds = len(game.rules.boxes) - 2
    for _ in range(rounds):
        mine = rng.choice([a for a in game.legal_actions() if is_entry(a)])
        game.apply(mine)  # Anna
        game.apply(mine)  # Ben the same
        game.apply(rng.choice([a for a in game.legal_actions() if is_entry(a)]))  # Cleo
        chances = win_chances(game)
        anna, ben, _ = chances.players
        assert anna.win == pytest.approx(ben.win, abs=1e-12)
        assert (anna.expected, anna.low, anna.high) == (ben.expected, ben.low, ben.high)
    assert math.fsum(o.win for o in chances.players) == pytest.approx(1.0)


@pytest.mark.parametrize("rules_name", RULE_SETS)
@pytest.mark.parametrize("mode", [Mode.PAD, Mode.DICE], ids=["pad", "dice"])
def test_a_single_player_always_wins(classic_tables_solved: Path, rules_name: str,
                                     mode: Mode) -> None:
    for steps in (0, 7, None):
        chances = win_chances(random_game(rules_name, 1, mode, steps, 11))
        assert chances.players[0].win == 1.0
        assert chances.leader == 0


def test_a_fresh_game_expects_the_start_expectation_for_everyone(
        classic_tables_solved: Path) -> None:
    for rules_name in RULE_SETS:
        game = Game(rules_name, ["Anna", "Ben"])
        start = start_expectation(game.rules)
        for o in win_chances(game).players:
            assert o.expected == pytest.approx(start, abs=1e-6)
            assert o.win == pytest.approx(0.5, abs=1e-12)
    rules = preset("kniffel")
    assert start_expectation(rules) == values_for(rules).future(0, 0, 0)


# --- who wins: against enumeration ------------------------------------------------------------


def brute_force_wins(dists: list[Distribution]) -> list[float]:
    """Each player's chance of the highest total, a tie shared equally, by enumerating every
    combination of totals."""
    wins = [0.0] * len(dists)
    supports = [[(d.offset + k, p) for k, p in enumerate(d.probs) if p] for d in dists]
    for combo in itertools.product(*supports):
        p = math.prod(q for _, q in combo)
        top = max(x for x, _ in combo)
        winners = [i for i, (x, _) in enumerate(combo) if x == top]
        for i in winners:
            wins[i] += p / len(winners)
    return wins


@st.composite
def small_distributions(draw: st.DrawFn) -> Distribution:
    offset = draw(st.integers(0, 4))
    weights = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4).filter(any))
    total = sum(weights)
    return Distribution(offset, tuple(w / total for w in weights))


@settings(max_examples=150, deadline=None)
@given(dists=st.lists(small_distributions(), min_size=2, max_size=4))
def test_win_probabilities_match_a_brute_force_enumeration_with_ties(
        dists: list[Distribution]) -> None:
    assert list(win_probabilities(dists)) == pytest.approx(brute_force_wins(dists), abs=1e-12)


def test_win_probabilities_of_certain_totals_and_of_few_players() -> None:
    assert win_probabilities([]) == ()
    assert win_probabilities([Distribution(3, (0.5, 0.5))]) == (1.0,)
    assert win_probabilities([Distribution.point(5), Distribution.point(5),
                              Distribution.point(4)]) == pytest.approx((0.5, 0.5, 0.0))
    coin = Distribution(0, (0.5, 0.5))
    # the same coin for two: each wins the other's 0 outright and half of the ties
    assert win_probabilities([coin, coin]) == pytest.approx((0.5, 0.5))
    assert win_probabilities([coin, Distribution.point(1)]) == pytest.approx((0.25, 0.75))
    eight = win_probabilities([coin] * 8)
    assert eight == pytest.approx((1 / 8,) * 8)


# --- distributions ------------------------------------------------------------------------------


def test_a_distributions_mean_variance_and_quantiles() -> None:
    d = Distribution(10, (0.2, 0.3, 0.5))
    assert d.mean == pytest.approx(11.3)
    assert d.variance == pytest.approx(0.2 * 1.3 ** 2 + 0.3 * 0.3 ** 2 + 0.5 * 0.7 ** 2)
    assert [d.quantile(q) for q in (0.0, 0.1, 0.2, 0.21, 0.5, 0.51, 0.9, 1.0)] == [
        10, 10, 10, 11, 11, 12, 12, 12]
    assert d.shifted(5) == Distribution(15, d.probs)
    assert d.shifted(5).mean == pytest.approx(16.3)
    point = Distribution.point(7)
    assert (point.mean, point.variance, point.quantile(0.1), point.quantile(0.9)) == (7, 0, 7, 7)


@settings(max_examples=100, deadline=None)
@given(d=small_distributions(), q=st.floats(0.0, 1.0), r=st.floats(0.0, 1.0))
def test_quantiles_grow_with_q_and_lie_in_the_support(d: Distribution, q: float,
                                                      r: float) -> None:
    lo, hi = sorted((q, r))
    assert d.quantile(lo) <= d.quantile(hi)
    x = d.quantile(hi)
    k = x - d.offset
    assert 0 <= k < len(d.probs)
    assert math.fsum(d.probs[:k + 1]) >= hi - 1e-9  # P(X <= x) reaches the level
    assert d.offset <= d.mean <= d.offset + len(d.probs) - 1


# --- over a game --------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [Mode.PAD, Mode.DICE], ids=["pad", "dice"])
def test_chances_over_a_game_have_a_point_before_the_first_entry_and_one_per_entry(
        classic_tables_solved: Path, mode: Mode) -> None:
    for rules_name, players in (("kniffel", 2), ("extreme", 3)):
        game = random_game(rules_name, players, mode, 30, 3)
        while not is_entry(game.actions[-1]):  # end on an entry
            if game.is_chance_node():
                game.apply(game.sample_outcome(random.Random(0)))
            else:
                game.apply(game.legal_actions()[0])
        points = chances_over_game(game)
        entries = [i for i, a in enumerate(game.actions) if is_entry(a)]
        assert [p.index for p in points] == [-1, *entries]
        assert points[0].round == 1
        assert all(a.round <= b.round for a, b in itertools.pairwise(points))
        start = points[0].chances.players
        assert [o.win for o in start] == pytest.approx([1 / players] * players, abs=1e-12)
        assert points[-1].chances == win_chances(game)
        for p in points:
            assert math.fsum(o.win for o in p.chances.players) == pytest.approx(1.0)


def test_chances_over_a_finished_game_end_with_the_winner(classic_tables_solved: Path) -> None:
    game = random_game("kniffel", 2, Mode.DICE, None, 8)
    points = chances_over_game(game)
    assert len(points) == 1 + 2 * len(game.rules.boxes)
    winners = game.winners()
    assert [o.win for o in points[-1].chances.players] == pytest.approx(
        [1 / len(winners) if i in winners else 0.0 for i in range(2)])

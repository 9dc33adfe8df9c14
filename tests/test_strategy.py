"""Computer players: the strategy registry, legal moves only, and the greedy player's choices."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel import (
    PRESETS,
    Box,
    Game,
    IllegalMoveError,
    KniffelError,
    Outcome,
    Roll,
    RuleSet,
    Score,
    Throw,
    UseChip,
    preset,
    seeded_rng,
)
from kniffel.engine.errors import UnknownStrategyError
from kniffel.engine.game import Action
from kniffel.engine.strategy import (
    GreedyStrategy,
    RandomStrategy,
    Strategy,
    get_strategy,
    register_strategy,
    strategy_names,
)
from kniffel.simulate import play_out


def test_random_and_greedy_are_registered() -> None:
    assert strategy_names()[:2] == ("random", "greedy")
    assert isinstance(get_strategy("random", preset("extreme")), RandomStrategy)
    assert isinstance(get_strategy("Greedy", preset("kniffel")), GreedyStrategy)


def test_unknown_strategy_error_lists_the_names() -> None:
    with pytest.raises(UnknownStrategyError, match=r"'clever'.*random, greedy") as info:
        get_strategy("clever", preset("extreme"))
    assert isinstance(info.value, KniffelError)


class _FirstLegal:
    name = "first"

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def choose(self, game: Game, rng: random.Random) -> Action:
        return game.legal_actions()[0]


def test_a_registered_strategy_is_built_for_the_rule_set_and_listed() -> None:
    register_strategy("first-legal", _FirstLegal)
    try:
        built: Strategy = get_strategy("first-legal", preset("kniffel"))
        assert isinstance(built, _FirstLegal)
        assert built.rules == preset("kniffel")
        assert "first-legal" in strategy_names()
    finally:
        from kniffel.engine import strategy as module
        del module._REGISTRY["first-legal"]
    assert "first-legal" not in strategy_names()


def test_register_refuses_a_name_with_spaces_or_capitals() -> None:
    with pytest.raises(UnknownStrategyError, match="' Greedy'"):
        register_strategy(" Greedy", _FirstLegal)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_choose_refuses_a_chance_node_and_a_finished_game(name: str) -> None:
    rules = preset("kniffel")
    strategy = get_strategy(name, rules)
    game = Game(rules, ["A"])
    game.apply(Throw())
    with pytest.raises(IllegalMoveError, match="chance node"):
        strategy.choose(game, random.Random(0))
    play_out(game, strategy, random.Random(0))
    with pytest.raises(IllegalMoveError, match="game is over"):
        strategy.choose(game, random.Random(0))


@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(PRESETS), strategy=st.sampled_from(["random", "greedy"]),
       seed=st.integers(0, 10**6))
def test_every_choice_is_legal_for_a_whole_game(name: str, strategy: str, seed: int) -> None:
    rules = preset(name)
    player = get_strategy(strategy, rules)
    game = Game(rules, ["A", "B"], seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
            continue
        action = player.choose(game, rng)
        assert action in game.legal_actions()
        game.apply(action)
    assert all(game.sheet(i).is_full for i in range(2))


def _after_roll(rules: RuleSet, *rolls: Roll) -> Game:
    """A one-player game whose first turn threw ``rolls`` (each re-throw keeping nothing)."""
    actions: list[Action] = []
    for roll in rolls:
        actions += [Throw(), Outcome(roll)]
    return Game(rules, ["A"], actions=actions)


def test_greedy_scores_a_kniffel_in_the_kniffel_box() -> None:
    rules = preset("kniffel")
    game = _after_roll(rules, Roll((6, 6, 6, 6, 6)))
    assert GreedyStrategy(rules).choose(game, random.Random(0)) == Score(Box.KNIFFEL)


def test_greedy_scores_a_highway_at_once_in_extreme() -> None:
    rules = preset("extreme")
    game = _after_roll(rules, Roll((1, 2, 3, 4, 5), d10=6))
    assert GreedyStrategy(rules).choose(game, random.Random(0)) == Score(Box.HIGHWAY)


def test_greedy_keeps_four_of_a_kind_when_chasing_the_kniffel() -> None:
    rules = preset("kniffel")
    game = _after_roll(rules, Roll((2, 5, 5, 5, 5)))
    action = GreedyStrategy(rules).choose(game, random.Random(0))
    assert isinstance(action, Throw)
    assert action.keep.d6 == (5, 5, 5, 5)


def test_greedy_spends_all_its_chips_by_the_end_of_an_extreme_game() -> None:
    rules = preset("extreme")
    greedy = GreedyStrategy(rules)
    game = Game(rules, ["A"], seed=5)
    rng = random.Random(5)
    chips_used = 0
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
            continue
        action = greedy.choose(game, rng)
        chips_used += isinstance(action, UseChip)
        game.apply(action)
    # chips are worth nothing once the game ends: a greedy player spends all three
    assert chips_used == rules.chips
    assert game.sheet(0).chips_left == 0


def test_greedy_never_chooses_at_random() -> None:
    rules = preset("extreme")
    game = _after_roll(rules, Roll((1, 1, 3, 4, 6), d10=9))
    greedy = GreedyStrategy(rules)
    picks = {greedy.choose(game, random.Random(s)) for s in range(5)}
    assert len(picks) == 1


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.solve
def test_greedy_pure_python_decides_exactly_like_numpy_in_every_position(name: str) -> None:
    """The browser has no numpy: the pure-Python arithmetic must make the very same decisions.
    Positions come from games played half greedily, half at random (so odd sheets occur too),
    with the free-strike house rule in every other game."""
    games = 3 if name == "extreme" else 8
    decisions = 0
    for seed in range(games):
        rules = preset(name, free_strike=seed % 2 == 1) if name == "extreme" else preset(name)
        fast = GreedyStrategy(rules, use_numpy=True)
        pure = GreedyStrategy(rules, use_numpy=False)
        other = RandomStrategy(rules)
        game = Game(rules, ["A", "B"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
                continue
            action = fast.choose(game, rng)
            assert pure.choose(game, rng) == action, game.to_json()
            decisions += 1
            game.apply(other.choose(game, rng) if rng.random() < 0.4 else action)
    assert decisions > 40 * games


def test_greedy_pure_python_tables_equal_the_numpy_ones() -> None:
    rules = preset("kniffel")
    fast = GreedyStrategy(rules, use_numpy=True)
    pure = GreedyStrategy(rules, use_numpy=False)
    assert fast._worth == pure._worth
    game = _after_roll(rules, Roll((1, 2, 2, 4, 6)))
    numpy_stages, pure_stages = fast._stages(game, 0), pure._stages(game, 0)
    assert numpy_stages.first == pure_stages.first == 2
    assert len(numpy_stages.throws) == len(pure_stages.throws) == rules.rolls - 1
    for throw in range(2, rules.rolls + 1):
        assert list(numpy_stages.before(throw)) == pure_stages.before(throw), throw
    for name in ("final", "chip_final", "chip", "with_chip"):
        vector, want = getattr(numpy_stages, name), getattr(pure_stages, name)
        assert (vector is None and want is None) or list(vector) == want, name


def test_greedy_works_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    rules = preset("kniffel")
    greedy = get_strategy("greedy", rules)
    assert isinstance(greedy, GreedyStrategy)
    assert not greedy.use_numpy
    game = _after_roll(rules, Roll((6, 6, 6, 6, 6)))
    assert greedy.choose(game, random.Random(0)) == Score(Box.KNIFFEL)


@pytest.mark.parametrize("d10", [False, True])
@pytest.mark.solve
def test_the_dice_index_numbers_rethrows_and_outcomes_as_sub_keeps_and_outcomes_do(
    d10: bool,
) -> None:
    from kniffel.engine.dice import outcomes, sub_keeps
    from kniffel.engine.vectors import dice_index

    dice = dice_index(d10)
    keeps = list(dice.keep_index)
    for i, roll in enumerate(dice.rolls):
        want = [k for k in sub_keeps(roll) if k.size < len(roll.values)]
        assert [keeps[k] for k in dice.rethrows[i]] == want
    for k, (rolls, probs) in enumerate(dice.groups):
        assert [(dice.rolls[r], p) for r, p in zip(rolls, probs, strict=True)] == list(
            outcomes(keeps[k], d10=d10))

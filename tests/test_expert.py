"""Tests of the expert player (kniffel.expert): exact within a turn, valued at its end by the
exact tables (classic rule sets) or the fitted model (Kniffel Extreme)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kniffel.advice import Advice, Position
from kniffel.errors import KniffelError
from kniffel.expert import (
    Expert,
    ExpertError,
    ExpertStrategy,
    TableValues,
    _table_layout,
    compact_table,
    upper_states,
)
from kniffel.game import Game
from kniffel.messages import CATALOG, render
from kniffel.rules import RuleSet, preset
from kniffel.solver.advise import Advisor
from kniffel.solver.solve import solve
from kniffel.solver.table import make_layout
from kniffel.solver.tables import build_tables
from kniffel.strategy import get_strategy, strategy_names

CLASSIC = {"yahtzee": preset("yahtzee"), "kniffel": preset("kniffel"),
           "kniffel-championship": preset("kniffel-championship"),
           "kniffel-free-strike": preset("kniffel", free_strike=True)}


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The exact tables of every classic rule set, built once for the module."""
    directory = tmp_path_factory.mktemp("tables")
    for rules in CLASSIC.values():
        solve(rules, directory=directory)
    return directory


def table_values(rules: RuleSet, directory: Path) -> TableValues:
    table = Advisor(rules, directory=directory)._stored_table()
    assert table is not None
    assert table.path is not None
    return TableValues(rules, table.path.read_bytes(), where=str(table.path))


def positions(rules: RuleSet, games: int, seed: int) -> Iterator[tuple[Game, Position]]:
    """Every decision of ``games`` solitaire games, played half by greedy, half at random."""
    rng = random.Random(seed)
    for g in range(games):
        game = Game(rules, ["a"], seed=seed + g)
        strategy = get_strategy("random" if g % 2 else "greedy", rules)
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(rng))
                continue
            yield game, Position.from_game(game)
            game.apply(strategy.choose(game, rng))


def same_values(a: Advice, b: Advice) -> None:
    """The same options with the same expected scores (to 1e-9; the order of exact ties may
    differ with the floating-point rounding)."""
    mine = {o.action: (o.expected, o.points) for o in a.options}
    theirs = {o.action: (o.expected, o.points) for o in b.options}
    assert mine.keys() == theirs.keys()
    for action, (expected, points) in mine.items():
        assert expected == pytest.approx(theirs[action][0], abs=1e-9)
        assert points == theirs[action][1]
    assert a.best.expected == pytest.approx(b.best.expected, abs=1e-9)
    assert a.source == b.source


def test_upper_states_and_table_layout_match_the_solvers_numbering() -> None:
    for rules in (preset("extreme"), *CLASSIC.values()):
        t = build_tables(rules)
        states = upper_states(rules.bonus_threshold, 6 if rules.d10 else 5)
        for mask in range(64):
            assert list(states[mask]) == t.uval[mask, :t.n_u[mask]].tolist()
    for rules in CLASSIC.values():
        base, states_n = _table_layout(rules)
        layout = make_layout(build_tables(rules))
        assert base == layout.base.tolist()
        assert states_n == layout.states


@pytest.mark.parametrize("name", list(CLASSIC))
def test_classic_expert_is_exact_and_the_same_with_and_without_numpy(
        name: str, table_dir: Path) -> None:
    rules = CLASSIC[name]
    values = table_values(rules, table_dir)
    exact = Advisor(rules, directory=table_dir)
    with_numpy = Expert(rules, use_numpy=True, values=values)
    pure = Expert(rules, use_numpy=False, values=values)
    count = 0
    for _, pos in positions(rules, 6, seed=len(name)):
        a = with_numpy.advise(pos)
        b = pure.advise(pos)
        assert [(o.action, o.expected, o.loss) for o in a.options] == [
            (o.action, o.expected, o.loss) for o in b.options], "numpy and lists bit for bit"
        same_values(a, exact.advise(pos))
        count += 1
    assert count > 150


def test_expert_strategy_is_registered_and_plays_classic_games_exactly(table_dir: Path) -> None:
    assert "expert" in strategy_names()
    rules = CLASSIC["yahtzee"]
    values = table_values(rules, table_dir)
    strategy = ExpertStrategy(rules, values=values)
    exact = Advisor(rules, directory=table_dir)
    rng = random.Random(5)
    game = Game(rules, ["a"], seed=5)
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        action = strategy.choose(game, rng)
        assert action in game.legal_actions()
        if game.turn is not None and game.turn.roll is not None:
            advice = exact.advise(Position.from_game(game))
            taken = next(o for o in advice.options if o.action == action)
            assert taken.loss == pytest.approx(0.0, abs=1e-9)
        game.apply(action)


def test_a_float32_table_gives_the_same_decisions_within_float32_rounding(
        table_dir: Path) -> None:
    rules = CLASSIC["kniffel"]
    full = table_values(rules, table_dir)
    raw = Advisor(rules, directory=table_dir)._stored_table()
    assert raw is not None
    assert raw.path is not None
    small = compact_table(rules, raw.path.read_bytes())
    assert len(small) < 1_500_000
    half = TableValues(rules, small)
    for mask in (0, 1, 77, 4095, 8190):
        assert half.future(mask, 0, 0) == pytest.approx(full.future(mask, 0, 0), abs=1e-3)
    a = Expert(rules, values=full).advise(Position(rules))
    b = Expert(rules, values=half).advise(Position(rules))
    assert a.best.expected == pytest.approx(248.0761, abs=1e-4)
    assert b.best.expected == pytest.approx(a.best.expected, abs=1e-3)


def test_a_damaged_or_foreign_table_is_refused_with_a_message(table_dir: Path) -> None:
    rules = CLASSIC["kniffel"]
    table = Advisor(rules, directory=table_dir)._stored_table()
    assert table is not None
    assert table.path is not None
    data = table.path.read_bytes()
    middle = len(data) // 2
    damaged = data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1:]
    cases = {"checksum does not match": damaged, "no table header": b"nonsense",
             "rules is": data}
    for problem, raw in cases.items():
        target = CLASSIC["yahtzee"] if problem == "rules is" else rules
        with pytest.raises(ExpertError) as e:
            TableValues(target, raw, where="x.table")
        assert e.value.code == "expert.table_mismatch"
        assert problem in str(e.value)
        assert "x.table" in render(e.value, "de")


def test_every_expert_code_is_in_the_catalog() -> None:
    for code in ("expert.error", "expert.wrong_rules", "expert.table_missing",
                 "expert.table_mismatch", "expert.model_missing", "expert.model_unreadable",
                 "expert.model_version", "expert.model_rules", "expert.model_checksum"):
        assert code in CATALOG


def test_the_expert_refuses_a_position_of_other_rules(table_dir: Path) -> None:
    rules = CLASSIC["kniffel"]
    expert = Expert(rules, values=table_values(rules, table_dir))
    with pytest.raises(KniffelError) as e:
        expert.advise(Position(CLASSIC["yahtzee"]))
    assert e.value.code == "expert.wrong_rules"
    assert np.isfinite(expert.advise(Position(rules)).best.expected)

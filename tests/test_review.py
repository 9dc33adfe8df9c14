"""Tests of `kniffel review`: every decision of a game against the optimal choice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel import expert as expert_module
from kniffel import expert_model
from kniffel.cli import main
from kniffel.dice import Keep, Roll
from kniffel.errors import IllegalMoveError
from kniffel.expert import Expert, TableValues, review_game
from kniffel.expert_model import (
    MODEL_FORMAT,
    MODEL_VERSION,
    ValueModel,
    model_from_json,
    params_digest,
)
from kniffel.game import Game, Mode, Outcome, Score, Strike, Throw
from kniffel.history import History
from kniffel.rules import Box, preset
from kniffel.solver.review import review
from kniffel.storage import save_game

FREE = preset("kniffel", free_strike=True)


def _last_turn_game() -> Game:
    """Classic Kniffel with free strikes: every box but chance struck in the first 12 turns,
    then a last turn of 1 1 1 1 2 (keeps the four ones), 1 1 1 1 6, and scores chance."""
    game = Game(FREE, ["Anna"], seed=1)
    for box in FREE.boxes:
        if box is Box.CHANCE:
            continue
        game.apply(Throw())
        game.apply(Outcome(Roll((1, 2, 3, 4, 6))))
        game.apply(Strike(box))
    game.apply(Throw())
    game.apply(Outcome(Roll((1, 1, 1, 1, 2))))
    game.apply(Throw(Keep((1, 1, 1, 1))))
    game.apply(Outcome(Roll((1, 1, 1, 1, 6))))
    game.apply(Score(Box.CHANCE))
    return game


# With only chance open, a die thrown once more is worth 3.5 on average; with two throws left
# it is kept from 4 up (4, 5, 6: 5 on average), else thrown again: 1/2 · 5 + 1/2 · 3.5 = 4.25.
# After 1 1 1 1 2 with two throws left the best is to throw all five dice: 5 · 4.25 = 21.25.
# Keeping the four ones throws one die, and the last throw may take up every die again: a 6
# keeps the 6 (6 + 4 · 3.5 = 20), a 5 or 4 keeps it (19, 18), a 1–3 throws all five (17.5):
# (3 · 17.5 + 18 + 19 + 20) / 6 = 18.25, a loss of 3. After 1 1 1 1 6 with one throw left the
# best is to keep the 6: 6 + 4 · 3.5 = 20; scoring chance now gives 10, a loss of 10.


def test_review_finds_the_hand_computed_losses_of_the_last_turn(tmp_path: Path) -> None:
    result = review(_last_turn_game(), directory=tmp_path, build=True)
    assert not result.uncovered
    last = result.decisions[-2:]
    assert [d.taken.action for d in last] == [Throw(Keep((1, 1, 1, 1))), Score(Box.CHANCE)]
    assert last[0].best.action == Throw()
    assert last[0].taken.expected - last[0].position.score_so_far == pytest.approx(18.25,
                                                                                  abs=1e-9)
    assert last[0].loss == pytest.approx(3.0, abs=1e-9)
    assert last[1].best.action == Throw(Keep((6,)))
    assert last[1].loss == pytest.approx(10.0, abs=1e-9)
    assert last[1].best.expected - last[1].taken.expected == pytest.approx(10.0, abs=1e-9)
    assert all(d.round == 13 for d in last)


def test_review_totals_and_ranks_every_decision(tmp_path: Path) -> None:
    result = review(_last_turn_game(), directory=tmp_path, build=True)
    assert len(result.decisions) == 12 + 2, "each strike and both decisions of the last turn"
    assert result.total_loss() == pytest.approx(sum(d.loss for d in result.decisions))
    assert result.total_loss(0) == result.total_loss()
    costly = result.costliest(3)
    assert len(costly) == 3
    assert [d.loss for d in costly] == sorted((d.loss for d in result.decisions),
                                              reverse=True)[:3]
    assert all(d.loss >= 0 for d in result.decisions)


def test_review_of_an_extreme_game_far_from_the_end_says_which_table_is_missing(
    tmp_path: Path,
) -> None:
    game = Game(preset("extreme"), ["Anna"], seed=2)
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 2, 1), d10=3)))
    game.apply(Score(Box.SIXES))
    result = review(game, directory=tmp_path, expert=False)
    assert not result.decisions
    assert len(result.uncovered) == 1
    assert "kniffel solve --rules extreme" in result.uncovered[0].reason


def test_review_refuses_a_score_pad_game() -> None:
    with pytest.raises(IllegalMoveError, match="dice mode"):
        review(Game(FREE, ["Anna"], mode=Mode.PAD))


def test_cli_review_of_a_save_file_and_of_a_history_game(tmp_path: Path) -> None:
    game = _last_turn_game()
    save = tmp_path / "game.json"
    save_game(game, save)
    cache = str(tmp_path / "cache")
    res = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["decisions"][-1]["loss"] == pytest.approx(10.0, abs=1e-6)
    assert data["decisions"][-1]["best"] == {"type": "throw", "keep": [6], "keep_d10": None}
    assert len(data["costliest"]) == 3
    db = tmp_path / "h.db"
    with History(db) as h:
        gid = h.start(game)
    res = CliRunner().invoke(main, ["review", "--history", str(gid), "--db", str(db),
                                    "--cache-dir", cache, "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "total loss" in res.output
    assert "costliest" in res.output
    none = CliRunner().invoke(main, ["review"])
    assert none.exit_code == 2
    assert "--history" in none.output


# --- the expert where no table covers a position (issue 12) ------------------------------------

EXTREME = preset("extreme")


def _model() -> ValueModel:
    """A small value model of the expert's form (not fitted: the review only needs one)."""
    nb = 22
    params = {"layer": [[2.0 * x + 10.0 * n for x in range(4)] for n in range(nb + 1)],
              "box": [[float(b) for b in range(nb)] for _ in range(nb + 1)],
              "chip": [[[0.0] * 4 for _ in range(nb)] for _ in range(nb + 1)],
              "pair": [[[0.0] * nb for _ in range(nb)] for _ in range(nb + 1)],
              "upper": [[[[0.5 * k, 0.0]] * 4 for k in range(75)] for _ in range(64)],
              "upper_lower": [[[0.0] * 17 for _ in range(75)] for _ in range(64)]}
    return model_from_json(EXTREME, {"format": MODEL_FORMAT, "version": MODEL_VERSION,
                                     "rules": repr(EXTREME), "params": params,
                                     "sha256": params_digest(params)})


def _extreme_game() -> Game:
    game = Game(EXTREME, ["Anna"], seed=2)
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 2, 1), d10=3)))
    game.apply(Throw(Keep((6, 6, 6))))
    game.apply(Outcome(Roll((6, 6, 6, 6, 1), d10=6)))
    game.apply(Score(Box.SIXES))
    return game


def test_review_falls_back_to_the_expert_where_no_table_covers_and_says_so(
        tmp_path: Path) -> None:
    model = _model()
    expert = Expert(EXTREME, values=model)
    result = review(_extreme_game(), directory=tmp_path, expert=expert)
    assert not result.uncovered
    assert [d.source for d in result.decisions] == ["model", "model"]
    assert result.by_source() == {"model": 2}
    alone = review_game(_extreme_game(), expert=expert)
    assert [(d.taken, d.best, d.loss) for d in alone.decisions] == [
        (d.taken, d.best, d.loss) for d in result.decisions]


def test_review_without_table_or_model_lists_the_decision_with_both_reasons(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert_model, "model_bytes", lambda rules: None)
    expert_model.load_model.cache_clear()
    try:
        result = review(_extreme_game(), directory=tmp_path)
    finally:
        expert_model.load_model.cache_clear()
    assert not result.decisions
    assert len(result.uncovered) == 2
    reason = result.uncovered[0].reason
    assert "kniffel solve --rules extreme" in reason
    assert "fit_expert_model.py" in reason


def test_the_experts_review_of_a_classic_game_equals_the_exact_review(tmp_path: Path) -> None:
    game = _last_turn_game()
    exact = review(game, directory=tmp_path, build=True)
    values = TableValues(FREE, (tmp_path / "kniffel-free-strike.table").read_bytes())
    mine = review_game(game, expert=Expert(FREE, values=values, use_numpy=False))
    assert [d.index for d in mine.decisions] == [d.index for d in exact.decisions]
    for a, b in zip(mine.decisions, exact.decisions, strict=True):
        assert a.loss == pytest.approx(b.loss, abs=1e-9)
        assert a.taken.action == b.taken.action
        assert a.source == b.source == "table"
    assert mine.total_loss() == pytest.approx(exact.total_loss(), abs=1e-9)


def test_cli_review_says_which_decisions_the_expert_judged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = _model()
    monkeypatch.setattr(expert_module, "values_for", lambda rules, build=True: model)
    expert_module._expert.cache_clear()
    save = tmp_path / "game.json"
    save_game(_extreme_game(), save)
    cache = str(tmp_path / "cache")
    try:
        res = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache, "--lang",
                                        "de"])
        data = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache, "--json"])
    finally:
        expert_module._expert.cache_clear()
    assert res.exit_code == 0, res.output
    assert "2 Entscheidungen deckt keine genaue Wertetabelle ab" in res.output
    assert "≈" in res.output
    assert json.loads(data.output)["sources"] == {"model": 2}

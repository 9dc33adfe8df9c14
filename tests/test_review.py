"""Tests of `kniffel review`: every decision of a game against the optimal choice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.cli import main
from kniffel.dice import Keep, Roll
from kniffel.errors import IllegalMoveError
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
    result = review(game, directory=tmp_path)
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

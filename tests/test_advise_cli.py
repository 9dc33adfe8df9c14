"""Tests of `kniffel advise` for players (issue 19): the expert's estimate where no table covers
a Kniffel Extreme position, the player, dice and throw it advises on, numbers as the language
writes them."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from conftest import invoke
from kniffel.engine.dice import Keep, Roll
from kniffel.engine.expert import expert_for
from kniffel.engine.game import Game, Outcome, Score, Throw, action_to_json
from kniffel.engine.messages import dice_text, number, text
from kniffel.engine.rules import Box, Entry, preset
from kniffel.solver.advise import Position
from kniffel.storage import save_game

EXTREME = preset("extreme")
#: Kniffel Extreme with the upper boxes and six lower boxes filled: 10 boxes open, more than
#: the endgames solved on the spot (6), so no table covers it without `kniffel solve`.
TEN_OPEN = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=-,two_pairs=-,"
            "four_of_a_kind=-,three_pairs=-,two_triples=-,full_house=-")


def words(output: str) -> str:
    """The output with every run of spaces and line breaks as one space."""
    return " ".join(output.split())


def _ten_open_args(cache: Path, *more: str) -> list[str]:
    return ["advise", "--filled", TEN_OPEN, "--chips", "2", "--rolls-used", "2", "--cache-dir",
            str(cache), *more, "5", "5", "6", "2", "1", "8"]


def _ten_open_position() -> Position:
    entries = {b: Entry(0, struck=True) for b in EXTREME.boxes[6:12]}
    entries.update({b: Entry(3 * (i + 1)) for i, b in enumerate(EXTREME.boxes[:6])})
    return Position(EXTREME, entries, 2, Roll((5, 5, 6, 2, 1), d10=8), 2)


def test_advise_on_an_extreme_position_with_ten_open_boxes_gives_the_experts_estimate(
        tmp_path: Path) -> None:
    start = time.perf_counter()
    german = invoke(_ten_open_args(tmp_path))
    seconds = time.perf_counter() - start
    assert german.exit_code == 0, german.output
    assert seconds < 20, "the expert answers at once (no 75-minute solve)"
    assert text("advise.estimate", "de") in words(german.stdout)
    assert "kniffel solve" not in german.output
    english = invoke(_ten_open_args(tmp_path, "--lang", "en"))
    assert english.exit_code == 0, english.output
    assert text("advise.estimate", "en") in words(english.stdout)
    assert "expert's estimate" in english.stdout
    assert not list(tmp_path.iterdir()), "no table is built or stored"


def test_advise_json_of_the_experts_estimate_says_model_and_keeps_full_precision(
        tmp_path: Path) -> None:
    res = invoke(_ten_open_args(tmp_path, "--json", "--top", "0"))
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["source"] == "model"
    assert data["rules"] == "extreme"
    expert = expert_for(EXTREME).advise(_ten_open_position())
    assert data["score_so_far"] == expert.score_so_far == 63
    assert [o["action"] for o in data["options"]] == [
        action_to_json(o.action) for o in expert.options]
    for got, want in zip(data["options"], expert.options, strict=True):
        assert got["expected"] == pytest.approx(want.expected, abs=1e-6)
        assert got["loss"] == pytest.approx(want.loss, abs=1e-6)
    assert any(round(o["expected"], 2) != o["expected"] for o in data["options"]), \
        "more than two decimals"
    assert data["player"] is None
    assert data["roll"] == {"d6": [1, 2, 5, 5, 6], "d10": 8}
    assert data["rolls_used"] == 2
    assert data["chip_used"] is False


def test_advise_table_names_the_throw_and_the_dice_and_writes_numbers_in_the_language(
        tmp_path: Path) -> None:
    german = invoke(_ten_open_args(tmp_path))
    assert "Kniffel Extreme — 2. Wurf: 1 2 5 5 6, W10=8 — bisher 63 Punkte" in german.stdout
    best = expert_for(EXTREME).advise(_ten_open_position()).best
    assert number(best.expected, "de", 2) in german.stdout
    assert re.search(r"\d,\d\d\b", german.stdout)
    assert not re.search(r"\d\.\d", german.stdout), "a German reader sees no decimal point"
    english = invoke(_ten_open_args(tmp_path, "--lang", "en"))
    assert "Kniffel Extreme — throw 2: 1 2 5 5 6, d10=8 — 63 points so far" in english.stdout
    assert number(best.expected, "en", 2) in english.stdout
    assert not re.search(r"\d,\d\d\b", english.stdout)


def _saved_extreme_game(path: Path) -> Path:
    """Anna scores her first throw; Ben keeps three sixes and has thrown twice."""
    game = Game(EXTREME, ["Anna", "Ben"], seed=19)
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 2, 1), d10=3)))
    game.apply(Score(Box.SIXES))
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 2, 1), d10=3)))
    game.apply(Throw(Keep((6, 6, 6))))
    game.apply(Outcome(Roll((6, 6, 6, 5, 1), d10=8)))
    return save_game(game, path)


def test_advise_on_a_saved_game_names_the_player_to_move_the_throw_and_the_dice(
        tmp_path: Path) -> None:
    save = _saved_extreme_game(tmp_path / "game.json")
    cache = tmp_path / "cache"
    german = invoke(["advise", "--game", str(save), "--cache-dir", str(cache)])
    assert german.exit_code == 0, german.output
    dice = dice_text((1, 5, 6, 6, 6), 8, "de")
    assert f"Ben, 2. Wurf: {dice}" in german.stdout
    assert "Anna" not in german.stdout
    english = invoke(["advise", "--game", str(save), "--cache-dir", str(cache), "--lang", "en"])
    assert f"Ben, throw 2: {dice_text((1, 5, 6, 6, 6), 8, 'en')}" in english.stdout
    data = json.loads(invoke(["advise", "--game", str(save), "--cache-dir", str(cache),
                              "--json"]).stdout)
    assert data["player"] == "Ben"
    assert data["roll"] == {"d6": [1, 5, 6, 6, 6], "d10": 8}
    assert data["rolls_used"] == 2
    assert data["source"] == "model"
    assert {"rules", "score_so_far", "source", "options"} <= data.keys()


def test_advise_before_the_first_throw_says_so(tmp_path: Path) -> None:
    res = invoke(["advise", "--filled", TEN_OPEN, "--cache-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "Kniffel Extreme — vor dem 1. Wurf — bisher 63 Punkte" in res.stdout
    assert "Alle Würfel werfen" in res.stdout


def test_advise_on_a_classic_rule_set_is_exact_never_the_experts_estimate(
        tmp_path: Path) -> None:
    args = ["advise", "--rules", "yahtzee", "--cache-dir", str(tmp_path), "1", "3", "3", "5", "6"]
    res = invoke(args)
    assert res.exit_code == 0, res.output
    assert text("advise.estimate", "de") not in words(res.stdout)
    assert json.loads(invoke([*args, "--json"]).stdout)["source"] in ("table", "endgame")


# --- what advise cannot use is refused (issue 41) --------------------------------------------


@pytest.mark.parametrize("dice", [["3", "4"], ["6", "6", "6", "5", "1", "8"], ["-1"]],
                         ids=["two", "a-whole-throw", "negative"])
def test_advise_refuses_dice_beside_a_saved_game_whose_dice_it_reads(
        tmp_path: Path, dice: list[str]) -> None:
    save = _saved_extreme_game(tmp_path / "game.json")
    stored = save.read_bytes()
    shown = " ".join(dice)
    german = invoke(["advise", "--game", str(save), "--cache-dir", str(tmp_path), *dice])
    assert german.exit_code == 2, german.output
    assert german.stdout == ""
    assert german.stderr == ("kniffel advise: Mit --game kommen die Würfel aus dem Spielstand; "
                             f"weitere Würfel ({shown}) gehen nicht.\n")
    english = invoke(["advise", *dice, "--game", str(save), "--lang", "en"])
    assert english.exit_code == 2, english.output
    assert english.stderr == ("kniffel advise: With --game the dice come from the saved game; "
                              f"further dice ({shown}) cannot be used.\n")
    assert save.read_bytes() == stored
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


@pytest.mark.parametrize("given", [
    ["--filled", "sixes=24"], ["--upper", "20"], ["--chips", "2"], ["--rolls-used", "2"],
    ["--chip-used"], ["--rules", "extreme"], ["--rules", "kniffel", "--free-strike"]],
    ids=lambda given: "".join(given[::2]))
def test_advise_refuses_a_position_option_beside_a_saved_game(tmp_path: Path,
                                                               given: list[str]) -> None:
    save = _saved_extreme_game(tmp_path / "game.json")
    named = ", ".join(a for a in given if a.startswith("--"))
    german = invoke(["advise", "--game", str(save), *given])
    assert german.exit_code == 2, german.output
    assert german.stderr == ("kniffel advise: Mit --game kommt die Stellung aus dem Spielstand; "
                             f"daneben geht nicht: {named}.\n")
    english = invoke(["advise", "--lang", "en", *given, "--game", str(save)])
    assert english.exit_code == 2, english.output
    assert english.stderr == ("kniffel advise: With --game the position comes from the saved "
                              f"game; not beside it: {named}.\n")


@pytest.mark.parametrize(("dice", "german", "english"), [
    (["5", "5", "6", "2", "1", "-1"], "Ein W10 zeigt 0 bis 9, nicht -1.",
     "A d10 shows 0 to 9, not -1."),
    (["-3", "5", "6", "2", "1", "8"], "Ein W6 zeigt 1 bis 6, nicht -3.",
     "A d6 shows 1 to 6, not -3."),
], ids=["d10", "d6"])
def test_advise_reads_a_negative_number_as_a_die_to_refuse_not_as_an_option(
        tmp_path: Path, dice: list[str], german: str, english: str) -> None:
    res = invoke(["advise", "--cache-dir", str(tmp_path), *dice])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"kniffel advise: {german}\n"
    res = invoke(["advise", "--lang", "en", "--cache-dir", str(tmp_path), *dice])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"kniffel advise: {english}\n"

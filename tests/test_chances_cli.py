"""Tests of `kniffel chances` (issue 22): every player's chance to win, expected final total and
range for saved games, many files in one call, in German and English and as JSON lines; files
that cannot be judged named in one sentence each while the others are still shown."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from conftest import invoke
from kniffel.engine import chances as chances_module
from kniffel.engine.chances import win_chances
from kniffel.engine.errors import ExpertError
from kniffel.engine.game import Enter, Game, Mode
from kniffel.engine.match import Match
from kniffel.engine.messages import count, number, percent
from kniffel.engine.rules import Box, Lang, RuleSet, preset
from kniffel.engine.strategy import get_strategy
from kniffel.engine.values import values_for
from kniffel.storage import save_game


def played(rules_name: str, names: Sequence[str], moves: int | None, seed: int = 7) -> Game:
    """A game of greedy computers on ``rules_name``: ``moves`` steps into it (None: to the
    end)."""
    rules = preset(rules_name)
    game = Game(rules, list(names), seed=seed)
    greedy = get_strategy("greedy", rules)
    match = Match(game, strategies=dict.fromkeys(range(len(names)), greedy),
                  rng=random.Random(seed))
    done = 0
    while not game.is_over() and (moves is None or done < moves):
        match.move()
        done += 1
    return game


@pytest.fixture
def saves(tmp_path: Path) -> dict[str, Path]:
    """Three saves: Kniffel Extreme in round 4 (three players), classic Kniffel finished (two
    players), classic Kniffel early (four players)."""
    games = {"extreme": played("extreme", ["Anna", "Ben", "Cleo"], 40),
             "over": played("kniffel", ["Anna", "Ben"], None),
             "early": played("kniffel", ["Anna", "Ben", "Cleo", "Dora"], 20)}
    return {key: save_game(game, tmp_path / f"{key}.json") for key, game in games.items()}


def _row(output: str, name: str) -> list[str]:
    """The cells of ``name``'s row in a table of the output (the first one)."""
    line = next(line for line in output.splitlines() if line.startswith(f"│ {name} "))
    return [cell.strip() for cell in line.strip("│").split("│")]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_chances_of_a_game_in_progress_show_every_players_chance_expected_total_and_range(
        saves: dict[str, Path], lang: Lang) -> None:
    from kniffel.storage import load_game

    game = load_game(saves["extreme"])
    found = win_chances(game)
    res = invoke(["chances", str(saves["extreme"]), "--lang", lang])
    assert res.exit_code == 0, res.output
    round_words = {"de": f"Runde {game.round} von 22", "en": f"round {game.round} of 22"}
    assert f"{saves['extreme']} — Kniffel Extreme, {round_words[lang]}" in res.stdout
    header = {"de": ("Spieler", "Gewinnchance", "Erwartet", "Bereich"),
              "en": ("Player", "Win chance", "Expected", "Range")}
    for word in header[lang]:
        assert word in res.stdout
    for o in found.players:
        assert _row(res.stdout, o.name) == [
            o.name, percent(o.win, lang), count(o.total, lang), number(o.expected, lang, 1),
            f"{count(o.low, lang)}–{count(o.high, lang)}"]
    assert ("wenn alle von hier an gut spielen" in res.stdout) == (lang == "de")
    assert ("if everyone plays well from here" in res.stdout) == (lang == "en")
    decimal_point = "," if lang == "de" else "."
    assert all(decimal_point in _row(res.stdout, o.name)[1] for o in found.players)


def test_the_json_lines_hold_one_object_per_file_in_the_issues_shape_and_the_wins_sum_to_1(
        saves: dict[str, Path]) -> None:
    from kniffel.storage import load_game

    files = [saves["extreme"], saves["early"], saves["over"]]
    res = invoke(["chances", "--json", *map(str, files)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == len(files)
    for line, path in zip(lines, files, strict=True):
        data = json.loads(line)
        assert set(data) == {"file", "players"}
        assert data["file"] == str(path)
        found = win_chances(load_game(path))
        assert [p["name"] for p in data["players"]] == [o.name for o in found.players]
        for p, o in zip(data["players"], found.players, strict=True):
            assert set(p) == {"name", "win", "expected", "low", "high"}
            assert p["win"] == pytest.approx(o.win, abs=1e-6)
            assert p["expected"] == pytest.approx(o.expected, abs=1e-6)
            assert (p["low"], p["high"]) == (o.low, o.high)
            assert p["low"] <= p["expected"] <= p["high"]
        assert sum(p["win"] for p in data["players"]) == pytest.approx(1.0, abs=1e-5)


def test_a_finished_game_gives_its_winner_1_and_each_player_their_total(
        saves: dict[str, Path]) -> None:
    from kniffel.storage import load_game

    game = load_game(saves["over"])
    totals = game.scores()
    assert totals[0] != totals[1]
    winner = 0 if totals[0] > totals[1] else 1
    data = json.loads(invoke(["chances", "--json", str(saves["over"])]).stdout)
    assert [p["win"] for p in data["players"]] == [1.0 if i == winner else 0.0
                                                   for i in range(2)]
    assert [(p["low"], p["expected"], p["high"]) for p in data["players"]] == [
        (t, t, t) for t in totals]
    text = invoke(["chances", str(saves["over"]), "--lang", "en"]).stdout
    assert "game over" in text
    row = _row(text, game.players[winner].name)
    assert row[1] == "100.0 %"
    assert row[4] == str(totals[winner])  # one number: nothing is left to range over


def test_many_files_in_one_call_show_a_table_each_in_the_order_given(
        saves: dict[str, Path]) -> None:
    files = [str(saves["early"]), str(saves["extreme"]), str(saves["over"])]
    res = invoke(["chances", *files])
    assert res.exit_code == 0, res.output
    titles = [line for line in res.stdout.splitlines() if " — " in line]
    assert [t.split(" — ")[0] for t in titles] == files
    assert res.stdout.count("wenn alle von hier an gut spielen") == 1


def test_the_model_of_a_rule_set_is_loaded_once_for_many_files(
        saves: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[RuleSet] = []
    real = values_for

    def counted(rules: RuleSet, *, build: bool = True) -> object:
        loaded.append(rules)
        return real(rules, build=build)

    chances_module._model.cache_clear()
    monkeypatch.setattr(chances_module, "values_for", counted)
    more = [save_game(played("kniffel", ["Anna", "Ben"], n, seed=n), tmp_path / f"k{n}.json")
            for n in (5, 9, 14)]
    try:
        res = invoke(["chances", "--json", *map(str, [*more, saves["early"], saves["extreme"]])])
        assert res.exit_code == 0, res.output
        assert len(res.stdout.splitlines()) == 5
        assert loaded == [preset("kniffel"), preset("extreme")]
    finally:
        chances_module._model.cache_clear()


@pytest.mark.parametrize(("lang", "missing", "folder", "not_a_save", "not_json"), [
    ("de", "gibt es nicht", "ist ein Ordner, keine Datei", "Das ist kein Kniffel-Spielstand",
     "kein gültiges JSON"),
    ("en", "does not exist", "is a folder, not a file", "This is not a kniffel saved game",
     "not valid JSON"),
])
def test_files_that_cannot_be_read_get_one_sentence_each_and_the_others_are_still_shown(
        saves: dict[str, Path], tmp_path: Path, lang: str, missing: str, folder: str,
        not_a_save: str, not_json: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "other.json").write_text('{"format": "something-else"}', "utf-8")
    (tmp_path / "broken.json").write_text("{ not json", "utf-8")
    bad = [tmp_path / "none.json", tmp_path / "folder", tmp_path / "other.json",
           tmp_path / "broken.json"]
    for as_json in ([], ["--json"]):
        res = invoke(["chances", *as_json, "--lang", lang, str(bad[0]), str(saves["early"]),
                      *map(str, bad[1:]), str(saves["over"])])
        assert res.exit_code == 2, res.output
        assert "Traceback" not in res.output
        errors = res.stderr.splitlines()
        assert len(errors) == len(bad)
        for line, path, words in zip(errors, bad, (missing, folder, not_a_save, not_json),
                                     strict=True):
            assert line.startswith(f"kniffel chances: {path}")
            assert words in line, line
        if as_json:
            assert [json.loads(line)["file"] for line in res.stdout.splitlines()] == [
                str(saves["early"]), str(saves["over"])]
        else:
            assert str(saves["early"]) in res.stdout
            assert str(saves["over"]) in res.stdout


def test_a_rule_set_without_values_is_named_with_the_experts_words_and_the_rest_is_shown(
        saves: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    real = chances_module.chance_model

    def no_extreme(rules: RuleSet) -> chances_module.ChanceModel:
        if rules.d10:
            raise ExpertError("no model", code="expert.model_missing",
                              params={"rules": rules.name, "command": "fit"})
        return real(rules)

    monkeypatch.setattr(chances_module, "chance_model", no_extreme)
    for lang, words in (("de", "hat der Experte noch kein Wertemodell"),
                        ("en", "no value model")):
        res = invoke(["chances", "--lang", lang, str(saves["extreme"]), str(saves["over"])])
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith(f"kniffel chances: {saves['extreme']}: ")
        assert words in res.stderr
        assert len(res.stderr.splitlines()) == 1
        assert str(saves["over"]) in res.stdout


def test_a_score_pad_game_and_a_name_with_brackets_are_shown_as_they_are(
        tmp_path: Path) -> None:
    game = Game(preset("kniffel"), ["[bold]Anna[/bold]", "Ben"], mode=Mode.PAD)
    game.apply(Enter(Box.KNIFFEL, 50))
    path = save_game(game, tmp_path / "pad.json")
    res = invoke(["chances", str(path), "--lang", "en"])
    assert res.exit_code == 0, res.output
    found = win_chances(game)
    assert found.players[0].win > found.players[1].win  # a Kniffel ahead
    assert _row(res.stdout, "[bold]Anna[/bold]")[1] == percent(found.players[0].win, "en")


def test_the_help_says_what_the_exit_status_means_in_both_languages() -> None:
    res = invoke(["chances", "--help"])
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())  # the help speaks the reader's language only
    assert "Gewinnchancen gespeicherter Spiele" in text
    assert "Exit-Status 0: jede Datei gezeigt; 2: mindestens eine Datei" in text
    assert "SPIELSTAND..." in text
    english = " ".join(invoke(["chances", "--lang", "en", "--help"]).stdout.split())
    assert "Exit status 0: every file shown; 2: at least one file" in english
    assert "SAVE..." in english
    none = invoke(["chances"])
    assert none.exit_code == 2
    assert "Traceback" not in none.output

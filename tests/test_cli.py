"""The command line: ``kniffel score``, ``kniffel rules``, ``kniffel show`` and the help."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import invoke
from kniffel import PRESETS, Box, Enter, Game, Mode, Strike, preset
from kniffel.engine.rules import Lang
from kniffel.storage import save_game

# the rulebook example: three Fives and three Sixes
EXAMPLE_FITS = {"fives": 15, "sixes": 18, "three_of_a_kind": 33, "two_pairs": 33,
                "two_triples": 45, "full_house": 25, "thirty_three_or_more": 40, "chance": 33,
                "super_chance": 66}


def table_rows(text: str) -> dict[str, list[str]]:
    """The rows of a Rich table by their first cell."""
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip().replace("┃", "│")  # the header row has heavy bars
        if line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            rows[cells[0]] = cells[1:]
    return rows


# --- kniffel score ---------------------------------------------------------------------------


def test_score_json_gives_points_and_fit_of_every_box_for_the_rulebook_example() -> None:
    result = invoke(["score", "5", "5", "5", "6", "6", "6", "--json"])
    assert result.exit_code == 0
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["dice"] == [5, 5, 5, 6, 6, 6]
    assert list(data["boxes"]) == [b.value for b in preset("extreme").boxes]
    assert len(data["boxes"]) == 22
    for box, value in data["boxes"].items():
        assert value == {"points": EXAMPLE_FITS.get(box, 0), "fits": box in EXAMPLE_FITS}, box


def test_score_accepts_dice_separated_by_commas() -> None:
    spaced = invoke(["score", "--json", "5", "5", "5", "6", "6", "6"])
    commas = invoke(["score", "--json", "5,5,5,6,6,6"])
    assert commas.exit_code == 0
    assert commas.stdout == spaced.stdout


def test_score_the_d10_is_the_last_value() -> None:
    data = json.loads(invoke(["score", "--json", "1", "2", "3", "4", "5", "0"]).stdout)
    assert data["dice"][-1] == 0
    # 0-1-2-3-4-5 is a run of six only with the d10 showing 0
    assert data["boxes"]["highway"] == {"points": 50, "fits": True}
    assert data["boxes"]["ten_or_less"] == {"points": 0, "fits": False}  # sum 15


def test_score_table_shows_the_german_box_names() -> None:
    result = invoke(["score", "5", "5", "5", "6", "6", "6"])
    assert result.exit_code == 0
    rules = preset("extreme")
    rows = table_rows(result.stdout)
    for box in rules.boxes:
        name = rules.box_name(box, "de")
        assert name in rows, name
        assert rows[name][0] == box.value
        assert rows[name][1] == str(EXAMPLE_FITS.get(box.value, 0))
    assert "Fünfer" in rows
    assert "Zwei Dreier" in rows
    assert "Super-Chance" in rows


def test_score_table_in_english() -> None:
    result = invoke(["score", "--lang", "en", "5", "5", "5", "6", "6", "6"])
    assert result.exit_code == 0
    rows = table_rows(result.stdout)
    assert rows["Two Triples"][:2] == ["two_triples", "45"]
    assert rows["Fives"][:2] == ["fives", "15"]


@pytest.mark.parametrize("name", ["kniffel", "kniffel-championship", "yahtzee"])
def test_score_classic_rules_take_five_dice(name: str) -> None:
    result = invoke(["score", "--rules", name, "--json", "3", "3", "3", "5", "5"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["dice"] == [3, 3, 3, 5, 5]
    boxes = data["boxes"]
    assert list(boxes) == [b.value for b in preset(name).boxes]
    assert len(boxes) == 13
    fitting = {box: v["points"] for box, v in boxes.items() if v["fits"]}
    assert fitting == {"threes": 9, "fives": 10, "three_of_a_kind": 19, "full_house": 25,
                       "chance": 19}
    six = invoke(["score", "--rules", name, "3", "3", "3", "5", "5", "5"])
    assert six.exit_code == 2
    assert "5" in six.stderr
    assert "6" in six.stderr


def test_score_reads_one_roll_per_line_from_stdin() -> None:
    stdin = "5 5 5 6 6 6\n\n   \n1,2,3,4,5,0\n6 6 6 6 6 6\n\n"
    result = invoke(["score", "--json"], stdin)
    assert result.exit_code == 0
    assert result.stderr == ""
    rolls = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["dice"] for r in rolls] == [[5, 5, 5, 6, 6, 6], [1, 2, 3, 4, 5, 0],
                                          [6, 6, 6, 6, 6, 6]]
    assert rolls[0]["boxes"]["two_triples"] == {"points": 45, "fits": True}
    assert rolls[1]["boxes"]["highway"] == {"points": 50, "fits": True}
    assert rolls[2]["boxes"]["kniffel_extreme"] == {"points": 75, "fits": True}
    assert rolls[2]["boxes"]["sixes"] == {"points": 36, "fits": True}
    assert all(len(r["boxes"]) == 22 for r in rolls)


def test_score_reads_stdin_without_json_one_line_per_roll() -> None:
    result = invoke(["score", "--rules", "kniffel"], "1 2 3 4 5\n\n6 6 6 6 6\n")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert "large_straight 40" in lines[0]
    assert "kniffel 50" in lines[1]


def test_score_stdin_bad_lines_name_problem_and_line_number() -> None:
    stdin = "\n".join([
        "5 5 5 6 6 6",  # 1: fine
        "5 5 5 6 6",  # 2: five values
        "",  # 3: blank
        "7 1 1 1 1 1",  # 4: a d6 showing 7
        "1 1 1 1 1 10",  # 5: a d10 showing 10
        "x 1 1 1 1 1",  # 6: not a number
    ]) + "\n"
    result = invoke(["score", "--json", "--lang", "en"], stdin)
    assert result.exit_code == 2
    err = result.stderr.splitlines()
    assert len(err) == 4
    assert "line 2" in err[0]
    assert "6 dice are needed" in err[0]
    assert "line 4" in err[1]
    assert "not 7" in err[1]
    assert "d6" in err[1]
    assert "line 5" in err[2]
    assert "not 10" in err[2]
    assert "d10" in err[2]
    assert "line 6" in err[3]
    assert "x" in err[3]
    assert "whole number" in err[3]
    german = invoke(["score", "--json"], stdin).stderr.splitlines()
    assert "Zeile 2: Gebraucht werden 6 Würfel" in german[0]
    assert "Ein W10 zeigt 0 bis 9, nicht 10" in german[2]
    assert "Traceback" not in result.stderr + "".join(german)


@pytest.mark.parametrize(("args", "words", "german"), [
    (["5", "5", "5", "6", "6"], ["6 dice are needed", "5 were given"], "eingegeben wurden 5"),
    (["5", "5", "5", "6", "6", "6", "6"], ["6 dice are needed", "7 were given"],
     "Gebraucht werden 6 Würfel"),
    (["7", "5", "5", "6", "6", "6"], ["A d6 shows 1 to 6, not 7"], "Ein W6 zeigt 1 bis 6, nicht 7"),
    (["5", "5", "5", "6", "6", "10"], ["A d10 shows 0 to 9, not 10"], "Ein W10 zeigt 0 bis 9"),
    (["5", "5", "5", "6", "0", "6"], ["not 0", "d6"], "nicht 0"),
    (["x", "5", "5", "6", "6", "6"], ["not x", "whole number"], "ganze Zahl"),
    (["5", "5", "5", "6", "6", "six"], ["not six", "whole number"], "nicht six"),
    (["5", "5", "5", "6", "6", "-1"], ["not -1", "d10", "0 to 9"], "W10"),
    (["-3", "5", "5", "6", "6", "6"], ["not -3", "d6"], "W6"),
], ids=["too-few", "too-many", "d6-seven", "d10-ten", "d6-zero", "x", "word", "d10-negative",
        "d6-negative"])
def test_score_bad_dice_exit_2_naming_the_problem(args: list[str], words: list[str],
                                                  german: str) -> None:
    result = invoke(["score", "--lang", "en", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    for word in words:
        assert word in result.stderr
    in_german = invoke(["score", *args])
    assert in_german.exit_code == 2
    assert german in in_german.stderr
    assert "Traceback" not in result.stderr + in_german.stderr


def test_score_misspelt_option_is_a_usage_error_not_a_die() -> None:
    result = invoke(["score", "5", "5", "5", "6", "6", "6", "--jsn"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "kniffel score: Eine Option --jsn gibt es nicht; gemeint ist vielleicht --json.")
    english = invoke(["score", "--lang", "en", "5", "5", "5", "6", "6", "6", "--jsn"])
    assert english.exit_code == 2
    assert "There is no option --jsn; did you mean --json?" in english.stderr


def test_score_unknown_rule_set_is_a_usage_error() -> None:
    result = invoke(["score", "--rules", "poker", "5", "5", "5", "6", "6", "6"])
    assert result.exit_code == 2
    assert "poker" in result.stderr


# --- kniffel rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("name", PRESETS)
def test_rules_lists_every_box_of_the_sheet(name: str, lang: str) -> None:
    result = invoke(["rules", "--rules", name, "--lang", lang])
    assert result.exit_code == 0
    rules = preset(name)
    rows = table_rows(result.stdout)
    listed = [cells[0] for cells in rows.values() if cells and cells[0] in
              {b.value for b in Box}]
    assert listed == [b.value for b in rules.boxes]  # every box, in sheet order
    lang_key: Lang = "de" if lang == "de" else "en"
    for box in rules.boxes:
        assert rules.box_name(box, lang_key) in rows
    assert rules.title(lang_key) in result.stdout
    bonus = [line for line in result.stdout.splitlines() if "Bonus" in line]
    assert any(str(rules.bonus_points) in line and str(rules.bonus_threshold) in line
               for line in bonus)


def test_rules_mentions_the_chips_of_kniffel_extreme_only() -> None:
    extreme = invoke(["rules", "--lang", "en"]).stdout
    classic = invoke(["rules", "--rules", "kniffel", "--lang", "en"]).stdout
    assert any("Chips" in line and "3" in line for line in extreme.splitlines())
    assert "Chips" not in classic


def test_rules_free_strike_changes_the_strike_rule() -> None:
    plain = invoke(["rules", "--lang", "en"])
    free = invoke(["rules", "--lang", "en", "--free-strike"])
    assert free.exit_code == 0
    assert free.stdout != plain.stdout
    assert "any time" in free.stdout
    assert "any time" not in plain.stdout


def test_rules_yahtzee_in_english_names_the_yahtzee_box() -> None:
    result = invoke(["rules", "--rules", "yahtzee", "--lang", "en"])
    assert table_rows(result.stdout)["Yahtzee"][0] == "kniffel"


# --- help ------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--help"], ["score", "--help"], ["rules", "--help"]])
def test_help_lists_every_rule_set(args: list[str]) -> None:
    result = invoke(args)
    assert result.exit_code == 0
    for name in PRESETS:
        assert name in result.stdout


def test_help_lists_every_command() -> None:
    result = invoke(["--help"])
    for command in ("score", "rules", "show"):
        assert command in result.stdout


# --- kniffel show ----------------------------------------------------------------------------


def _finished_classic_game() -> Game:
    # Anna: upper 3+6+9+12+15+18 = 63 -> bonus 35; lower 20+0+25+30+40+50+22 = 187;
    # total 63+35+187 = 285. Ben strikes every box: 0.
    anna = [(Box.ONES, 3), (Box.TWOS, 6), (Box.THREES, 9), (Box.FOURS, 12), (Box.FIVES, 15),
            (Box.SIXES, 18), (Box.THREE_OF_A_KIND, 20), (Box.FOUR_OF_A_KIND, 0),
            (Box.FULL_HOUSE, 25), (Box.SMALL_STRAIGHT, 30), (Box.LARGE_STRAIGHT, 40),
            (Box.KNIFFEL, 50), (Box.CHANCE, 22)]
    game = Game("kniffel", ["Anna", "Ben"], mode=Mode.PAD)
    for box, points in anna:
        game.apply(Enter(box, points) if points else Strike(box))
        game.apply(Strike(box))
    assert game.is_over()
    return game


def test_show_prints_the_players_and_their_totals(tmp_path: Path) -> None:
    path = save_game(_finished_classic_game(), tmp_path / "game.json")
    result = invoke(["show", str(path)])
    assert result.exit_code == 0
    rows = table_rows(result.stdout)
    header = next(cells for first, cells in rows.items() if first in ("Kästchen", "Box"))
    assert [c.split()[0] for c in header] == ["Anna", "Ben"]
    assert rows["Gesamt"] == ["285", "0"]
    assert rows["Summe oben"] == ["63", "0"]
    assert rows["Bonus"] == ["35", "0"]
    assert rows["Summe unten"] == ["187", "0"]
    assert rows["Fünfer"] == ["15", "–"]


def test_show_in_english(tmp_path: Path) -> None:
    path = save_game(_finished_classic_game(), tmp_path / "game.json")
    result = invoke(["show", "--lang", "en", str(path)])
    assert result.exit_code == 0
    rows = table_rows(result.stdout)
    assert rows["Total"] == ["285", "0"]
    assert rows["Fives"] == ["15", "–"]
    assert rows["Upper sum"] == ["63", "0"]


@pytest.mark.parametrize(("content", "words"), [
    (b'{"format": "kniffel-game", "version": 1, "rules": {', ["truncated"]),
    (b"not json at all", ["not valid JSON"]),
    (b'{"format": "kniffel-game", "version": 7}', ["format 7"]),
], ids=["truncated", "garbage", "future-version"])
def test_show_on_a_bad_save_exits_2_with_a_message(
    tmp_path: Path, content: bytes, words: list[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    result = invoke(["show", "--lang", "en", str(path)])
    assert result.exit_code == 2
    assert str(path) in result.stderr
    for word in words:
        assert word in result.stderr
    assert path.read_bytes() == content


def test_show_on_a_missing_file_exits_2(tmp_path: Path) -> None:
    result = invoke(["show", str(tmp_path / "none.json")])
    assert result.exit_code == 2
    assert "none.json" in result.stderr


# --- python -m kniffel -----------------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("kniffel.__main__") is None,
                    reason="kniffel has no __main__ module")
def test_python_m_kniffel_runs_the_command_line() -> None:
    ok = subprocess.run([sys.executable, "-m", "kniffel", "score", "--json", "5,5,5,6,6,6"],
                        capture_output=True, text=True, timeout=60, check=False)
    assert ok.returncode == 0
    assert json.loads(ok.stdout)["boxes"]["two_triples"] == {"points": 45, "fits": True}
    bad = subprocess.run([sys.executable, "-m", "kniffel", "score", "--lang", "en"],
                         input="1 1 1 1 1 1\n1 1\n", capture_output=True, text=True, timeout=60,
                         check=False)
    assert bad.returncode == 2
    assert "line 2" in bad.stderr


def test_the_command_line_starts_without_the_game_history_and_tables_it_does_not_need() -> None:
    """``kniffel solve`` waits for every import (issue 11 times the whole process): importing
    the command line leaves the game, its saves, the history database and rich's tables out
    until a command uses them; the package's names for them still work."""
    probe = ("import sys, kniffel.cli; "
             "print(sorted(m for m in ('kniffel.engine.game', 'kniffel.storage', "
             "'kniffel.history', "
             "'rich.table', 'numpy') if m in sys.modules)); "
             "import kniffel; print(kniffel.Game.__module__, hasattr(kniffel, 'save_game'))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout.split("\n")
    assert out[0] == "[]"
    # the package root runs in the browser too: the desktop's saves are kniffel.storage's
    assert out[1] == "kniffel.engine.game False"


def test_the_package_names_every_public_name_even_those_imported_on_first_use() -> None:
    import kniffel

    for name in kniffel.__all__:
        assert getattr(kniffel, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'Nonesuch'"):
        kniffel.Nonesuch  # noqa: B018


def test_python_m_kniffel_runs_the_program() -> None:
    out = subprocess.run([sys.executable, "-m", "kniffel", "--version"], check=True,
                         capture_output=True, text=True).stdout
    from kniffel import __version__

    assert out == f"kniffel {__version__}\n"  # no English word, in no language

"""``kniffel simulate``: JSON and table output, determinism, the PNG plot, strategy names."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import invoke
from kniffel import Game, RuleSet
from kniffel.cli import main
from kniffel.engine.game import Action
from kniffel.engine.strategy import _REGISTRY, register_strategy


@pytest.mark.solve
def test_simulate_json_is_deterministic_for_a_seed() -> None:
    first = invoke(["simulate", "--rules", "kniffel", "--strategy", "greedy", "--games", "5",
                    "--seed", "9", "--json"])
    again = invoke(["simulate", "--rules", "kniffel", "--strategy", "greedy", "--games", "5",
                    "--seed", "9", "--json"])
    assert first.exit_code == 0, first.output
    a, b = json.loads(first.stdout), json.loads(again.stdout)
    for data in (a, b):
        data.pop("seconds")
        data.pop("games_per_second")
    assert a == b
    assert a["games"] == 5
    assert len(a["totals"]) == 5
    assert a["mean"] == sum(a["totals"]) / 5
    assert set(a["percentiles"]) == {"5", "25", "50", "75", "95"}
    assert set(a["boxes"]["kniffel"]) == {"mean", "strike_rate"}
    assert 0 <= a["bonus_rate"] <= 1


def test_simulate_table_shows_summary_and_every_box_in_english() -> None:
    result = invoke(["simulate", "--rules", "extreme", "--strategy", "random", "--games", "3",
                     "--lang", "en"])
    assert result.exit_code == 0, result.output
    for label in ("Mean", "Standard deviation", "95th percentile", "Bonus rate", "Games/s",
                  "Super Chance", "Kniffel Extreme"):
        assert label in result.stdout


def test_simulate_table_speaks_german_by_default() -> None:
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "2"])
    assert "Mittelwert" in result.stdout
    assert "Bonusquote" in result.stdout


def test_simulate_plot_writes_a_png(tmp_path: Path) -> None:
    target = tmp_path / "totals.png"
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "20",
                     "--plot", str(target), "--json"])
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_plot_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "totals.png"
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "2",
                     "--plot", str(target)])
    assert result.exit_code == 2
    assert "kann nicht geschrieben werden: den Ordner gibt es nicht" in result.stderr
    assert "Traceback" not in result.stderr


def test_simulate_refuses_an_unknown_strategy_naming_the_known_ones() -> None:
    result = invoke(["simulate", "--strategy", "clever", "--games", "1"])
    assert result.exit_code == 2
    assert "clever" in result.stderr
    assert "random, greedy" in result.stderr


class _Lowest:
    name = "lowest"

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def choose(self, game: Game, rng: random.Random) -> Action:
        return game.legal_actions()[-1]


def test_a_strategy_registered_later_is_offered_by_simulate() -> None:
    register_strategy("lowest", _Lowest)
    try:
        result = invoke(["simulate", "--rules", "kniffel", "--strategy", "lowest", "--games", "2",
                         "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["strategy"] == "lowest"
        assert "lowest" in CliRunner().invoke(main, ["simulate", "--help"]).stdout
    finally:
        del _REGISTRY["lowest"]


def test_simulate_writes_numbers_the_german_way_and_the_english_way() -> None:
    """German: decimal comma and no decimal point anywhere in a number; English: the point."""
    import re

    german = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "3"])
    assert german.exit_code == 0, german.output
    assert not re.search(r"\d\.\d", german.stdout), german.stdout
    assert re.search(r"Mittelwert +│ +\d+,\d │", german.stdout), german.stdout
    assert re.search(r"\d,\d %", german.stdout)
    assert "3 Spiele · Startwert 0" in german.stdout
    english = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "3",
                      "--lang", "en"])
    assert re.search(r"Mean +│ +\d+\.\d │", english.stdout), english.stdout
    assert "3 games · seed 0" in english.stdout


def test_a_plot_target_in_a_missing_folder_is_refused_before_the_games(tmp_path: Path) -> None:
    result = invoke(["simulate", "--games", "1000000", "--plot", str(tmp_path / "no" / "x.png"),
                     "--lang", "en"])
    assert result.exit_code == 2
    assert "cannot be written: its folder does not exist" in result.stderr


# --- head to head: a strategy per seat (issue 41) ------------------------------------------------


def test_two_strategies_play_head_to_head_the_same_for_a_seed_in_json() -> None:
    args = ["simulate", "--rules", "kniffel", "--strategy", "greedy", "--strategy", "random",
            "--games", "6", "--seed", "4", "--json"]
    first, again = invoke([*args, "--jobs", "1"]), invoke([*args, "--jobs", "2"])
    assert first.exit_code == 0, first.output
    a, b = json.loads(first.stdout), json.loads(again.stdout)
    for data in (a, b):
        for key in ("seconds", "games_per_second"):
            data.pop(key)
    assert a == b
    assert a["strategies"] == ["greedy", "random"]
    assert a["start"] == "rotating"
    greedy, rand = a["seats"]
    assert (greedy["seat"], greedy["strategy"], rand["strategy"]) == (1, "greedy", "random")
    assert greedy["wins"] + rand["wins"] == 6
    assert greedy["win_share"] == greedy["wins"] / 6
    lo, hi = greedy["win_interval"]
    assert 0 <= lo <= greedy["win_share"] <= hi <= 1
    assert greedy["mean"] > rand["mean"] + 100  # today's statistics beside the wins
    assert len(greedy["totals"]) == 6
    assert set(a["by_strategy"]) == {"greedy", "random"}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_head_to_head_table_shows_every_seat_with_its_win_share_and_interval(lang: str) -> None:
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "greedy", "--strategy",
                     "random", "--strategy", "greedy", "--games", "4", "--jobs", "1",
                     "--lang", lang], COLUMNS="80")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert max(len(line) for line in out.splitlines()) <= 80, out
    labels = (("Siegquote", "95-%-Intervall", "gierig gegen zufällig gegen gierig", "Plätze")
              if lang == "de" else
              ("Win share", "95 % interval", "greedy against random against greedy", "Seats"))
    for label in labels:
        assert label in out, out
    assert "…" not in out


def test_too_many_strategies_are_refused_with_the_catalogs_sentence() -> None:
    result = invoke(["simulate", "--rules", "kniffel", *["--strategy", "random"] * 9,
                     "--games", "1"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("kniffel simulate: Ein Spiel gegeneinander braucht 2 bis 8 "
                                     "Computerspieler (--strategy je Platz), nicht 9.")


def test_an_unknown_strategy_among_several_is_refused() -> None:
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "expert-win",
                     "--strategy", "clevr", "--games", "1"])
    assert result.exit_code == 2
    assert "clevr" in result.stderr
    assert "expert-win" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_plot_of_a_head_to_head_run_is_refused_before_any_game(tmp_path: Path) -> None:
    target = tmp_path / "totals.png"
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "greedy", "--strategy",
                     "random", "--games", "1", "--plot", str(target)])
    assert result.exit_code == 2
    assert "--plot" in result.stderr
    assert not target.exists()


def test_expert_win_plays_head_to_head_against_the_expert() -> None:
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "expert-win", "--strategy",
                     "expert", "--games", "2", "--seed", "1", "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [s["strategy"] for s in data["seats"]] == ["expert-win", "expert"]
    assert sum(s["wins"] for s in data["seats"]) == 2

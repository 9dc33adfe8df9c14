"""`kniffel review`'s split of each player's result (issue 22): the total expected at the start
with best play, the points the decisions lost and luck, in German and English and in the JSON."""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.cli import main
from kniffel.cli.review import signed
from kniffel.engine import chances as chances_module
from kniffel.engine.chances import start_expectation
from kniffel.engine.errors import ExpertError
from kniffel.engine.game import Game
from kniffel.engine.match import Match
from kniffel.engine.messages import count, number
from kniffel.engine.review import luck_and_skill
from kniffel.engine.rules import Lang, RuleSet, preset
from kniffel.engine.strategy import get_strategy
from kniffel.solver.review import review
from kniffel.storage import save_game

NARROW = {"COLUMNS": "80", "NO_COLOR": "1", "LC_ALL": None, "LANG": None}
KNIFFEL = preset("kniffel")


def _game(moves: int | None = None, seed: int = 23, rng: int = 3) -> Game:
    """Anna plays greedily, Ben at random (classic Kniffel, fixed seeds), to the end or
    ``moves`` steps."""
    game = Game(KNIFFEL, ["Anna", "Ben"], seed=seed)
    match = Match(game, strategies={0: get_strategy("greedy", KNIFFEL),
                                    1: get_strategy("random", KNIFFEL)}, rng=random.Random(rng))
    done = 0
    while not game.is_over() and (moves is None or done < moves):
        match.move()
        done += 1
    return game


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, Path]:
    game = _game()
    assert game.is_over()
    return game, save_game(game, tmp_path_factory.mktemp("luck") / "game.json")


def _review(args: list[str]) -> str:
    res = CliRunner().invoke(main, ["review", *args], env=NARROW)
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize(("lang", "head", "line"), [
    ("de", "Ergebnis = erwartet (bei bestem Spiel) + Entscheidungen + Glück:",
     "{name}: {final} Punkte = erwartet {expected}, Entscheidungen {skill}, Glück {luck}"),
    ("en", "Result = expected (with best play) + decisions + luck:",
     "{name}: {final} points = expected {expected}, decisions {skill}, luck {luck}"),
])
def test_the_review_of_a_finished_game_splits_each_result_into_decisions_and_luck(
        finished: tuple[Game, Path], lang: Lang, head: str, line: str) -> None:
    game, save = finished
    split = luck_and_skill(review(game), start_expectation(KNIFFEL))
    output = _review([str(save), "--lang", lang])
    lines = output.splitlines()
    assert lines[2] == head
    for i, s in enumerate(split):
        assert s.final == game.scores()[i]
        assert s.final == pytest.approx(s.expected - s.skill + s.luck, abs=1e-9)
        assert s.skill > 0  # greedy and random play both give points away
        # luck as shown is the rest of the shown numbers: Anna's 221 = 248,1 − 13,9 − 13,2,
        # where luck rounded on its own (−13,1) would miss the sum by 0,1
        shown = s.shown()
        assert shown.luck == pytest.approx(s.luck, abs=0.1 + 1e-9)
        assert lines[3 + i] == "  " + line.format(
            name=game.players[i].name, final=count(s.final, lang),
            expected=number(s.expected, lang, 1), skill="−" + number(s.skill, lang, 1),
            luck=signed(shown.luck, lang))
    assert all(len(row) <= 80 for row in lines)


#: A line of the split as ``kniffel review`` writes it (either language), its numbers named.
SPLIT_LINE = re.compile(r"  (?P<name>\w+): (?P<final>[\d.,]+) (Punkte|points) = "
                        r"(erwartet|expected) (?P<expected>[\d.,]+), "
                        r"(Entscheidungen|decisions) (?P<skill>−?[\d.,]+), "
                        r"(Glück|luck) (?P<luck>[+−]?[\d.,]+)")


def _shown(text: str, lang: Lang) -> Decimal:
    """A number as the review writes it in ``lang`` ("−1.234,5"), exactly."""
    group, point = (".", ",") if lang == "de" else (",", ".")
    return Decimal(text.replace(group, "").replace(point, ".").replace("−", "-"))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_three_shown_numbers_add_up_to_each_result_in_many_seeded_games(
        tmp_path: Path, lang: Lang) -> None:
    for seed in range(6):
        game = _game(seed=seed, rng=seed)
        save = save_game(game, tmp_path / f"game{seed}.json")
        rows = [m for line in _review([str(save), "--lang", lang]).splitlines()
                if (m := SPLIT_LINE.fullmatch(line))]
        assert [m["name"] for m in rows] == ["Anna", "Ben"]
        for m, final in zip(rows, game.scores(), strict=True):
            assert _shown(m["final"], lang) == final
            # final = expected − decisions + luck, the decisions shown with their minus
            assert (_shown(m["expected"], lang) + _shown(m["skill"], lang)
                    + _shown(m["luck"], lang)) == final, m.group(0)


def test_the_review_json_carries_each_players_split(finished: tuple[Game, Path]) -> None:
    game, save = finished
    split = luck_and_skill(review(game), start_expectation(KNIFFEL))
    data = json.loads(_review([str(save), "--json"]))
    for entry, s in zip(data["players"], split, strict=True):
        assert entry["luck_skill"] == {"expected": round(s.expected, 6), "final": s.final,
                                       "skill": round(s.skill, 6), "luck": round(s.luck, 6)}
        assert entry["total_loss"] == entry["luck_skill"]["skill"]


def test_a_game_not_over_has_no_split_yet(tmp_path: Path) -> None:
    save = save_game(_game(moves=30), tmp_path / "early.json")
    output = _review([str(save)])
    assert "Glück" not in output
    data = json.loads(_review([str(save), "--json"]))
    assert [p["luck_skill"] for p in data["players"]] == [None, None]


def test_a_rule_set_without_values_to_expect_from_reviews_without_the_split(
        finished: tuple[Game, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    def none(rules: RuleSet, *, model: object = None) -> float:  # start_expectation's shape
        raise ExpertError("no values", code="expert.model_missing",
                          params={"rules": rules.name, "command": "fit"})

    monkeypatch.setattr(chances_module, "start_expectation", none)
    output = _review([str(finished[1])])
    assert "Glück" not in output
    assert "Anna: " in output  # the decisions are still reviewed
    data = json.loads(_review([str(finished[1]), "--json"]))
    assert [p["luck_skill"] for p in data["players"]] == [None, None]


def test_a_signed_number_has_a_true_minus_a_plus_and_no_sign_where_it_rounds_to_0() -> None:
    assert signed(-12.34, "de") == "−12,3"
    assert signed(31.77, "en") == "+31.8"
    assert signed(-0.04, "de") == "0,0"
    assert signed(1234.5, "de") == "+1.234,5"

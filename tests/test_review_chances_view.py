"""The review's win chances and luck for the page (Python side): what
:func:`kniffel.browser.advice_view.review_chances_view` puts into the bridge's review reply."""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal
from functools import cache
from typing import Any

import pytest

from kniffel.browser import advice_view
from kniffel.browser.bridge import Session
from kniffel.browser.view import page_schema
from kniffel.engine.chances import chances_over_game, start_expectation
from kniffel.engine.game import Enter, Game, Mode, Player, PlayerKind, Score, Strike
from kniffel.engine.match import Match
from kniffel.engine.review import Review, luck_and_skill, luck_skill_split, review_game
from kniffel.engine.rules import preset
from test_web_schema import fault


@cache
def finished(names: tuple[str, ...] = ("Anna", "Ben", "Carla"), seed: int = 8) -> Game:
    """A Kniffel Extreme dice game of ``names`` played to its end by the random player."""
    game = Game(preset("extreme"), [Player(n, PlayerKind.COMPUTER, "random") for n in names],
                mode=Mode.DICE, seed=seed)
    Match(game).play_out()
    return game


@cache
def reviewed(names: tuple[str, ...] = ("Anna", "Ben", "Carla")) -> dict[str, Any]:
    """The bridge's review reply for :func:`finished` (as the page gets it, through JSON)."""
    reply = Session().handle({"op": "review", "game": finished(names).to_json(), "lang": "de"})
    assert reply["ok"], reply
    review: dict[str, Any] = json.loads(json.dumps(reply["review"]))
    return review


def test_the_review_has_every_players_win_chance_before_the_first_and_after_every_entry() -> None:
    game = finished()
    chances = reviewed()["chances"]
    entries = [i for i, a in enumerate(game.actions) if isinstance(a, Score | Strike | Enter)]
    points = chances["points"]
    assert [p["entry"] for p in points] == list(range(len(entries) + 1))
    assert [p["index"] for p in points] == [-1, *entries]
    assert len(entries) == 3 * len(game.rules.boxes)
    for p in points:
        assert len(p["win"]) == 3
        assert sum(p["win"]) == pytest.approx(1, abs=1e-3)
    assert points[0]["win"] == pytest.approx([1 / 3] * 3, abs=1e-4)  # nobody is ahead yet
    winners = {i for i, s in enumerate(game.scores()) if s == max(game.scores())}
    assert points[-1]["win"] == pytest.approx(
        [1 / len(winners) if i in winners else 0 for i in range(3)])
    engine = chances_over_game(game)
    assert [p["round"] for p in points] == [c.round for c in engine]
    for p, c in zip(points, engine, strict=True):
        assert p["win"] == pytest.approx([o.win for o in c.chances.players], abs=1e-4)
    assert chances["source"] == "model"


def test_each_players_result_splits_into_the_expected_total_lost_points_and_luck() -> None:
    game = finished()
    review = reviewed()
    expected = start_expectation(game.rules)
    engine = luck_and_skill(review_game(game), expected)
    luck = review["chances"]["luck"]
    assert [s["name"] for s in luck] == ["Anna", "Ben", "Carla"]
    for s, p, split, total in zip(luck, review["players"], engine, game.scores(), strict=True):
        assert s["player"] == p["player"] == split.player
        assert s["final"] == total
        assert s["expected"] == round(expected, 1)
        assert s["skill"] == round(p["loss"], 1)  # the review's own lost points
        assert s["skill"] >= 0
        # the shown numbers add up: final = expected − decisions + luck
        assert s["expected"] - s["skill"] + s["luck"] == pytest.approx(total, abs=1e-9)
        assert s["luck"] == pytest.approx(split.luck, abs=0.1)
    assert 600 < expected < 700  # Kniffel Extreme's good play scores about 646 at the start


def test_the_three_shown_numbers_add_up_to_each_result_in_many_seeded_games() -> None:
    rules = preset("kniffel")
    for seed in range(6):
        game = Game(rules, [Player(n, PlayerKind.COMPUTER, "random") for n in ("Anna", "Ben")],
                    mode=Mode.DICE, seed=seed)
        Match(game).play_out()
        reply = Session().handle({"op": "review", "game": game.to_json()})
        assert reply["ok"], reply
        luck = json.loads(json.dumps(reply["review"]))["chances"]["luck"]
        for s, final in zip(luck, game.scores(), strict=True):
            assert s["final"] == final
            # one decimal each, and final = expected − decisions + luck exactly
            shown = [Decimal(repr(s[key])) for key in ("expected", "skill", "luck")]
            assert all(d == round(d, 1) for d in shown), s
            assert shown[0] - shown[1] + shown[2] == final, s
        # as the engine rounds them, the one place that does (the command line's too)
        engine = luck_skill_split(review_game(game))
        assert [(s["expected"], s["skill"], s["luck"]) for s in luck] == [
            (e.expected, e.skill, e.luck) for e in (split.shown() for split in engine)]


def test_a_game_not_over_has_no_split_and_no_chances_in_its_review() -> None:
    game = Game(preset("kniffel"), [Player("Anna", PlayerKind.COMPUTER, "random")],
                mode=Mode.DICE, seed=3)
    match = Match(game)
    for _ in range(20):
        match.move()
    assert not game.is_over()
    assert luck_skill_split(review_game(game)) == ()
    assert advice_view.review_chances_view(review_game(game)) is None


def test_the_reviews_chances_have_the_shape_the_schema_describes() -> None:
    schema = page_schema()["review_chances"]
    chances = reviewed()["chances"]
    assert fault(schema, chances, "chances") is None
    damaged = json.loads(json.dumps(chances))
    damaged["points"][3]["win"][1] = "42 %"
    assert fault(schema, damaged, "chances") == "chances.points[3].win[1]: not number"
    del damaged["luck"][0]["luck"]
    damaged["points"][3]["win"][1] = 0.4
    assert fault(schema, damaged, "chances") == "chances.luck[0].luck: missing"
    assert fault(schema, None, "chances") is None  # where the rule set has no chances


def test_a_single_players_review_gives_them_every_chance_and_their_luck() -> None:
    chances = reviewed(("Solo",))["chances"]
    assert {p["win"][0] for p in chances["points"]} == {1.0}
    (solo,) = chances["luck"]
    assert solo["final"] == finished(("Solo",)).scores()[0]


def test_a_rule_set_without_values_gives_no_chances_and_the_review_goes_on() -> None:
    rules = dataclasses.replace(preset("extreme"), bonus_threshold=70)  # no model fits it
    game = Game(rules, ["Anna", "Ben"], mode=Mode.DICE, seed=1)
    assert advice_view.review_chances_view(Review(game, (), ())) is None

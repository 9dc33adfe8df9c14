"""The browser's expert on the Python side: the hint, review and moment requests of the bridge,
the words they carry, and the classic tables and model the site ships in kniffel.zip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kniffel import Game, Keep, Mode, Roll, Throw, UseChip, preset
from kniffel.browser import advice_view
from kniffel.browser.bridge import WEB_STRATEGIES, Session
from kniffel.browser.view import game_view
from kniffel.engine import messages
from kniffel.engine.advice import Position
from kniffel.engine.errors import KniffelError
from kniffel.engine.expert import Expert, expert_for
from kniffel.engine.game import Player, PlayerKind, action_from_json
from kniffel.engine.match import Match
from kniffel.engine.messages import CATALOG, fields
from kniffel.engine.review import review_game
from kniffel.engine.rules import RuleSet


def dice_session(rules: str = "kniffel", seed: int = 7, **extra: Any) -> Session:
    s = Session()
    reply = s.handle({"op": "new", "mode": "dice", "rules": rules, "seed": seed,
                      "players": [{"name": "Anna"}], **extra})
    assert reply["ok"], reply
    return s


def played_game(rules: str = "kniffel", seed: int = 3, strategy: str = "random",
                players: int = 1) -> Game:
    """A finished dice game of computers (``strategy``), played from ``seed``."""
    game = Game(preset(rules), [Player(f"P{i}", PlayerKind.COMPUTER, strategy)
                                for i in range(players)], mode=Mode.DICE, seed=seed)
    match = Match(game)
    while not game.is_over():
        match.move()
    return game


class Flat:
    """A stand-in value function for the view tests of Kniffel Extreme (whose fitted model may
    be missing here): each open box is worth 10 points, the bonus 45 once 73 is reached."""

    source = "model"

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        return 10.0 * (len(self.rules.boxes) - bin(mask).count("1")) + 2.0 * x


# --- hints -----------------------------------------------------------------------------------


def test_a_hint_after_a_roll_lists_every_choice_best_first_as_the_expert_ranks_them() -> None:
    s = dice_session()
    assert s.handle({"op": "roll"})["ok"]
    reply = s.handle({"op": "hint", "lang": "en"})
    assert reply["ok"], reply
    hint = reply["hint"]
    game = s._game()
    advice = expert_for(game.rules).advise(Position.from_game(game))
    assert hint["actions"] == len(game.actions)
    assert hint["source"] == "table"  # classic: the exact table
    assert [action_from_json(o["action"]) for o in hint["options"]] == [
        o.action for o in advice.options]
    assert [o["expected"] for o in hint["options"]] == pytest.approx(
        [o.expected for o in advice.options], abs=1e-3)
    assert hint["options"][0]["loss"] == 0
    expected = [o["expected"] for o in hint["options"]]
    assert expected == sorted(expected, reverse=True)
    assert hint["title"]["de"].startswith("Tipp für Anna")
    assert hint["title"]["en"].startswith("Hint for Anna")
    assert s.handle({"op": "hint"}) == reply  # asking changes nothing; both languages


def test_the_experts_engine_gives_the_same_hint_for_a_game_it_is_sent() -> None:
    s = dice_session(seed=13)
    s.handle({"op": "roll"})
    s.handle({"op": "roll", "keep": [0, 1]})
    other = Session()  # the expert's worker holds no game: the page sends it
    reply = other.handle({"op": "hint", "game": s._game().to_json()})
    assert reply == s.handle({"op": "hint"})
    assert other.game is None
    assert other.handle({"op": "hint", "game": {"format": "nonsense"}})["error"]["code"]


def test_warming_an_expert_up_changes_nothing_and_names_a_missing_model(
    classic_tables_solved: Path,
) -> None:
    s = Session()
    reply = s.handle({"op": "warm_expert", "rules": "kniffel", "free_strike": True})
    assert reply == {"ok": True, "rules": "kniffel", "free_strike": True}
    assert s.game is None
    status = advice_view.expert_status(preset("extreme"))
    reply = s.handle({"op": "warm_expert", "rules": "extreme"})
    assert reply["ok"] is status["ready"]
    if not status["ready"]:
        assert reply["error"]["code"] == "web.expert.missing"
    assert s.game is None


def test_warming_with_a_game_computes_the_turn_its_next_hint_asks_about(
    classic_tables_solved: Path,
) -> None:
    """The page sends the game it shows: the expert's engine then has the turn of the player
    to move computed before the player rolls, and the hint asked after the roll comes from
    that (the same answer as without warming)."""
    s = dice_session(seed=21)
    game = s._game()
    expert_engine = Session()
    warm = expert_engine.handle({"op": "warm_expert", "rules": "kniffel", "game": game.to_json()})
    assert warm["ok"]
    assert expert_engine.game is None
    the_expert = expert_for(game.rules)
    turn = the_expert._turn(Position.from_game(game))
    assert turn in the_expert._stages
    s.handle({"op": "roll"})
    hint = expert_engine.handle({"op": "hint", "game": s._game().to_json()})
    assert hint == Session().handle({"op": "hint", "game": s._game().to_json()})
    assert expert_engine.handle({"op": "warm_expert", "rules": "kniffel",
                                 "game": {"format": "nonsense"}})["ok"] is False


def test_a_hints_kept_dice_are_positions_of_the_dice_on_the_table() -> None:
    s = dice_session(seed=11)
    s.handle({"op": "roll"})
    game = s._game()
    roll = game.turn.roll if game.turn else None
    assert roll is not None
    hint = s.handle({"op": "hint"})["hint"]
    kinds = {o["kind"] for o in hint["options"]}
    assert {"keep", "throw", "score"} <= kinds
    for o in hint["options"]:
        action = action_from_json(o["action"])
        if isinstance(action, Throw):
            assert Keep.from_positions(roll, o["keep"]) == action.keep
            assert (o["kind"] == "throw") == (action.keep == Keep())
        else:
            assert o["keep"] is None
            assert o["box"] == action.box.value  # type: ignore[union-attr]
        assert o["text"]["de"]
        assert o["text"]["en"]


def test_a_hint_follows_the_expert_after_a_chip_without_offering_another_chip() -> None:
    rules = preset("extreme")
    game = Game(rules, ["Anna"], mode=Mode.DICE, seed=5)
    match = Match(game)
    for keep in ([], [0], [0]):
        match.throw_keeping(keep)
    match.apply(UseChip())
    expert = Expert(rules, values=Flat(rules), use_numpy=False)
    advice = expert.advise(Position.from_game(game))
    hint = advice_view.hint_view(game, advice)
    kinds = [o["kind"] for o in hint["options"]]
    assert "chip" not in kinds
    assert "keep" in kinds
    assert "score" in kinds
    assert hint["source"] == "model"
    assert "geschätzt" in hint["source_text"]["de"].lower()
    roll = game.turn.roll if game.turn else None
    assert isinstance(roll, Roll)
    for o in hint["options"]:
        if o["kind"] == "keep":
            assert max(o["keep"]) < len(roll.values)


def test_a_hint_on_the_score_pad_or_before_a_game_is_refused_with_words() -> None:
    assert Session().handle({"op": "hint"})["error"]["code"] == "web.no_game"
    s = Session()
    s.handle({"op": "new", "mode": "pad", "rules": "kniffel", "players": [{"name": "A"}]})
    reply = s.handle({"op": "hint"})
    assert not reply["ok"]
    assert reply["error"]["code"] == "advise.needs_dice_mode"
    assert "virtuellen Würfeln" in reply["error"]["text"]


def test_the_extreme_hint_answers_or_says_clearly_that_the_model_is_missing() -> None:
    s = dice_session("extreme")
    s.handle({"op": "roll"})
    status = advice_view.expert_status(preset("extreme"))
    reply = s.handle({"op": "hint"})
    if status["ready"]:
        assert reply["ok"]
        assert reply["hint"]["source"] == "model"
    else:
        assert not reply["ok"]
        assert reply["error"]["code"] == status["code"]
        assert reply["error"]["text"] == status["note"]["de"]
        assert reply["error"]["code"] == "web.expert.missing"
        assert reply["error"]["text"] == ("Den Experten gibt es für Kniffel Extreme in dieser "
                                          "Version noch nicht: sein Wertemodell fehlt noch.")
        assert "fit_expert_model" not in status["note"]["en"]  # no developer command


# --- reviews ---------------------------------------------------------------------------------


def test_the_review_of_a_scripted_game_equals_the_desktop_advisors_losses() -> None:
    from kniffel.solver.review import review as exact_review

    game = played_game("kniffel", seed=3)
    reply = Session().handle({"op": "review", "game": game.to_json(), "lang": "de"})
    assert reply["ok"], reply
    review = reply["review"]
    exact = exact_review(game, build=True)
    assert [d["index"] for d in review["decisions"]] == [d.index for d in exact.decisions]
    assert [d["loss"] for d in review["decisions"]] == pytest.approx(
        [d.loss for d in exact.decisions], abs=2e-3)  # float32 tables in the browser
    (player,) = review["players"]
    assert player["loss"] == pytest.approx(exact.total_loss(), abs=0.05)
    assert player["count"] == len(exact.decisions)
    assert [review["decisions"][k]["index"] for k in player["costliest"]] == [
        d.index for d in exact.costliest(3)]
    assert review["source"] == "table"
    assert "Entscheidungen" in player["summary"]["de"]


def test_the_review_names_each_players_costliest_decisions_and_its_words() -> None:
    game = played_game("kniffel", seed=8, players=2)
    review = advice_view.review_view(review_game(game))
    for p in review["players"]:
        own = [d for d in review["decisions"] if d["player"] == p["player"]]
        assert p["count"] == len(own)
        assert p["loss"] == pytest.approx(sum(d["loss"] for d in own), abs=1e-2)
        costly = [review["decisions"][k] for k in p["costliest"]]
        assert all(d["player"] == p["player"] and d["loss"] > 0 for d in costly)
        assert [d["loss"] for d in costly] == sorted((d["loss"] for d in costly), reverse=True)
        assert len(costly) == min(3, sum(d["loss"] > 0 for d in own))
        if costly:
            assert costly[0]["loss"] == max(d["loss"] for d in own)
    for d in review["decisions"]:
        taken, other, expected = d["lines"]["de"]
        assert taken.startswith("Gewählt: ")
        assert other == "Das war der beste Zug." if d["best_taken"] else other.startswith(
            "Besser: ")
        assert d["loss"] == pytest.approx(max(0.0, d["best"]["expected"]
                                              - d["taken"]["expected"]), abs=2e-3)
        assert d["when"]["en"].startswith(f"Round {d['round']}")
        assert expected.startswith("Im Schnitt am Ende: ")
    assert json.loads(json.dumps(review)) == review


def test_a_review_of_a_score_pad_game_is_refused() -> None:
    game = Game(preset("kniffel"), ["A"], mode=Mode.PAD, seed=1)
    reply = Session().handle({"op": "review", "game": game.to_json()})
    assert not reply["ok"]
    assert reply["error"]["code"] == "review.needs_dice"


def test_the_moment_of_a_decision_is_the_game_as_it_was_before_it() -> None:
    game = played_game("kniffel", seed=4)
    s = Session()
    for index in (0, 5, len(game.actions) - 1, len(game.actions)):
        reply = s.handle({"op": "moment", "game": game.to_json(), "index": index})
        assert reply["ok"], reply
        replay = Game(game.rules, game.players, mode=Mode.DICE, seed=game.seed)
        for a in game.actions[:index]:
            replay.apply(a)
        assert reply["view"] == game_view(replay, chances=False)  # a review draws none
    for bad in (-1, len(game.actions) + 1, "3", None, True):
        reply = s.handle({"op": "moment", "game": game.to_json(), "index": bad})
        assert reply["error"]["code"] == "web.bad_request"
    assert s.game is None  # nothing was loaded


# --- the expert as a computer player ---------------------------------------------------------


def test_the_expert_is_a_computer_player_of_the_browser_and_plays_its_best_option(
    classic_tables_solved: Path,
) -> None:
    assert "expert" in WEB_STRATEGIES
    s = Session()
    reply = s.handle({"op": "new", "mode": "dice", "rules": "kniffel", "seed": 2, "players": [
        {"name": "Bot", "kind": "computer", "strategy": "expert"}, {"name": "Anna"}]})
    assert reply["ok"], reply
    while s._game().current_player == 0:
        game = s._game()
        turn = game.turn
        plan = s.handle({"op": "computer_plan"})
        if turn is not None and turn.roll is not None:
            best = expert_for(game.rules).advise(Position.from_game(game)).best.action
            assert action_from_json(plan["action"]) == best
        assert s.handle({"op": "computer_move"})["ok"]
    assert len(s._game().sheet(0).entries) == 1


def test_an_expert_opponent_without_its_values_is_refused_before_the_game_starts() -> None:
    status = advice_view.expert_status(preset("extreme"))
    s = Session()
    reply = s.handle({"op": "new", "mode": "dice", "rules": "extreme", "seed": 2, "players": [
        {"name": "Anna"}, {"name": "Bot", "kind": "computer", "strategy": "expert"}]})
    if status["ready"]:
        assert reply["ok"]
    else:
        assert not reply["ok"]
        assert reply["error"]["code"] == status["code"]
        assert reply["error"]["text"] == status["note"]["de"]
        assert s.game is None


# --- what the site ships ---------------------------------------------------------------------


def test_the_browser_offers_every_preset_and_its_free_strike_variant() -> None:
    sets = advice_view.browser_rule_sets()
    names = [advice_view.table_file_name(r) for r in sets]
    assert "kniffel.table" in names
    assert "kniffel-free-strike.table" in names
    assert "yahtzee.table" in names
    assert "kniffel-championship.table" in names
    assert len(set(names)) == len(names)
    keys = [advice_view.status_key(r) for r in sets]
    assert "extreme/free" in keys
    assert "kniffel/free" in keys
    assert "yahtzee" in keys


def test_the_site_ships_the_classic_tables_in_float32_and_the_expert_reads_them() -> None:
    from kniffel.engine.values import TableValues
    from kniffel.web.server import expert_tables

    tables = expert_tables()
    classic = [r for r in advice_view.browser_rule_sets() if not r.d10]
    assert sorted(tables) == sorted(f"kniffel/browser/tables/{advice_view.table_file_name(r)}"
                                    for r in classic)
    for rules in classic:
        data = tables[f"kniffel/browser/tables/{advice_view.table_file_name(rules)}"]
        values = TableValues(rules, data)
        assert values.header["dtype"] == "<f4"
        assert len(data) < 1.5e6
        exact = expert_for(rules)
        assert values.future(0, 0, 0) == pytest.approx(exact.values.future(0, 0, 0), abs=1e-3)
    # a table of other rules is refused, never read as values
    with pytest.raises(KniffelError):
        TableValues(preset("yahtzee"), tables["kniffel/browser/tables/kniffel.table"])


def test_meta_says_where_the_expert_plays_and_carries_its_words(
    classic_tables_solved: Path,
) -> None:
    experts = advice_view.experts()
    for key in ("kniffel", "kniffel/free", "kniffel-championship", "yahtzee"):
        assert experts[key] == {"ready": True, "code": None, "note": None}
    extreme = experts["extreme"]
    if not extreme["ready"]:
        assert extreme["note"]["de"]
        assert extreme["note"]["en"]
    words = advice_view.page_words()
    assert words["web.hint.button"] == {"de": "Tipp", "en": "Hint"}
    assert words["web.expert.kind"]["de"] == "Computer (Experte)"
    for code, (de, _) in CATALOG.items():
        if code.startswith(advice_view.PAGE_WORDS) and not fields(de):
            assert code in words


def test_numbers_read_as_their_language_writes_them() -> None:
    assert messages.number(712.449, "de") == "712,4"
    assert messages.number(712.449, "en") == "712.4"
    assert messages.number(1234.5, "de", 2) == "1.234,50"
    assert messages.number(1234.5, "en", 2) == "1,234.50"


def test_the_expert_view_words_exist_in_both_languages() -> None:
    for source in ("table", "endgame", "model"):
        assert f"web.hint.source.{source}" in CATALOG
    for source in ("table", "model"):
        assert f"web.review.source.{source}" in CATALOG

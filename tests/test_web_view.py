"""The browser app's Python side: the view the page draws, and the worker's requests."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel import Box, Enter, Game, Keep, Mode, Roll, Score, Strike, Throw, UseChip, preset
from kniffel.browser.bridge import Session, handle_json
from kniffel.browser.view import chances_view, game_view, history_stats, meta, summary
from kniffel.engine.game import Outcome, action_to_json
from kniffel.engine.messages import CATALOG


def pad_game(players: tuple[str, ...] = ("Anna", "Ben")) -> Game:
    return Game(preset("extreme"), list(players), mode=Mode.PAD, seed=3)


def options_by_box(view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for o in view["options"]:
        out.setdefault(o["box"], []).append(o)
    return out


def new(session: Session, mode: str = "pad", **extra: Any) -> dict[str, Any]:
    reply = session.handle({"op": "new", "mode": mode, "seed": 11,
                            "players": [{"name": "Anna"}, {"name": "Ben"}], **extra})
    assert reply["ok"], reply
    return reply


# --- view ------------------------------------------------------------------------------------


def test_a_box_is_flat_when_it_scores_one_amount_or_nothing() -> None:
    boxes = {b["id"]: b for b in game_view(pad_game())["rules"]["boxes"]}
    flat = {i for i, b in boxes.items() if b["flat"]}
    assert flat == {"three_pairs", "two_triples", "full_house", "large_full_house",
                    "small_straight", "large_straight", "highway", "kniffel", "kniffel_extreme",
                    "ten_or_less", "thirty_three_or_more"}
    assert boxes["two_triples"]["max"] == 45
    assert not boxes["three_of_a_kind"]["flat"]


def test_view_lists_the_22_extreme_boxes_in_sheet_order_with_german_and_english_names() -> None:
    view = game_view(pad_game())
    boxes = view["rules"]["boxes"]
    assert [b["id"] for b in boxes] == [b.value for b in preset("extreme").boxes]
    assert len(boxes) == 22
    fives = boxes[4]
    assert fives["name"] == {"de": "Fünfer", "en": "Fives"}
    assert fives["upper"] is True
    assert fives["max"] == 30
    assert view["rules"]["bonus_threshold"] == 73
    assert view["rules"]["bonus_points"] == 45


def test_pad_view_offers_exactly_the_points_each_box_can_hold_and_strike() -> None:
    view = game_view(pad_game())
    by_box = options_by_box(view)
    fives = [(o["points"], o["strike"]) for o in by_box["fives"]]
    assert fives == [(5, False), (10, False), (15, False), (20, False), (25, False), (30, False),
                     (0, True)]
    assert [(o["points"], o["strike"]) for o in by_box["full_house"]] == [(25, False), (0, True)]
    assert by_box["fives"][2]["action"] == {"type": "enter", "box": "fives", "points": 15,
                                           "extra_kniffel": False}


def test_view_sums_bonus_and_leader_follow_the_engine() -> None:
    game = pad_game()
    for box, pts in [(Box.SIXES, 30), (Box.ONES, 1), (Box.FIVES, 25), (Box.TWOS, 2),
                     (Box.FOURS, 20)]:
        game.apply(Enter(box, pts))
    view = game_view(game)
    anna, ben = view["columns"]
    assert anna["upper_sum"] == 75
    assert anna["bonus"] == 45
    assert anna["bonus_missing"] == 0
    assert anna["total"] == game.sheet(0).total == 120
    assert ben["upper_sum"] == 3
    assert ben["bonus_missing"] == 70
    assert ben["bonus_reachable"]
    assert anna["leader"]
    assert not ben["leader"]
    assert view["current"] == 1
    assert view["round"] == 3
    assert anna["cells"]["sixes"] == {"points": 30, "struck": False}


def test_dice_view_options_are_the_engine_choices_for_the_dice_on_the_table() -> None:
    game = Game(preset("extreme"), ["Solo"], mode=Mode.DICE, seed=1)
    view = game_view(game)
    assert view["options"] == []
    assert view["turn"]["can_throw"]
    assert view["turn"]["dice"] is None
    game.apply(Throw())
    game.apply(Outcome(Roll((5, 5, 5, 6, 6), d10=6)))
    view = game_view(game)
    assert [d["value"] for d in view["turn"]["dice"]] == [5, 5, 5, 6, 6, 6]
    assert [d["d10"] for d in view["turn"]["dice"]] == [False] * 5 + [True]
    got = {(o["box"], o["points"]) for o in view["options"]}
    assert got == {(c.box.value, c.points) for c in game.choices()}
    assert ("two_triples", 45) in got
    assert ("super_chance", 66) in got
    assert all(not o["strike"] for o in view["options"])


def test_dice_view_offers_a_chip_after_the_third_throw_only() -> None:
    game = Game(preset("extreme"), ["Solo"], mode=Mode.DICE, seed=1)
    rng = random.Random(1)
    for throw in range(3):
        assert not game_view(game)["turn"]["can_chip"], throw
        game.roll(rng, Keep() if throw == 0 else None)
    view = game_view(game)
    assert view["turn"]["can_chip"]
    assert not view["turn"]["can_throw"]
    game.apply(UseChip())
    view = game_view(game)
    assert view["turn"]["can_throw"]
    assert view["turn"]["rolls_left"] == 1
    assert view["columns"][0]["chips_left"] == 2


def test_view_of_a_finished_game_names_the_winners_and_offers_nothing() -> None:
    game = Game(preset("kniffel"), ["A", "B"], mode=Mode.PAD)
    for _ in range(13):
        for player in (0, 1):
            box = game.sheet(player).open_boxes[0]
            if player == 0 and box.is_upper:
                game.apply(Enter(box, box.face or 0))
            else:
                game.apply(Strike(box))
    view = game_view(game)
    assert view["over"]
    assert view["winners"] == [0]
    assert view["turn"] is None
    assert view["options"] == []
    assert view["current"] is None
    assert view["columns"][0]["total"] == 21
    assert view["columns"][0]["upper_complete"]


def test_view_is_plain_json() -> None:
    view = game_view(pad_game())
    assert json.loads(json.dumps(view)) == view


def test_meta_lists_every_preset_with_titles_for_the_start_screen() -> None:
    names = [p["name"] for p in meta()["presets"]]
    assert names == ["extreme", "kniffel", "kniffel-championship", "yahtzee",
                     "kniffel-anleitung"]
    extreme = meta()["presets"][0]
    assert extreme["title"]["de"] == "Kniffel Extreme"
    assert extreme["free_strike_option"]
    assert not meta()["presets"][2]["free_strike_option"]  # championship: strikes are free


# --- bridge ----------------------------------------------------------------------------------


def test_new_game_request_builds_the_game_and_its_view() -> None:
    s = Session()
    reply = new(s, rules="kniffel", free_strike=True)
    assert reply["game"]["rules"] == {"name": "kniffel", "free_strike": True}
    assert reply["view"]["players"] == [{"name": "Anna", "kind": "human", "strategy": None},
                                        {"name": "Ben", "kind": "human", "strategy": None}]
    assert Game.from_json(reply["game"]).players[1].name == "Ben"


@pytest.mark.parametrize(("players", "problem"), [
    ([{"name": "Anna"}, {"name": "anna"}], "two players"),
    ([], "1–8 players"),
    ([{"name": ""}], "empty"),
    ([{"name": "X", "kind": "robot"}], "unknown player kind"),
])
def test_new_game_with_bad_players_is_refused_with_the_reason(
    players: list[dict[str, str]], problem: str
) -> None:
    reply = Session().handle({"op": "new", "players": players})
    assert not reply["ok"]
    assert problem in reply["error"]["message"]


def test_act_applies_the_action_from_the_view_and_an_illegal_one_changes_nothing() -> None:
    s = Session()
    view = new(s)["view"]
    fives15 = next(o for o in view["options"] if o["box"] == "fives" and o["points"] == 15)
    reply = s.handle({"op": "act", "action": fives15["action"]})
    assert reply["ok"]
    assert reply["view"]["columns"][0]["cells"]["fives"]["points"] == 15
    before = s.game.to_json() if s.game else None
    bad = s.handle({"op": "act", "action": {"type": "enter", "box": "fives", "points": 17}})
    assert not bad["ok"]
    assert bad["error"]["type"] == "IllegalMoveError"
    assert "cannot hold 17" in bad["error"]["message"]
    assert s.game is not None
    assert s.game.to_json() == before


def test_roll_keeps_the_chosen_dice_and_undo_takes_back_throw_and_dice_together() -> None:
    s = Session()
    new(s, mode="dice")
    first = s.handle({"op": "roll"})["view"]["turn"]["dice"]
    kept = [first[0]["value"], first[1]["value"]]
    second = s.handle({"op": "roll", "keep": [0, 1]})
    assert second["ok"], second
    values = [d["value"] for d in second["view"]["turn"]["dice"]][:5]
    for v in kept:
        assert v in values
        values.remove(v)
    assert second["view"]["turn"]["rolls_used"] == 2
    undone = s.handle({"op": "undo"})
    assert undone["view"]["turn"]["rolls_used"] == 1
    assert undone["view"]["turn"]["dice"] == first
    again = s.handle({"op": "roll", "keep": [0, 1]})
    assert again["view"]["turn"]["dice"] == second["view"]["turn"]["dice"]  # seeded dice


def test_roll_refusals_name_the_problem_and_change_nothing() -> None:
    s = Session()
    new(s, mode="dice")
    assert "first throw" in s.handle({"op": "roll", "keep": [0]})["error"]["message"]
    s.handle({"op": "roll"})
    before = s.game.to_json() if s.game else None
    everything = s.handle({"op": "roll", "keep": [0, 1, 2, 3, 4, 5]})
    assert "throws nothing" in everything["error"]["message"]
    assert "no die #8" in s.handle({"op": "roll", "keep": [7]})["error"]["message"]
    assert s.game is not None
    assert s.game.to_json() == before
    throw = s.handle({"op": "act", "action": {"type": "throw", "keep": []}})
    assert not throw["ok"]


def test_load_replays_a_save_and_throws_a_pending_throw_from_the_seed() -> None:
    game = Game(preset("extreme"), ["A"], mode=Mode.DICE, seed=5)
    game.apply(Throw())
    s = Session()
    reply = s.handle({"op": "load", "game": game.to_json()})
    assert reply["ok"]
    assert reply["view"]["turn"]["dice"] is not None
    assert reply["game"]["actions"][-1]["type"] == "outcome"


@pytest.mark.parametrize("game", [
    "not an object", {"format": "kniffel-game", "version": 99},
    {"format": "other"}, None,
])
def test_load_refuses_a_bad_save_and_keeps_the_game_it_had(game: object) -> None:
    s = Session()
    new(s)
    before = s.game.to_json() if s.game else None
    reply = s.handle({"op": "load", "game": game})
    assert not reply["ok"]
    assert reply["error"]["type"] in ("CorruptSaveError", "UnsupportedVersionError")
    assert s.game is not None
    assert s.game.to_json() == before


def test_pad_choices_turn_typed_dice_into_boxes_with_points() -> None:
    s = Session()
    new(s)
    reply = s.handle({"op": "pad_choices", "dice": [5, 5, 5, 6, 6, 6]})
    got = {o["box"]: o["points"] for o in reply["options"]}
    assert got == {"fives": 15, "sixes": 18, "three_of_a_kind": 33, "two_pairs": 33,
                   "two_triples": 45, "full_house": 25, "thirty_three_or_more": 40,
                   "chance": 33, "super_chance": 66}
    bad = s.handle({"op": "pad_choices", "dice": [5, 5, 5, 6, 7, 6]})
    assert not bad["ok"]
    assert "d6 #5" in bad["error"]["message"]
    assert not s.handle({"op": "pad_choices", "dice": [1, 2, 3]})["ok"]


def test_requests_that_are_not_requests_get_an_error_not_an_exception() -> None:
    assert json.loads(handle_json("{oops"))["ok"] is False
    assert json.loads(handle_json('{"op": "explode"}'))["error"]["message"] == \
        "unknown request 'explode'"
    assert json.loads(handle_json("[1]"))["ok"] is False
    assert Session().handle({"op": "undo"})["error"]["message"].startswith("no game")


def test_import_accepts_a_game_or_a_history_and_refuses_anything_invalid() -> None:
    s = Session()
    game = pad_game()
    game.apply(Enter(Box.CHANCE, 20))
    one = s.handle({"op": "import", "text": json.dumps(game.to_json())})
    assert one["ok"]
    assert one["kind"] == "game"
    assert one["summary"]["totals"] == [20, 0]
    exported = s.handle({"op": "export_history", "entries": [
        {"finished": "2026-11-30T01:00:00Z", "game": game.to_json()}]})["file"]
    back = s.handle({"op": "import", "text": json.dumps(exported)})
    assert back["ok"]
    assert back["kind"] == "history"
    assert len(back["entries"]) == 1
    illegal = game.to_json()
    illegal["actions"].append(action_to_json(Enter(Box.CHANCE, 20)))  # Ben's chance: fine
    illegal["actions"].append(action_to_json(Enter(Box.CHANCE, 20)))  # Anna's again: illegal
    for text in ["{", "[]", json.dumps(illegal), json.dumps({"format": "kniffel-history",
                                                              "version": 1, "games": [1]})]:
        reply = s.handle({"op": "import", "text": text})
        assert not reply["ok"], text
        assert reply["error"]["message"]
    assert s.game is None  # an import never replaces the session's game


def test_summary_and_history_stats_count_games_wins_best_average_and_bonus() -> None:
    games = []
    for anna_sixes, ben_sixes in [(30, 6), (6, 24)]:
        g = Game(preset("kniffel"), ["Anna", "Ben"], mode=Mode.PAD)
        for _ in range(13):
            for player, sixes in ((0, anna_sixes), (1, ben_sixes)):
                box = g.sheet(player).open_boxes[0]
                g.apply(Enter(box, box.face * 5 if box.face and box.face < 6 else sixes)
                        if box.is_upper else Strike(box))
        games.append(summary(g))
    stats = history_stats([*games, {"over": False}, {"junk": 1}])
    assert stats["games"] == 2
    assert stats["skipped"] == 2
    (classic,) = stats["rule_sets"]
    assert (classic["rules"], classic["title"]["de"], classic["games"]) == (
        "kniffel", "Kniffel (klassisch)", 2)
    anna = next(p for p in classic["players"] if p["name"] == "Anna")
    # upper 5+10+15+20+25 = 75 plus sixes; 63 reached every time: +35
    assert anna["totals"] == [[0, 75 + 30 + 35], [1, 75 + 6 + 35]]
    assert anna["wins"] == 1
    assert anna["best"] == 140
    assert anna["average"] == 128.0
    assert anna["bonus_rate"] == 1.0
    assert classic["best"] == 140


def finished_summary(rules: str, totals: dict[str, int]) -> dict[str, Any]:
    """A finished game's summary of ``rules`` with the players' ``totals``, the best the winner."""
    names = list(totals)
    best = max(totals.values())
    return {"rules": rules, "title": {"de": rules, "en": rules}, "mode": "pad", "players": names,
            "totals": list(totals.values()), "bonus": [False] * len(names),
            "winners": [i for i, n in enumerate(names) if totals[n] == best], "over": True}


def test_history_stats_are_per_rule_set_never_one_average_over_extreme_and_classic() -> None:
    # issue 29: Anna's average 448.5 was her Extreme 605 and her classic 292 averaged
    stats = history_stats([finished_summary("extreme", {"Anna": 605, "Ben": 580}),
                           finished_summary("kniffel", {"Anna": 292}),
                           finished_summary("kniffel", {"Anna": 250, "Ben": 260})])
    assert stats["games"] == 3
    assert [r["rules"] for r in stats["rule_sets"]] == ["kniffel", "extreme"]  # most played first
    classic, extreme = stats["rule_sets"]
    assert extreme["title"] == {"de": "Kniffel Extreme", "en": "Kniffel Extreme"}
    assert (extreme["games"], extreme["best"], extreme["average"]) == (1, 605, 592.5)
    assert (classic["games"], classic["best"], classic["average"]) == (2, 292, 267.3)
    anna_x = next(p for p in extreme["players"] if p["name"] == "Anna")
    anna_c = next(p for p in classic["players"] if p["name"] == "Anna")
    assert (anna_x["average"], anna_x["totals"]) == (605.0, [[0, 605]])
    # the plot's line of a rule set joins only its own games: no fall from 605 to 292
    assert (anna_c["average"], anna_c["totals"]) == (271.0, [[1, 292], [2, 250]])
    assert [p["name"] for p in classic["players"]] == ["Anna", "Ben"]
    # equally many games: the rule set played last comes first
    two = history_stats([finished_summary("extreme", {"Anna": 605}),
                         finished_summary("kniffel", {"Anna": 292})])
    assert [r["rules"] for r in two["rule_sets"]] == ["kniffel", "extreme"]
    # a summary without its rule set is skipped, like any malformed one
    bad = finished_summary("kniffel", {"Anna": 292})
    del bad["rules"]
    assert history_stats([bad]) == {"games": 0, "skipped": 1, "rule_sets": [], "evening": None}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 60))
def test_every_view_option_is_accepted_by_the_engine(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = Game(preset("extreme"), ["A", "B"], mode=rng.choice([Mode.DICE, Mode.PAD]), seed=seed)
    for _ in range(steps):
        if game.is_over():
            break
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        view = game_view(game)
        legal = game.legal_actions()
        for o in view["options"]:
            box = Box(o["box"])
            if game.mode is Mode.DICE:
                assert (Strike(box) if o["strike"] else Score(box)) in legal
            elif not o["strike"]:
                assert Enter(box, o["points"], o["action"]["extra_kniffel"]) in legal
        game.apply(rng.choice(legal))


def test_warm_up_plays_every_rule_set_without_touching_the_page_session() -> None:
    from kniffel.browser import bridge

    bridge.warm_up()
    assert bridge.SESSION.game is None


# --- computer players ------------------------------------------------------------------------


def vs_computer(session: Session, rules: str = "extreme", first: str = "human",
                strategy: str = "greedy", seed: int = 5) -> dict[str, Any]:
    anna = {"name": "Anna"}
    bot = {"name": "Bot", "kind": "computer", "strategy": strategy}
    players = [anna, bot] if first == "human" else [bot, anna]
    reply = session.handle({"op": "new", "mode": "dice", "rules": rules, "seed": seed,
                            "players": players})
    assert reply["ok"], reply
    return reply


def computer_turn(session: Session, limit: int = 20) -> list[dict[str, Any]]:
    """Play the computer's turn step by step as the page does: plan, then move; every step's
    move is its plan, a re-throw keeps the planned dice."""
    replies: list[dict[str, Any]] = []
    while True:
        state = replies[-1] if replies else session._state()
        view = state["view"]
        if view["over"] or view["players"][view["current"]]["kind"] != "computer":
            return replies
        plan = session.handle({"op": "computer_plan"})
        assert plan["ok"], plan
        assert session.handle({"op": "computer_plan"}) == plan  # planning changes nothing
        move = session.handle({"op": "computer_move"})
        assert move["ok"], move
        assert move["move"] == plan["action"]
        if plan["keep"] is not None:
            before = [d["value"] for d in view["turn"]["dice"]]
            after = [d["value"] for d in move["view"]["turn"]["dice"]]
            kept = [before[i] for i in plan["keep"]]
            if plan["keep"] and plan["keep"][-1] == 5 and view["rules"]["d10"]:
                assert after[5] == kept.pop()  # the d10 is kept
            rest = after[:5]
            for v in kept:
                rest.remove(v)  # every kept d6 is still on the table
        replies.append(move)
        assert len(replies) < limit


def test_a_greedy_computer_plays_its_whole_turn_step_by_step_after_the_human() -> None:
    s = Session()
    reply = vs_computer(s)
    assert reply["view"]["players"][1] == {"name": "Bot", "kind": "computer",
                                           "strategy": "greedy"}
    s.handle({"op": "roll"})
    option = s._state()["view"]["options"][0]
    assert s.handle({"op": "act", "action": option["action"]})["ok"]
    steps = computer_turn(s)
    moves = [m["move"]["type"] for m in steps]
    assert moves[0] == "throw"
    assert moves[-1] in ("score", "strike")
    last = steps[-1]["view"]
    assert last["current"] == 0  # Anna's turn again, and the computer's box is filled
    assert len(last["columns"][1]["cells"]) == 1
    assert last["turn"]["dice"] is None


def test_computer_moves_replay_from_the_seed() -> None:
    first, second = Session(), Session()
    for s in (first, second):
        vs_computer(s, first="computer", strategy="random", rules="kniffel", seed=9)
    assert [m["move"] for m in computer_turn(first)] == [m["move"] for m in computer_turn(second)]
    assert first._game().to_json() == second._game().to_json()


def test_undo_takes_back_the_last_human_decision_and_the_computer_moves_after_it() -> None:
    s = Session()
    vs_computer(s)
    s.handle({"op": "roll"})
    s.handle({"op": "roll", "keep": [0]})
    before_box = s._state()["view"]
    option = before_box["options"][0]
    s.handle({"op": "act", "action": option["action"]})
    computer_turn(s)
    undone = s.handle({"op": "undo"})
    assert undone["ok"], undone
    assert undone["view"] == before_box  # Anna again before her box, the same dice
    assert s.handle({"op": "undo"})["view"]["turn"]["rolls_used"] == 1  # then her 2nd throw


def test_undo_refuses_when_only_the_computer_has_played() -> None:
    s = Session()
    vs_computer(s, first="computer", rules="kniffel")
    assert not s._state()["view"]["can_undo"]
    steps = computer_turn(s)
    assert steps[-1]["view"]["current"] == 1
    assert not steps[-1]["view"]["can_undo"]
    reply = s.handle({"op": "undo"})
    assert not reply["ok"]
    assert "no person has made a move" in reply["error"]["message"]
    assert s._state()["view"] == steps[-1]["view"]


def test_two_computers_play_a_whole_game_by_themselves() -> None:
    s = Session()
    reply = s.handle({"op": "new", "mode": "dice", "rules": "kniffel", "seed": 2, "players": [
        {"name": "G", "kind": "computer", "strategy": "greedy"},
        {"name": "R", "kind": "computer", "strategy": "random"}]})
    assert reply["ok"], reply
    steps = computer_turn(s, limit=26 * 10)
    view = steps[-1]["view"]
    assert view["over"]
    assert all(len(c["cells"]) == 13 for c in view["columns"])
    assert Game.from_json(steps[-1]["game"]).is_over()  # the save replays to the end


@pytest.mark.parametrize(("request_", "problem"), [
    ({"mode": "pad", "players": [{"name": "Bot", "kind": "computer"}]}, "only with virtual dice"),
    ({"mode": "dice", "players": [{"name": "Bot", "kind": "computer", "strategy": "optimal"}]},
     "greedy, random, expert, expert-win, not 'optimal'"),
])
def test_computer_players_are_refused_on_the_pad_and_with_a_desktop_strategy(
    request_: dict[str, Any], problem: str
) -> None:
    reply = Session().handle({"op": "new", **request_})
    assert not reply["ok"]
    assert problem in reply["error"]["message"]


def test_computer_requests_on_a_human_turn_are_refused_and_change_nothing() -> None:
    s = Session()
    vs_computer(s)
    before = s._state()
    for op in ("computer_plan", "computer_move"):
        reply = s.handle({"op": op})
        assert not reply["ok"]
        assert "'Anna' is a person" in reply["error"]["message"]
    assert s._state() == before


def test_a_computer_without_a_strategy_plays_greedy() -> None:
    s = Session()
    reply = s.handle({"op": "new", "mode": "dice", "rules": "kniffel", "seed": 1,
                      "players": [{"name": "Bot", "kind": "computer"}]})
    assert reply["view"]["players"][0]["strategy"] == "greedy"


def test_a_random_seed_survives_javascript_numbers() -> None:
    for _ in range(20):
        reply = Session().handle({"op": "new", "players": [{"name": "A"}]})
        assert 0 <= reply["game"]["seed"] < 2**53  # exact as a JavaScript number


# --- phone: leader, short names, corrections, share, hand-off --------------------------------


def test_leader_is_only_a_player_ahead_of_everybody() -> None:
    game = pad_game(("Anna", "Ben", "Clara"))
    assert not any(c["leader"] for c in game_view(game)["columns"])  # 0:0:0
    game.apply(Enter(Box.FIVES, 20))
    game.apply(Enter(Box.FIVES, 20))
    assert not any(c["leader"] for c in game_view(game)["columns"])  # 20:20:0, a tie
    game.apply(Enter(Box.SIXES, 24))
    assert [c["leader"] for c in game_view(game)["columns"]] == [False, False, True]
    solo = Game(preset("extreme"), ["Solo"], mode=Mode.PAD)
    solo.apply(Enter(Box.FIVES, 20))
    assert not game_view(solo)["columns"][0]["leader"]


def wrapped(text: str, width: int) -> list[str]:
    """``text`` broken at spaces and after hyphens into lines of at most ``width`` characters
    (a word longer than that stays one line)."""
    words = re.findall(r"[^ -]+-?", text)
    lines: list[str] = []
    for word in words:
        joint = "" if not lines or lines[-1].endswith("-") else " "
        if lines and len(lines[-1] + joint + word) <= width:
            lines[-1] += joint + word
        else:
            lines.append(word)
    return lines


def test_every_box_has_a_short_name_of_two_short_lines_and_a_hint_in_both_languages() -> None:
    for rules in meta()["presets"]:
        for b in rules["boxes"]:
            for key in ("short", "hint"):
                assert b[key]["de"], (b["id"], key)
                assert b[key]["en"], (b["id"], key)
            for lang in ("de", "en"):
                lines = wrapped(b["short"][lang], 10)
                assert len(lines) <= 2, b["short"]
                assert max(map(len, lines)) <= 10, b["short"]
            assert len(b["hint"]["de"]) <= 12, b["hint"]


def test_corrections_request_offers_the_other_values_and_a_strike() -> None:
    session = Session()
    new(session)
    session.handle({"op": "act", "action": {"type": "enter", "box": "fives", "points": 20}})
    reply = session.handle({"op": "corrections", "player": 0, "box": "fives"})
    assert reply["ok"], reply
    offered = [(o["points"], o["strike"]) for o in reply["options"]]
    assert offered == [(5, False), (10, False), (15, False), (25, False), (30, False),
                       (0, True)]
    strike = reply["options"][-1]["action"]
    assert strike == {"type": "correct", "player": 0, "box": "fives", "points": None}
    after = session.handle({"op": "act", "action": strike})
    assert after["ok"], after
    assert after["view"]["columns"][0]["cells"]["fives"] == {"points": 0, "struck": True}
    assert after["view"]["current"] == 1  # still Ben's turn
    undone = session.handle({"op": "undo"})
    assert undone["view"]["columns"][0]["cells"]["fives"] == {"points": 20, "struck": False}
    assert session.handle({"op": "corrections", "player": 1, "box": "fives"})["options"] == []
    bad = session.handle({"op": "act", "action": {"type": "correct", "player": 0,
                                                   "box": "fives", "points": 17}})
    assert not bad["ok"]
    assert bad["error"]["type"] == "IllegalMoveError"


def test_share_text_lists_the_ranking_and_every_box() -> None:
    session = Session()
    new(session)
    session.handle({"op": "act", "action": {"type": "enter", "box": "fives", "points": 20}})
    text = session.handle({"op": "share", "lang": "de"})["text"]
    assert text.splitlines()[0] == "Kniffel Extreme – Zwischenstand, Runde 1 von 22"
    assert "1. Anna: 20" in text
    assert "2. Ben: 0" in text
    assert any(line.startswith("Fünfer") and line.split()[-2:] == ["20", "·"]
               for line in text.splitlines())
    english = session.handle({"op": "share", "lang": "en"})["text"]
    assert "Total" in english
    assert "Fives" in english


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**40), st.sampled_from(["pad", "dice"]), st.integers(0, 60))
@pytest.mark.solve
def test_a_packed_game_unpacks_to_the_same_game(seed: int, mode: str, steps: int) -> None:
    session = Session()
    new(session, mode=mode, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        view = session._state()["view"]
        if view["over"]:
            break
        if mode == "dice" and view["turn"]["can_throw"] and rng.random() < 0.6:
            session.handle({"op": "roll", "keep": []})
        elif view["options"]:
            session.handle({"op": "act", "action": rng.choice(view["options"])["action"]})
        else:
            session.handle({"op": "roll", "keep": []})
    reply = session.handle({"op": "handoff", "base": "http://127.0.0.1:8765/"})
    assert reply["ok"], reply
    assert reply["url"] == "http://127.0.0.1:8765/#" + reply["fragment"]
    assert reply["qr"]["size"] >= 21 + 8
    back = Session().handle({"op": "unpack", "fragment": reply["fragment"][2:]})
    assert back["ok"], back
    assert back["game"] == session._state()["game"]


@pytest.mark.parametrize("fragment", ["", "g1.", "g1.!!!", "xyz", "g1.eJzLSM3JyQcABiwCFQ"])
def test_a_damaged_link_is_refused(fragment: str) -> None:
    reply = Session().handle({"op": "unpack", "fragment": fragment})
    assert not reply["ok"]
    assert reply["error"]["type"] == "CorruptSaveError"


# --- win chances (issue 22) ------------------------------------------------------------------


def test_the_view_carries_each_players_win_chance_expected_total_range_and_leader() -> None:
    session = Session()
    start = new(session)["view"]["chances"]
    assert [p["win"] for p in start["players"]] == [0.5, 0.5]  # equal positions, equal chances
    assert start["leader"] is None
    assert start["source"] == "model"
    assert start["coverage"] == 0.8
    for p in start["players"]:
        assert p["low"] < p["expected"] < p["high"]
        assert not p["finished"]
    kniffel = next(o for o in session._state()["view"]["options"]
                   if o["box"] == "kniffel" and not o["strike"])
    after = session.handle({"op": "act", "action": kniffel["action"]})["view"]["chances"]
    anna, ben = after["players"]
    assert anna["win"] > 0.5 > ben["win"]
    assert abs(anna["win"] + ben["win"] - 1) < 1e-3
    assert after["leader"] == 0
    assert anna["expected"] > start["players"][0]["expected"]


def test_a_throw_changes_no_chance_and_a_finished_game_gives_the_winner_all() -> None:
    session = Session()
    before = new(session, mode="dice")["view"]["chances"]
    thrown = session.handle({"op": "roll", "keep": []})["view"]["chances"]
    assert thrown == before
    rng = random.Random(5)
    view = session._state()["view"]
    while not view["over"]:
        if view["options"]:
            reply = session.handle({"op": "act", "action": rng.choice(view["options"])["action"]})
        else:
            reply = session.handle({"op": "roll", "keep": []})
        view = reply["view"]
    wins = [p["win"] for p in view["chances"]["players"]]
    assert sorted(wins) == ([0.5, 0.5] if len(view["winners"]) == 2 else [0.0, 1.0])
    assert all(p["finished"] for p in view["chances"]["players"])
    assert [p["expected"] for p in view["chances"]["players"]] == [c["total"]
                                                                   for c in view["columns"]]


def test_rules_without_values_give_no_chances_and_the_warm_up_computes_none() -> None:
    custom = dataclasses.replace(preset("extreme"), bonus_threshold=80)  # no model fits it
    game = Game(custom, ["Anna", "Ben"], mode=Mode.PAD, seed=1)
    assert chances_view(game) is None
    assert game_view(game)["chances"] is None
    warm = Session(chances=False)
    assert new(warm)["view"]["chances"] is None
    assert game_view(pad_game(), chances=False)["chances"] is None


def test_the_pages_start_loads_without_chances_and_gets_them_with_the_chances_request() -> None:
    played = new(Session())
    session = Session()
    loaded = session.handle({"op": "load", "game": played["game"], "chances": False})
    assert loaded["view"]["chances"] is None
    assert loaded["view"]["columns"] == played["view"]["columns"]
    asked = session.handle({"op": "chances"})
    assert asked["ok"]
    assert asked["chances"] == played["view"]["chances"]
    # without a game the request only loads the values of the rule set it names
    empty = Session().handle({"op": "chances", "rules": "extreme"})
    assert empty == {"ok": True, "chances": None}


def test_an_english_short_box_name_uses_the_words_of_its_full_name() -> None:
    # issue 29: the bar said "Big full house", the tip "Large Full House": one box, two names
    spelled = {"2": "two", "3": "three", "4": "four", "≤": "or less", "≥": "or more",
               "lg.": "large"}
    for box in Box:
        short = CATALOG[f"box.short.{box.value}"][1]
        name = CATALOG[f"box.name.{box.value}"][1]
        words = " ".join(spelled.get(w.lower(), w) for w in short.split()).split()
        assert {w.lower() for w in words} <= set(name.lower().split()), (box, short, name)
        # and spelled alike: "Super Chance" in the sheet as in every sentence, not "Super chance"
        same = [w for w in short.split() if w.lower() not in spelled]
        assert set(same) <= set(name.split()), (box, short, name)
    assert CATALOG["box.short.large_full_house"][1] == "Lg. Full House"


@pytest.mark.solve  # forty entries and a cold exact endgame: seconds
def test_the_entry_that_leaves_two_extreme_boxes_open_answers_at_once_and_the_chances_follow(
) -> None:
    # Kniffel Extreme's last two boxes are exact: three turns' recursions, 0.2–0.5 s in the
    # browser. The entry's reply does not wait for them: it carries the last chances marked
    # stale, and the page's "chances" request brings the new ones once the sheet is drawn.
    from kniffel.engine import chances as chances_module

    s = Session()
    view = new(s)["view"]
    while not (view["current"] == 0 and 22 - len(view["columns"][0]["cells"]) == 3):
        view = s.handle({"op": "act", "action": view["options"][0]["action"]})["view"]
    assert view["chances"] is not None
    assert "stale" not in view["chances"]
    last = view["chances"]
    chances_module._model.cache_clear()  # a fresh model: nothing of this game remembered
    reply = s.handle({"op": "act", "action": view["options"][0]["action"]})
    assert reply["ok"]
    assert reply["view"]["columns"][0]["cells"] != view["columns"][0]["cells"]
    assert reply["view"]["chances"] == {**last, "stale": True}
    fresh = s.handle({"op": "chances"})["chances"]
    assert "stale" not in fresh
    assert s.game is not None
    state = chances_module.PlayerState.of(s.game, 0)
    exact = chances_module.chance_model(s.game.rules).rest(state).mean
    assert fresh["players"][0]["expected"] == round(state.total + exact, 1)
    # now at hand: the same position's view waits no more
    again = s.handle({"op": "load", "game": s.game.to_json()})["view"]
    assert again["chances"] == fresh


def test_a_chance_neither_none_nor_certain_stays_so_in_the_view() -> None:
    # rounded to four decimals, 3e-5 was 0 and the page showed "0 %" for a player who can
    # still win; it shows "< 1 %" for what stays above 0
    from kniffel.browser.view import _share

    assert _share(0.00003) == 0.0001
    assert _share(0.99996) == 0.9999
    assert _share(0.0) == 0.0
    assert _share(1.0) == 1.0
    assert _share(0.12345) == 0.1235  # else as before

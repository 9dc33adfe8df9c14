"""Playing to win in the browser, the Python side (issue 41): the bridge's hint and coach tip with
both answers, the turn warmed at its start, the review by the chance to win and the computer
player 'Experte, auf Sieg'."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from kniffel import Game, Mode, Throw, preset
from kniffel.browser import advice_view
from kniffel.browser.bridge import WEB_STRATEGIES, Session
from kniffel.engine.advice import Position
from kniffel.engine.chances import chance_model
from kniffel.engine.distribution import Distribution
from kniffel.engine.expert import expert_for
from kniffel.engine.game import Player, action_to_json
from kniffel.engine.match import Match
from kniffel.engine.messages import CATALOG, number, percent
from kniffel.engine.pad_review import pad_position
from kniffel.engine.review import review_game, review_wins
from kniffel.engine.winning import (
    Column,
    ModelWorth,
    WinAdvisor,
    _share_at,
    expected_share,
    share_curve,
    win_advice,
)

EXTREME = preset("extreme")
#: The game and its length where Ben, behind in his second-to-last turn, must strike a box: the
#: expert's choice (the one with the best average) leaves him no chance, another one some.
GAMBLE_SEED, GAMBLE_ACTIONS = 8, 297


@cache
def gamble_save() -> dict[str, Any]:
    """The save of a two-player Kniffel Extreme dice game (Anna and Ben, every choice the
    expert's) after its first :data:`GAMBLE_ACTIONS` actions: Ben to choose after a throw."""
    game = Game(EXTREME, [Player("Anna"), Player("Ben")], mode=Mode.DICE, seed=GAMBLE_SEED)
    match = Match(game)
    expert = expert_for(EXTREME)
    while len(game.actions) < GAMBLE_ACTIONS:
        turn = game.turn
        assert turn is not None
        if turn.roll is None:
            match.throw()
            continue
        action = expert.advise(Position.from_game(game)).best.action
        if isinstance(action, Throw):
            match.throw(action.keep)
        else:
            match.apply(action)
    return game.to_json()


def test_a_hint_where_playing_to_win_asks_for_another_choice_gives_both_answers() -> None:
    game = Game.from_json(gamble_save())
    advice = win_advice(game)
    assert advice.differ
    reply = Session().handle({"op": "hint", "game": gamble_save()})
    assert reply["ok"], reply
    hint = reply["hint"]
    win = hint["win"]
    assert win["differ"] is True
    assert win["exact"] is advice.exact
    points, best = advice.for_points, advice.for_win
    # the points' answer is the expert's best choice, the win's the best chance to win
    assert win["points"]["action"] == action_to_json(advice.points.best.action)
    assert win["points"]["action"] == hint["options"][0]["action"]
    assert win["win"]["action"] == action_to_json(best.action)
    assert win["points"]["win"] == round(points.win, 4) < win["win"]["win"] == round(best.win, 4)
    assert win["points"]["expected"] == round(points.expected, 3)
    assert win["win"]["expected"] == round(best.expected, 3)
    assert win["win"]["text"] == {"de": best.describe(EXTREME, "de"),
                                  "en": best.describe(EXTREME, "en")}
    # every choice of the table carries its chance to win
    chances = {o.action: o.win for o in advice.options}
    assert [o["win"] for o in hint["options"]] == [
        round(chances[o.action], 4) for o in advice.points.options]


def test_a_hint_where_both_agree_carries_one_choice_and_a_solitaire_hint_no_chances() -> None:
    s = Session()
    assert s.handle({"op": "new", "rules": "extreme", "mode": "dice", "seed": 4,
                     "players": [{"name": "Anna"}, {"name": "Ben"}]})["ok"]
    assert s.handle({"op": "roll", "keep": []})["ok"]
    game = s.game
    assert game is not None
    advice = win_advice(game)
    hint = s.handle({"op": "hint"})["hint"]
    assert hint["win"]["differ"] is advice.differ
    if not advice.differ:
        assert hint["win"]["win"]["action"] == hint["win"]["points"]["action"]
    # alone at the table there is nothing to win against: the expert's hint as before
    alone = Session()
    assert alone.handle({"op": "new", "rules": "extreme", "mode": "dice", "seed": 4,
                         "players": [{"name": "Anna"}]})["ok"]
    alone.handle({"op": "roll", "keep": []})
    hint = alone.handle({"op": "hint"})["hint"]
    assert hint["win"] is None
    assert all("win" not in o for o in hint["options"])


def test_the_coach_tip_for_typed_dice_gives_both_answers_from_the_pad_games_sheets() -> None:
    game = Game(EXTREME, [Player("Anna"), Player("Ben")], mode=Mode.PAD, seed=1)
    s = Session()
    s.game = game
    reply = s.handle({"op": "pad_hint", "dice": [6, 6, 6, 2, 3, 4], "rolls_used": 1})
    assert reply["ok"], reply
    roll = EXTREME.parse_roll([6, 6, 6, 2, 3, 4])
    advice = win_advice(game, pad_position(game, roll, 1))
    win = reply["hint"]["win"]
    assert win["differ"] is advice.differ
    assert win["points"]["win"] == round(advice.for_points.win, 4)
    assert win["win"]["action"] == action_to_json(advice.for_win.action)
    assert reply["hint"]["options"][0]["action"] == win["points"]["action"]


def test_warming_a_turn_changes_no_answer_and_skips_solitaire_and_finished_games() -> None:
    cold = Session().handle({"op": "hint", "game": gamble_save()})
    warm = Session()
    assert warm.handle({"op": "warm_turn", "game": gamble_save()}) == {"ok": True,
                                                                     "warmed": True}
    assert warm.handle({"op": "hint", "game": gamble_save()}) == cold
    alone = Game(EXTREME, [Player("Anna")], mode=Mode.DICE, seed=1)
    assert Session().handle({"op": "warm_turn", "game": alone.to_json()})["warmed"] is False
    pad = Game(EXTREME, [Player("Anna"), Player("Ben")], mode=Mode.PAD, seed=1)
    assert Session().handle({"op": "warm_turn", "game": pad.to_json()})["warmed"] is True


def test_a_turns_recursion_is_remembered_so_the_next_throws_advice_reads_it_off() -> None:
    game = Game.from_json(gamble_save())
    advisor = WinAdvisor(EXTREME)
    first = advisor.advise(game)
    assert len(advisor._plans) == 1
    again = advisor.advise(game)
    assert again == first
    assert len(advisor._plans) == 1
    # another advisor, nothing remembered, the same answer
    assert WinAdvisor(EXTREME).advise(game) == first


@pytest.mark.parametrize("seed", range(5))
def test_the_model_worth_sums_the_same_products_as_term_by_term(seed: int) -> None:
    """The worth of an entry (Σ R(i)·H(base + i), the share curve read as one padded slice)
    equals the sum taken term by term with :func:`_share_at` (to rounding)."""
    rng = random.Random(seed)
    others = [Distribution(rng.randint(150, 400), tuple(rng.random() for _ in range(
        rng.randint(1, 300)))) for _ in range(rng.randint(1, 3))]
    curve = share_curve(others)
    for _ in range(50):
        base, n = rng.randint(0, 900), rng.randint(1, 400)
        dist = Distribution(base, tuple(rng.random() for _ in range(n)))
        assert expected_share(curve, dist) == pytest.approx(
            sum(p * _share_at(curve, base + i) for i, p in enumerate(dist.probs)), abs=1e-9)
    game = Game(EXTREME, [Player("A"), Player("B")], mode=Mode.DICE, seed=seed)
    worth = ModelWorth(chance_model(EXTREME), Column.of(game, 0), others, {})
    for box in EXTREME.boxes[:6]:
        rest = worth.rest(box, 3, 0)
        total = worth.column.total + 3
        term_by_term = sum(p * _share_at(worth.curve, total + rest.offset + i)
                           for i, p in enumerate(rest.probs) if p)
        assert worth._worth(box, 3, 0, 0) == pytest.approx(term_by_term, abs=1e-12)


def test_a_review_judges_each_decision_by_its_chance_to_win_in_both_languages() -> None:
    game = Game.from_json(gamble_save())
    # the game up to the gamble and Ben's strike for points: his last decision cost him all
    expert_best = expert_for(EXTREME).advise(Position.from_game(game)).best.action
    Match(game).apply(expert_best)
    review = review_game(game)
    wins = review_wins(review)
    assert set(wins) == {d.index for d in review.decisions}
    last = wins[GAMBLE_ACTIONS]
    assert last.player == 1
    assert last.taken == 0.0
    assert last.best > 0.1
    assert all(0.0 <= j.loss == max(0.0, j.best - j.taken) for j in wins.values())
    view = advice_view.review_wins_view(review, wins)
    line = view["decisions"][str(GAMBLE_ACTIONS)]["line"]
    assert line["de"] == (f"Kostete {number(100 * last.loss, 'de')} Prozentpunkte Gewinnchance "
                          f"({percent(0.0, 'de')} statt {percent(last.best, 'de')})")
    assert line["en"].startswith(f"Cost {number(100 * last.loss, 'en')} percentage points")
    ben = view["players"][1]
    assert ben["summary"]["de"].startswith("Ben: zusammen ")
    # the bridge's answer is the same
    reply = Session().handle({"op": "review_wins", "game": game.to_json()})
    assert reply["ok"]
    assert reply["wins"] == view


def test_a_solitaire_review_has_nothing_to_win_against() -> None:
    game = Game(EXTREME, [Player("Anna")], mode=Mode.DICE, seed=2)
    match = Match(game)
    match.throw()
    match.apply(expert_for(EXTREME).advise(Position.from_game(game)).best.action)
    assert review_wins(review_game(game)) == {}
    reply = Session().handle({"op": "review_wins", "game": game.to_json()})
    assert reply["wins"]["decisions"] == {}
    assert reply["wins"]["players"] == []


def test_the_expert_to_win_is_a_browser_computer_player_and_plays_its_best_chance() -> None:
    assert "expert-win" in WEB_STRATEGIES
    s = Session()
    reply = s.handle({"op": "new", "rules": "extreme", "mode": "dice", "seed": 5, "players": [
        {"name": "Bot", "kind": "computer", "strategy": "expert-win"},
        {"name": "Gier", "kind": "computer", "strategy": "greedy"}]})
    assert reply["ok"], reply
    checked = 0
    while checked < 12:
        game = s.game
        assert game is not None
        assert game.turn is not None
        plan = s.handle({"op": "computer_plan"})
        if game.current_player == 0 and game.turn.roll is not None:
            assert plan["action"] == action_to_json(win_advice(game).for_win.action)
            checked += 1
        assert s.handle({"op": "computer_move"})["ok"]


def test_the_new_words_exist_in_both_languages_with_the_same_fields() -> None:
    from kniffel.engine.messages import fields
    codes = [c for c in CATALOG if c.startswith(("page.hint.", "web.hint.win_source",
                                                 "web.review.win_", "web.expert.kind_win"))]
    codes += ["web.hint.keep_points", "web.hint.keep_win", "web.hint.col_win"]
    assert len(codes) >= 12
    for code in codes:
        de, en = CATALOG[code]
        assert de, code
        assert en, code
        assert fields(de) == fields(en), code


def test_a_save_that_goes_on_from_the_last_one_asked_is_played_on_to_the_same_answers() -> None:
    """The expert's engine plays a save on from the one asked last (not from its start): every
    answer equals a fresh session's, after more actions, after fewer (an undo) and for another
    game; a bad action is refused as a fresh session refuses it."""
    full = gamble_save()
    s = Session()
    for n in (2, 40, 41, 97, 60, GAMBLE_ACTIONS):
        save = {**full, "actions": full["actions"][:n]}
        turn = Game.from_json(save).turn
        if turn is None or turn.roll is None:
            continue
        assert s.handle({"op": "hint", "game": save}) == Session().handle(
            {"op": "hint", "game": save})
    other = {**full, "seed": 9, "actions": []}
    assert s.handle({"op": "warm_turn", "game": other}) == Session().handle(
        {"op": "warm_turn", "game": other})
    assert s._asked is not None
    bad = {**full, "actions": [*full["actions"], {"type": "enter", "box": "nope"}]}
    s.handle({"op": "hint", "game": full})
    refused = s.handle({"op": "hint", "game": bad})
    assert refused["ok"] is False
    assert refused == Session().handle({"op": "hint", "game": bad})

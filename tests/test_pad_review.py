"""The coach for real dice on the score pad: typed dice recorded with a pad entry, the expert's
advice at a pad position (kniffel.engine.pad_review.pad_advice) and the review of a pad game's
entries (review_pad), and the bridge's pad_hint and pad_review requests."""

from __future__ import annotations

import dataclasses
import random

import pytest

from kniffel import Box, Enter, Game, Mode, Roll, Score, Strike, Throw, UseChip, preset
from kniffel.browser.advice_view import expected_line
from kniffel.browser.bridge import Session
from kniffel.browser.view import page_schema
from kniffel.engine.advice import Advice, Position
from kniffel.engine.errors import ExpertError, IllegalMoveError, KniffelError
from kniffel.engine.expert import expert_for
from kniffel.engine.game import Correct, Outcome, action_from_json, action_to_json
from kniffel.engine.messages import number, render
from kniffel.engine.pad_review import (
    after_chip,
    last_throw,
    pad_advice,
    pad_position,
    review_pad,
    typed_throw,
    typed_throws,
)
from kniffel.engine.rules import Choice, choices
from kniffel.engine.turns import pad_action
from test_web_schema import fault

EXTREME = preset("extreme")


def pad(players: tuple[str, ...] = ("Anna", "Ben")) -> Game:
    return Game(EXTREME, list(players), mode=Mode.PAD, seed=1)


def roll(*values: int) -> Roll:
    return EXTREME.parse_roll(list(values))


def twin_games(turns: int, seed: int) -> tuple[Game, Game]:
    """A score pad game and a dice game of the same two players whose sheets are the same after
    ``turns`` turns: each turn a random roll (typed in on the pad, thrown in the dice game)
    entered in a random box it fits, with the chip handed in now and then."""
    rng = random.Random(seed)
    pad_game = pad()
    dice_game = Game(EXTREME, ["Anna", "Ben"], mode=Mode.DICE, seed=1)
    for _ in range(turns):
        r = Roll([rng.randint(1, 6) for _ in range(5)], rng.randint(0, 9))
        player = pad_game.current_player
        assert player is not None
        chip = rng.random() < 0.2 and pad_game.sheet(player).chips_left > 0
        for _ in range(EXTREME.rolls):  # the same dice three times: the chip may follow
            dice_game.apply(Throw())
            dice_game.apply(Outcome(r))
        if chip:
            pad_game.apply(UseChip())
            dice_game.apply(UseChip())
            dice_game.apply(Throw())
            dice_game.apply(Outcome(r))
        c: Choice = rng.choice(choices(EXTREME, dict(pad_game.sheet(player).entries), r))
        pad_game.apply(dataclasses.replace(pad_action(c), dice=r))
        dice_game.apply(Strike(c.box) if c.strike else Score(c.box))
    return pad_game, dice_game


def strike_untyped(game: Game) -> None:
    """The player to move strikes the first open box without typing the dice."""
    player = game.current_player
    assert player is not None
    game.apply(Strike(next(b for b in EXTREME.boxes if b not in game.sheet(player).entries)))


# --- typed dice recorded with the entry ---------------------------------------------------------


def test_typed_dice_are_recorded_with_a_pad_entry_and_come_back_from_the_save() -> None:
    game = Game(preset("extreme", free_strike=True), ["Anna", "Ben"], mode=Mode.PAD, seed=1)
    r = roll(5, 5, 5, 6, 6, 6)
    entry = Enter(Box.TWO_TRIPLES, 45, dice=r)
    game.apply(entry)
    game.apply(Strike(Box.ONES, dice=roll(2, 3, 4, 5, 6, 0)))
    game.apply(Enter(Box.CHANCE, 20))  # no dice typed: written as before
    saved = game.to_json()
    assert saved["actions"][0]["dice"] == {"d6": [5, 5, 5, 6, 6], "d10": 6}
    assert saved["actions"][1]["dice"] == {"d6": [2, 3, 4, 5, 6], "d10": 0}
    assert "dice" not in saved["actions"][2]
    again = Game.from_json(saved)
    assert again.actions == game.actions
    assert again.actions[0] == entry
    assert action_from_json(action_to_json(entry)) == entry


def test_an_entry_the_typed_dice_do_not_give_is_refused_and_changes_nothing() -> None:
    game = pad()
    before = game.to_json()
    for wrong in (Enter(Box.SIXES, 12, dice=roll(5, 5, 5, 6, 6, 6)),  # they give 18
                  Enter(Box.KNIFFEL, 50, dice=roll(5, 5, 5, 6, 6, 6)),
                  Strike(Box.FIVES, dice=roll(5, 5, 5, 6, 6, 6))):  # no strike: they fit
        with pytest.raises(IllegalMoveError) as refused:
            game.apply(wrong)
        assert refused.value.code == "coach.dice_do_not_fit"
        assert "5 5 5 6 6" in render(refused.value, "de")
        assert game.to_json() == before
    with pytest.raises(KniffelError) as no_d10:
        game.apply(Enter(Box.CHANCE, 26, dice=Roll((5, 5, 5, 5, 6))))
    assert no_d10.value.code == "dice.d10_missing"
    assert game.to_json() == before


def test_a_strike_with_typed_dice_is_refused_in_a_dice_game() -> None:
    game = Game(EXTREME, ["Anna"], mode=Mode.DICE, seed=2)
    game.apply(Throw())
    game.apply(Outcome(roll(1, 2, 3, 4, 6, 0)))
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(Strike(Box.KNIFFEL, dice=roll(1, 2, 3, 4, 6, 0)))
    assert refused.value.code == "coach.dice_pad_only"
    game.apply(Score(Box.CHANCE))


def test_the_pads_boxes_for_typed_dice_record_the_dice_when_entered() -> None:
    s = Session()
    assert s.handle({"op": "new", "mode": "pad", "seed": 4,
                     "players": [{"name": "Anna"}]})["ok"]
    reply = s.handle({"op": "pad_choices", "dice": [2, 2, 4, 4, 4, 8]})
    assert reply["ok"], reply
    option = next(o for o in reply["options"] if o["box"] == "full_house")
    assert s.handle({"op": "act", "action": option["action"]})["ok"]
    assert s._game().actions[-1] == Enter(Box.FULL_HOUSE, 25, dice=roll(2, 2, 4, 4, 4, 8))


# --- advice at a pad position -------------------------------------------------------------------


def test_the_pads_advice_is_the_dice_games_for_the_same_sheet_throw_and_dice() -> None:
    for seed in range(3):
        pad_game, dice_game = twin_games(9 + seed, seed)
        assert pad_game.sheet(1) == dice_game.sheet(1)
        r = roll(3, 3, 4, 5, 6, 5)
        for throw in (1, 2, 3):
            dice_game.apply(Throw())
            dice_game.apply(Outcome(r))
            got = pad_advice(pad_game, r, throw)
            want = expert_for(EXTREME).advise(Position.from_game(dice_game))
            assert [o.action for o in got.options] == [o.action for o in want.options]
            assert [o.expected for o in got.options] == pytest.approx(
                [o.expected for o in want.options])
            assert got.score_so_far == want.score_so_far


def test_before_the_last_throw_the_tip_is_which_dice_to_keep_after_it_the_chip_or_a_box() -> None:
    game = pad()
    r = roll(6, 6, 6, 2, 1, 9)
    kinds = {throw: {type(o.action) for o in pad_advice(game, r, throw).options}
             for throw in (1, 2, 3, 4)}
    for throw in (1, 2):
        assert Throw in kinds[throw]
        assert UseChip not in kinds[throw]
    assert Throw not in kinds[3]
    assert UseChip in kinds[3]
    assert Throw not in kinds[4]
    assert UseChip not in kinds[4]
    assert all(Score in k for k in kinds.values())
    best = pad_advice(game, r, 3).best
    assert best.expected == max(o.expected for o in pad_advice(game, r, 3).options)


def test_the_pad_position_is_the_sheet_of_the_player_to_move_with_the_typed_throw() -> None:
    game = pad()
    game.apply(Enter(Box.SIXES, 24))
    game.apply(UseChip())  # Ben hands in a chip, then is asked about his 3rd throw
    r = roll(1, 1, 2, 3, 5, 7)
    pos = pad_position(game, r, 3)
    assert pos.entries == {}
    assert (pos.roll, pos.rolls_used, pos.chip_used, pos.chips_left) == (r, 3, True, 2)
    game.apply(Enter(Box.ONES, 2))
    pos = pad_position(game, r, 2)
    assert pos.entries == game.sheet(0).entries
    assert (pos.rolls_used, pos.chip_used, pos.chips_left) == (2, False, 3)


def test_the_throw_after_a_chip_counts_the_chip_even_before_the_pad_has_it() -> None:
    game = pad()
    r = roll(1, 1, 2, 3, 5, 7)
    pos = pad_position(game, r, last_throw(EXTREME, True))
    assert (pos.rolls_used, pos.chip_used, pos.chips_left) == (4, True, 2)
    game.apply(UseChip())
    pos = pad_position(game, r, 4)
    assert (pos.rolls_used, pos.chip_used, pos.chips_left) == (4, True, 2)


def test_a_throw_the_turn_cannot_have_is_refused() -> None:
    game = pad()
    r = roll(1, 1, 2, 3, 5, 7)
    for throw in (0, 5, True, "3"):
        with pytest.raises(IllegalMoveError) as refused:
            pad_position(game, r, throw)  # type: ignore[arg-type]
        assert refused.value.code == "coach.throw_range"
    classic = Game(preset("kniffel"), ["Anna"], mode=Mode.PAD, seed=1)
    with pytest.raises(IllegalMoveError) as refused:
        pad_position(classic, Roll((1, 2, 3, 4, 5)), 4)
    assert refused.value.params["most"] == 3
    alone = pad(("Anna",))
    for box in (Box.ONES, Box.TWOS, Box.THREES)[:EXTREME.chips]:
        alone.apply(UseChip())
        alone.apply(Strike(box))
    assert alone.sheet(0).chips_left == 0
    with pytest.raises(IllegalMoveError) as no_chip:
        pad_position(alone, r, 4)
    assert no_chip.value.code == "coach.no_chip_left"
    with pytest.raises(IllegalMoveError) as dice_mode:
        pad_position(Game(EXTREME, ["Anna"], mode=Mode.DICE), r, 3)
    assert dice_mode.value.code == "coach.needs_pad"


# --- the review of a pad game -------------------------------------------------------------------


def test_the_review_judges_each_entry_with_typed_dice_against_the_best_box_for_them() -> None:
    game, _ = twin_games(14, 5)
    strike_untyped(game)
    review = review_pad(game)
    typed = [i for i, a in enumerate(game.actions)
             if isinstance(a, Enter | Strike) and a.dice is not None]
    assert [e.index for e in review.entries] == typed
    assert (review.without_dice, review.without_values, review.not_judged) == (1, 0, 1)
    for e in review.entries:
        replay = Game(EXTREME, game.players, mode=Mode.PAD, seed=1,
                      actions=game.actions[:e.index])
        action = game.actions[e.index]
        assert isinstance(action, Enter | Strike)
        assert action.dice is not None
        assert e.player == replay.current_player
        assert e.round == replay.round
        assert e.action == action
        turn = replay.turn
        assert turn is not None
        advice = pad_advice(replay, action.dice, last_throw(EXTREME, turn.chip_used))
        boxes = [o for o in advice.options if isinstance(o.action, Score | Strike)]
        assert e.best == boxes[0]
        assert e.taken in boxes
        assert e.taken.action.box is action.box  # type: ignore[union-attr]
        assert e.loss == pytest.approx(e.best.expected - e.taken.expected)
        assert e.loss >= 0
        assert e.best_taken == (e.loss == 0)
    assert review.total_loss() == pytest.approx(sum(e.loss for e in review.entries))
    assert review.total_loss(0) + review.total_loss(1) == pytest.approx(review.total_loss())


def test_the_best_box_taken_loses_nothing_and_a_worse_one_its_difference() -> None:
    r = roll(6, 6, 6, 6, 6, 9)
    advice = pad_advice(pad(), r, 3)
    boxes = [o for o in advice.options if isinstance(o.action, Score)]
    best, worse = boxes[0], boxes[-1]
    for option, lost in ((best, 0.0), (worse, best.expected - worse.expected)):
        game = pad()
        assert isinstance(option.action, Score)
        c = next(c for c in choices(EXTREME, {}, r) if c.box is option.action.box)
        game.apply(dataclasses.replace(pad_action(c), dice=r))
        (e,) = review_pad(game).entries
        assert e.taken.action == option.action
        assert e.loss == pytest.approx(lost)
        assert e.best_taken == (lost == 0.0)


def test_the_review_judges_an_entry_after_a_chip_after_the_chips_throw() -> None:
    game = pad()
    game.apply(UseChip())
    r = roll(1, 2, 3, 4, 5, 3)
    game.apply(Enter(Box.LARGE_STRAIGHT, 40, dice=r))
    (e,) = review_pad(game).entries
    assert (e.position.rolls_used, e.position.chip_used, e.position.chips_left) == (4, True, 2)


def test_entries_without_values_are_counted_not_judged_and_corrections_are_no_entries() -> None:
    game = pad()
    game.apply(Enter(Box.FIVES, 15, dice=roll(5, 5, 5, 6, 6, 6)))
    game.apply(Enter(Box.CHANCE, 20))
    game.apply(Correct(0, Box.FIVES, 20))

    def no_values(position: Position) -> Advice:
        raise ExpertError("no values here", code="expert.model_missing",
                          params={"rules": position.rules.name})

    review = review_pad(game, judge=no_values)
    assert review.entries == ()
    assert (review.without_dice, review.without_values, review.not_judged) == (1, 1, 2)
    assert len(review_pad(game).entries) == 1


def test_a_dice_game_has_no_pad_review() -> None:
    with pytest.raises(IllegalMoveError) as refused:
        review_pad(Game(EXTREME, ["Anna"], mode=Mode.DICE))
    assert refused.value.code == "coach.needs_pad"


# --- the bridge ---------------------------------------------------------------------------------


def test_the_pad_hint_names_the_best_choice_with_its_expected_score_in_both_languages() -> None:
    s = Session()
    assert s.handle({"op": "new", "mode": "pad", "seed": 4,
                     "players": [{"name": "Anna"}, {"name": "Ben"}]})["ok"]
    game = s._game()
    reply = s.handle({"op": "pad_hint", "game": game.to_json(), "dice": [4, 4, 4, 4, 2, 5],
                      "rolls_used": 3, "lang": "en"})
    assert reply["ok"], reply
    hint = reply["hint"]
    advice = pad_advice(game, roll(4, 4, 4, 4, 2, 5), 3)
    assert [action_from_json(o["action"]) for o in hint["options"]] == [
        o.action for o in advice.options]
    best = hint["options"][0]
    assert best["kind"] in ("score", "strike", "chip")
    assert best["expected"] == pytest.approx(advice.best.expected, abs=1e-3)
    assert hint["expected_text"]["de"].startswith("im Schnitt")
    assert (hint["dice"], hint["rolls_used"], hint["chip_used"]) == ([2, 4, 4, 4, 4, 5], 3, False)
    early = s.handle({"op": "pad_hint", "dice": [4, 4, 4, 4, 2, 5], "rolls_used": 1})
    assert any(o["kind"] in ("keep", "throw") for o in early["hint"]["options"])
    refused = s.handle({"op": "pad_hint", "dice": [4, 4, 4, 4, 2, 5], "rolls_used": 7})
    assert refused["error"]["code"] == "coach.throw_range"
    assert not s.handle({"op": "pad_hint", "dice": [4, 4, 4, 4, 2, 5],
                         "rolls_used": "3"})["ok"]


def test_a_tip_to_hand_in_a_chip_says_which_dice_to_keep_for_the_4th_throw() -> None:
    # issue 29: typed 5 1 2 6 6 + 0 after the 3rd throw, the tip said "Chip abgeben (4. Wurf)"
    # and stopped there
    game = pad()
    dice = roll(5, 1, 2, 6, 6, 0)
    advice = pad_advice(game, dice, 3)
    assert isinstance(advice.best.action, UseChip)
    then = after_chip(advice)
    assert then is not None
    assert isinstance(then.action, Throw)
    # what follows the chip is worth what the chip is worth: the same position, chip in hand
    assert then.expected == pytest.approx(advice.best.expected, abs=1e-9)
    kept = then.action.keep
    s = Session()
    assert s.handle({"op": "new", "mode": "pad", "seed": 1,
                     "players": [{"name": "Anna"}, {"name": "Ben"}]})["ok"]
    hint = s.handle({"op": "pad_hint", "dice": [5, 1, 2, 6, 6, 0], "rolls_used": 3})["hint"]
    best = hint["options"][0]
    assert best["kind"] == "chip"
    assert best["text"]["de"] == f"Chip abgeben (4. Wurf), behalten: {' '.join(map(str, kept.d6))}"
    assert best["text"]["en"].startswith("Hand in a chip (4th throw), keep: ")
    # a best choice that is no chip has nothing after it
    assert after_chip(pad_advice(game, dice, 1)) is None
    assert after_chip(pad_advice(game, roll(6, 6, 6, 6, 6, 6), 3)) is None


def test_the_coach_offers_the_turns_throws_and_the_chips_only_with_a_chip() -> None:
    game = pad()
    assert typed_throws(game) == (1, 2, 3, 4)
    game.apply(UseChip())  # after a chip only the last two: a chip follows the 3rd throw
    assert typed_throws(game) == (3, 4)
    classic = Game(preset("kniffel"), ["Anna"], mode=Mode.PAD, seed=1)
    assert typed_throws(classic) == (1, 2, 3)


def test_typed_dice_lie_after_the_last_throw_and_other_dice_after_the_next() -> None:
    # issue 29: dice typed for a later throw left the selector on "1."
    game = pad()
    first, second, third = roll(1, 2, 3, 4, 5, 6), roll(1, 2, 3, 3, 3, 6), roll(3, 3, 3, 3, 3, 6)
    assert typed_throw(game, first) == 3  # the turn's first dice: its last throw
    assert typed_throw(game, second, (first, 1)) == 2  # other dice: the next throw
    assert typed_throw(game, third, (second, 2)) == 3
    assert typed_throw(game, first, (first, 1)) == 1  # the same dice again: the same throw
    # never past the turn's last throw: without a chip handed in, the 3rd stays the 3rd
    assert typed_throw(game, third, (second, 3)) == 3
    # a throw the coach does not offer is no earlier throw
    assert typed_throw(game, third, (second, 7)) == 3
    game.apply(UseChip())  # the 3rd throw's dice stay; the dice typed after them: the 4th's
    assert typed_throw(game, third, (second, 3)) == 4
    assert typed_throw(game, second, (second, 3)) == 3
    assert typed_throw(game, first) == 4


def test_pad_choices_say_the_throw_the_typed_dice_lie_after() -> None:
    s = Session()
    assert s.handle({"op": "new", "mode": "pad", "seed": 1,
                     "players": [{"name": "Anna"}, {"name": "Ben"}]})["ok"]
    reply = s.handle({"op": "pad_choices", "dice": [1, 2, 3, 4, 5, 6]})
    assert (reply["throw"], reply["throws"]) == (3, [1, 2, 3, 4])
    reply = s.handle({"op": "pad_choices", "dice": [1, 2, 3, 3, 5, 6],
                      "before": {"dice": [1, 2, 3, 4, 5, 6], "throw": 1}})
    assert reply["throw"] == 2
    assert s.handle({"op": "act", "action": {"type": "chip"}})["ok"]
    reply = s.handle({"op": "pad_choices", "dice": [1, 2, 3, 3, 5, 6],
                      "before": {"dice": [1, 2, 3, 3, 5, 6], "throw": 3}})
    assert (reply["throw"], reply["throws"]) == (3, [3, 4])
    for bad in ({"dice": [1, 2, 3, 4, 5, 6]}, {"dice": [1, 2, 3, 4, 5, 6], "throw": "1"},
                {"dice": [1, 2, 3, 4, 5, 6], "throw": True}, [1, 2]):
        refused = s.handle({"op": "pad_choices", "dice": [1, 2, 3, 4, 5, 6], "before": bad})
        assert refused["error"]["code"] == "web.bad_request"
    refused = s.handle({"op": "pad_choices", "dice": [1, 2, 3, 4, 5, 6],
                        "before": {"dice": [1, 2, 3, 4, 5, 16], "throw": 1}})
    assert not refused["ok"]


def test_the_pad_review_reply_lists_judged_entries_and_the_count_not_judged() -> None:
    game, _ = twin_games(6, 2)
    strike_untyped(game)
    s = Session()
    reply = s.handle({"op": "pad_review", "game": game.to_json()})
    assert reply["ok"], reply
    view = reply["review"]
    review = review_pad(game)
    assert [e["index"] for e in view["entries"]] == [e.index for e in review.entries]
    assert (view["not_judged"], view["without_dice"], view["without_values"]) == (1, 1, 0)
    assert [p["count"] for p in view["players"]] == [
        sum(e.player == i for e in review.entries) for i in (0, 1)]
    first = view["entries"][0]
    assert first["loss"] == pytest.approx(review.entries[0].loss, abs=1e-3)
    assert first["lines"]["de"][0].startswith("Gewählt: ")
    assert first["lines"]["en"][0].startswith("Taken: ")
    assert len(first["dice"]) == 6
    assert view["source"] == "model"


def test_the_review_says_the_best_box_was_the_best_choice_not_704_instead_of_704() -> None:
    # issue 29: the pad review said "704,0 statt 704,0 Punkte" when the best box was taken
    game = pad(("Anna",))
    dice = roll(6, 6, 6, 6, 6, 6)
    best = pad_advice(game, dice, 3).best
    assert isinstance(best.action, Score)
    entry = next(a for a in game.pad_choices(dice) if a.box is best.action.box)
    game.apply(dataclasses.replace(entry, dice=dice))
    worse = next(a for a in game.pad_choices(dice) if a.box is Box.CHANCE)
    game.apply(dataclasses.replace(worse, dice=dice))
    view = Session().handle({"op": "pad_review", "game": game.to_json()})["review"]
    first, second = view["entries"]
    assert first["best_taken"]
    shown = number(first["taken"]["expected"], "de")
    assert first["lines"]["de"][1:] == [
        "Das war der beste Zug.",
        f"Im Schnitt am Ende: {shown} Punkte, so viel wie mit dem besten Zug"]
    assert first["lines"]["en"][2].endswith("points, as many as with the best choice")
    assert "statt" not in " ".join(first["lines"]["de"])
    assert not second["best_taken"]
    assert second["lines"]["de"][2] == (
        f"Im Schnitt am Ende: {number(second['taken']['expected'], 'de')} statt "
        f"{number(second['best']['expected'], 'de')} Punkte")


def test_expected_scores_that_read_the_same_are_said_once() -> None:
    assert expected_line(704.04, 704.03, "de") == (
        "Im Schnitt am Ende: 704,0 Punkte, so viel wie mit dem besten Zug")
    assert expected_line(701.0, 704.0, "de") == "Im Schnitt am Ende: 701,0 statt 704,0 Punkte"
    assert expected_line(701.0, 704.0, "en") == (
        "On average at the end: 701.0 instead of 704.0 points")


def test_the_pad_review_and_the_typed_dices_options_have_the_schemas_shape() -> None:
    schema = page_schema()
    game, _ = twin_games(8, 3)
    strike_untyped(game)
    s = Session()
    review = s.handle({"op": "pad_review", "game": game.to_json()})["review"]
    assert fault(schema["pad_review"], review, "pad_review") is None
    del review["entries"][0]["lines"]
    assert fault(schema["pad_review"], review, "pad_review") == (
        "pad_review.entries[0].lines: missing")
    assert s.handle({"op": "load", "game": game.to_json()})["ok"]
    options = s.handle({"op": "pad_choices", "dice": [1, 1, 3, 3, 3, 2]})["options"]
    option = {"ref": "option"}
    assert all(fault(option, o, "option") is None for o in options)
    options[0]["action"]["dice"]["d6"] = [1, 1]
    assert fault(option, options[0], "option") == "option.action.dice.d6: 2 items"

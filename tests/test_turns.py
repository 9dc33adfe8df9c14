"""The turn of each mode on its own (:mod:`kniffel.engine.turns`), without a game around it: what
a dice turn and a score-pad turn accept, which action ends the turn, and that a game hands its
actions to the turn of its mode."""

from __future__ import annotations

import pytest

from kniffel import (
    Box,
    Enter,
    Game,
    IllegalMoveError,
    Keep,
    Mode,
    Outcome,
    Roll,
    Score,
    Strike,
    Throw,
    UseChip,
    preset,
)
from kniffel.engine.actions import Correct
from kniffel.engine.turns import DiceTurn, PadTurn, PlayerState


def test_a_dice_turn_grants_its_chip_only_after_the_last_throw_and_a_box_ends_it() -> None:
    rules = preset("extreme")
    st = PlayerState({}, 0, rules.chips)
    turn = DiceTurn(rules)
    roll = Roll((1, 2, 3, 4, 6), 5)
    for keep in (Keep(), Keep((1,)), Keep((1, 2))):
        assert not turn.can_use_chip(st)
        assert not turn.apply(Throw(keep), st)
        assert turn.pending == keep
        assert not turn.apply(Outcome(roll), st)
    assert (turn.rolls_used, turn.roll, turn.pending) == (rules.rolls, roll, None)
    assert UseChip() in turn.legal_actions(st)
    assert not turn.apply(UseChip(), st)  # a chip does not end the turn
    assert (st.chips_left, turn.chip_used) == (rules.chips - 1, True)
    with pytest.raises(IllegalMoveError) as refused:
        turn.use_chip(st)
    assert refused.value.code == "chip.one_per_turn"
    assert turn.apply(Score(Box.CHANCE), st)  # a box ends it
    assert st.entries[Box.CHANCE].points == roll.total
    turn.begin()
    assert (turn.rolls_used, turn.chip_used, turn.roll, turn.pending) == (0, False, None, None)
    assert turn.legal_actions(st) == [Throw()]


def test_a_pad_turn_has_no_dice_takes_a_chip_at_any_time_and_ends_with_its_box() -> None:
    rules = preset("extreme")
    st = PlayerState({}, 0, rules.chips)
    turn = PadTurn(rules)
    assert turn.choices(st) == ()
    assert not turn.apply(UseChip(), st)
    assert turn.chip_used
    assert st.chips_left == rules.chips - 1
    with pytest.raises(IllegalMoveError) as refused:
        turn.apply(Throw(), st)
    assert refused.value.code == "move.dice_only"
    assert turn.apply(Enter(Box.THREES, 9), st)
    assert turn.apply(Strike(Box.ONES), st)
    assert st.entries[Box.ONES].struck
    assert st.entries[Box.THREES].points == 9
    assert (turn.rolls_used, turn.roll, turn.pending) == (0, None, None)


def test_only_a_pad_turn_puts_a_filled_box_right_and_a_refused_correction_changes_nothing() -> None:
    rules = preset("kniffel")
    states = [PlayerState({}, 0, 0), PlayerState({}, 0, 0)]
    names = ["Anna", "Ben"]
    pad, dice = PadTurn(rules), DiceTurn(rules)
    pad.apply(Enter(Box.THREES, 9), states[1])
    with pytest.raises(IllegalMoveError) as refused:
        dice.correct(Correct(1, Box.THREES, 12), states, names)
    assert refused.value.code == "correct.pad_only"
    assert dice.corrections(1, Box.THREES, states, names) == ()
    offered = pad.corrections(1, Box.THREES, states, names)
    assert [c.points for c in offered] == [3, 6, 12, 15, None]
    assert states[1].entries[Box.THREES].points == 9  # trying them changed nothing
    pad.correct(Correct(1, Box.THREES, 12), states, names)
    assert states[1].entries[Box.THREES].points == 12


@pytest.mark.parametrize(("mode", "turn"), [(Mode.DICE, DiceTurn), (Mode.PAD, PadTurn)])
def test_a_game_offers_exactly_what_the_turn_of_its_mode_offers(
        mode: Mode, turn: type[DiceTurn | PadTurn]) -> None:
    game = Game("extreme", ["Anna"], mode=mode)
    alone = turn(preset("extreme"))
    assert game.legal_actions() == alone.legal_actions(PlayerState({}, 0, 3))

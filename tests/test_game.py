"""The game model: the dice-mode turn state machine, the score pad, undo, replay and roll-off."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel import (
    PRESETS,
    Action,
    Box,
    Correct,
    Enter,
    Entry,
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidGameError,
    Keep,
    Mode,
    NotYourTurnError,
    Outcome,
    Roll,
    RuleSet,
    Score,
    Sheet,
    Strike,
    Throw,
    UnknownBoxError,
    UnknownRuleSetError,
    UseChip,
    preset,
    roll_off,
    seeded_rng,
    sub_keeps,
)
from kniffel.engine.game import action_from_json, action_to_json

NAMES = ("Anna", "Ben", "Clara", "Dora")


# --- helpers ---------------------------------------------------------------------------------


def dice(*values: int) -> Roll:
    """Five values: a classic roll; six values: five d6 and the d10 last."""
    if len(values) == 6:
        return Roll(values[:5], values[5])
    return Roll(values)


def take_turn(game: Game, roll: Roll, final: Action) -> None:
    """One throw showing ``roll``, then ``final`` (a Score or Strike)."""
    game.apply(Throw())
    game.apply(Outcome(roll))
    game.apply(final)


def random_step(game: Game, rng: random.Random) -> None:
    if game.is_chance_node():
        game.apply(game.sample_outcome(rng))
    else:
        game.apply(rng.choice(game.legal_actions()))


def play(game: Game, rng: random.Random, steps: int | None = None) -> None:
    """Random legal actions until the game is over (or ``steps`` actions were applied)."""
    done = 0
    while not game.is_over() and (steps is None or done < steps):
        random_step(game, rng)
        done += 1


def random_roll(rng: random.Random, *, d10: bool) -> Roll:
    return Roll([rng.randint(1, 6) for _ in range(5)], rng.randrange(10) if d10 else None)


def check_sheet_arithmetic(game: Game) -> None:
    """Each sheet: entries + bonus + extra == total, the bonus by its threshold, sane entries."""
    rules = game.rules
    for i in range(len(game.players)):
        s = game.sheet(i)
        entries = sum(e.points for e in s.entries.values())
        upper = sum(e.points for b, e in s.entries.items() if b.is_upper)
        assert s.upper_sum == upper
        assert s.lower_sum == entries - upper
        assert s.bonus == (rules.bonus_points if upper >= rules.bonus_threshold else 0)
        assert s.bonus_missing == max(0, rules.bonus_threshold - upper)
        assert s.total == entries + s.bonus + s.extra_bonus
        if rules.extra_kniffel_bonus:
            assert s.extra_bonus % rules.extra_kniffel_bonus == 0
        else:
            assert s.extra_bonus == 0
        assert 0 <= s.chips_left <= rules.chips
        for box, entry in s.entries.items():
            assert box in rules.boxes
            assert entry.points in rules.possible_points(box)
            assert not entry.struck or entry.points == 0
    assert game.scores() == tuple(game.sheet(i).total for i in range(len(game.players)))


def replayed(game: Game) -> Game:
    return Game(game.rules, game.players, mode=game.mode, seed=game.seed,
                start_player=game.start_player, actions=game.actions)


# --- setting up a game -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "players",
    [
        [],
        [f"P{i}" for i in range(9)],
        ["Anna", "Anna"],
        ["Anna", "anna"],
        ["Anna", " Anna "],
        [""],
        ["   "],
        ["Anna", ""],
    ],
    ids=["none", "nine", "duplicate", "duplicate-case", "duplicate-space", "empty", "blank",
         "one-empty"],
)
def test_invalid_player_lists_are_refused(players: list[str]) -> None:
    with pytest.raises(InvalidGameError):
        Game("extreme", players)


@pytest.mark.parametrize("count", [1, 8])
def test_one_to_eight_players_may_play(count: int) -> None:
    game = Game("extreme", [f"P{i}" for i in range(count)])
    assert len(game.players) == count
    assert game.current_player == 0


@pytest.mark.parametrize("start", [-1, 2, True])
def test_start_player_must_be_one_of_the_players(start: int) -> None:
    with pytest.raises(InvalidGameError):
        Game("extreme", ["Anna", "Ben"], start_player=start)


def test_unknown_rule_set_name_is_refused() -> None:
    with pytest.raises(UnknownRuleSetError, match="rule set"):
        Game("monopoly", ["Anna"])


# --- the dice-mode turn state machine --------------------------------------------------------


def test_first_throw_of_a_turn_must_keep_nothing() -> None:
    game = Game("extreme", ["Anna"])
    assert game.legal_actions() == [Throw()]
    for keep in (Keep((5,)), Keep(d10=3), Keep((1, 2, 3, 4, 5))):
        with pytest.raises(IllegalMoveError, match="first throw"):
            game.apply(Throw(keep))
    assert game.actions == ()


def test_nothing_but_a_throw_opens_a_turn() -> None:
    game = Game("extreme", ["Anna"])
    for action in (Score(Box.CHANCE), Strike(Box.CHANCE), UseChip(),
                   Outcome(dice(1, 2, 3, 4, 5, 6)), Enter(Box.CHANCE, 20)):
        with pytest.raises(IllegalMoveError):
            game.apply(action)
    assert game.actions == ()


def test_a_throw_is_a_chance_node_that_only_an_outcome_resolves() -> None:
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    assert game.is_chance_node()
    turn = game.turn
    assert turn is not None
    assert turn.pending == Keep()
    assert turn.rolls_used == 0
    for action in (Throw(), Score(Box.CHANCE), Strike(Box.KNIFFEL), UseChip()):
        with pytest.raises(IllegalMoveError):
            game.apply(action)
    game.apply(Outcome(dice(5, 5, 5, 6, 6, 6)))
    assert not game.is_chance_node()
    turn = game.turn
    assert turn is not None
    assert turn.roll == dice(5, 5, 5, 6, 6, 6)
    assert turn.rolls_used == 1


def test_an_outcome_without_a_throw_is_refused() -> None:
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(1, 2, 3, 4, 5, 6)))
    with pytest.raises(IllegalMoveError, match="no throw"):
        game.apply(Outcome(dice(1, 2, 3, 4, 5, 6)))


def test_chance_outcomes_are_every_roll_after_the_keep_and_sum_to_one() -> None:
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(5, 5, 1, 2, 3, 7)))
    game.apply(Throw(Keep((5, 5), d10=7)))
    outs = game.chance_outcomes()
    # three free d6 (56 multisets), the d10 is kept
    assert len(outs) == 56
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    assert all(o.roll.d10 == 7 and o.roll.d6.count(5) >= 2 for o, _ in outs)
    assert set(game.legal_actions()) == {o for o, _ in outs}


def test_outcome_must_contain_the_kept_dice() -> None:
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(5, 5, 1, 2, 3, 7)))
    game.apply(Throw(Keep((5, 5), d10=7)))
    before = game.to_json()
    for wrong in (dice(5, 1, 1, 2, 3, 7), dice(5, 5, 1, 2, 3, 8), dice(6, 6, 6, 6, 6, 6)):
        with pytest.raises(IllegalMoveError, match="kept"):
            game.apply(Outcome(wrong))
        assert game.to_json() == before
    game.apply(Outcome(dice(5, 5, 5, 5, 6, 7)))
    turn = game.turn
    assert turn is not None
    assert turn.roll == dice(5, 5, 5, 5, 6, 7)


@pytest.mark.parametrize(("name", "roll"), [
    ("extreme", dice(1, 2, 3, 4, 5)),
    ("kniffel", dice(1, 2, 3, 4, 5, 6)),
])
def test_outcome_must_have_the_dice_of_the_rule_set(name: str, roll: Roll) -> None:
    game = Game(name, ["Anna"])
    game.apply(Throw())
    with pytest.raises(IllegalMoveError, match="d10"):
        game.apply(Outcome(roll))
    assert game.is_chance_node()


def test_kept_dice_must_be_part_of_the_roll() -> None:
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(1, 2, 3, 5, 5, 0)))
    before = game.to_json()
    for keep in (Keep((6,)), Keep((5, 5, 5)), Keep((1,), d10=9), Keep(d10=1)):
        with pytest.raises(IllegalMoveError, match="cannot keep"):
            game.apply(Throw(keep))
        assert game.to_json() == before
    game.apply(Throw(Keep((5, 1, 5), d10=0)))
    assert game.is_chance_node()


def test_kept_dice_may_be_picked_up_again() -> None:
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(1, 2, 3, 5, 5, 0)))
    game.apply(Throw(Keep((5, 5))))
    game.apply(Outcome(dice(5, 5, 6, 6, 6, 4)))
    game.apply(Throw(Keep()))  # nothing kept: all dice thrown again
    game.apply(Outcome(dice(1, 1, 1, 1, 1, 1)))
    turn = game.turn
    assert turn is not None
    assert turn.rolls_used == 3


def test_keeping_all_dice_is_refused() -> None:
    extreme = Game("extreme", ["Anna"])
    roll = dice(1, 2, 3, 5, 5, 0)
    extreme.apply(Throw())
    extreme.apply(Outcome(roll))
    with pytest.raises(IllegalMoveError, match="all dice"):
        extreme.apply(Throw(Keep.everything(roll)))
    assert Throw(Keep.everything(roll)) not in extreme.legal_actions()
    # the five d6 without the d10 is not all dice of Kniffel Extreme
    extreme.apply(Throw(Keep(roll.d6)))
    assert extreme.is_chance_node()

    classic = Game("kniffel", ["Anna"])
    five = dice(1, 2, 3, 5, 5)
    classic.apply(Throw())
    classic.apply(Outcome(five))
    with pytest.raises(IllegalMoveError, match="all dice"):
        classic.apply(Throw(Keep(five.d6)))


def test_a_rule_set_without_d10_cannot_keep_one() -> None:
    game = Game("kniffel", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(1, 2, 3, 5, 5)))
    with pytest.raises(IllegalMoveError):
        game.apply(Throw(Keep(d10=5)))


def test_at_most_three_throws_a_turn_without_a_chip() -> None:
    game = Game("kniffel", ["Anna"])
    roll = dice(1, 2, 3, 5, 5)
    for _ in range(3):
        game.apply(Throw())
        game.apply(Outcome(roll))
    with pytest.raises(IllegalMoveError, match="throws"):
        game.apply(Throw())
    legal = game.legal_actions()
    assert not any(isinstance(a, Throw) for a in legal)
    assert UseChip() not in legal  # the classic rules have no chips
    with pytest.raises(IllegalMoveError, match="no chips"):
        game.apply(UseChip())
    assert all(isinstance(a, Score | Strike) for a in legal)


def test_chip_grants_a_fourth_throw_only_after_the_third() -> None:
    game = Game("extreme", ["Anna"])
    roll = dice(1, 2, 3, 5, 5, 0)
    game.apply(Throw())
    with pytest.raises(IllegalMoveError):
        game.apply(UseChip())  # dice still rolling
    game.apply(Outcome(roll))
    for _ in range(2):
        assert UseChip() not in game.legal_actions()
        with pytest.raises(IllegalMoveError, match="chip"):
            game.apply(UseChip())
        game.apply(Throw())
        game.apply(Outcome(roll))
    # three throws used: a 4th only with a chip
    with pytest.raises(IllegalMoveError, match="throws"):
        game.apply(Throw())
    assert UseChip() in game.legal_actions()
    game.apply(UseChip())
    turn = game.turn
    assert turn is not None
    assert turn.chip_used
    assert turn.rolls_allowed == 4
    assert turn.rolls_left == 1
    assert game.sheet(0).chips_left == 2
    with pytest.raises(IllegalMoveError, match="one per turn"):
        game.apply(UseChip())
    game.apply(Throw(Keep((5, 5))))
    game.apply(Outcome(dice(5, 5, 5, 5, 5, 5)))
    assert not any(isinstance(a, Throw | UseChip) for a in game.legal_actions())
    with pytest.raises(IllegalMoveError):
        game.apply(Throw())
    with pytest.raises(IllegalMoveError):
        game.apply(UseChip())
    game.apply(Score(Box.KNIFFEL_EXTREME))
    assert game.sheet(0).entries[Box.KNIFFEL_EXTREME] == Entry(75)


def _use_chip_turn(game: Game, final: Action) -> None:
    roll = dice(1, 2, 3, 5, 5, 0)
    for _ in range(3):
        game.apply(Throw())
        game.apply(Outcome(roll))
    game.apply(UseChip())
    game.apply(Throw())
    game.apply(Outcome(roll))
    game.apply(final)


def test_three_chips_per_player_and_game() -> None:
    game = Game("extreme", ["Anna", "Ben"])
    for box in (Box.ONES, Box.TWOS, Box.THREES):
        _use_chip_turn(game, Score(box))  # Anna
        take_turn(game, dice(1, 2, 3, 5, 5, 0), Score(box))  # Ben
    assert game.sheet(0).chips_left == 0
    assert game.sheet(1).chips_left == 3
    roll = dice(1, 2, 3, 5, 5, 0)
    for _ in range(3):
        game.apply(Throw())
        game.apply(Outcome(roll))
    assert UseChip() not in game.legal_actions()
    with pytest.raises(IllegalMoveError, match="all chips"):
        game.apply(UseChip())
    game.apply(Score(Box.FIVES))
    # Ben still has all of his
    _use_chip_turn(game, Score(Box.FIVES))
    assert game.sheet(1).chips_left == 2


def test_chips_never_score() -> None:
    roll = dice(1, 2, 3, 5, 5, 0)
    with_chip = Game("extreme", ["Anna"])
    _use_chip_turn(with_chip, Score(Box.CHANCE))
    without = Game("extreme", ["Anna"])
    take_turn(without, roll, Score(Box.CHANCE))
    assert with_chip.sheet(0).chips_left == 2
    assert without.sheet(0).chips_left == 3
    assert with_chip.scores() == without.scores() == (roll.total,)


def test_a_box_cannot_be_filled_twice() -> None:
    game = Game("extreme", ["Anna"])
    take_turn(game, dice(5, 5, 5, 6, 6, 6), Score(Box.CHANCE))
    game.apply(Throw())
    game.apply(Outcome(dice(5, 5, 5, 6, 6, 6)))
    for action in (Score(Box.CHANCE), Strike(Box.CHANCE)):
        with pytest.raises(IllegalMoveError, match="already filled"):
            game.apply(action)


def test_score_enters_the_rulebook_points_of_the_roll() -> None:
    expected = {Box.FIVES: 15, Box.SIXES: 18, Box.THREE_OF_A_KIND: 33, Box.TWO_PAIRS: 33,
                Box.TWO_TRIPLES: 45, Box.FULL_HOUSE: 25, Box.THIRTY_THREE_OR_MORE: 40,
                Box.CHANCE: 33, Box.SUPER_CHANCE: 66}
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(5, 5, 5, 6, 6, 6)))
    scoring = {a.box for a in game.legal_actions() if isinstance(a, Score)}
    assert scoring == set(expected)
    assert {c.box: c.points for c in game.choices()} == expected
    for box in Box:
        if box not in expected:
            with pytest.raises(IllegalMoveError):
                game.apply(Score(box))
    game.apply(Score(Box.TWO_TRIPLES))
    assert game.sheet(0).entries == {Box.TWO_TRIPLES: Entry(45)}


def test_a_box_of_another_rule_set_is_refused() -> None:
    game = Game("kniffel", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(5, 5, 5, 6, 6)))
    before = game.to_json()
    with pytest.raises(UnknownBoxError):
        game.apply(Score(Box.TWO_TRIPLES))
    assert game.to_json() == before


def test_dice_and_pad_actions_do_not_mix() -> None:
    dice_game = Game("extreme", ["Anna"])
    dice_game.apply(Throw())
    dice_game.apply(Outcome(dice(5, 5, 5, 6, 6, 6)))
    with pytest.raises(IllegalMoveError, match="score pad"):
        dice_game.apply(Enter(Box.CHANCE, 33))
    pad = Game("extreme", ["Anna"], mode=Mode.PAD)
    for action in (Throw(), Outcome(dice(5, 5, 5, 6, 6, 6)), Score(Box.CHANCE)):
        with pytest.raises(IllegalMoveError, match="dice"):
            pad.apply(action)
    assert pad.actions == ()


# --- striking --------------------------------------------------------------------------------

# 1 1 2 2 3 | 9 (sum 18) fits ones, twos, threes, two_pairs, chance and super_chance, nothing else
NEAR_MISS = dice(1, 1, 2, 2, 3, 9)
NEAR_MISS_BOXES = (Box.ONES, Box.TWOS, Box.THREES, Box.TWO_PAIRS, Box.CHANCE, Box.SUPER_CHANCE)


def test_strike_is_refused_while_the_roll_fits_an_open_box() -> None:
    game = Game("extreme", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(NEAR_MISS))
    assert not any(isinstance(a, Strike) for a in game.legal_actions())
    before = game.to_json()
    for box in (Box.KNIFFEL, Box.CHANCE):
        with pytest.raises(IllegalMoveError):
            game.apply(Strike(box))
    assert game.to_json() == before
    assert {a.box for a in game.legal_actions() if isinstance(a, Score)} == set(NEAR_MISS_BOXES)


def test_a_roll_fitting_no_open_box_forces_a_strike_of_any_open_box() -> None:
    game = Game("extreme", ["Anna"])
    for box in NEAR_MISS_BOXES:
        take_turn(game, NEAR_MISS, Score(box))
    game.apply(Throw())
    game.apply(Outcome(NEAR_MISS))
    open_boxes = [b for b in game.rules.boxes if b not in NEAR_MISS_BOXES]
    finals = {a for a in game.legal_actions() if isinstance(a, Score | Strike)}
    assert finals == {Strike(b) for b in open_boxes}
    before = game.to_json()
    for box in (Box.FIVES, Box.KNIFFEL, Box.HIGHWAY):
        with pytest.raises(IllegalMoveError, match="cannot score"):
            game.apply(Score(box))
        assert game.to_json() == before
    # a re-roll is still allowed instead of striking
    assert Throw(Keep((1, 1))) in game.legal_actions()
    game.apply(Strike(Box.KNIFFEL))
    sheet = game.sheet(0)
    assert sheet.entries[Box.KNIFFEL] == Entry(0, struck=True)
    assert sheet.total == 2 + 4 + 3 + 18 + 18 + 36


def test_classic_forced_strike_after_the_fitting_boxes_are_filled() -> None:
    game = Game("kniffel", ["Anna"])
    roll = dice(1, 1, 2, 2, 3)  # fits ones, twos, threes and chance only
    for box in (Box.ONES, Box.TWOS, Box.THREES, Box.CHANCE):
        take_turn(game, roll, Score(box))
    game.apply(Throw())
    game.apply(Outcome(roll))
    with pytest.raises(IllegalMoveError):
        game.apply(Score(Box.FULL_HOUSE))
    game.apply(Strike(Box.FULL_HOUSE))
    assert game.sheet(0).entries[Box.FULL_HOUSE] == Entry(0, struck=True)


@pytest.mark.parametrize("rules", [preset("extreme", free_strike=True),
                                   preset("kniffel", free_strike=True),
                                   preset("kniffel-championship")])
def test_free_strike_allows_striking_any_open_box_any_time(rules: RuleSet) -> None:
    game = Game(rules, ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(5, 5, 5, 6, 6, 6) if rules.d10 else dice(5, 5, 5, 6, 6)))
    strikes = {a for a in game.legal_actions() if isinstance(a, Strike)}
    assert strikes == {Strike(b) for b in rules.boxes}
    game.apply(Strike(Box.SIXES))
    assert game.sheet(0).entries[Box.SIXES] == Entry(0, struck=True)


def test_yahtzee_scores_any_box_with_zero_where_the_roll_does_not_fit() -> None:
    game = Game("yahtzee", ["Anna"])
    game.apply(Throw())
    game.apply(Outcome(dice(1, 1, 2, 2, 3)))
    assert {a.box for a in game.legal_actions() if isinstance(a, Score)} == set(game.rules.boxes)
    game.apply(Score(Box.LARGE_STRAIGHT))
    assert game.sheet(0).entries[Box.LARGE_STRAIGHT].points == 0
    assert game.scores() == (0,)


# --- further Kniffels ------------------------------------------------------------------------


def test_classic_further_kniffel_earns_50_and_any_box_at_its_maximum() -> None:
    game = Game("kniffel", ["Anna"])
    take_turn(game, dice(3, 3, 3, 3, 3), Score(Box.KNIFFEL))
    game.apply(Throw())
    game.apply(Outcome(dice(6, 6, 6, 6, 6)))
    options = {c.box: (c.points, c.bonus) for c in game.choices()}
    assert options[Box.LARGE_STRAIGHT] == (40, 50)
    assert options[Box.ONES] == (5, 50)  # whatever the faces: ones at its highest
    assert options[Box.FULL_HOUSE] == (25, 50)
    game.apply(Score(Box.LARGE_STRAIGHT))
    sheet = game.sheet(0)
    assert sheet.entries[Box.LARGE_STRAIGHT] == Entry(40)
    assert sheet.extra_bonus == 50
    assert sheet.total == 50 + 40 + 50
    # and another one: the bonus adds up
    take_turn(game, dice(2, 2, 2, 2, 2), Score(Box.SIXES))
    sheet = game.sheet(0)
    assert sheet.entries[Box.SIXES] == Entry(30)
    assert sheet.extra_bonus == 100
    assert sheet.total == 50 + 40 + 30 + 100


def test_classic_further_kniffel_earns_nothing_once_the_kniffel_box_is_struck() -> None:
    game = Game("kniffel", ["Anna"])
    roll = dice(1, 1, 2, 2, 3)
    for box in (Box.ONES, Box.TWOS, Box.THREES, Box.CHANCE):
        take_turn(game, roll, Score(box))
    take_turn(game, roll, Strike(Box.KNIFFEL))
    game.apply(Throw())
    game.apply(Outcome(dice(6, 6, 6, 6, 6)))
    assert all(c.bonus == 0 for c in game.choices())
    with pytest.raises(IllegalMoveError):
        game.apply(Score(Box.LARGE_STRAIGHT))
    game.apply(Score(Box.SIXES))
    assert game.sheet(0).extra_bonus == 0
    assert game.scores() == (2 + 4 + 3 + 9 + 30,)


def test_extreme_has_no_extra_points_for_a_further_kniffel() -> None:
    game = Game("extreme", ["Anna"])
    take_turn(game, dice(4, 4, 4, 4, 4, 1), Score(Box.KNIFFEL))
    game.apply(Throw())
    game.apply(Outcome(dice(6, 6, 6, 6, 6, 2)))
    assert all(c.bonus == 0 for c in game.choices())
    with pytest.raises(IllegalMoveError):
        game.apply(Score(Box.HIGHWAY))
    game.apply(Score(Box.SIXES))
    assert game.sheet(0).extra_bonus == 0
    assert game.scores() == (50 + 30,)


# --- turn order, the end, winners ------------------------------------------------------------


def test_turn_order_cycles_from_the_start_player() -> None:
    game = Game("kniffel", ["Anna", "Ben", "Clara"], mode=Mode.PAD, start_player=2)
    seen = []
    for box in game.rules.boxes[:3]:
        for _ in range(3):
            player = game.current_player
            assert player is not None
            seen.append(player)
            game.apply(Strike(box), player=player)
    assert seen == [2, 0, 1] * 3
    assert game.round == 4


def test_dice_mode_turn_passes_after_score() -> None:
    game = Game("extreme", ["Anna", "Ben"], start_player=1)
    turn = game.turn
    assert turn is not None
    assert turn.player == 1
    take_turn(game, NEAR_MISS, Score(Box.CHANCE))
    turn = game.turn
    assert turn is not None
    assert turn.player == 0
    assert turn.roll is None
    assert turn.rolls_used == 0
    assert not turn.chip_used


@pytest.mark.parametrize("mode", list(Mode))
def test_a_move_out_of_turn_is_refused(mode: Mode) -> None:
    game = Game("extreme", ["Anna", "Ben"], mode=mode)
    first: Action = Throw() if mode is Mode.DICE else Strike(Box.ONES)
    before = game.to_json()
    with pytest.raises(NotYourTurnError, match="Anna"):
        game.apply(first, player=1)
    assert game.to_json() == before
    game.apply(first, player=0)
    assert len(game.actions) == 1


def test_game_ends_when_every_box_of_every_player_is_filled() -> None:
    game = Game("kniffel", ["Anna", "Ben"], mode=Mode.PAD)
    boxes = game.rules.boxes
    for box in boxes:
        assert not game.is_over()
        assert game.winners() == ()
        game.apply(Strike(box))
        game.apply(Strike(box))
    assert game.is_over()
    assert game.current_player is None
    assert game.turn is None
    assert game.legal_actions() == []
    with pytest.raises(GameOverError):
        game.apply(Strike(Box.ONES))
    assert all(game.sheet(i).is_full for i in range(2))
    assert len(game.actions) == 2 * len(boxes)


def test_equal_totals_share_the_win() -> None:
    game = Game("kniffel", ["Anna", "Ben", "Clara"], mode=Mode.PAD)
    for box in game.rules.boxes:
        points = 25 if box is Box.FULL_HOUSE else 0
        for player in range(3):
            if points and player < 2:
                game.apply(Enter(box, points))
            else:
                game.apply(Strike(box))
    assert game.scores() == (25, 25, 0)
    assert game.winners() == (0, 1)
    assert game.ranking() == ((1, 0, 25), (1, 1, 25), (3, 2, 0))


# --- the upper-section bonus -----------------------------------------------------------------


@pytest.mark.parametrize(("name", "upper", "bonus"), [
    ("extreme", {Box.ONES: 5, Box.TWOS: 8, Box.THREES: 12, Box.FOURS: 16, Box.FIVES: 20,
                 Box.SIXES: 12}, 45),  # 73
    ("extreme", {Box.ONES: 4, Box.TWOS: 8, Box.THREES: 12, Box.FOURS: 16, Box.FIVES: 20,
                 Box.SIXES: 12}, 0),  # 72
    ("kniffel", {Box.ONES: 3, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12, Box.FIVES: 15,
                 Box.SIXES: 18}, 35),  # 63
    ("kniffel", {Box.ONES: 2, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12, Box.FIVES: 15,
                 Box.SIXES: 18}, 0),  # 62
    ("yahtzee", {Box.ONES: 3, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12, Box.FIVES: 15,
                 Box.SIXES: 18}, 35),
])
def test_upper_bonus_at_the_threshold(name: str, upper: dict[Box, int], bonus: int) -> None:
    game = Game(name, ["Anna"], mode=Mode.PAD)
    for box, points in upper.items():
        game.apply(Enter(box, points))
    sheet = game.sheet(0)
    upper_sum = sum(upper.values())
    assert sheet.upper_sum == upper_sum
    assert sheet.bonus == bonus
    assert sheet.bonus_missing == (0 if bonus else 1)
    assert sheet.total == upper_sum + bonus


def test_bonus_missing_counts_down_to_the_threshold() -> None:
    rules = preset("extreme")
    sheet = Sheet(rules, {Box.SIXES: Entry(36), Box.FIVES: Entry(30)}, 0, 3)
    assert sheet.upper_sum == 66
    assert sheet.bonus_missing == 73 - 66
    assert sheet.bonus == 0
    assert sheet.bonus_reachable


# --- the score pad ---------------------------------------------------------------------------

# Anna: upper 5+8+12+16+20+12 = 73 -> bonus 45.
# Lower 25+20+0+35+45+25+0+30+40+0+50+0+40+40+24+50 = 424. Total 73+45+424 = 542.
ANNA: list[tuple[Box, int]] = [
    (Box.ONES, 5), (Box.TWOS, 8), (Box.THREES, 12), (Box.FOURS, 16), (Box.FIVES, 20),
    (Box.SIXES, 12), (Box.THREE_OF_A_KIND, 25), (Box.TWO_PAIRS, 20), (Box.FOUR_OF_A_KIND, 0),
    (Box.THREE_PAIRS, 35), (Box.TWO_TRIPLES, 45), (Box.FULL_HOUSE, 25),
    (Box.LARGE_FULL_HOUSE, 0), (Box.SMALL_STRAIGHT, 30), (Box.LARGE_STRAIGHT, 40),
    (Box.HIGHWAY, 0), (Box.KNIFFEL, 50), (Box.KNIFFEL_EXTREME, 0), (Box.TEN_OR_LESS, 40),
    (Box.THIRTY_THREE_OR_MORE, 40), (Box.CHANCE, 24), (Box.SUPER_CHANCE, 50),
]
# Ben: upper 4+8+12+16+20+12 = 72 -> no bonus, 1 missing.
# Lower 30+0+28+35+0+25+45+30+0+50+0+75+0+40+30+60 = 448. Total 72+448 = 520.
BEN: list[tuple[Box, int]] = [
    (Box.ONES, 4), (Box.TWOS, 8), (Box.THREES, 12), (Box.FOURS, 16), (Box.FIVES, 20),
    (Box.SIXES, 12), (Box.THREE_OF_A_KIND, 30), (Box.TWO_PAIRS, 0), (Box.FOUR_OF_A_KIND, 28),
    (Box.THREE_PAIRS, 35), (Box.TWO_TRIPLES, 0), (Box.FULL_HOUSE, 25),
    (Box.LARGE_FULL_HOUSE, 45), (Box.SMALL_STRAIGHT, 30), (Box.LARGE_STRAIGHT, 0),
    (Box.HIGHWAY, 50), (Box.KNIFFEL, 0), (Box.KNIFFEL_EXTREME, 75), (Box.TEN_OR_LESS, 0),
    (Box.THIRTY_THREE_OR_MORE, 40), (Box.CHANCE, 30), (Box.SUPER_CHANCE, 60),
]


def _pad_action(box: Box, points: int) -> Action:
    return Enter(box, points) if points else Strike(box)


def test_complete_two_player_extreme_pad_game() -> None:
    game = Game("extreme", ["Anna", "Ben"], mode=Mode.PAD)
    for (a_box, a_points), (b_box, b_points) in zip(ANNA, BEN, strict=True):
        game.apply(_pad_action(a_box, a_points), player=0)
        game.apply(_pad_action(b_box, b_points), player=1)
    assert game.is_over()
    anna, ben = game.sheet(0), game.sheet(1)
    assert (anna.upper_sum, anna.bonus, anna.bonus_missing, anna.lower_sum, anna.total) == (
        73, 45, 0, 424, 542)
    assert (ben.upper_sum, ben.bonus, ben.bonus_missing, ben.lower_sum, ben.total) == (
        72, 0, 1, 448, 520)
    assert anna.entries[Box.FOUR_OF_A_KIND] == Entry(0, struck=True)
    assert anna.chips_left == ben.chips_left == 3
    assert game.scores() == (542, 520)
    assert game.winners() == (0,)
    assert game.ranking() == ((1, 0, 542), (2, 1, 520))


@pytest.mark.parametrize(("box", "points"), [
    (Box.FIVES, 7),
    (Box.FIVES, 35),  # six dice at most: 30
    (Box.FULL_HOUSE, 20),
    (Box.THREE_OF_A_KIND, 4),
    (Box.THREE_OF_A_KIND, 3),
    (Box.THREE_OF_A_KIND, 40),  # five sixes and a d10 nine: 39 at most
    (Box.SUPER_CHANCE, 51),  # twice a sum: always even
    (Box.CHANCE, -5),
    (Box.KNIFFEL_EXTREME, 50),
])
def test_pad_refuses_points_the_box_cannot_hold(box: Box, points: int) -> None:
    game = Game("extreme", ["Anna"], mode=Mode.PAD)
    with pytest.raises(IllegalMoveError, match="cannot hold"):
        game.apply(Enter(box, points))
    assert game.actions == ()
    assert Enter(box, points) not in game.legal_actions()


@pytest.mark.parametrize(("box", "points"), [
    (Box.FIVES, 30), (Box.FIVES, 5), (Box.FULL_HOUSE, 25), (Box.THREE_OF_A_KIND, 5),
    (Box.THREE_OF_A_KIND, 39), (Box.SUPER_CHANCE, 78), (Box.TWO_PAIRS, 7),
])
def test_pad_accepts_points_a_roll_can_score(box: Box, points: int) -> None:
    game = Game("extreme", ["Anna"], mode=Mode.PAD)
    assert Enter(box, points) in game.legal_actions()
    game.apply(Enter(box, points))
    assert game.sheet(0).entries[box] == Entry(points)


def test_pad_classic_limits_follow_five_dice() -> None:
    game = Game("kniffel", ["Anna"], mode=Mode.PAD)
    with pytest.raises(IllegalMoveError, match="cannot hold"):
        game.apply(Enter(Box.FIVES, 30))  # five dice: 25 at most
    with pytest.raises(IllegalMoveError, match="cannot hold"):
        game.apply(Enter(Box.CHANCE, 31))
    game.apply(Enter(Box.FIVES, 25))


def test_pad_zero_is_entered_as_a_strike() -> None:
    game = Game("extreme", ["Anna"], mode=Mode.PAD)
    with pytest.raises(IllegalMoveError, match="strike"):
        game.apply(Enter(Box.FIVES, 0))
    game.apply(Strike(Box.FIVES))
    assert game.sheet(0).entries[Box.FIVES] == Entry(0, struck=True)


def test_pad_strike_any_open_box_but_not_a_filled_one() -> None:
    game = Game("extreme", ["Anna", "Ben"], mode=Mode.PAD)
    game.apply(Enter(Box.CHANCE, 20))
    game.apply(Strike(Box.KNIFFEL))
    with pytest.raises(IllegalMoveError, match="already filled"):
        game.apply(Strike(Box.CHANCE))
    with pytest.raises(IllegalMoveError, match="already filled"):
        game.apply(Enter(Box.CHANCE, 30))
    assert Strike(Box.CHANCE) not in game.legal_actions()


def test_pad_chip_at_most_one_per_turn_and_three_per_game() -> None:
    game = Game("extreme", ["Anna"], mode=Mode.PAD)
    for box in (Box.ONES, Box.TWOS, Box.THREES):
        game.apply(UseChip())
        with pytest.raises(IllegalMoveError, match=r"one per turn|all chips"):
            game.apply(UseChip())
        assert UseChip() not in game.legal_actions()
        game.apply(Strike(box))
    assert game.sheet(0).chips_left == 0
    with pytest.raises(IllegalMoveError, match="all chips"):
        game.apply(UseChip())
    assert game.scores() == (0,)


@pytest.mark.parametrize(("name", "bonus"), [
    ("kniffel", 50), ("kniffel-championship", 50), ("yahtzee", 100),
])
def test_pad_extra_kniffel_while_the_kniffel_box_holds_50(name: str, bonus: int) -> None:
    game = Game(name, ["Anna"], mode=Mode.PAD)
    with pytest.raises(IllegalMoveError, match="kniffel box"):
        game.apply(Enter(Box.SIXES, 30, extra_kniffel=True))  # kniffel box still open
    game.apply(Enter(Box.KNIFFEL, 50))
    assert Enter(Box.SIXES, 30, extra_kniffel=True) in game.legal_actions()
    game.apply(Enter(Box.SIXES, 30, extra_kniffel=True))
    sheet = game.sheet(0)
    assert sheet.extra_bonus == bonus
    assert sheet.total == 50 + 30 + bonus


@pytest.mark.parametrize("name", ["kniffel", "kniffel-championship", "yahtzee"])
def test_pad_no_extra_kniffel_once_the_kniffel_box_is_struck(name: str) -> None:
    game = Game(name, ["Anna"], mode=Mode.PAD)
    game.apply(Strike(Box.KNIFFEL))
    with pytest.raises(IllegalMoveError):
        game.apply(Enter(Box.SIXES, 30, extra_kniffel=True))
    assert not any(isinstance(a, Enter) and a.extra_kniffel for a in game.legal_actions())


def test_pad_extreme_has_no_extra_kniffel() -> None:
    game = Game("extreme", ["Anna"], mode=Mode.PAD)
    game.apply(Enter(Box.KNIFFEL, 50))
    with pytest.raises(IllegalMoveError):
        game.apply(Enter(Box.SIXES, 30, extra_kniffel=True))
    assert not any(isinstance(a, Enter) and a.extra_kniffel for a in game.legal_actions())


def test_pad_choices_enter_the_rulebook_points() -> None:
    game = Game("extreme", ["Anna"], mode=Mode.PAD)
    got = set(game.pad_choices(dice(5, 5, 5, 6, 6, 6)))
    assert got == {
        Enter(Box.FIVES, 15), Enter(Box.SIXES, 18), Enter(Box.THREE_OF_A_KIND, 33),
        Enter(Box.TWO_PAIRS, 33), Enter(Box.TWO_TRIPLES, 45), Enter(Box.FULL_HOUSE, 25),
        Enter(Box.THIRTY_THREE_OR_MORE, 40), Enter(Box.CHANCE, 33), Enter(Box.SUPER_CHANCE, 66),
    }
    legal = set(game.legal_actions())
    assert got <= legal
    game.apply(Enter(Box.TWO_TRIPLES, 45))
    assert Enter(Box.TWO_TRIPLES, 45) not in game.pad_choices(dice(5, 5, 5, 6, 6, 6))


def test_pad_choices_strike_when_the_roll_fits_no_open_box() -> None:
    game = Game("extreme", ["Anna"], mode=Mode.PAD)
    for box, points in ((Box.ONES, 2), (Box.TWOS, 4), (Box.THREES, 3), (Box.TWO_PAIRS, 18),
                        (Box.CHANCE, 18), (Box.SUPER_CHANCE, 36)):
        assert Enter(box, points) in game.pad_choices(NEAR_MISS)
        game.apply(Enter(box, points))
    got = game.pad_choices(NEAR_MISS)
    assert set(got) == {Strike(b) for b in game.sheet(0).open_boxes}


def test_pad_choices_free_strike_adds_strikes() -> None:
    game = Game(preset("extreme", free_strike=True), ["Anna"], mode=Mode.PAD)
    got = game.pad_choices(dice(5, 5, 5, 6, 6, 6))
    assert {a for a in got if isinstance(a, Strike)} == {Strike(b) for b in Box}


def test_pad_choices_classic_further_kniffel_claims_the_extra_points() -> None:
    game = Game("kniffel", ["Anna"], mode=Mode.PAD)
    game.apply(Enter(Box.KNIFFEL, 50))
    got = game.pad_choices(dice(6, 6, 6, 6, 6))
    assert Enter(Box.LARGE_STRAIGHT, 40, extra_kniffel=True) in got
    assert Enter(Box.ONES, 5, extra_kniffel=True) in got
    assert all(isinstance(a, Enter) and a.extra_kniffel for a in got)
    game.apply(Enter(Box.LARGE_STRAIGHT, 40, extra_kniffel=True))
    assert game.scores() == (50 + 40 + 50,)


def test_pad_choices_are_for_pad_games_only() -> None:
    game = Game("extreme", ["Anna"])
    with pytest.raises(IllegalMoveError):
        game.pad_choices(dice(5, 5, 5, 6, 6, 6))


# --- legal_actions is exactly what apply accepts ---------------------------------------------


def candidate_actions(game: Game, rng: random.Random) -> list[Action]:
    """Actions of every kind, most of them illegal now."""
    rules = game.rules
    out: list[Action] = [UseChip(), Throw()]
    for box in rules.boxes:
        top = rules.max_points(box)
        out += [Score(box), Strike(box), Enter(box, top)]
        out += [Enter(box, p, extra_kniffel=rng.random() < 0.5)
                for p in rng.sample(range(-1, top + 3), 4)]
    rolls = [random_roll(rng, d10=rules.d10) for _ in range(3)]
    rolls.append(random_roll(rng, d10=not rules.d10))
    turn = game.turn
    if turn is not None and turn.roll is not None:
        rolls.append(turn.roll)
    for roll in rolls:
        out.append(Outcome(roll))
        keeps = sub_keeps(roll)
        out += [Throw(k) for k in rng.sample(keeps, min(8, len(keeps)))]
        out.append(Throw(Keep.everything(roll)))
    return out


def reached(game: Game, target: str) -> bool:
    """Whether the game is in a state of the kind ``target`` (rarer states are worth a look)."""
    turn = game.turn
    if target == "any" or turn is None:
        return True
    if target == "chip_used":
        return turn.chip_used
    # "decisive": dice mode after the last regular throw; pad mode once the kniffel box holds 50
    if game.mode is Mode.PAD:
        return game.sheet(turn.player).entries.get(Box.KNIFFEL) == Entry(50)
    return turn.pending is None and turn.rolls_used >= game.rules.rolls


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(PRESETS),
    mode=st.sampled_from(list(Mode)),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    players=st.integers(1, 3),
    target=st.sampled_from(["any", "chip_used", "decisive"]),
)
@pytest.mark.solve
def test_legal_actions_are_exactly_the_accepted_actions(
    name: str, mode: Mode, seed: int, steps: int, players: int, target: str
) -> None:
    game = Game(name, NAMES[:players], mode=mode, seed=seed)
    rng = random.Random(seed)
    play(game, rng, steps)
    while not reached(game, target):
        random_step(game, rng)
    before = game.to_json()
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal)
    listed = set(legal)
    for action in rng.sample(legal, min(25, len(legal))):
        game.apply(action)  # every listed action is accepted ...
        assert game.undo() == action
        assert game.to_json() == before
    for action in candidate_actions(game, rng):
        if action in listed:
            continue
        with pytest.raises(IllegalMoveError):  # ... and every other one refused, changing nothing
            game.apply(action)
        assert game.to_json() == before


# --- complete games, replay, undo ------------------------------------------------------------


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("name", PRESETS)
def test_complete_random_games_finish_with_consistent_totals(name: str, mode: Mode) -> None:
    for seed in range(2):
        game = Game(name, ["Anna", "Ben"], mode=mode, seed=seed, start_player=seed)
        play(game, random.Random(seed))
        assert game.is_over()
        check_sheet_arithmetic(game)
        for i in range(2):
            assert set(game.sheet(i).entries) == set(game.rules.boxes)
        best = max(game.scores())
        assert game.winners() == tuple(i for i, t in enumerate(game.scores()) if t == best)
        assert replayed(game).to_json() == game.to_json()


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(PRESETS), mode=st.sampled_from(list(Mode)), seed=st.integers(0, 10**9))
def test_sheet_arithmetic_holds_throughout_random_games(name: str, mode: Mode, seed: int) -> None:
    game = Game(name, ["Anna"], mode=mode, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        random_step(game, rng)
        check_sheet_arithmetic(game)


def test_replay_of_the_actions_reproduces_scores_and_state() -> None:
    game = Game("extreme", ["Anna", "Ben", "Clara"], seed=42, start_player=1)
    play(game, random.Random(3), 200)
    copy = replayed(game)
    assert copy.scores() == game.scores()
    assert copy.to_json() == game.to_json()
    assert copy.legal_actions() == game.legal_actions()
    assert game.copy().to_json() == game.to_json()


def play_seeded(game: Game, policy: random.Random) -> None:
    """Decisions from ``policy``, every throw's dice from the game's seed and the step."""
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
        else:
            game.apply(policy.choice(game.legal_actions()))


def test_the_seed_and_the_actions_reproduce_every_roll() -> None:
    first = Game("extreme", ["Anna"], seed=123)
    second = Game("extreme", ["Anna"], seed=123)
    play_seeded(first, random.Random(9))
    play_seeded(second, random.Random(9))
    assert first.actions == second.actions
    other = Game("extreme", ["Anna"], seed=124)
    play_seeded(other, random.Random(9))
    assert other.actions != first.actions
    # after undoing a throw's outcome, its step's generator throws the same dice again
    game = first.copy()
    checked = 0
    while game.actions and checked < 40:
        last = game.undo()
        if isinstance(last, Outcome):
            step = len(game.actions)
            assert game.sample_outcome(seeded_rng(game.seed, step)) == last
            checked += 1
    assert checked == 40


def test_roll_throws_with_the_given_generator_and_keeps_the_kept_dice() -> None:
    game = Game("extreme", ["Anna"])
    first = game.roll(random.Random(1))
    assert list(game.actions) == [Throw(), Outcome(first)]
    keep = Keep(first.d6[:2], first.d10)
    second = game.roll(random.Random(2), keep)
    assert keep.is_part_of(second)
    assert list(game.actions[2:]) == [Throw(keep), Outcome(second)]
    turn = game.turn
    assert turn is not None
    assert turn.roll == second
    assert turn.rolls_used == 2
    with pytest.raises(IllegalMoveError):
        game.sample_outcome(random.Random(0))  # no throw waiting


def test_undo_back_to_the_start_restores_every_previous_state() -> None:
    game = Game("extreme", ["Anna", "Ben"], seed=5)
    rng = random.Random(8)
    states = [game.to_json()]
    applied: list[Action] = []
    for _ in range(120):
        if game.is_chance_node():
            action: Action = game.sample_outcome(rng)
        else:
            action = rng.choice(game.legal_actions())
        game.apply(action)
        applied.append(action)
        states.append(game.to_json())
    assert any(isinstance(a, Score | Strike) for a in applied)
    while applied:
        assert game.undo() == applied.pop()
        states.pop()
        assert game.to_json() == states[-1]
    assert game.actions == ()
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()


def test_undo_reopens_a_filled_box_and_the_turn() -> None:
    game = Game("extreme", ["Anna", "Ben"], mode=Mode.PAD)
    game.apply(Enter(Box.CHANCE, 20))
    assert game.current_player == 1
    assert game.undo() == Enter(Box.CHANCE, 20)
    assert game.current_player == 0
    assert game.sheet(0).entries == {}
    game.apply(UseChip())
    game.undo()
    assert game.sheet(0).chips_left == 3


def test_undo_of_a_finished_game_reopens_it() -> None:
    game = Game("kniffel", ["Anna"], mode=Mode.PAD)
    for box in game.rules.boxes:
        game.apply(Strike(box))
    assert game.is_over()
    game.undo()
    assert not game.is_over()
    assert game.legal_actions()


def test_replay_of_an_illegal_action_list_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="#2"):
        Game("extreme", ["Anna"], actions=[Throw(), Score(Box.CHANCE)])


# --- roll-off --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), [("kniffel", 6), ("extreme", 8), ("kniffel", 2)])
def test_roll_off_highest_sum_starts_and_ties_roll_again(name: str, players: int) -> None:
    rules = preset(name)
    ties = 0
    for seed in range(150):
        result = roll_off(rules, players, random.Random(seed))
        contenders = set(range(players))
        for i, throws in enumerate(result.rounds):
            assert set(throws) == contenders
            for roll in throws.values():
                rules.check_roll(roll)
            best = max(r.total for r in throws.values())
            contenders = {p for p, r in throws.items() if r.total == best}
            if i < len(result.rounds) - 1:
                assert len(contenders) >= 2
                ties += 1
        assert contenders == {result.winner}
    assert ties > 0  # the seeds exercise the tie rule


def test_roll_off_of_one_player_is_one_round() -> None:
    result = roll_off(preset("extreme"), 1, random.Random(0))
    assert result.winner == 0
    assert len(result.rounds) == 1


@pytest.mark.parametrize("players", [0, 9])
def test_roll_off_needs_one_to_eight_players(players: int) -> None:
    with pytest.raises(InvalidGameError):
        roll_off(preset("extreme"), players, random.Random(0))


# --- undo to the last human decision ---------------------------------------------------------


def _last_human_by_undoing(game: Game) -> int | None:
    """The definition: undo until the undone action was a human's decision (not dice)."""
    from kniffel.engine.game import PlayerKind

    trial = game.copy()
    while trial.actions:
        undone = trial.undo()
        actor = trial.current_player
        if (not isinstance(undone, Outcome) and actor is not None
                and game.players[actor].kind is PlayerKind.HUMAN):
            return len(trial.actions)
    return None


def test_last_human_decision_skips_dice_and_computer_moves() -> None:
    from kniffel.engine.game import Player, PlayerKind

    rules = preset("kniffel")
    bot = Player("Bot", PlayerKind.COMPUTER, "greedy")
    game = Game(rules, [Player("Anna"), bot], seed=1)
    assert game.last_human_decision() is None
    game.apply(Throw())
    game.apply(game.sample_outcome(seeded_rng(1, 1)))
    assert game.last_human_decision() == 0  # the throw, not its dice
    game.apply(Score(Box.CHANCE))
    game.apply(Throw())
    game.apply(game.sample_outcome(seeded_rng(1, 4)))
    game.apply(next(a for a in game.legal_actions()
                    if isinstance(a, Score)))  # the computer's moves do not count
    assert game.last_human_decision() == 2
    solo = Game(rules, [bot], seed=1)
    solo.apply(Throw())
    assert solo.last_human_decision() is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), kinds=st.lists(st.booleans(), min_size=1, max_size=4),
       steps=st.integers(0, 80))
def test_last_human_decision_is_where_undoing_stops(seed: int, kinds: list[bool],
                                                    steps: int) -> None:
    from kniffel.engine.game import Player, PlayerKind

    players = [Player(f"P{i}", PlayerKind.COMPUTER if c else PlayerKind.HUMAN,
                      "random" if c else None) for i, c in enumerate(kinds)]
    game = Game(preset("extreme"), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(seed, len(game.actions))))
        else:
            game.apply(rng.choice(game.legal_actions()))
    assert game.last_human_decision() == _last_human_by_undoing(game)


# --- corrections (score pad) ----------------------------------------------------------------


def pad_game(rules: str = "extreme", players: tuple[str, ...] = ("Anna", "Ben")) -> Game:
    return Game(preset(rules), list(players), mode=Mode.PAD)


def test_correct_changes_points_and_the_totals_follow() -> None:
    game = pad_game()
    game.apply(Enter(Box.FIVES, 20))
    game.apply(Enter(Box.CHANCE, 17))
    game.apply(Correct(0, Box.FIVES, 25))
    assert game.sheet(0).entries[Box.FIVES] == Entry(25)
    assert game.scores() == (25, 17)
    assert game.current_player == 0  # a correction is nobody's turn
    assert game.round == 2


def test_correct_strikes_a_box_and_gives_a_struck_box_points() -> None:
    game = pad_game()
    game.apply(Enter(Box.SIXES, 30))
    game.apply(Strike(Box.HIGHWAY))
    game.apply(Correct(0, Box.SIXES, None))
    game.apply(Correct(1, Box.HIGHWAY, 50))
    assert game.sheet(0).entries[Box.SIXES] == Entry(0, struck=True)
    assert game.sheet(1).entries[Box.HIGHWAY] == Entry(50)
    assert game.scores() == (0, 50)


@pytest.mark.parametrize(("box", "points"), [
    (Box.FIVES, 17), (Box.FIVES, 0), (Box.FIVES, 35), (Box.FULL_HOUSE, 24),
    (Box.HIGHWAY, 49), (Box.FIVES, True),
])
def test_correct_refuses_points_the_box_cannot_hold_and_changes_nothing(
    box: Box, points: int
) -> None:
    game = pad_game()
    game.apply(Enter(box, game.rules.max_points(box)))
    before = game.to_json()
    with pytest.raises(IllegalMoveError):
        game.apply(Correct(0, box, points))
    assert game.to_json() == before


def test_correct_refuses_an_open_box_the_same_value_and_a_missing_player() -> None:
    game = pad_game()
    game.apply(Enter(Box.FIVES, 20))
    with pytest.raises(IllegalMoveError, match="still open"):
        game.apply(Correct(1, Box.FIVES, 20))
    with pytest.raises(IllegalMoveError, match="already holds 20"):
        game.apply(Correct(0, Box.FIVES, 20))
    with pytest.raises(InvalidGameError, match="no player #2"):
        game.apply(Correct(2, Box.FIVES, 20))
    with pytest.raises(UnknownBoxError):
        pad_game("kniffel").apply(Correct(0, Box.HIGHWAY, 50))
    assert len(game.actions) == 1


def test_correct_recomputes_the_bonus_both_ways() -> None:
    game = pad_game(players=("Anna",))
    for box, pts in [(Box.ONES, 4), (Box.TWOS, 8), (Box.THREES, 12), (Box.FOURS, 16),
                     (Box.FIVES, 15)]:
        game.apply(Enter(box, pts))
    game.apply(Enter(Box.SIXES, 18))  # 73: the bonus
    assert game.sheet(0).bonus == 45
    game.apply(Correct(0, Box.SIXES, 12))  # 67: no bonus
    assert game.sheet(0).bonus == 0
    assert game.sheet(0).bonus_missing == 6
    assert game.scores() == (67,)
    game.apply(Correct(0, Box.FIVES, 25))  # 77: the bonus again
    assert game.scores() == (77 + 45,)


def test_correct_out_of_turn_and_after_the_game_is_over() -> None:
    game = pad_game("kniffel", players=("Anna",))
    for box in game.rules.boxes:
        game.apply(Strike(box))
    assert game.is_over()
    game.apply(Correct(0, Box.CHANCE, 23), player=None)
    assert game.scores() == (23,)
    assert game.is_over()
    other = pad_game()
    other.apply(Enter(Box.ONES, 3))
    other.apply(Correct(0, Box.ONES, 2), player=0)  # Ben's turn: Anna's box is put right
    assert other.current_player == 1


def test_correct_is_undone_replayed_and_saved_like_any_action() -> None:
    game = pad_game()
    game.apply(Enter(Box.FIVES, 20))
    game.apply(Correct(0, Box.FIVES, None))
    assert repr(game.actions[-1]) == "Correct(0, Box.FIVES, None)"
    data = game.to_json()
    assert data["actions"][-1] == {"type": "correct", "player": 0, "box": "fives",
                                   "points": None}
    again = Game.from_json(data)
    assert again.actions == game.actions
    assert again.scores() == (0, 0)
    assert action_from_json(action_to_json(Correct(1, Box.KNIFFEL, 50))) == Correct(
        1, Box.KNIFFEL, 50)
    assert game.undo() == Correct(0, Box.FIVES, None)
    assert game.scores() == (20, 0)
    assert game.last_human_decision() == 0


def test_correct_is_refused_in_a_game_played_with_dice() -> None:
    game = Game(preset("extreme"), ["Anna"], seed=1)
    take_turn(game, dice(5, 5, 5, 6, 6, 6), Score(Box.FIVES))
    with pytest.raises(IllegalMoveError, match="played with dice"):
        game.apply(Correct(0, Box.FIVES, 20))
    assert game.corrections(0, Box.FIVES) == ()


def test_corrections_offer_exactly_what_apply_accepts() -> None:
    game = pad_game("kniffel", players=("Anna",))
    game.apply(Enter(Box.FIVES, 15))
    offered = game.corrections(0, Box.FIVES)
    assert offered == (Correct(0, Box.FIVES, 5), Correct(0, Box.FIVES, 10),
                       Correct(0, Box.FIVES, 20), Correct(0, Box.FIVES, 25),
                       Correct(0, Box.FIVES, None))
    assert game.corrections(0, Box.SIXES) == ()  # still open
    for c in offered:
        trial = game.copy()
        trial.apply(c)


def test_correct_keeps_the_kniffel_that_extra_points_stand_on() -> None:
    game = pad_game("kniffel", players=("Anna",))
    game.apply(Enter(Box.KNIFFEL, 50))
    game.apply(Enter(Box.CHANCE, 25, extra_kniffel=True))
    assert Correct(0, Box.KNIFFEL, None) not in game.corrections(0, Box.KNIFFEL)
    with pytest.raises(IllegalMoveError, match="extra Kniffel"):
        game.apply(Correct(0, Box.KNIFFEL, None))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 40))
def test_any_offered_correction_keeps_a_game_that_replays(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = pad_game(players=("Anna", "Ben"))
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, UseChip)]))
        player = rng.randrange(2)
        filled = list(game.sheet(player).entries)
        if filled:
            offered = game.corrections(player, rng.choice(filled))
            if offered:
                game.apply(rng.choice(offered))
    again = Game.from_json(game.to_json())
    assert again.scores() == game.scores()
    assert again.current_player == game.current_player
    for i in range(2):
        sheet = game.sheet(i)
        assert sheet.total == (sheet.upper_sum + sheet.bonus + sheet.lower_sum
                               + sheet.extra_bonus)


# --- players from JSON: a save's and a page request's, read by one parser ---------------------


def test_a_saves_players_and_a_requests_players_are_read_alike() -> None:
    from kniffel.engine.game import Player, PlayerKind, players_from_json

    data = [{"name": " Anna "}, {"name": "Bot", "kind": "computer", "strategy": "greedy"}]
    expected = [Player("Anna"), Player("Bot", PlayerKind.COMPUTER, "greedy")]
    assert players_from_json(data) == expected
    assert players_from_json(data, request=True) == expected
    game = Game(preset("kniffel"), expected, seed=1)
    assert list(Game.from_json(game.to_json()).players) == expected


@pytest.mark.parametrize(("data", "saved", "requested"), [
    ("Anna", "save.bad_value", "web.bad_request"),
    (["Anna"], "save.bad_value", "web.bad_request"),
    ([{"name": "X", "kind": "robot"}], "save.bad_value", "player.kind_unknown"),
    ([{"name": 5}], "save.bad_value", "web.bad_request"),
    ([{}], "save.missing_field", "web.bad_request"),
    ([{"name": "Bot", "kind": "computer", "strategy": 3}], "save.bad_value", None),
])
def test_a_bad_player_list_is_a_damaged_save_or_a_bad_request_by_where_it_comes_from(
        data: object, saved: str, requested: str | None) -> None:
    from kniffel.engine.errors import CorruptSaveError
    from kniffel.engine.game import players_from_json

    with pytest.raises(CorruptSaveError) as damaged:
        players_from_json(data)
    assert damaged.value.code == saved
    save = Game(preset("kniffel"), ["Anna"], seed=1).to_json()
    save["players"] = data
    with pytest.raises(CorruptSaveError) as loaded:
        Game.from_json(save)
    assert loaded.value.code == saved
    if requested is not None:
        with pytest.raises(InvalidGameError) as refused:
            players_from_json(data, request=True)
        assert refused.value.code == requested

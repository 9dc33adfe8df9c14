"""The match core: dice from the seed, computer steps, undo to a person's decision, the view of a
seat, persistence that reports every failure, and the players' check."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel import Game, Keep, Mode, Outcome, Player, PlayerKind, Score, Throw, preset
from kniffel.engine.dice import seeded_rng
from kniffel.engine.errors import (
    IllegalMoveError,
    InvalidGameError,
    KniffelError,
    UnknownStrategyError,
)
from kniffel.engine.match import Match, Seat, dice_rng, strategy_rng, validate_players
from kniffel.engine.strategy import get_strategy
from kniffel.errors import HistoryLockedError
from kniffel.history import History, HistoryStorage
from kniffel.simulate import game_seed, simulate


def people_and_bots(rules: str = "kniffel", seed: int = 5) -> Game:
    return Game(preset(rules), [Player("Anna"), Player("Bot", PlayerKind.COMPUTER, "greedy"),
                                Player("Rnd", PlayerKind.COMPUTER, "random")], seed=seed)


def old_computer_turns(game: Game) -> None:
    """How the terminal game and the bridge played computers before the match core."""
    strategies = {i: get_strategy(p.strategy or "greedy", game.rules)
                  for i, p in enumerate(game.players) if p.kind is PlayerKind.COMPUTER}
    while not game.is_over() and game.current_player in strategies:
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
            continue
        rng = random.Random(f"{game.seed}:{len(game.actions)}")
        game.apply(strategies[game.current_player].choose(game, rng))
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))


@pytest.mark.parametrize("rules", ["extreme", "kniffel", "yahtzee"])
def test_computer_turns_replay_bit_for_bit_like_before(rules: str) -> None:
    for seed in (1, 2):
        old, new = people_and_bots(rules, seed), people_and_bots(rules, seed)
        match = Match(new)
        for _ in range(3):  # three rounds: Anna throws once and takes the first fitting box
            for g in (old, new):
                g.roll(seeded_rng(g.seed, len(g.actions) + 1))
            box = new.choices()[0].box
            old.apply(Score(box) if Score(box) in old.legal_actions() else old.legal_actions()[0])
            match.apply(Score(box) if Score(box) in new.legal_actions()
                        else new.legal_actions()[0])
            old_computer_turns(old)
            match.play_out()
            assert new.actions == old.actions


def test_simulate_plays_the_same_games_as_before() -> None:
    rules = preset("extreme")
    strategy = get_strategy("greedy", rules)
    result = simulate(rules, strategy, games=3, seed=4)
    for i in range(3):
        game = Game(rules, [Player("Computer", PlayerKind.COMPUTER, "greedy")],
                    seed=game_seed(4, i))
        rng = random.Random(f"strategy:4:{i}")
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
            else:
                game.apply(strategy.choose(game, rng))
        assert result.totals[i] == game.sheet(0).total


def test_dice_follow_the_seed_and_an_undone_throw_brings_the_same_dice() -> None:
    game = Game(preset("extreme"), ["Anna"], seed=9)
    match = Match(game)
    first = match.throw()
    assert first == Outcome(game.actions[1].roll)  # type: ignore[union-attr]
    expected = Game(preset("extreme"), ["Anna"], seed=9)
    expected.apply(Throw())
    assert first == expected.sample_outcome(dice_rng(expected))
    match.undo()
    assert match.game.actions == ()
    assert match.throw() == first


def test_a_computer_step_shows_the_kept_dice_before_it_throws() -> None:
    game = Game(preset("kniffel"), [Player("Bot", PlayerKind.COMPUTER, "greedy")], seed=3)
    match = Match(game)
    steps = []
    while len(game.sheet(0).entries) == 0:
        before = game.actions
        step = match.step()
        steps.append(step)
        if step.shown:
            assert game.actions == before  # showing changes nothing
            assert isinstance(step.action, Throw)
            assert step.keep is not None
            assert match.step().action == step.action  # the next step throws exactly that
        else:
            assert game.actions != before
    assert isinstance(steps[0].action, Throw)
    assert not steps[0].shown  # the first throw of a turn has nothing to show
    assert steps[0].outcome is not None


def test_planning_changes_nothing_and_a_plan_for_an_older_game_is_refused() -> None:
    match = Match(people_and_bots(seed=2))
    match.throw()
    match.apply(Score(match.game.choices()[0].box))
    assert match.computer_to_move() == 1
    job = match.thinking_job()
    before = match.game.actions
    plan = job()
    assert match.game.actions == before
    match.undo()
    assert not match.accept(plan)


def test_the_strategy_generator_is_derived_from_seed_and_action_number() -> None:
    game = people_and_bots(seed=8)
    assert strategy_rng(game).random() == random.Random("8:0").random()


def test_undo_goes_back_to_the_last_decision_of_a_person() -> None:
    match = Match(people_and_bots(seed=6))
    with pytest.raises(IllegalMoveError, match="no person has made a move yet"):
        match.undo()
    match.throw()
    match.apply(Score(match.game.choices()[0].box))
    match.play_out()
    assert match.game.current_player == 0
    assert len(match.game.actions) > 3
    taken = match.undo()
    assert taken >= 3
    assert len(match.game.actions) == 2  # Anna's throw stays; her box and both bots are gone
    assert match.game.current_player == 0


def test_the_view_of_a_seat_offers_moves_only_to_that_seat_and_hides_the_seed() -> None:
    match = Match(people_and_bots(seed=1))
    anna, bot = match.view(0), match.view(1)
    assert anna.to_move
    assert not bot.to_move
    assert anna.legal
    assert bot.legal == ()
    assert not hasattr(anna, "seed")
    assert "seed" not in repr(anna)


class FlakyStorage:
    """Fails while ``locked``; keeps what it was given."""

    def __init__(self) -> None:
        self.locked = False
        self.stored: tuple[object, ...] = ()

    def save(self, game: Game) -> None:
        if self.locked:
            raise HistoryLockedError("locked by another program")
        self.stored = game.actions


def test_a_failed_write_is_reported_and_the_next_one_writes_everything() -> None:
    storage = FlakyStorage()
    match = Match(Game(preset("kniffel"), ["Anna"], seed=1), storage=storage)
    assert match.save_state.in_sync  # nothing to store before the first move
    assert match.save_job() is None
    match.throw()
    storage.locked = True
    state = match.save()
    assert isinstance(state.error, HistoryLockedError)
    assert (state.unsaved, state.actions) == (2, 2)
    match.throw(Keep())
    assert match.save().unsaved == 4
    storage.locked = False
    state = match.save()
    assert state.in_sync
    assert state.error is None
    assert storage.stored == match.game.actions


def test_undone_moves_still_stored_count_as_out_of_sync() -> None:
    storage = FlakyStorage()
    match = Match(Game(preset("kniffel"), ["Anna"], seed=1), storage=storage)
    match.throw()
    match.save()
    match.undo()
    state = match.save_state
    assert (state.unsaved, state.stale) == (0, 2)
    assert match.save().in_sync


def test_a_history_game_is_stored_from_its_first_move(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    with History(tmp_path / "h.sqlite3") as db:
        storage = HistoryStorage(db)
        match = Match(Game(preset("kniffel"), ["Anna"], seed=1), storage=storage)
        assert match.save().in_sync
        assert db.games() == []
        match.throw()
        assert match.save().in_sync
        [record] = db.games()
        assert record.actions == 2
        assert storage.game_id == record.id


def test_validate_players_refuses_what_the_game_would() -> None:
    rules = preset("extreme")
    assert validate_players([Seat("Anna"), Seat("Bot", "greedy")], rules) == [
        Player("Anna"), Player("Bot", PlayerKind.COMPUTER, "greedy")]
    with pytest.raises(InvalidGameError, match="two players are called 'a' and 'A'"):
        validate_players([Seat("A"), Seat("a")], rules)
    with pytest.raises(InvalidGameError, match="must not be empty"):
        validate_players([Seat("")], rules)
    with pytest.raises(InvalidGameError, match="longer than 40"):
        validate_players([Seat("x" * 41)], rules)
    with pytest.raises(InvalidGameError, match="1–8 players, got 9"):
        validate_players([Seat(f"P{i}") for i in range(9)], rules)
    with pytest.raises(InvalidGameError, match="1–8 players, got 0"):
        validate_players([], rules)
    with pytest.raises(UnknownStrategyError, match="greedy"):
        validate_players([Seat("Bot", "gready")], rules)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=45), min_size=0, max_size=10))
def test_validate_players_accepts_exactly_what_game_accepts(names: list[str]) -> None:
    rules = preset("kniffel")
    try:
        players = validate_players([Seat(n) for n in names], rules)
    except KniffelError:
        with pytest.raises(KniffelError):
            Game(rules, [Player(n) for n in names])
        return
    assert Game(rules, players).players == tuple(players)


def test_a_pad_game_runs_through_the_match_too() -> None:
    game = Game(preset("extreme"), ["Anna"], mode=Mode.PAD, seed=1)
    match = Match(game)
    match.apply(game.legal_actions()[0])
    assert len(match.game.actions) == 1

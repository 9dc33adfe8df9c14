"""The terminal game, driven through Textual's test pilot: setup, whole turns by keys and clicks,
chips, strikes, undo, quit and resume, and whole games with computer players."""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, Select, Static

from conftest import run_async
from kniffel import Box, Game, Keep, Outcome, PlayerKind, Roll, Score, Strike, Throw, UseChip
from kniffel.engine import strategy as strategy_module
from kniffel.engine.errors import KniffelError
from kniffel.engine.game import Action
from kniffel.engine.match import Seat
from kniffel.engine.messages import number, render
from kniffel.engine.messages import text as catalog_text
from kniffel.engine.rules import Lang, preset
from kniffel.engine.strategy import register_strategy
from kniffel.history import History
from kniffel.paths import play_command
from kniffel.storage import load_game
from kniffel.tui import threads as tui_threads
from kniffel.tui.app import KniffelApp
from kniffel.tui.game import GameScreen
from kniffel.tui.game import computers as tui_computers
from kniffel.tui.setup import SetupScreen
from kniffel.tui.view import (
    DicePlaces,
    MoveLog,
    SheetTable,
    abbreviate,
    chance_text,
    key_line,
    wrap_parts,
)
from kniffel.tui.widgets import Die

SIZE = (150, 45)


def run(app: KniffelApp, script: Callable[[Pilot[None], KniffelApp], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot, app)

    run_async(main())


def screen_of(app: KniffelApp) -> GameScreen:
    assert isinstance(app.screen, GameScreen)
    return app.screen


async def until(pilot: Pilot[None], done: Callable[[], bool], limit: int = 20000) -> None:
    for _ in range(limit):
        if done():
            return
        await pilot.pause()
    raise AssertionError("the condition was not reached")


def text_of(screen: GameScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def message_of(screen: GameScreen) -> str:
    """The message line: beside the dice, or under them where it takes more than two lines."""
    below = screen.query_one("#message-below", Static)
    return str(below.render()) if below.display else text_of(screen, "#message")


def roll_column(screen: GameScreen) -> dict[str, str]:
    table: DataTable[object] = screen.query_one("#sheet", DataTable)
    return {box.value: str(table.get_cell(box.value, "roll")) for box in screen.game.rules.boxes}


@pytest.mark.solve
def test_setup_screen_starts_the_game_it_describes_and_stores_it(tmp_path: Path) -> None:
    db = History(tmp_path / "h.sqlite3")

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#rules", Select).value = "kniffel"
        app.screen.query_one("#name-0", Input).value = "Anna"
        app.screen.query_one("#kind-2", Select).value = "computer:random"
        app.screen.query_one("#start-player", Select).value = 1
        await pilot.click("#start")
        await pilot.pause()
        screen = screen_of(app)
        game = screen.game
        assert game.rules == preset("kniffel")
        assert [p.name for p in game.players] == ["Anna", "Computer 1", "Computer 2"]
        assert [p.strategy for p in game.players] == [None, "greedy", "random"]
        assert game.start_player == 1
        await until(pilot, lambda: screen.game_id is not None and screen.match.save_state.in_sync)
        [record] = db.games()
        assert record.players == ("Anna", "Computer 1", "Computer 2")
        assert record.actions >= 1

    run(KniffelApp(lang="en", history=db, speed=0.5), script)
    db.close()


def start_choices(screen: SetupScreen) -> list[tuple[str, int]]:
    select: Select[int] = screen.query_one("#start-player", Select)
    return [(str(label), value) for label, value in select._options if isinstance(value, int)]


def test_setup_who_starts_lists_the_names_entered_of_the_rows_that_play() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert start_choices(screen) == [("roll off", -1), ("Player 1", 0), ("Computer 1", 1),
                                         ("Computer 2", 2)]
        screen.query_one("#name-0", Input).value = "Anna"
        screen.query_one("#kind-1", Select).value = "off"
        screen.query_one("#kind-4", Select).value = "human"
        screen.query_one("#name-4", Input).value = "Ben"
        await pilot.pause()
        assert start_choices(screen) == [("roll off", -1), ("Anna", 0), ("Computer 2", 2),
                                         ("Ben", 4)]
        screen.query_one("#start-player", Select).value = 4
        screen.query_one("#name-4", Input).value = "Benno"  # the choice stays with the row
        await pilot.pause()
        assert screen.query_one("#start-player", Select).value == 4
        await pilot.click("#start")
        await pilot.pause()
        game = screen_of(app).game
        assert [p.name for p in game.players] == ["Anna", "Computer 2", "Benno"]
        assert game.start_player == 2

    run(KniffelApp(lang="en", speed=5.0), script)


def test_setup_a_start_player_who_stops_playing_falls_back_to_the_roll_off() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#start-player", Select).value = 1
        screen.query_one("#kind-1", Select).value = "off"
        await pilot.pause()
        assert screen.query_one("#start-player", Select).value == -1
        assert ("Computer 1", 1) not in start_choices(screen)

    run(KniffelApp(lang="en", speed=5.0), script)


def test_setup_an_error_goes_once_the_field_is_fixed_and_stays_while_it_is_not() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#name-1", Input).value = "Spieler 1"
        await pilot.click("#start")
        await pilot.pause()
        error = screen.query_one("#setup-error", Static)
        assert "Zwei Spieler heißen" in str(error.render())
        screen.query_one("#name-1", Input).value = "spieler 1"  # still the same name
        await pilot.pause()
        assert "Zwei Spieler heißen" in str(error.render())
        screen.query_one("#name-1", Input).value = "Bea"
        await pilot.pause()
        assert str(error.render()).strip() == ""
        assert isinstance(app.screen, SetupScreen)  # fixing a field does not start the game

    run(KniffelApp(lang="de"), script)


def test_setup_offers_the_optimal_computer_only_where_it_can_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path / "no-tables"))

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)

        def kinds() -> list[str]:
            select: Select[str] = screen.query_one("#kind-1", Select)
            return [str(value) for _, value in select._options]

        assert "computer:optimal" not in kinds()  # Kniffel Extreme without its table
        assert "computer:greedy" in kinds()
        screen.query_one("#rules", Select).value = "kniffel"
        await pilot.pause()
        assert "computer:optimal" in kinds()  # the classic table is built on first use
        screen.query_one("#kind-1", Select).value = "computer:optimal"
        screen.query_one("#rules", Select).value = "extreme"
        await pilot.pause()
        assert "computer:optimal" not in kinds()
        assert screen.query_one("#kind-1", Select).value == "computer:greedy"

    run(KniffelApp(lang="en"), script)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_setup_offers_the_expert_to_win_and_shows_its_whole_name_at_80x24(lang: Lang) -> None:
    label = {"de": "Computer (Experte, auf Sieg)", "en": "Computer (expert, to win)"}[lang]

    async def main() -> None:
        app = KniffelApp(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            select: Select[str] = screen.query_one("#kind-1", Select)
            assert (label, "computer:expert-win") in [(str(t), v) for t, v in select._options]
            select.value = "computer:expert-win"
            await pilot.pause()
            assert label in screen_text(app)
            screen.query_one("#name-0", Input).value = "Anna"
            await pilot.click("#start")
            await pilot.pause()
            game = screen_of(app).game
            assert [p.strategy for p in game.players][:2] == [None, "expert-win"]

    run_async(main())


def test_setup_refuses_two_players_with_the_same_name() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        app.screen.query_one("#name-1", Input).value = "Spieler 1"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "Zwei Spieler heißen „Spieler 1“" in str(
            app.screen.query_one("#setup-error", Static).render())

    run(KniffelApp(lang="de"), script)


def test_a_human_turn_roll_keep_by_number_and_click_then_score(tmp_path: Path) -> None:
    db = History(tmp_path / "h.sqlite3")

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r")
        turn = game.turn
        assert turn is not None
        assert turn.roll is not None
        first = turn.roll
        dice = [d.face for d in screen.query(Die)]
        assert dice == list(first.values)
        # every open box shows what it would give for these dice
        column = roll_column(screen)
        for c in game.choices():
            assert column[c.box.value].startswith("strike" if c.strike else str(c.points))
        await pilot.press("1")
        await pilot.click("#die-5")  # the d10
        assert screen.kept == {0, 5}
        await pilot.click("#die-5")
        assert screen.kept == {0}
        await pilot.press("r")
        assert game.actions[2] == Throw(Keep((first.d6[0],)))
        assert first.d6[0] in game.actions[3].roll.d6  # type: ignore[union-attr]
        table: DataTable[object] = screen.query_one("#sheet", DataTable)
        chosen = game.rules.boxes[table.cursor_row]
        assert Score(chosen) in game.legal_actions()
        await pilot.press("enter")
        assert isinstance(game.actions[-1], Score)
        assert game.actions[-1].box is chosen
        assert game.current_player == 1
        await until(pilot, lambda: screen.match.save_state.in_sync)
        stored = db.latest_unfinished()
        assert stored is not None
        assert stored[1].actions == game.actions

    run(KniffelApp(lang="en", history=db, rules=preset("extreme"),
                   seats=[Seat("Anna"), Seat("Ben")], seed=3, start=0, speed=0), script)
    db.close()


def test_the_d10_is_drawn_differently_from_the_d6() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        dice = list(screen_of(app).query(Die))
        assert len(dice) == 6
        assert [d.has_class("d10") for d in dice] == [False] * 5 + [True]
        assert dice[5].border_title == "W10"
        assert dice[5].styles.border_top != dice[0].styles.border_top

    run(KniffelApp(seats=[Seat("Anna")], seed=1), script)


def refusal(game: Game, action: Action, lang: Lang) -> str:
    """The sentence the engine refuses ``action`` with in ``game`` (as the CLI and the browser
    show it), the game left as it was."""
    with pytest.raises(KniffelError) as refused:
        game.copy().apply(action)
    return render(refused.value, lang)


def test_the_keys_choose_a_box_and_an_unfitting_box_is_refused() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r")
        roll = game.turn.roll if game.turn else None
        assert roll == Roll((3, 3, 4, 5, 6))
        table: DataTable[object] = screen.query_one("#sheet", DataTable)
        # Kniffel does not fit: refused with a message, nothing entered
        while game.rules.boxes[table.cursor_row] is not Box.KNIFFEL:
            await pilot.press("down" if table.cursor_row < 11 else "up")
        await pilot.press("enter")
        assert message_of(screen) == refusal(game, Score(Box.KNIFFEL), "en")
        assert "The roll 3 3 4 5 6 may not go in Kniffel. Possible:" in message_of(screen)
        assert len(game.actions) == 2
        # it cannot be struck either while other boxes fit (the strike rule)
        await pilot.press("s")
        assert message_of(screen) == refusal(game, Strike(Box.KNIFFEL), "en")
        assert "Kniffel may not be struck now" in message_of(screen)
        assert len(game.actions) == 2
        await pilot.press("up", "up")  # small straight
        await pilot.press("enter")
        assert game.actions[-1] == Score(Box.SMALL_STRAIGHT)
        assert game.sheet(0).entries[Box.SMALL_STRAIGHT].points == 30

    run(KniffelApp(lang="en", rules=preset("kniffel"), seats=[Seat("Anna")], seed=4), script)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_enter_or_s_before_the_first_throw_says_the_engines_sentence(lang: Lang) -> None:
    """Issue 33: a refusal is the engine's error in its catalog sentence, not words of the
    terminal game's own."""
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("enter")
        assert message_of(screen) == refusal(game, Score(Box.ONES), lang)
        assert message_of(screen) == catalog_text("move.throw_first", lang)
        await pilot.press("s")
        assert message_of(screen) == catalog_text("move.throw_first", lang)
        assert game.actions == ()

    run(KniffelApp(lang=lang, rules=preset("kniffel"), seats=[Seat("Anna")], seed=4), script)


def test_strike_is_offered_only_when_the_rules_allow_it() -> None:
    rules = preset("kniffel", free_strike=True)

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r")
        table: DataTable[object] = screen.query_one("#sheet", DataTable)
        while game.rules.boxes[table.cursor_row] is not Box.KNIFFEL:
            await pilot.press("down" if table.cursor_row < 11 else "up")
        assert roll_column(screen)["kniffel"] == "strike"
        await pilot.press("s")
        assert game.actions[-1] == Strike(Box.KNIFFEL)

    run(KniffelApp(lang="en", rules=rules, seats=[Seat("Anna")], seed=4), script)


def test_a_chip_buys_a_fourth_throw_only_after_the_third() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r", "c")
        assert message_of(screen) == refusal(game, UseChip(), "en")
        assert "A chip buys one more throw after the 3rd throw" in message_of(screen)
        assert game.actions[-1] != UseChip()
        assert "[c]" not in text_of(screen, "#keys")
        await pilot.press("r", "r")
        assert "[c] chip: 4th throw" in text_of(screen, "#keys")
        await pilot.press("r")  # issue 31 item 11: the chip is offered, not spent unasked
        assert message_of(screen) == refusal(game, Throw(Keep()), "en")
        assert message_of(screen) == ("All 3 throws are used: enter the roll in a box or "
                                      "hand in a chip for one more throw.")
        assert game.sheet(0).chips_left == 3
        await pilot.press("c")
        assert "[c]" not in text_of(screen, "#keys")
        assert game.actions[-1] == UseChip()
        assert game.sheet(0).chips_left == 2
        assert "chips left: 2" in text_of(screen, "#turn")
        await pilot.press("r")
        turn = game.turn
        assert turn is not None
        assert turn.rolls_used == 4
        await pilot.press("r")  # no chip is left to offer in this turn: one per turn
        assert message_of(screen) == "All 4 throws are used: enter the roll in a box."

    run(KniffelApp(lang="en", seats=[Seat("Anna")], seed=2), script)


def test_undo_takes_back_any_number_of_steps_and_the_history_follows(tmp_path: Path) -> None:
    db = History(tmp_path / "h.sqlite3")

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r", "enter", "r", "1", "r")
        assert len(screen.game.actions) == 7
        first_dice = screen.game.actions[1]
        await pilot.press("u")
        assert len(screen.game.actions) == 5  # the re-throw and its dice
        await pilot.press("u", "u")  # the first throw of turn 2, then the score of turn 1
        assert len(screen.game.actions) == 2
        assert screen.game.sheet(0).entries == {}
        await pilot.press("u", "u")
        assert screen.game.actions == ()
        assert "Nothing to undo" in text_of(screen, "#message")
        await until(pilot, lambda: screen.match.save_state.in_sync)
        stored = db.latest_unfinished()
        assert stored is not None
        assert stored[1].actions == ()
        # the same dice come again: they follow from the seed
        await pilot.press("r")
        assert isinstance(first_dice, Outcome)
        assert screen.game.actions[1] == first_dice

    run(KniffelApp(lang="en", history=db, rules=preset("kniffel"), seats=[Seat("Anna")],
                   seed=5), script)
    db.close()


def test_undo_in_a_game_with_computers_goes_back_to_the_human_decision() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r", "enter")
        await until(pilot, lambda: game.current_player == 0 and len(game.actions) > 3)
        assert game.sheet(1).entries
        await pilot.press("u")
        game = screen.game
        assert len(game.actions) == 2  # the human's score and the bot's whole turn are gone
        assert game.current_player == 0
        assert not game.sheet(1).entries

    run(KniffelApp(lang="en", rules=preset("kniffel"),
                   seats=[Seat("Anna"), Seat("Bot", "greedy")], seed=6, start=0, speed=0),
        script)


def test_quit_keeps_the_game_and_resume_continues_it(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    db = History(path)
    played: list[Game] = []

    async def first(pilot: Pilot[None], app: KniffelApp) -> None:
        await pilot.press("r", "enter", "r")
        played.append(screen_of(app).game)
        await pilot.press("q")

    run(KniffelApp(lang="en", history=db, rules=preset("kniffel"), seats=[Seat("Anna")],
                   seed=7), first)
    db.close()
    db = History(path)
    found = db.latest_unfinished()
    assert found is not None
    assert found[1].actions == played[0].actions

    async def second(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        assert screen.game.actions == played[0].actions
        assert [d.face for d in screen.query(Die)] == list(screen.game.turn.roll.values)  # type: ignore[union-attr]
        await pilot.press("enter")
        assert len(screen.game.sheet(0).entries) == 2

    run(KniffelApp(lang="en", history=db, resume=found), second)
    resumed = db.load(found[0])
    assert len(resumed.sheet(0).entries) == 2
    db.close()


def test_german_is_spoken_by_default() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        assert "Anna ist dran" in text_of(screen, "#status")
        assert "Kniffel Extreme" in text_of(screen, "#status")
        table: DataTable[object] = screen.query_one("#sheet", DataTable)
        assert str(table.get_cell("three_pairs", "box")) == "Drei Paare"

    run(KniffelApp(seats=[Seat("Anna")], seed=1), script)


@pytest.mark.solve
def test_a_whole_game_of_computer_players_is_played_and_stored(tmp_path: Path) -> None:
    db = History(tmp_path / "h.sqlite3")

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await until(pilot, screen.game.is_over)
        await pilot.pause()
        assert "Game over" in text_of(screen, "#status")
        ranking = text_of(screen, "#turn")
        shown = screen_text(app)
        for rank, player, total in screen.game.ranking():
            assert f"{rank}. {screen.game.players[player].name} {total}" in ranking
            assert shown.count(f"{rank}. {screen.game.players[player].name} {total}") == 1

    run(KniffelApp(lang="en", history=db, rules=preset("kniffel"),
                   seats=[Seat("Greedy", "greedy"), Seat("Random", "random"),
                          Seat("Other", "greedy")], seed=8, speed=0), script)
    [record] = db.games()
    assert record.finished
    game = db.load(record.id)
    assert record.totals == game.scores()
    assert all(p.kind is PlayerKind.COMPUTER for p in game.players)
    db.close()


@pytest.mark.solve
def test_a_whole_extreme_game_against_two_computers(tmp_path: Path) -> None:
    db = History(tmp_path / "h.sqlite3")

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        while not game.is_over():
            await until(pilot, lambda: game.is_over() or game.current_player == 0)
            if game.is_over():
                break
            await pilot.press("r", "enter")  # roll once, take the box the cursor offers
        assert game.sheet(0).is_full
        assert "Spiel vorbei" in text_of(screen, "#status")

    run(KniffelApp(history=db, seats=[Seat("Anna"), Seat("Bot 1", "greedy"),
                                      Seat("Bot 2", "greedy")], seed=9, start=0, speed=0),
        script)
    [stats] = db.stats("anna")
    assert stats.games == 1
    assert stats.rules == "extreme"
    db.close()


# --- the screen at 80×24 and larger ---------------------------------------------------------


def screen_text(app: KniffelApp) -> str:
    """What the terminal shows, as plain text (one line per row)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


SEATS = {
    1: [Seat("Anna")],
    3: [Seat("Anna"), Seat("Computer 1", "greedy"), Seat("Computer 2", "greedy")],
    8: [Seat("Anna"), *(Seat(f"Computer {i}", "random") for i in range(1, 7)),
        Seat("Bernadette Beispielname")],
}


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45)])
@pytest.mark.parametrize("players", [1, 3, 8])
@pytest.mark.parametrize("rules", ["extreme", "yahtzee"])
def test_every_player_the_roll_column_and_the_total_are_on_screen(
        size: tuple[int, int], players: int, rules: str) -> None:
    async def main() -> None:
        app = KniffelApp(lang="en", rules=preset(rules), seats=SEATS[players], seed=1, start=0,
                         speed=60)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            screen = screen_of(app)
            text = screen_text(app)
            lines = text.splitlines()
            assert len(lines) <= size[1]
            header = next(line for line in lines if line.lstrip().startswith("Box"))
            shown = screen.sheet.short
            assert len(set(shown)) == players  # told apart: not "Co" and "Co"
            for name in shown:
                assert name in header
            assert "Roll" in header
            assert "Total" in text
            assert "Upper sum" in text
            # the Roll column holds whole numbers, not one cut-off digit
            column = roll_column(screen)
            for c in screen.game.choices():
                if not c.strike:
                    assert column[c.box.value].startswith(str(c.points))
            table: DataTable[object] = screen.query_one("#sheet", DataTable)
            assert table.virtual_size.width <= table.size.width  # no column off to the right
            totals: DataTable[object] = screen.query_one("#totals", DataTable)
            assert totals.region.bottom <= size[1] - 1  # the sums above the key line
            if rules == "extreme":
                d10 = screen.query_one("#die-5", Die)
                assert d10.region.right <= size[0]
                assert "W10" not in text
                assert "d10" in text
            else:
                assert str(totals.get_cell("extra", "box")).startswith("Yahtzee")
                assert "Extra" not in text

    run_async(main())


@pytest.mark.parametrize("width", [80, 100, 120])
def test_dice_and_the_d10_frame_are_never_clipped(width: int) -> None:
    async def main() -> None:
        app = KniffelApp(lang="de", seats=SEATS[3], seed=1, start=0, speed=60)
        async with app.run_test(size=(width, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            top = [line for line in text.splitlines() if "W10" in line]
            assert top
            assert "╔" in top[0]
            assert "╗" in top[0]
            d10 = screen_of(app).query_one("#die-5", Die)
            assert d10.region.right <= width
            assert d10.region.width == 9

    run_async(main())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_chip_offer_and_the_speed_are_whole_at_80x24(lang: Lang) -> None:
    offer = {"de": "[c] Chip: 4. Wurf", "en": "[c] chip: 4th throw"}
    speed = {"de": "Tempo 0,5 s", "en": "speed 0.5 s"}

    async def main() -> None:
        app = KniffelApp(lang=lang, seats=SEATS[3], seed=1, start=0, speed=0.5)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("r", "r", "r")
            await pilot.pause()
            assert offer[lang] in screen_text(app)
            for _ in range(40):  # score: the first box down the sheet that takes this roll
                if not screen.match.human_to_move():
                    break
                await pilot.press("enter", "down")
            await until(pilot, lambda: not screen.match.human_to_move(), limit=200)
            await pilot.pause()
            assert speed[lang] in screen_text(app)

    run_async(main())


def test_abbreviated_names_stay_distinct_and_fit() -> None:
    assert abbreviate(["Computer 1", "Computer 2"], 4) == ["Co…1", "Co…2"]
    assert abbreviate(["Anna", "Computer 1"], 6) == ["Anna", "Compu…"]
    assert abbreviate(["Anna", "Anneliese"], 4) == ["Anna", "Ann…"]


@given(st.lists(st.text(alphabet="abAB 12", min_size=1, max_size=14), min_size=1, max_size=8,
                unique_by=str.casefold), st.integers(min_value=4, max_value=14))
def test_abbreviations_are_distinct_and_no_wider_than_asked(names: list[str], width: int) -> None:
    short = abbreviate(names, width)
    assert len(set(short)) == len(names)
    assert all(len(s) <= width for s in short)
    assert all(s == n for s, n in zip(short, names, strict=True) if len(n) <= width)


def test_the_key_line_closes_up_then_shortens_enter_then_breaks_between_keys() -> None:
    keys = ["[r] roll", "[↑↓ Enter] score", "[q] quit"]
    short = ["[r] roll", "[↑↓⏎] score", "[q] quit"]
    assert key_line(keys, short, 40) == "[r] roll  [↑↓ Enter] score  [q] quit"
    assert key_line(keys, short, 35) == "[r] roll [↑↓ Enter] score [q] quit"
    assert key_line(keys, short, 30) == "[r] roll [↑↓⏎] score [q] quit"
    assert key_line(keys, short, 22) == "[r] roll  [↑↓⏎] score\n[q] quit"
    assert key_line(keys, short, 20) == "[r] roll\n[↑↓⏎] score\n[q] quit"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_short_enter_key_is_the_long_one_with_enter_as_a_return_sign(lang: Lang) -> None:
    long, short = catalog_text("tui.keys_enter", lang), catalog_text("tui.keys_enter_short", lang)
    assert "[↑↓ Enter]" in long
    assert short == long.replace("[↑↓ Enter]", "[↑↓⏎]")


def test_turn_parts_break_into_lines_only_where_the_room_is_narrower() -> None:
    parts = ["throw 1 of 3", "chips left: 2", "speed 0.5 s"]
    assert wrap_parts(parts, 0) == "throw 1 of 3 · chips left: 2 · speed 0.5 s"
    assert wrap_parts(parts, 30) == "throw 1 of 3 · chips left: 2\nspeed 0.5 s"
    assert wrap_parts(parts, 10) == "throw 1 of 3\nchips left: 2\nspeed 0.5 s"
    assert wrap_parts([], 10) == ""


def test_the_move_log_drops_exactly_the_moves_an_undo_took_back() -> None:
    log = MoveLog("Anna starts")
    log.add("Anna: 3 in Threes", 3)
    log.add("Ben: strikes Ones", 7)
    assert log.taken_back(5) == 1
    assert log.moves == ["Anna starts", "Anna: 3 in Threes"]
    assert log.taken_back(0) == 1
    assert log.moves == ["Anna starts"]  # the start note stays
    assert MoveLog("").moves == []


def test_an_undo_marks_the_dice_of_the_undone_throw_or_else_of_the_last_throw() -> None:
    roll = Roll((2, 2, 4, 5, 6))
    dice = DicePlaces()
    dice.faces_for(roll)
    first, rethrow = Throw(), Throw(Keep((2, 2)))
    dice.undone([first, Outcome(roll), rethrow], [first, Outcome(roll)], roll)
    assert dice.kept == {0, 1}  # the undone throw's keep, on the dice it kept
    dice.undone([first, Outcome(roll), UseChip()], [first, Outcome(roll)], roll)
    assert dice.kept == set()  # the last throw kept nothing
    dice.kept = {3}
    dice.undone([first, Outcome(roll)], [first], None)
    assert dice.kept == set()  # no dice on the table: nothing marked


def test_the_sheet_takes_whole_names_where_there_is_room_and_shortens_them_where_not() -> None:
    rules = preset("extreme")
    sheet = SheetTable(rules, ["Annabella", "Computer 1", "Computer 2"], "en")
    assert sheet.choose(120)
    assert sheet.short == ["Annabella", "Computer 1", "Computer 2"]
    assert sheet.width <= 120
    assert not sheet.choose(120)  # the same room: the same widths
    assert sheet.choose(40)
    assert sheet.width <= 40 + 1
    assert len(set(sheet.short)) == 3
    assert all(len(s) < 9 for s in sheet.short)


def test_the_cursor_starts_on_the_first_open_box_not_the_biggest_number() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        table: DataTable[object] = screen.query_one("#sheet", DataTable)
        assert table.cursor_row == 0
        await pilot.press("r")
        game = screen.game
        fitting = [c.box for c in game.choices()]
        first = next(b for b in game.rules.boxes if b in fitting)
        assert game.rules.boxes[table.cursor_row] is first
        assert first is not Box.SUPER_CHANCE

    run(KniffelApp(lang="en", seats=[Seat("Anna")], seed=1), script)


def test_chip_help_only_with_chips_and_on_a_persons_turn() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r", "r", "r")
        assert "[c]" in text_of(screen, "#keys")
        assert "[c]" not in text_of(screen, "#turn")

    run(KniffelApp(lang="en", seats=[Seat("Anna")], seed=2), script)

    async def classic(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r", "r", "r")
        assert "[c]" not in text_of(screen, "#turn") + text_of(screen, "#keys")
        assert "Chips" not in screen_text(app)

    run(KniffelApp(lang="en", rules=preset("yahtzee"), seats=[Seat("Anna")], seed=2), classic)

    async def computer(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        assert screen.match.computer_to_move() == 0
        assert "[c]" not in text_of(screen, "#turn") + text_of(screen, "#keys")
        assert "[r]" not in text_of(screen, "#keys")

    run(KniffelApp(lang="en", seats=[Seat("Bot", "greedy"), Seat("Anna")], seed=2, start=0,
                   speed=60), computer)


def test_the_computers_last_moves_are_logged_and_it_thinks_off_the_screen() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r", "enter")
        await until(pilot, lambda: game.current_player == 0 and len(game.sheet(2).entries) == 1)
        await pilot.pause()
        assert screen.moves[0] == "Anna starts"  # the note first
        assert len(screen.moves) == 4
        assert screen.moves[2].startswith("Bot 1: ")
        assert screen.moves[3].startswith("Bot 2: ")
        shown = text_of(screen, "#log")  # wide: the log beside the sheet
        assert "Bot 1: " in shown
        assert "Bot 2: " in shown

    run(KniffelApp(lang="en", rules=preset("kniffel"),
                   seats=[Seat("Anna"), Seat("Bot 1", "greedy"), Seat("Bot 2", "greedy")],
                   seed=6, start=0, speed=0), script)


def test_q_quits_while_a_computer_is_still_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    class Slow:
        name = "slow"

        def __init__(self, rules: object) -> None:
            pass

        def choose(self, game: Game, rng: object) -> object:
            release.wait(30)
            return game.legal_actions()[0]

    monkeypatch.setattr(strategy_module, "_REGISTRY", dict(strategy_module._REGISTRY))
    register_strategy("slow", Slow)  # type: ignore[arg-type]

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.pause(0.4)
        assert "Slow is thinking" in text_of(screen, "#message")
        assert app.return_code is None
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0  # quit at once, the decision still running

    try:
        run(KniffelApp(lang="en", seats=[Seat("Slow", "slow")], seed=1, speed=0), script)
    finally:
        release.set()


def test_setup_screen_fits_80x24_with_start_reachable_and_escape_quits() -> None:
    async def main() -> None:
        app = KniffelApp(lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            button = app.screen.query_one("#start")
            assert button.region.bottom <= 24
            assert button.region.right <= 80
            assert "Start" in screen_text(app)
            app.screen.query_one("#name-0").focus()
            await pilot.press("escape")  # also from a name field
            await pilot.pause()
            assert app.return_code == 0

    run_async(main())


def test_setup_q_quits_when_no_name_field_has_the_focus() -> None:
    async def main() -> None:
        app = KniffelApp(lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.screen.query_one("#start").focus()
            assert app.return_code is None
            await pilot.press("q")
            await pilot.pause()
            assert app.return_code == 0

    run_async(main())


# --- honest history writes --------------------------------------------------------------------


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
           ) -> Iterator[tuple[History, sqlite3.Connection]]:
    """A history (waiting at most 0.1 s for a lock) and another program's connection that holds
    its database locked (``BEGIN EXCLUSIVE``) until the test lets go (``ROLLBACK`` or close);
    both are closed when the test ends. A failed write is retried every 0.2 s, not
    :data:`~kniffel.tui.threads.RETRY_S` (the real interval: the tmux test of a lock)."""
    monkeypatch.setattr(tui_threads, "RETRY_S", 0.2)
    path = tmp_path / "h.sqlite3"
    db = History(path, timeout=0.1)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    yield db, locker
    locker.close()
    db.close()


def test_a_locked_history_is_shown_until_a_write_succeeds_and_no_move_is_lost(
        locked: tuple[History, sqlite3.Connection]) -> None:
    db, locker = locked
    played: list[Game] = []

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r")
        await until(pilot, lambda: screen.match.save_state.error is not None)
        warning = text_of(screen, "#save")
        assert screen.query_one("#save").display
        assert "Not saved: 2 of 2 moves, retrying." in warning
        assert "locked" in warning
        await pilot.press("1", "r", "enter", "r")  # more moves while it is locked
        await until(pilot, lambda: not screen.writer.busy and screen.match.save_state.error
                    is not None and screen.match.save_state.unsaved == 7)
        assert "Not saved: 7 of 7 moves" in text_of(screen, "#save")
        assert "saved" not in text_of(screen, "#message").lower()
        locker.execute("ROLLBACK")  # the other program lets go
        await pilot.press("1")  # the next action (or the retry timer) writes everything
        await until(pilot, lambda: screen.match.save_state.in_sync
                    and screen.match.save_state.error is None)
        await pilot.pause()
        assert not screen.query_one("#save").display
        played.append(screen.game.copy())

    run(KniffelApp(lang="en", history=db, seats=[Seat("Anna")], seed=3), script)
    locker.close()
    [record] = db.games()
    assert db.load(record.id).actions == played[0].actions
    assert record.actions == 7


def test_quitting_with_a_locked_history_never_claims_saved_and_names_what_is_missing(
        locked: tuple[History, sqlite3.Connection]) -> None:
    db, locker = locked
    app = KniffelApp(lang="en", history=db, seats=[Seat("Anna")], seed=3)

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r", "1", "r")
        await until(pilot, lambda: screen.match.save_state.error is not None
                    and not screen.writer.busy)
        await pilot.press("q")
        assert "4 moves are not saved" in text_of(screen, "#message")
        assert app.is_running
        await pilot.press("q")

    run(app, script)
    report = app.quit_report()
    assert app.unsaved_on_exit
    assert "NOT saved: moves 1–4 of 4 are missing" in report
    assert "Game saved" not in report
    rescued = Path(report.split("The whole game is in ")[1].split(" ")[0])
    # the way back names this history: kniffel play --db FILE --load …
    assert f"{play_command(db.path)} --load {rescued}" in report
    assert play_command(db.path).startswith("kniffel play --db ")
    assert load_game(rescued).actions == screen_of_game(app).actions
    locker.close()
    # once the database is free again, the same report writes everything
    assert app.quit_report() == f"Game saved – continue with: {play_command(db.path)} --resume"
    [record] = db.games()
    assert record.actions == 4
    db.close()


def screen_of_game(app: KniffelApp) -> Game:
    assert app.game_screen is not None
    return app.game_screen.game


def test_a_game_without_a_move_is_not_stored(tmp_path: Path) -> None:
    db = History(tmp_path / "h.sqlite3")
    app = KniffelApp(lang="en", history=db, seats=[Seat("Anna")], seed=3)

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        await pilot.press("q")

    run(app, script)
    assert app.quit_report() == "Game not stored: no move was made yet."
    assert db.games() == []
    db.close()


# --- a real terminal ----------------------------------------------------------------------------


class Tmux:
    """A tmux server of one test's own (its own socket): another test's sessions ending can
    never take it down, and a session's name is never reused while the server winds down."""

    def __init__(self, name: str) -> None:
        self.socket = name
        self.sessions = 0
        self.session = ""

    def __call__(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True)
        if done.returncode:
            raise AssertionError(f"tmux {' '.join(args[:1])} failed: {done.stderr.strip()}")
        return done.stdout

    def start(self, command: str, width: int = 80, height: int = 24) -> None:
        """A new session of ``width`` × ``height`` running ``command``; keys and captures go
        to it. The session before it stays until the server is killed."""
        self.sessions += 1
        self.session = f"s{self.sessions}"
        self("new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height),
             command)

    def keys(self, *pressed: str, pause: float = 0) -> None:
        for key in pressed:
            self("send-keys", "-t", self.session, key)
            time.sleep(pause)

    def pane_until(self, done: Callable[[str], bool], seconds: float = 60,
                   joined: bool = False) -> str:
        """The pane's text once ``done`` (wrapped lines joined when ``joined``: a long path
        stays whole)."""
        deadline = time.monotonic() + seconds
        text = ""
        while time.monotonic() < deadline:
            text = self("capture-pane", "-p", *(["-J"] if joined else []), "-t", self.session)
            if done(text):
                return text
            time.sleep(0.2)
        raise AssertionError(f"the terminal never showed what was expected:\n{text}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], check=False,
                       capture_output=True)


@pytest.fixture
def tmux(request: pytest.FixtureRequest) -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("needs tmux (scripts/setup.sh --dev)")
    server = Tmux(f"kniffel-test-{os.getpid()}-{abs(hash(request.node.nodeid)) % 10**8}")
    try:
        yield server
    finally:
        server.close()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.tmux
def test_a_real_terminal_of_80x24_shows_the_whole_game(tmp_path: Path, lang: str,
                                                       tmux: Tmux) -> None:
    kniffel = Path(sys.executable).with_name("kniffel")
    db = tmp_path / "h.sqlite3"
    # Textual draws on stderr: the pane shows the game, then what the command says at the end
    command = (f"{kniffel} play --lang {lang} --db {db} --seed 1 --start 2 --speed 0.2 "
               f"--player Anna --player 'Computer 1:greedy' --player 'Computer 2:greedy'; "
               f"echo exit=$?; sleep 60")
    tmux.start(f"env TERM=xterm-256color LANG=C.UTF-8 {command}")
    total = "Gesamt" if lang == "de" else "Total"
    roll = "Wurf" if lang == "de" else "Roll"
    d10 = "W10" if lang == "de" else "d10"
    # a whole frame: the capture may catch Textual halfway through drawing one
    text = tmux.pane_until(lambda t: total in t and "Anna" in t and d10 in t
                           and "╗" in t and "Computer 2" in t)
    lines = text.splitlines()
    assert len(lines) <= 24
    assert all(len(line) <= 80 for line in lines)
    header = next(line for line in lines if "Anna" in line and roll in line)
    assert "Computer 1" in header
    assert "Computer 2" in header
    top = next(line for line in lines if d10 in line)
    assert "╔" in top
    assert "╗" in top
    assert "Traceback" not in text
    # Anna's turn comes after the two computers; she throws
    tmux.pane_until(lambda t: ("Anna ist dran" in t or "Anna's turn" in t) and "[r]" in t)
    tmux.keys("r")
    text = tmux.pane_until(lambda t: "1 von 3" in t or "1 of 3" in t)
    assert "Computer 1:" in text or "Computer 2:" in text  # their moves are logged
    tmux.keys("q")
    report = tmux.pane_until(lambda t: "exit=" in t)
    assert "exit=0" in report
    assert ("Spiel gespeichert" if lang == "de" else "Game saved") in report


# --- the hint and expert opponents (issue 12) --------------------------------------------------


@pytest.fixture
def classic_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A solver cache of its own (the expert builds the classic table there on first use)."""
    from kniffel.engine import expert as expert_module
    from kniffel.engine import values as values_module

    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path / "cache"))
    expert_module._expert.cache_clear()
    values_module._table_values.cache_clear()
    yield tmp_path / "cache"
    expert_module._expert.cache_clear()
    values_module._table_values.cache_clear()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_h_shows_the_hint_with_the_advisors_numbers(classic_tables: Path, lang: Lang) -> None:
    from kniffel.engine.advice import Position
    from kniffel.engine.expert import expert_for
    from kniffel.tui.view import hint_text

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("h")
        assert text_of(screen, "#message") == ("Einen Tipp gibt es nach dem Wurf" if lang == "de"
                                                else "A hint comes after the throw")
        await pilot.press("r")
        assert "[h]" in text_of(screen, "#keys")
        await pilot.press("h")
        head = "Tipp (optimal):" if lang == "de" else "Hint (optimal):"
        await until(pilot, lambda: text_of(screen, "#message").startswith(head))
        advice = expert_for(screen.game.rules).advise(Position.from_game(screen.game))
        room = screen.query_one("#message", Static).size.width
        assert text_of(screen, "#message") == hint_text(advice, lang, width=room)
        best = advice.best
        shown = f"{best.expected:.1f}"
        assert (shown.replace(".", ",") if lang == "de" else shown) in text_of(screen, "#message")
        # a hint that comes after the player moved on is dropped
        await pilot.press("h", "r")
        await pilot.pause()
        assert not text_of(screen, "#message").startswith(head)

    run(KniffelApp(lang=lang, rules=preset("kniffel"), seats=[Seat("Anna")], seed=3), script)


# --- play to win: both answers in the hint (issue 41) ---------------------------------------------


def _game_where_the_answers_differ() -> Game:
    """Two players' classic game, both played by the expert up to Ben's second throw of round 12
    (1 2 2 2 3, 2 points behind the bonus, far behind Anna): for the points he throws all
    dice again, to win he keeps the three 2s."""
    import random

    from kniffel.engine.match import Match
    from kniffel.engine.strategy import get_strategy

    rules = preset("kniffel")
    expert = get_strategy("expert", rules)
    game = Game(rules, ["Anna", "Ben"], seed=1)
    match = Match(game, rng=random.Random(1))
    match.settle()
    while len(game.actions) < 159:
        match.apply(expert.choose(game, random.Random(0)))
        match.settle()
    return game


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_h_shows_the_answer_for_the_points_and_the_answer_to_win_where_they_differ(
        classic_tables: Path, lang: Lang, size: tuple[int, int]) -> None:
    from kniffel.engine.winning import win_advice
    from kniffel.tui.view import hint_text

    game = _game_where_the_answers_differ()
    advice = win_advice(game)
    assert advice.differ
    head = "Für die Punkte" if lang == "de" else "For the points"
    win = "Für den Sieg" if lang == "de" else "To win"

    async def main() -> None:
        app = KniffelApp(lang=lang, rules=game.rules, resume=(None, game.copy()))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("h")
            await until(pilot, lambda: text_of(screen, "#message").startswith(head))
            await pilot.pause()
            message = screen.query_one("#message", Static)
            shown = text_of(screen, "#message")
            assert shown == hint_text(advice, lang, width=message.size.width)
            assert win in shown
            for option in (advice.for_points, advice.for_win):
                assert option.describe(game.rules, lang) in shown
            # every line of it on the screen, none cut
            assert shown.count("\n") < message.size.height
            terminal = screen_text(app)
            for line in shown.splitlines():
                assert line in terminal, terminal
            if size[0] >= 120:  # room for the expected totals
                assert number(advice.for_win.expected, lang) in shown

    run_async(main())


def test_at_40_by_12_the_game_waits_for_room_and_then_shows_both_answers(
        classic_tables: Path) -> None:
    game = _game_where_the_answers_differ()

    async def main() -> None:
        app = KniffelApp(lang="de", rules=game.rules, resume=(None, game.copy()))
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            terminal = screen_text(app)
            assert "Das Fenster ist zu klein (40×12)" in terminal
            assert "Zeichen. Bitte vergrößern" in terminal
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("h")
            await until(pilot, lambda: "Für den Sieg" in text_of(screen, "#message"))

    run_async(main())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_two_answers_break_between_them_and_never_run_past_the_line(
        classic_tables: Path, lang: Lang) -> None:
    from kniffel.engine.winning import win_advice
    from kniffel.tui.view import hint_text, win_hint_text

    advice = win_advice(_game_where_the_answers_differ())
    full = win_hint_text(advice, lang)
    assert full == hint_text(advice, lang)
    assert " — " in full
    assert "\n" not in full
    assert ("(Ø 263,6 · 1 %)" if lang == "de" else "(avg 263.6 · 1 %)") in full
    for width in range(26, 121):
        text = hint_text(advice, lang, width=width)
        lines = text.split("\n")
        assert all(len(line) <= width for line in lines), (width, text)
        # two lines wherever the short form's answers fit a line each (the message beside
        # the dice is never narrower than 40), each answer on lines of its own below that
        assert len(lines) <= (2 if width >= 40 else 4), (width, text)
        assert not any(line.startswith(("—", " ")) for line in lines), (width, text)
        if len(full) <= width:
            assert text == full


def test_where_both_answers_agree_the_hint_is_the_experts_as_before(
        classic_tables: Path) -> None:
    from kniffel.engine.winning import win_advice
    from kniffel.tui.view import hint_text

    game = Game(preset("kniffel"), ["Anna", "Ben"], seed=2)
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 6, 6))))
    advice = win_advice(game)
    assert not advice.differ
    for lang in ("de", "en"):
        assert hint_text(advice, lang, width=60) == hint_text(advice.points, lang, width=60)


def test_the_hint_of_a_game_of_two_computes_the_chances_to_win_in_its_thread(
        classic_tables: Path) -> None:
    from kniffel.engine.advice import Advice, Position
    from kniffel.engine.winning import WinAdvice

    game = _game_where_the_answers_differ()
    position = Position.from_game(game)
    alone = tui_threads._advise(position)
    assert isinstance(alone, Advice)
    both = tui_threads._advise(position, game.copy())
    assert isinstance(both, WinAdvice)
    assert both.points.options == alone.options
    assert both.differ


@pytest.mark.solve
def test_an_expert_to_win_plays_a_whole_classic_game_against_a_person_and_the_expert(
        classic_tables: Path) -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await until(pilot, screen.game.is_over, limit=400000)
        assert [p.strategy for p in screen.game.players] == ["expert-win", "expert"]
        assert all(total > 0 for total in screen.game.scores())

    run(KniffelApp(lang="de", rules=preset("kniffel"),
                   seats=[Seat("Sieger", "expert-win"), Seat("Exp", "expert")], seed=4,
                   speed=0.0), script)


@pytest.mark.solve
def test_an_expert_opponent_plays_a_whole_classic_game(classic_tables: Path) -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await until(pilot, screen.game.is_over, limit=200000)
        assert screen.game.sheet(0).total > 0
        assert all(p.strategy == "expert" for p in screen.game.players)

    run(KniffelApp(lang="en", rules=preset("kniffel"), seats=[Seat("Exp", "expert")], seed=4,
                   speed=0.0), script)


# --- nothing cut, nothing lost (issue 19) ---------------------------------------------------


def faces_of(screen: GameScreen) -> list[int]:
    faces = [d.face for d in screen.query(Die)]
    assert None not in faces
    return [f for f in faces if f is not None]


def test_kept_dice_stay_in_their_places_and_their_keys_still_point_at_them() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r")
        before = faces_of(screen)
        await pilot.press("2", "5", "r")
        after = faces_of(screen)
        turn = game.turn
        assert turn is not None
        assert turn.roll is not None
        assert list(turn.roll.d6) != after  # sorted, the kept 4 would have moved
        assert (after[1], after[4]) == (before[1], before[4])
        assert screen.kept == {1, 4}
        assert [d.kept for d in screen.query(Die)] == [False, True, False, False, True]
        assert sorted(after) == list(turn.roll.d6)
        thrown = [after[i] for i in (0, 2, 3)]
        assert thrown == sorted(thrown)  # the thrown dice fill the other places, in order
        await pilot.press("5")  # releases the die it kept: the one still in place 5
        assert screen.kept == {1}
        await pilot.press("r")
        assert game.actions[-2] == Throw(Keep((before[1],)))
        assert faces_of(screen)[1] == before[1]

    run(KniffelApp(lang="en", rules=preset("kniffel"), seats=[Seat("Anna")], seed=2), script)


def test_undo_drops_the_moves_it_took_back_from_the_log_and_brings_back_the_marks() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r", "1", "2", "r")
        kept = screen.kept
        assert kept == {0, 1}
        await pilot.press("enter")
        assert len(screen.moves) == 2
        assert screen.moves[1].startswith("Anna: ")
        await pilot.press("u")  # the box: back to the dice after the second throw
        assert screen.moves == ["Anna starts"]
        assert screen.kept == kept
        assert [d.kept for d in screen.query(Die)][:2] == [True, True]
        await pilot.press("u")  # the second throw: the marks it was thrown with
        assert len(screen.game.actions) == 2
        assert screen.kept == kept
        first = screen.game.actions[1]
        assert isinstance(first, Outcome)
        await pilot.press("r")
        actions = list(screen.game.actions)
        assert actions[2] == Throw(Keep(list(first.roll.d6)[:2]))

    run(KniffelApp(lang="en", rules=preset("kniffel"), seats=[Seat("Anna")], seed=2), script)


def test_enter_on_a_filled_box_says_it_is_filled() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        table: DataTable[object] = screen.query_one("#sheet", DataTable)
        await pilot.press("r", "enter")
        [(box, entry)] = game.sheet(0).entries.items()
        await pilot.press("r")
        while game.rules.boxes[table.cursor_row] is not box:
            await pilot.press("up" if table.cursor_row > game.rules.boxes.index(box) else "down")
        actions = len(game.actions)
        await pilot.press("enter")
        name = game.rules.box_name(box, "en")
        assert text_of(screen, "#message") == f"{name} is already filled ({entry.points})."
        assert len(game.actions) == actions

    run(KniffelApp(lang="en", rules=preset("kniffel"), seats=[Seat("Anna")], seed=4), script)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_key_line_shows_the_keys_that_work_now_and_fits_80_columns(lang: Lang) -> None:
    hint = {"de": "[h] Tipp", "en": "[h] hint"}[lang]
    roll = {"de": "[r] würfeln", "en": "[r] roll"}[lang]

    async def main() -> None:
        app = KniffelApp(lang=lang, rules=preset("extreme"), seats=SEATS[3], seed=1, start=0,
                         speed=60)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            keys = text_of(screen, "#keys")
            assert roll in keys
            assert hint not in keys
            assert "[u]" not in keys
            await pilot.press("r")
            await pilot.pause()
            keys = text_of(screen, "#keys")
            assert all(len(line) <= 78 for line in keys.splitlines())
            for key in (roll, "[1–6]", hint, "[u]", "[q]"):
                assert key in keys
            await pilot.press("r", "r")
            await pilot.pause()
            keys = text_of(screen, "#keys")
            assert roll not in keys
            assert "[1–6]" not in keys
            assert hint in keys
            assert "[c]" in keys
            assert keys in screen_text(app)  # on one line, whole
            kept = set(screen.kept)
            await pilot.press("3")
            assert screen.kept == kept  # keeping means nothing after the last throw

    run_async(main())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_after_the_third_throw_the_hint_keeps_both_lines_beside_the_chip_offer(
        lang: Lang) -> None:
    from kniffel.engine.advice import Position
    from kniffel.engine.expert import expert_for
    from kniffel.tui.view import hint_text

    async def main() -> None:
        app = KniffelApp(lang=lang, rules=preset("extreme"), seats=SEATS[3], seed=1, start=0,
                         speed=60)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("r", "r", "r", "h")
            head = "Tipp (" if lang == "de" else "Hint ("
            await until(pilot, lambda: text_of(screen, "#message").startswith(head))
            await pilot.pause()
            assert "\n" not in text_of(screen, "#turn")  # the chip offer is in the key line
            message = screen.query_one("#message", Static)
            assert message.size.height == 2
            advice = expert_for(screen.game.rules).advise(Position.from_game(screen.game))
            shown = text_of(screen, "#message")
            assert shown == hint_text(advice, lang, width=message.size.width)
            assert number(advice.best.expected, lang) in shown
            lines = [line for line in screen_text(app).splitlines() if line.strip()]
            joined = " ".join(line[42:].strip() for line in lines[1:4])
            assert " ".join(shown.split()) in " ".join(joined.split())

    run_async(main())


def test_the_roll_off_stays_readable_before_the_first_computer_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the note stands 2 s; 1.6 s here (0.8 s left too little room on a loaded machine between
    # the app's start and the first look)
    assert tui_computers.NOTE_S == 2.0
    monkeypatch.setattr(tui_computers, "NOTE_S", 1.6)

    async def main() -> None:
        app = KniffelApp(lang="en", rules=preset("kniffel"),
                         seats=[Seat("Bot 1", "greedy"), Seat("Bot 2", "greedy")], seed=3,
                         speed=0.2)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.4)  # longer than the speed's 0.2 s, within the note's time
            screen = screen_of(app)
            assert screen.game.actions == ()
            assert "(rolled off: Bot 1 " in text_of(screen, "#message")
            assert "(rolled off:" in screen_text(app)
            await until(pilot, lambda: len(screen.game.actions) > 0, limit=2000)
            assert screen.moves[0].endswith(")")
            assert "rolled off" in screen.moves[0]

    run_async(main())


def test_ctrl_c_says_in_the_players_language_how_to_quit_and_ctrl_q_quits_as_q_does(
        locked: tuple[History, sqlite3.Connection]) -> None:
    db, _ = locked
    app = KniffelApp(lang="de", history=db, seats=[Seat("Anna")], seed=3)

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("ctrl+c")
        await pilot.pause()
        [toast] = list(app._notifications)
        assert toast.message == "Beenden mit [b]q[/b] (oder Strg+Q)"
        assert toast.title == "Beenden?"
        assert app.is_running
        await pilot.press("r")
        await until(pilot, lambda: screen.match.save_state.error is not None
                    and not screen.writer.busy)
        await pilot.press("ctrl+q")  # as q: the moves are not saved, a second one quits
        assert "2 Züge sind nicht gespeichert" in text_of(screen, "#message")
        assert app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()

    run(app, script)
    assert app.rescued is not None
    report = app.quit_report()
    assert f"Das ganze Spiel steht in {app.rescued[0]}" in report


def test_a_game_that_can_be_stored_nowhere_is_lost_only_after_the_player_says_so(
        tmp_path: Path, locked: tuple[History, sqlite3.Connection],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.tui import rescue
    from kniffel.tui.widgets import ConfirmQuit

    nowhere = tmp_path / "not-a-folder"
    nowhere.write_text("")
    monkeypatch.setattr(rescue, "rescue_places", lambda history_path: [nowhere])
    db, _ = locked
    app = KniffelApp(lang="de", history=db, seats=[Seat("Anna")], seed=3)

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r")
        await until(pilot, lambda: screen.match.save_state.error is not None
                    and not screen.writer.busy)
        await pilot.press("q", "q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        shown = screen_text(app)
        assert "Das Spiel konnte nicht gespeichert werden" in shown
        assert "Trotzdem beenden? [j] ja, beenden  [n] nein, weiterspielen" in shown
        await pilot.press("n")  # plays on
        await pilot.pause()
        assert app.screen is screen
        assert app.is_running
        await pilot.press("1", "q", "q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        await pilot.press("j")
        await pilot.pause()

    run(app, script)
    assert app.return_code == 0
    report = app.quit_report()
    assert app.unsaved_on_exit
    assert "NICHT gespeichert: die Züge 1–2 von 2 fehlen" in report
    # the reason alone: "es wurde nichts geändert" is not true of moves that are missing
    assert "Ein anderes Programm sperrt den Spielverlauf." in report
    assert "nichts geändert" not in report.lower()
    assert f"Auch eine Rettungsdatei ließ sich nicht schreiben (versucht: {nowhere})" in report


def test_rescue_files_go_to_the_first_folder_that_takes_them(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    from kniffel.tui.rescue import rescue_places, write_rescue

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    db = tmp_path / "gone" / "h.sqlite3"  # its folder does not exist (any more)
    places = rescue_places(db)
    assert places[:3] == [db.parent, tmp_path / "data" / "kniffel", tmp_path / "home"]
    game = Game(preset("kniffel"), ["Anna"], seed=1)
    game.apply(Throw(Keep()))
    game.apply(game.sample_outcome(__import__("random").Random(1)))
    path, tried = write_rescue(game, db)
    assert path is not None
    assert path.parent == tmp_path / "home"
    assert tried == places[:3]
    assert path.name.startswith("h.unsaved-")
    assert path.suffix == ".json"
    assert load_game(path).actions == game.actions


def _stored_actions(db: Path) -> list[tuple[int, int]]:
    """(id, number of actions) of every game in ``db``, read without waiting for locks."""
    with History(db, create=False) as h:
        return [(r.id, r.actions) for r in h.games()]


@pytest.mark.tmux
def test_a_real_terminal_keeps_every_move_through_a_lock_and_rescues_what_stays_locked(
        tmp_path: Path, tmux: Tmux) -> None:
    kniffel = Path(sys.executable).with_name("kniffel")
    db = tmp_path / "h.sqlite3"
    env = f"env TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME={tmp_path / 'xdg'}"

    def start(args: str) -> None:
        tmux.start(f"{env} {kniffel} play --lang en --db {db} {args}; echo exit=$?; sleep 60")

    def keys(*pressed: str) -> None:
        tmux.keys(*pressed, pause=0.3)

    def pane(done: Callable[[str], bool], seconds: float = 60) -> str:
        return tmux.pane_until(done, seconds, joined=True)  # a long path stays whole

    locker = sqlite3.connect(db, isolation_level=None)
    try:
        # 1. locked mid-game, then released: every move reaches the history
        start("--rules kniffel --seed 3 --player Anna")
        pane(lambda t: "Anna's turn" in t and "[r] roll" in t)
        keys("r")
        pane(lambda t: "throw 1 of 3" in t)
        deadline = time.monotonic() + 10
        while not db.exists() or _stored_actions(db) != [(1, 2)]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        locker.execute("BEGIN EXCLUSIVE")
        keys("1", "r")
        pane(lambda t: "Not saved: 2 of 4 moves" in t and "locked" in t)
        locker.execute("ROLLBACK")  # the retry every 3 s writes them
        pane(lambda t: "Not saved" not in t, seconds=15)
        keys("Enter", "q")
        text = pane(lambda t: "exit=" in t)
        assert f"Game saved – continue with: kniffel play --db {db} --resume" in text
        assert "exit=0" in text
        assert _stored_actions(db) == [(1, 5)]
        # 2. locked and kept locked: quitting writes the whole game to a rescue file
        start("--resume")
        pane(lambda t: "Anna's turn" in t and "[r] roll" in t)
        locker.execute("BEGIN EXCLUSIVE")
        keys("r")
        pane(lambda t: "Not saved: 2 of 7 moves" in t)
        keys("q")
        pane(lambda t: "2 moves are not saved. [q] again: quit anyway" in t)
        keys("q")
        text = pane(lambda t: "exit=" in t, seconds=20)
        assert "NOT saved: moves 6–7 of 7 are missing from the history" in text
        assert "exit=1" in text
        rescued = Path(text.split("The whole game is in ")[1].split(" ")[0])
        assert rescued.parent == tmp_path
        locker.execute("ROLLBACK")
        locker.close()
        game = load_game(rescued)
        with History(db) as h:
            stored = h.load(1)
        assert len(game.actions) == 7
        assert game.actions[:5] == stored.actions
        assert (game.players, game.seed, game.rules) == (stored.players, stored.seed,
                                                        stored.rules)
        # 3. the rescue file plays on as the same game of the history
        start(f"--load {rescued}")
        pane(lambda t: "Anna's turn" in t and "throw 1 of 3" in t)
        keys("q")
        text = pane(lambda t: "exit=" in t)
        assert "exit=0" in text
        assert _stored_actions(db) == [(1, 7)]
    finally:
        locker.close()


@pytest.mark.solve
def test_setup_the_free_strike_box_cannot_be_ticked_where_it_means_nothing() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        box = screen.query_one("#free-strike", Checkbox)
        assert not box.disabled
        box.value = True
        screen.query_one("#rules", Select).value = "yahtzee"
        await pilot.pause()
        assert box.disabled
        assert not box.value
        assert screen.chosen_rules() == preset("yahtzee")
        screen.query_one("#rules", Select).value = "kniffel-championship"
        await pilot.pause()
        assert box.disabled
        assert box.value  # striking any time is that rule set's own rule
        screen.query_one("#rules", Select).value = "kniffel"
        await pilot.pause()
        assert not box.disabled
        assert not box.value

    run(KniffelApp(lang="en"), script)


# --- the win chances under the totals (issue 22) -----------------------------------------------


def chance_cells(screen: GameScreen) -> list[str]:
    """The win chances the sheet's footer shows, one per player."""
    totals: DataTable[object] = screen.query_one("#totals", DataTable)
    return [str(totals.get_cell("chance", f"p{i}")) for i in range(len(screen.game.players))]


def chances_shown_for(screen: GameScreen) -> bool:
    """Whether the footer shows the win chances of the game as it is now."""
    from kniffel.engine.chances import win_chances

    widths = screen.sheet.widths[2:-1]
    found = win_chances(screen.game)
    return chance_cells(screen) == [chance_text(o.win, screen.lang, w)
                                    for o, w in zip(found.players, widths, strict=True)]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_win_chance_row_follows_every_entry_and_undo_and_marks_the_leader(
        lang: Lang) -> None:
    label = {"de": "Gewinnchance", "en": "Win chance"}

    async def main() -> None:
        app = KniffelApp(lang=lang, seats=SEATS[3], seed=1, start=1, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            await until(pilot, lambda: screen.match.human_to_move()
                        and chances_shown_for(screen))
            before = chance_cells(screen)
            assert all(cell.endswith("%") for cell in before)
            lines = screen_text(app).splitlines()
            row = next(line for line in lines if line.lstrip().startswith(label[lang]))
            assert all(cell in row for cell in before)
            assert lines.index(row) == len(lines) - 2  # under the totals, above the keys
            totals: DataTable[object] = screen.query_one("#totals", DataTable)
            leader = screen.sheet.chances.leader if screen.sheet.chances else None
            assert leader is not None
            cell = totals.get_cell("chance", f"p{leader}")
            assert isinstance(cell, Text)
            assert str(cell.style) == "bold green"
            entries = len(screen.game.sheet(0).entries)
            await pilot.press("r", "enter")  # Anna scores: the chances change
            await until(pilot, lambda: len(screen.game.sheet(0).entries) > entries)
            await until(pilot, lambda: screen.match.human_to_move()
                        and chances_shown_for(screen))
            assert chance_cells(screen) != before
            await pilot.press("u")  # back to Anna's throw: the chances of before it
            await until(pilot, lambda: len(screen.game.sheet(0).entries) == entries
                        and chances_shown_for(screen))
            assert chance_cells(screen) == before

    run_async(main())


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules", ["extreme", "kniffel"])
def test_the_win_chances_fit_80x24_with_every_player_in_view(players: int, rules: str) -> None:
    from kniffel.engine.chances import chance_model

    seats = [Seat("Anna"), *(Seat(f"Computer {i}", "greedy") for i in range(1, players))]
    chance_model(preset(rules))  # the test's own win_chances: never beside the game's thread

    async def main() -> None:
        app = KniffelApp(lang="de", rules=preset(rules), seats=seats, seed=3, start=0, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            await until(pilot, lambda: chances_shown_for(screen))
            lines = screen_text(app).splitlines()
            assert len(lines) <= 24
            assert all(len(line) <= 80 for line in lines)
            row = next(line for line in lines if line.lstrip().startswith("Gewinnchance"))
            cells = chance_cells(screen)
            assert all(cell in row for cell in cells)
            assert len(set(cells)) == 1  # nobody has entered anything: equal chances
            totals: DataTable[object] = screen.query_one("#totals", DataTable)
            assert totals.region.bottom <= 23  # the row above the key line
            assert totals.virtual_size.width <= totals.size.width

    run_async(main())


def test_a_player_alone_has_no_win_chance_row() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r", "enter")
        await pilot.pause()
        totals: DataTable[object] = screen.query_one("#totals", DataTable)
        assert "chance" not in totals.rows
        assert "Gewinnchance" not in screen_text(app)
        assert not screen.win_chances.busy

    run(KniffelApp(lang="de", seats=SEATS[1], seed=1, start=0), script)


def test_where_no_chances_can_be_computed_the_row_is_empty_and_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.engine.errors import ExpertError

    def no_values(rules: object) -> object:
        raise ExpertError("no values", code="expert.model_missing",
                          params={"rules": "extreme", "command": "fit"})

    monkeypatch.setattr(tui_threads, "chance_model", no_values)

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await until(pilot, lambda: not screen.win_chances.busy)
        assert chance_cells(screen) == ["", ""]
        assert "Gewinnchance" in screen_text(app)
        await pilot.press("r", "enter")
        await until(pilot, lambda: len(screen.game.sheet(0).entries) == 1
                    and not screen.win_chances.busy)
        assert chance_cells(screen) == ["", ""]
        assert screen.sheet.chances is None

    run(KniffelApp(lang="de", seats=[Seat("Anna"), Seat("Ben")], seed=1, start=0), script)


def test_the_threads_chances_are_the_libraries_at_every_entry_and_in_the_midst_of_a_turn() -> None:
    import random

    from kniffel.engine.chances import win_chances
    from kniffel.engine.match import Match
    from kniffel.engine.strategy import get_strategy
    from kniffel.tui.threads import chances_job

    rules = preset("extreme")
    game = Game(rules, ["Anna", "Ben", "Cleo"], seed=5)
    greedy = get_strategy("greedy", rules)
    match = Match(game, strategies=dict.fromkeys(range(3), greedy), rng=random.Random(5))
    checked = 0
    chip_seen = False
    while not game.is_over():
        match.move()
        turn = game.turn
        chip_seen |= turn is not None and turn.chip_used
        if checked < 60 or game.is_over() or (turn is not None and turn.chip_used):
            assert chances_job(game)() == win_chances(game)
            checked += 1
    assert chip_seen
    assert chances_job(game)() == win_chances(game)


@pytest.mark.parametrize(("win", "lang", "width", "shown"), [
    (0.4321, "de", 6, "43 %"), (0.4321, "en", 3, "43%"), (1.0, "de", 5, "100 %"),
    (1.0, "de", 4, "100%"), (0.0, "en", 4, "0 %"), (0.003, "de", 6, "<1 %"),
    (0.003, "de", 3, "<1%"), (0.997, "en", 5, ">99 %"), (0.997, "en", 4, ">99%"),
])
def test_a_win_chance_is_whole_percent_and_not_quite_0_or_1_is_said_so(
        win: float, lang: Lang, width: int, shown: str) -> None:
    assert chance_text(win, lang, width) == shown


def test_the_first_job_that_may_build_a_table_holds_the_lock_and_later_ones_do_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.engine.advice import Position
    from kniffel.engine.chances import chance_model
    from kniffel.engine.errors import ExpertError

    held: list[str] = []

    def model(rules: object) -> object:
        held.append(f"chances {tui_threads.TABLES_LOCK.locked()}")
        return chance_model(preset("extreme"))

    def expert(rules: object) -> object:
        held.append(f"hint {tui_threads.TABLES_LOCK.locked()}")
        raise ExpertError("none", code="expert.error")

    monkeypatch.setattr(tui_threads, "chance_model", model)
    monkeypatch.setattr(tui_threads, "expert_for", expert)
    monkeypatch.setattr(tui_threads, "_loaded", set())
    game = Game(preset("extreme"), ["Anna", "Ben"], seed=1)
    game.apply(Throw())
    game.apply(Outcome(Roll((1, 2, 3, 4, 6), d10=3)))
    position = Position.from_game(game)
    for _ in range(2):
        assert tui_threads.chances_job(game)() is not None
        assert isinstance(tui_threads._advise(position), ExpertError)
    # the chances ran once: later ones need no lock; the hint failed: it still takes it
    assert held == ["chances True", "hint True", "chances False", "hint True"]
    assert not tui_threads.TABLES_LOCK.locked()


def _chance_row(text: str, label: str) -> str:
    return next((line for line in text.splitlines() if line.lstrip().startswith(label)), "")


@pytest.mark.tmux
def test_a_real_terminal_of_80x24_shows_four_players_win_chances_after_every_entry(
        tmp_path: Path, tmux: Tmux) -> None:
    kniffel = Path(sys.executable).with_name("kniffel")
    db = tmp_path / "h.sqlite3"
    players = " ".join(f"--player 'Computer {i}:greedy'" for i in range(1, 4))
    command = (f"{kniffel} play --lang de --db {db} --seed 4 --start 2 --speed 0.1 "
               f"--player Anna {players}; echo exit=$?; sleep 60")
    tmux.start(f"env TERM=xterm-256color LANG=C.UTF-8 {command}")

    def four(t: str) -> bool:
        return "Anna ist dran" in t and _chance_row(t, "Gewinnchance").count("%") == 4

    text = tmux.pane_until(four)
    (tmp_path / "pane.txt").write_text(text, "utf-8")
    lines = text.splitlines()
    assert len(lines) <= 24
    assert all(len(line) <= 80 for line in lines)
    assert "Traceback" not in text
    row = _chance_row(text, "Gewinnchance")
    total = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Gesamt"))
    assert lines.index(row) == total + 1  # right under the totals
    header = next(line for line in lines if "Anna" in line and "Wurf" in line)
    assert all(f"Computer {i}" in header for i in range(1, 4))
    tmux.keys("r")
    tmux.pane_until(lambda t: "1 von 3" in t)
    tmux.keys("Enter")  # Anna scores; the computers play on
    after = tmux.pane_until(lambda t: four(t) and _chance_row(t, "Gewinnchance") != row
                            and "Runde 2 von 22" in t)
    assert "Traceback" not in after
    tmux.keys("q")
    assert "exit=0" in tmux.pane_until(lambda t: "exit=" in t)


# --- issue 31: the first screen, the key lines, small and odd terminals -------------------------


def test_setup_takes_a_new_players_first_keys_as_their_name_and_enter_starts(
        tmp_path: Path) -> None:
    """Issue 31 item 1: the first name field has the focus (its text selected), so typing a
    name replaces "Spieler 1"; Enter starts as the key line says, from any field but an open
    list (there it picks the entry)."""
    db = History(tmp_path / "h.sqlite3")

    async def main() -> None:
        app = KniffelApp(lang="de", history=db)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "[Enter] Los" in screen_text(app)
            await pilot.press(*"Anna")
            assert app.screen.query_one("#name-0", Input).value == "Anna"
            await pilot.press("tab")
            assert app.focused is app.screen.query_one("#kind-0", Select)
            await pilot.press("space")  # opens the list
            await pilot.pause()
            await pilot.press("enter")  # picks the entry under the cursor: still a person
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            assert app.screen.query_one("#kind-0", Select).value == "human"
            await pilot.press("enter")
            await pilot.pause()
            game = screen_of(app).game
            assert [p.name for p in game.players] == ["Anna", "Computer 1", "Computer 2"]

    run_async(main())
    db.close()


def test_setup_enter_on_the_tick_box_starts_and_space_ticks_it() -> None:
    async def main() -> None:
        app = KniffelApp(lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            box = app.screen.query_one("#free-strike", Checkbox)
            box.focus()
            await pilot.press("space")
            assert box.value
            await pilot.press("enter")
            await pilot.pause()
            assert screen_of(app).game.rules.free_strike

    run_async(main())


def test_the_unticked_house_rule_box_shows_no_tick_without_colour() -> None:
    """Issue 31 item 11: "▐X▌" told ticked from unticked by colour alone."""
    async def main() -> None:
        app = KniffelApp(lang="de")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            box = app.screen.query_one("#free-strike", Checkbox)
            line = next(t for t in screen_text(app).splitlines() if "Hausregel" in t)
            assert "X" not in line
            box.value = True
            await pilot.pause()
            line = next(t for t in screen_text(app).splitlines() if "Hausregel" in t)
            assert "X" in line

    run_async(main())


def _advice_with_a_tiny_loss() -> object:
    from kniffel.engine.advice import Advice, Option, Position

    rules = preset("kniffel")
    position = Position(rules, roll=Roll((2, 2, 3, 5, 6)), rolls_used=3)
    options = (Option(Score(Box.TWOS), 230.46, 0.0, 4),
               Option(Score(Box.CHANCE), 230.44, 0.02, 18),
               Option(Score(Box.THREES), 228.1, 2.36, 3))
    return Advice(position, options, 0, "table")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_hint_breaks_between_its_parts_and_shows_no_loss_of_zero(lang: Lang) -> None:
    """Issue 31 item 11: no line of the hint starts with a dangling "·" or "|", and a loss that
    rounds to 0.0 is not shown as "(−0,0)"."""
    from kniffel.tui.view import hint_text

    advice = _advice_with_a_tiny_loss()
    for width in range(20, 121):
        text = hint_text(advice, lang, width=width)  # type: ignore[arg-type]
        lines = text.split("\n")
        assert len(lines) <= 2 or text.count(" | ") == 0, text
        for line in lines:
            assert not line.lstrip().startswith(("·", "|")), text
            assert not line.rstrip().endswith(("·", "|")), text
        assert "(−0,0)" not in text
        assert "(−0.0)" not in text
    full = hint_text(advice, lang)  # type: ignore[arg-type]
    assert "(−2,4)" in full if lang == "de" else "(−2.4)" in full


def test_esc_closes_the_hint_first_and_quits_the_second_time() -> None:
    async def main() -> None:
        app = KniffelApp(lang="de", rules=preset("extreme"), seats=[Seat("Anna")], seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("r", "h")
            await until(pilot, lambda: text_of(screen, "#message").startswith("Tipp ("))
            assert "[Esc] Tipp aus" in text_of(screen, "#keys")
            await pilot.press("escape")
            await pilot.pause()
            assert app.return_code is None  # still playing
            assert text_of(screen, "#message") == ""
            assert "[h] Tipp" in text_of(screen, "#keys")
            await pilot.press("escape")
            await pilot.pause()
            assert app.return_code == 0

    run_async(main())


def test_a_window_too_small_shows_a_notice_and_plays_nothing_unseen() -> None:
    """Issue 31 item 11: at 40×12 the game gives way to a notice (no cut rows); only q works;
    at 80×24 the game is back as it was."""
    async def main() -> None:
        app = KniffelApp(lang="de", rules=preset("extreme"), seats=[Seat("Anna")], seed=1)
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            await pilot.pause()
            shown = " ".join(screen_text(app).split())
            assert "Das Fenster ist zu klein (40×12): das Spiel braucht mindestens 80×20" in shown
            assert "Einser" not in shown
            await pilot.press("r")
            assert screen_of(app).game.actions == ()
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            shown = screen_text(app)
            assert "zu klein" not in shown
            assert "Gesamt" in shown
            await pilot.press("r")
            assert screen_of(app).game.actions != ()

    run_async(main())


@pytest.mark.solve  # two computers play a whole game: seconds
def test_the_classic_end_screen_at_80x24_shows_every_box_and_every_sum() -> None:
    """Issue 31 item 11: Chance was hidden below the sheet even on the end screen."""
    async def main() -> None:
        app = KniffelApp(lang="de", rules=preset("kniffel"),
                         seats=[Seat("A", "greedy"), Seat("B", "greedy")], seed=1, start=0,
                         speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: screen_of(app).game.is_over())
            for _ in range(4):
                await pilot.pause()
            rows = [line.split("  ")[0].strip() for line in screen_text(app).splitlines()]
            rules = preset("kniffel")
            for box in rules.boxes:
                assert rules.box_name(box, "de") in rows
            for label in ("Summe oben", "Summe unten", "Gesamt", "Gewinnchance"):
                assert label in rows

    run_async(main())


def test_a_resize_to_120x40_shows_the_sheet_from_its_first_box() -> None:
    """Issue 31 item 11: after a resize the sheet had scrolled "Einser" away above empty
    lines."""
    async def main() -> None:
        app = KniffelApp(lang="de", rules=preset("extreme"), seats=[Seat("Anna")], seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("r", *["down"] * 21)
            await pilot.pause()
            assert screen.table.scroll_y > 0
            for size in ((90, 28), (120, 40)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
            for _ in range(4):
                await pilot.pause()
            assert screen.table.scroll_y == 0
            rows = [line.split("  ")[0].strip() for line in screen_text(app).splitlines()]
            rules = preset("extreme")
            assert all(rules.box_name(box, "de") in rows for box in rules.boxes)

    run_async(main())


def test_the_setup_screen_too_gives_way_to_the_notice_and_comes_back_typing() -> None:
    async def main() -> None:
        app = KniffelApp(lang="en")
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            await pilot.pause()
            shown = " ".join(screen_text(app).split())
            assert "The window is too small (40×12): the game needs at least 80×20" in shown
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)  # nothing started unseen
            await pilot.resize_terminal(80, 24)
            for _ in range(3):
                await pilot.pause()
            assert "too small" not in screen_text(app)
            await pilot.press(*"Bob")
            assert app.screen.query_one("#name-0", Input).value == "Bob"
            await pilot.press("enter")
            await pilot.pause()
            assert screen_of(app).game.players[0].name == "Bob"

    run_async(main())


def test_from_a_wide_window_to_80_columns_the_sheet_takes_the_whole_width() -> None:
    """Seen in tmux: after 120×40 → 80×24 the sheet kept the wide layout's width, its scroll
    bar in the middle of the screen."""
    async def main() -> None:
        app = KniffelApp(lang="en", rules=preset("extreme"), seats=[Seat("Anna")], seed=1)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.resize_terminal(80, 24)
            for _ in range(4):
                await pilot.pause()
            assert screen_of(app).query_one("#sheet-box").size.width == 80

    run_async(main())


def test_with_the_free_strike_house_rule_the_roll_column_still_shows_the_points() -> None:
    """Seen in tmux: with --free-strike every open box may also be struck, and the Roll column
    showed "strike" in every row, the points of Ones, Fours, Chance hidden."""
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        game = screen.game
        await pilot.press("r")
        turn = game.turn
        assert turn is not None
        assert turn.roll is not None
        column = roll_column(screen)
        scores = {c.box: c.points for c in game.choices() if not c.strike}
        assert scores  # the dice score somewhere
        for box in game.rules.boxes:
            shown = column[box.value]
            if box in scores:
                assert shown.startswith(str(scores[box])), (box, shown)
            else:
                assert shown == "strike", (box, shown)

    run(KniffelApp(lang="en", rules=preset("extreme", free_strike=True), seats=[Seat("Anna")],
                   seed=4), script)


def test_a_computer_waits_while_the_window_is_too_small_and_plays_on_once_it_grows() -> None:
    """Issue 33: in a window too small for the game a computer's game went on out of sight; it
    waits while the notice is shown and goes on once the window is big enough again."""
    async def main() -> None:
        app = KniffelApp(lang="en", rules=preset("kniffel"),
                         seats=[Seat("Bot 1", "greedy"), Seat("Bot 2", "greedy")], seed=1,
                         start=0, speed=0)
        async with app.run_test(size=(40, 12)) as pilot:
            for _ in range(40):
                await pilot.pause(0.02)
            screen = screen_of(app)
            assert screen.has_class("too-small")
            assert screen.game.actions == ()
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: len(screen.game.actions) >= 6)
            await pilot.resize_terminal(60, 24)  # smaller again, in the middle of the game
            await pilot.pause()
            await pilot.pause(0.3)  # a step or a decision under way when it shrank ends
            played = len(screen.game.actions)
            for _ in range(40):
                await pilot.pause(0.02)
            assert len(screen.game.actions) == played
            assert not screen.game.is_over()
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: len(screen.game.actions) > played)

    run_async(main())


def test_at_100x30_the_sheet_scrolls_to_the_box_a_computer_just_entered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: at 100×30 the computer's entry in a box at the bottom of the sheet was out of
    view; the sheet scrolls so the box just entered is seen."""
    rules = preset("extreme")
    monkeypatch.setattr(tui_computers, "NOTE_S", 0.5)  # who begins: read in 0.5 s here

    class Bottom:
        """Throws once, then enters the dice in the lowest box it may."""

        name = "bottom"

        def __init__(self, rules: object) -> None:
            pass

        def choose(self, game: Game, rng: object) -> object:
            legal = game.legal_actions()
            boxes = [a for a in legal if isinstance(a, Score | Strike)]
            if not boxes:
                return legal[0]
            return max(boxes, key=lambda a: game.rules.boxes.index(a.box))

    async def main() -> None:
        app = KniffelApp(lang="en", rules=rules, seats=[Seat("Bot", "bottom")], seed=1,
                         speed=0.5)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = screen_of(app)
            table = screen.table
            await until(pilot, lambda: bool(screen.game.sheet(0).entries))
            for _ in range(4):
                await pilot.pause()
            [box] = screen.game.sheet(0).entries
            row = rules.boxes.index(box)
            shown = table.size.height - table.header_height  # the rows in view
            assert shown < len(rules.boxes)  # the sheet scrolls at 100×30
            assert row >= shown  # a box below the first screenful
            assert table.scroll_y <= row < table.scroll_y + shown
            assert screen.game.sheet(0).entries  # still the first entry only
            assert len(screen.game.sheet(0).entries) == 1

    original = dict(strategy_module._REGISTRY)
    register_strategy("bottom", Bottom)  # type: ignore[arg-type]
    try:
        run_async(main())
    finally:
        strategy_module._REGISTRY.clear()
        strategy_module._REGISTRY.update(original)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_at_80x24_the_engines_long_refusal_is_read_whole_under_the_dice(lang: Lang) -> None:
    """Issue 33: the engine's sentence (the roll, the boxes it fits) is longer than the two
    lines beside the dice: it goes under them across the whole width, every word on the
    screen, and the sheet and its sums still fit."""
    async def main() -> None:
        app = KniffelApp(lang=lang, rules=preset("extreme"), seats=[Seat("Anna")], seed=4)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            game = screen.game
            await pilot.press("r", "r", "r", "down", "s")
            for _ in range(4):
                await pilot.pause()
            box = game.rules.boxes[screen.table.cursor_row]
            said = refusal(game, Strike(box), lang)
            assert message_of(screen) == said
            assert len(said) > 2 * 38  # more than the two lines beside the dice take
            assert screen.query_one("#message-below").display
            assert " ".join(said.split()) in " ".join(screen_text(app).split())
            assert catalog_text("tui.total", lang) in screen_text(app)
            await pilot.press("u")  # a short message goes back beside the dice
            for _ in range(2):
                await pilot.pause()
            assert not screen.query_one("#message-below").display

    run_async(main())

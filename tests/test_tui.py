"""The terminal game, driven through Textual's test pilot: setup, whole turns by keys and clicks,
chips, strikes, undo, quit and resume, and whole games with computer players."""

from __future__ import annotations

import asyncio
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
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

from kniffel import Box, Game, Keep, Outcome, PlayerKind, Roll, Score, Strike, Throw, UseChip
from kniffel import strategy as strategy_module
from kniffel.history import History
from kniffel.rules import Lang, preset
from kniffel.storage import load_game
from kniffel.strategy import register_strategy
from kniffel.tui import Die, GameScreen, KniffelApp, Seat, SetupScreen, abbreviate

SIZE = (150, 45)


def run(app: KniffelApp, script: Callable[[Pilot[None], KniffelApp], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


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


def roll_column(screen: GameScreen) -> dict[str, str]:
    table: DataTable[object] = screen.query_one("#sheet", DataTable)
    return {box.value: str(table.get_cell(box.value, "roll")) for box in screen.game.rules.boxes}


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


def test_setup_start_player_counts_only_the_rows_that_play() -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        app.screen.query_one("#kind-1", Select).value = "off"
        app.screen.query_one("#start-player", Select).value = 1
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "player 2 is not playing" in str(
            app.screen.query_one("#setup-error", Static).render())
        app.screen.query_one("#start-player", Select).value = 2
        await pilot.pause(0.3)  # the button ignores clicks while it shows the last one
        await pilot.click("#start")
        await pilot.pause()
        game = screen_of(app).game
        assert [p.name for p in game.players] == ["Player 1", "Computer 2"]
        assert game.start_player == 1

    run(KniffelApp(lang="en", speed=5.0), script)


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
        assert "does not fit" in text_of(screen, "#message")
        assert len(game.actions) == 2
        # it cannot be struck either while other boxes fit (the strike rule)
        await pilot.press("s")
        assert "may not be struck now" in text_of(screen, "#message")
        assert len(game.actions) == 2
        await pilot.press("up", "up")  # small straight
        await pilot.press("enter")
        assert game.actions[-1] == Score(Box.SMALL_STRAIGHT)
        assert game.sheet(0).entries[Box.SMALL_STRAIGHT].points == 30

    run(KniffelApp(lang="en", rules=preset("kniffel"), seats=[Seat("Anna")], seed=4), script)


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
        assert "No chip possible now" in text_of(screen, "#message")
        assert "hand in a chip" not in text_of(screen, "#turn")
        await pilot.press("r", "r")
        assert "hand in a chip for a 4th throw" in text_of(screen, "#turn")
        await pilot.press("r")
        assert "No throws left" in text_of(screen, "#message")
        await pilot.press("c")
        assert "hand in a chip" not in text_of(screen, "#turn")
        assert game.actions[-1] == UseChip()
        assert game.sheet(0).chips_left == 2
        assert "chips left: 2" in text_of(screen, "#turn")
        await pilot.press("r")
        turn = game.turn
        assert turn is not None
        assert turn.rolls_used == 4

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


def test_a_whole_game_of_computer_players_is_played_and_stored(tmp_path: Path) -> None:
    db = History(tmp_path / "h.sqlite3")

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await until(pilot, screen.game.is_over)
        await pilot.pause()
        assert "Game over" in text_of(screen, "#status")
        ranking = text_of(screen, "#turn")
        for rank, player, total in screen.game.ranking():
            assert f"{rank}. {screen.game.players[player].name} {total}" in ranking

    run(KniffelApp(lang="en", history=db, rules=preset("kniffel"),
                   seats=[Seat("Greedy", "greedy"), Seat("Random", "random"),
                          Seat("Other", "greedy")], seed=8, speed=0), script)
    [record] = db.games()
    assert record.finished
    game = db.load(record.id)
    assert record.totals == game.scores()
    assert all(p.kind is PlayerKind.COMPUTER for p in game.players)
    db.close()


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
            shown = screen._short
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

    asyncio.run(main())


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

    asyncio.run(main())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_chip_offer_and_the_speed_are_whole_at_80x24(lang: Lang) -> None:
    offer = {"de": "[c] Chip abgeben für einen 4. Wurf", "en": "[c] hand in a chip for a 4th throw"}
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

    asyncio.run(main())


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
        assert "[c]" in text_of(screen, "#turn")
        assert "[c]" not in text_of(screen, "#keys")

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
        assert len(screen.moves) == 3
        assert screen.moves[1].startswith("Bot 1: ")
        assert screen.moves[2].startswith("Bot 2: ")
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

    asyncio.run(main())


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

    asyncio.run(main())


# --- honest history writes --------------------------------------------------------------------


def test_a_locked_history_is_shown_until_a_write_succeeds_and_no_move_is_lost(
        tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    db = History(path, timeout=0.1)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    played: list[Game] = []

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r")
        await until(pilot, lambda: screen.match.save_state.error is not None)
        warning = text_of(screen, "#save")
        assert screen.query_one("#save").display
        assert "Not saved: 2 of 2 moves" in warning
        assert "locked" in warning
        await pilot.press("1", "r", "enter", "r")  # more moves while it is locked
        await until(pilot, lambda: not screen._saving and screen.match.save_state.error
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

    try:
        run(KniffelApp(lang="en", history=db, seats=[Seat("Anna")], seed=3), script)
    finally:
        locker.close()
    [record] = db.games()
    assert db.load(record.id).actions == played[0].actions
    assert record.actions == 7
    db.close()


def test_quitting_with_a_locked_history_never_claims_saved_and_names_what_is_missing(
        tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    db = History(path, timeout=0.1)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    app = KniffelApp(lang="en", history=db, seats=[Seat("Anna")], seed=3)

    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await pilot.press("r", "1", "r")
        await until(pilot, lambda: screen.match.save_state.error is not None
                    and not screen._saving)
        await pilot.press("q")
        assert "4 moves are not saved" in text_of(screen, "#message")
        assert app.is_running
        await pilot.press("q")

    try:
        run(app, script)
        report = app.quit_report()
        assert app.unsaved_on_exit
        assert "NOT saved: moves 1–4 of 4 are missing" in report
        assert "Game saved" not in report
        rescued = Path(report.split("The whole game is in ")[1].split(" ")[0])
        assert load_game(rescued).actions == screen_of_game(app).actions
    finally:
        locker.close()
    # once the database is free again, the same report writes everything
    assert app.quit_report() == "Game saved – continue with: kniffel play --resume"
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


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def _pane_until(session: str, done: Callable[[str], bool], seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    text = ""
    while time.monotonic() < deadline:
        text = _tmux("capture-pane", "-p", "-t", session)
        if done(text):
            return text
        time.sleep(0.2)
    raise AssertionError(f"the terminal never showed what was expected:\n{text}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (scripts/setup.sh --dev)")
@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_real_terminal_of_80x24_shows_the_whole_game(tmp_path: Path, lang: str) -> None:
    kniffel = Path(sys.executable).with_name("kniffel")
    db = tmp_path / "h.sqlite3"
    session = f"kniffel-test-{os.getpid()}-{lang}"
    # Textual draws on stderr: the pane shows the game, then what the command says at the end
    command = (f"{kniffel} play --lang {lang} --db {db} --seed 1 --start 2 --speed 0.2 "
               f"--player Anna --player 'Computer 1:greedy' --player 'Computer 2:greedy'; "
               f"echo exit=$?; sleep 60")
    _tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24",
          f"env TERM=xterm-256color LANG=C.UTF-8 {command}")
    try:
        total = "Gesamt" if lang == "de" else "Total"
        roll = "Wurf" if lang == "de" else "Roll"
        d10 = "W10" if lang == "de" else "d10"
        text = _pane_until(session, lambda t: total in t and "Anna" in t)
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
        text = _pane_until(session, lambda t: ("Anna ist dran" in t or "Anna's turn" in t)
                           and ("[r]" in t.splitlines()[-1] or "[r]" in t))
        _tmux("send-keys", "-t", session, "r")
        text = _pane_until(session, lambda t: "1 von 3" in t or "1 of 3" in t)
        assert "Computer 1:" in text or "Computer 2:" in text  # their moves are logged
        _tmux("send-keys", "-t", session, "q")
        report = _pane_until(session, lambda t: "exit=" in t)
        assert "exit=0" in report
        assert ("Spiel gespeichert" if lang == "de" else "Game saved") in report
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


# --- the hint and expert opponents (issue 12) --------------------------------------------------


@pytest.fixture
def classic_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A solver cache of its own (the expert builds the classic table there on first use)."""
    from kniffel import expert as expert_module

    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path / "cache"))
    expert_module._expert.cache_clear()
    expert_module._table_values.cache_clear()
    yield tmp_path / "cache"
    expert_module._expert.cache_clear()
    expert_module._table_values.cache_clear()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_h_shows_the_hint_with_the_advisors_numbers(classic_tables: Path, lang: Lang) -> None:
    from kniffel.advice import Position
    from kniffel.expert import expert_for
    from kniffel.tui import hint_text

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
        room = 2 * screen.query_one("#message", Static).size.width
        assert text_of(screen, "#message") == hint_text(advice, lang, room=room)
        best = advice.best
        shown = f"{best.expected:.1f}"
        assert (shown.replace(".", ",") if lang == "de" else shown) in text_of(screen, "#message")
        # a hint that comes after the player moved on is dropped
        await pilot.press("h", "r")
        await pilot.pause()
        assert not text_of(screen, "#message").startswith(head)

    run(KniffelApp(lang=lang, rules=preset("kniffel"), seats=[Seat("Anna")], seed=3), script)


def test_an_expert_opponent_plays_a_whole_classic_game(classic_tables: Path) -> None:
    async def script(pilot: Pilot[None], app: KniffelApp) -> None:
        screen = screen_of(app)
        await until(pilot, screen.game.is_over, limit=200000)
        assert screen.game.sheet(0).total > 0
        assert all(p.strategy == "expert" for p in screen.game.players)

    run(KniffelApp(lang="en", rules=preset("kniffel"), seats=[Seat("Exp", "expert")], seed=4,
                   speed=0.0), script)

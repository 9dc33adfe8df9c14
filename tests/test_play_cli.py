"""``kniffel play`` refuses bad players before any screen or file is opened: exit status 2, a
message naming the problem, no traceback, no history database."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.cli import main
from kniffel.strategy import strategy_names

ENV: dict[str, str | None] = {"COLUMNS": "250", "NO_COLOR": "1"}


@pytest.mark.parametrize(("players", "words"), [
    ([""], ["must not be empty"]),
    (["   "], ["must not be empty"]),
    (["A", "a"], ["Two players are called", '"a"', "ignoring case"]),
    (["Anna", "Bot:greedy", "bot:random"], ["Two players are called"]),
    (["x" * 41], ["longer than 40 characters"]),
    ([f"P{i}" for i in range(9)], ["1 to 8 players", "not 9"]),
    (["Bot:gready"], ['no computer player "gready"', *strategy_names()]),
    (["Anna:"], ['no computer player ""']),
])
def test_play_refuses_bad_players_with_exit_2_and_creates_no_database(
        tmp_path: Path, players: list[str], words: list[str]) -> None:
    db = tmp_path / "sub" / "h.sqlite3"
    args = ["play", "--db", str(db), "--lang", "en"]
    for p in players:
        args += ["--player", p]
    result = CliRunner().invoke(main, args, env=ENV)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                     SystemExit)
    assert result.output.startswith("kniffel play: ")
    for w in words:
        assert w in result.output
    assert not db.exists()
    assert not db.parent.exists()


def test_play_refuses_a_start_player_beyond_the_players(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--player", "Anna",
                                       "--start", "2"], env=ENV)
    assert result.exit_code == 2
    assert "--start 2, but there are 1 players" in result.output
    assert not db.exists()


def test_a_name_with_a_registered_strategy_suffix_is_a_computer() -> None:
    from kniffel.match import Seat, parse_seat

    assert parse_seat("Bot:greedy") == Seat("Bot", "greedy")
    assert parse_seat("Bot: Greedy ") == Seat("Bot", "greedy")
    assert parse_seat("Anna") == Seat("Anna")

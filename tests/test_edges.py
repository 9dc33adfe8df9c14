"""The command line, the library and the files they write at their edges (issue 31, items
3–10): each test names the behaviour it pins."""

from __future__ import annotations

import os
import random
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kniffel import Game, Player, PlayerKind, preset, save_game
from kniffel.cli import main
from kniffel.engine.strategy import get_strategy
from kniffel.history import History
from kniffel.simulate import play_out

ENV: dict[str, str | None] = {"COLUMNS": "200", "NO_COLOR": "1", "FORCE_COLOR": None,
                              "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def invoke(*args: str, stdin: str | None = None, env: dict[str, str | None] | None = None
           ) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, env={**ENV, **(env or {})})


def finished_game(seed: int = 1) -> Game:
    rules = preset("kniffel")
    game = Game(rules, [Player("Anna", PlayerKind.COMPUTER, "greedy")], seed=seed)
    play_out(game, get_strategy("greedy", rules), random.Random(seed))
    return game


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- item 7: files are written with the user's umask ------------------------------------------


def test_every_file_written_takes_the_users_umask_not_0600(tmp_path: Path,
                                                            umask_027: None) -> None:
    from kniffel.tui import write_rescue

    db = tmp_path / "h.sqlite3"
    with History(db) as history:
        history.start(finished_game())
    assert invoke("export", "--db", str(db), str(tmp_path / "all.json")).exit_code == 0
    assert invoke("export", "--db", str(db), "--game", "1",
                  str(tmp_path / "one.json")).exit_code == 0
    save_game(finished_game(), tmp_path / "saved.json")
    rescued, _ = write_rescue(finished_game(), db)
    assert rescued is not None
    for written in (tmp_path / "all.json", tmp_path / "one.json", tmp_path / "saved.json",
                    rescued):
        assert mode(written) == 0o640, written


def test_a_replaced_file_keeps_its_own_mode(tmp_path: Path, umask_027: None) -> None:
    target = tmp_path / "saved.json"
    target.write_text("old")
    target.chmod(0o604)
    save_game(finished_game(), target)
    assert mode(target) == 0o604


def test_a_private_write_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    from kniffel.storage import write_atomic

    write_atomic(tmp_path / "secret.txt", "x", private=True)
    assert mode(tmp_path / "secret.txt") == 0o600

"""One game, one writer (issue 31 item 2): a game open in one window is not silently forked in
another. The history holds a lease per open game (:meth:`kniffel.history.History.claim`): a
second window is refused in one sentence before its screen opens, a write by anyone else is
refused rather than overwriting moves, and the lease of a process that ended — killed, crashed
— blocks nobody. Checked in one process, with real processes, and with ``kniffel play`` in two
pseudo-terminals."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import run_async
from kniffel import Game, Keep, Player, PlayerKind, Score, Throw, preset
from kniffel.engine.dice import Roll
from kniffel.engine.game import Outcome
from kniffel.engine.messages import render
from kniffel.errors import GameOpenError
from kniffel.history import LEASE_S, History, HistoryStorage
from test_harness import KNIFFEL_PY, PtySession, clean_env


def unfinished(seed: int = 1) -> Game:
    """A classic game of Anna and Ben, Anna's first throw on the table."""
    game = Game(preset("kniffel"), [Player("Anna", PlayerKind.HUMAN),
                                    Player("Ben", PlayerKind.HUMAN)], seed=seed)
    game.apply(Throw(Keep()))
    game.apply(Outcome(Roll((1, 2, 3, 4, 5))))
    return game


def actions_of(db: Path, gid: int) -> list[str]:
    raw = sqlite3.connect(db)
    try:
        return [r[0] for r in raw.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (gid,))]
    finally:
        raw.close()


def test_a_game_held_by_one_history_is_refused_to_another_in_one_sentence(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    first = History(db)
    gid = first.start(unfinished())
    before = db.read_bytes()
    second = History(db)
    with pytest.raises(GameOpenError) as refused:
        second.claim(gid)
    assert refused.value.code == "history.game_open"
    de = render(refused.value, "de")
    assert de.startswith(f"Spiel Nr. {gid} ist schon in einem anderen Fenster offen (Prozess "
                         f"{os.getpid()} auf {socket.gethostname()})")
    assert "\n" not in de
    assert render(refused.value, "en").startswith(f"Game #{gid} is already open in another")
    game = unfinished()
    game.apply(Score(game.choices()[0].box))
    with pytest.raises(GameOpenError) as taken:
        second.record(gid, game)  # a write by the second is refused, the first's moves stay
    assert taken.value.code == "history.game_taken"
    second.close()
    assert db.read_bytes() == before  # nothing changed by the refused window
    first.record(gid, game)  # the holder writes on
    first.close()  # and hands the lease back
    with History(db) as third:
        third.claim(gid)
        assert len(third.load(gid).actions) == len(game.actions)


def test_a_save_that_finds_moves_made_elsewhere_refuses_to_overwrite_them(
        tmp_path: Path) -> None:
    """Even where the lease was lost (another machine's lease lapsed, an older kniffel), a
    writer that finds other moves stored than it last wrote does not overwrite them."""
    db = tmp_path / "h.sqlite3"
    with History(db) as h:
        gid = h.start(unfinished())
    one, two = History(db), History(db)
    mine = HistoryStorage(one, gid, unfinished().actions)
    theirs_game = unfinished()
    theirs_game.apply(Score(theirs_game.choices()[0].box))
    one.release(gid)  # as if its lease had lapsed
    two.record(gid, theirs_game)
    two.close()
    my_game = unfinished()
    my_game.apply(Score(my_game.choices()[-1].box))
    with pytest.raises(GameOpenError) as refused:
        mine.save(my_game)
    assert refused.value.code == "history.game_changed"
    assert render(refused.value, "de") == (f"Spiel Nr. {gid} wurde inzwischen anderswo "
                                           "weitergespielt; es wird hier nicht überschrieben.")
    one.close()
    with History(db) as h:
        assert h.load(gid).actions == theirs_game.actions  # their move kept


HOLD = textwrap.dedent("""
    import sys, time
    from kniffel.history import History
    h = History(sys.argv[1])
    h.claim(int(sys.argv[2]))
    print("held", flush=True)
    time.sleep(600)
""")


def test_the_lease_of_a_killed_process_blocks_nobody(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    with History(db) as h:
        gid = h.start(unfinished())
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(db), str(gid)],
                             stdout=subprocess.PIPE, text=True, env=clean_env(tmp_path))
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "held\n"
        with History(db) as h, pytest.raises(GameOpenError) as refused:
            h.claim(gid)
        assert f"Prozess {child.pid} " in render(refused.value, "de")
    finally:
        child.send_signal(signal.SIGKILL)  # a crash: no release
        child.wait()
    with History(db) as h:
        h.claim(gid)  # the dead process's lease is no lease


def _lease(db: Path, gid: int, pid: int, host: str, process: str, beat: float) -> None:
    raw = sqlite3.connect(db, isolation_level=None)
    raw.execute("UPDATE leases SET pid = ?, host = ?, process = ?, beat = ?, owner = 'other' "
                "WHERE game_id = ?", (pid, host, process, beat, gid))
    raw.close()


def test_a_lease_of_a_reused_process_id_or_a_silent_machine_lapses(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    with History(db) as h:
        gid = h.start(unfinished())
        h.claim(gid)
        h._leased.clear()  # left behind, as by a crash
    start = Path(f"/proc/{os.getpid()}/stat").read_text().rpartition(")")[2].split()[19]
    here = socket.gethostname()
    # a live process with this id, but not the one that took the lease: no lease
    _lease(db, gid, os.getpid(), here, str(int(start) + 1), time.time())
    with History(db) as h:
        h.claim(gid)
        h._leased.clear()
    # that very process: a lease
    _lease(db, gid, os.getpid(), here, start, time.time())
    with History(db) as h, pytest.raises(GameOpenError):
        h.claim(gid)
    # another machine that renewed it a moment ago: a lease; silent for LEASE_S: none
    _lease(db, gid, 12345, "elsewhere", "1", time.time() - 5)
    with History(db) as h, pytest.raises(GameOpenError):
        h.claim(gid)
    _lease(db, gid, 12345, "elsewhere", "1", time.time() - LEASE_S - 1)
    with History(db) as h:
        h.claim(gid)


# --- kniffel play in two terminals -------------------------------------------------------------


def _stored_game(db: Path) -> int:
    with History(db) as h:
        return h.start(unfinished())


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.tmux
def test_play_resume_in_a_second_terminal_is_refused_and_the_first_loses_no_move(
        tmp_path: Path, lang: str) -> None:
    """Issue 31 item 2: ``kniffel play --resume 1`` in two terminals."""
    db = tmp_path / "h.sqlite3"
    gid = _stored_game(db)
    args = ["play", "--db", str(db), "--lang", lang, "--resume", str(gid)]
    with PtySession(KNIFFEL_PY + args, tmp_path) as first:
        first.read_until(b"Anna", 20)
        before = db.read_bytes()
        with PtySession(KNIFFEL_PY + args, tmp_path) as second:
            status = second.wait(20)
            said = second.text()
        assert status == 2
        sentence = {"de": f"kniffel play: Spiel Nr. {gid} ist schon in einem anderen Fenster "
                          f"offen (Prozess {first.pid} auf",
                    "en": f"kniffel play: Game #{gid} is already open in another window "
                          f"(process {first.pid} on"}[lang]
        assert sentence in said
        assert "Traceback" not in said
        assert db.read_bytes() == before  # the refused window changed nothing
        first.write(b"\r")  # Anna scores her throw
        time.sleep(1.0)
        first.write(b"q")
        assert first.wait(20) == 0
    with History(db) as h:
        game = h.load(gid)
    assert isinstance(game.actions[-1], Score)  # the first window's move is stored
    assert len(actions_of(db, gid)) == len(unfinished().actions) + 1


@pytest.mark.tmux
def test_a_game_whose_window_was_killed_resumes_in_the_next(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    gid = _stored_game(db)
    args = ["play", "--db", str(db), "--lang", "de", "--resume", str(gid)]
    with PtySession(KNIFFEL_PY + args, tmp_path) as first:
        first.read_until(b"Anna", 20)
        first.kill()
    with PtySession(KNIFFEL_PY + args, tmp_path) as second:
        second.read_until(b"Anna", 20)
        second.write(b"q")
        assert second.wait(20) == 0
        assert "Traceback" not in second.text()


def test_a_game_resumed_from_a_locked_history_opens_and_its_writes_say_why(
        tmp_path: Path) -> None:
    """The lease is not a new way to fail: a history locked by another program still lets the
    game open (its first write reports the lock, as before); only a game open elsewhere is
    refused."""
    from kniffel.errors import HistoryLockedError

    db = tmp_path / "h.sqlite3"
    gid = _stored_game(db)
    other = sqlite3.connect(db, isolation_level=None)
    try:
        with History(db, timeout=0.1) as h:
            other.execute("BEGIN EXCLUSIVE")
            storage = HistoryStorage(h, gid, unfinished().actions)
            game = unfinished()
            game.apply(Score(game.choices()[0].box))
            with pytest.raises(HistoryLockedError):
                storage.save(game)
            other.execute("ROLLBACK")
            storage.save(game)  # once the lock is gone: written, the lease taken
            assert gid in h._leased
    finally:
        other.close()
    assert len(actions_of(db, gid)) == len(game.actions)


@pytest.mark.tmux
def test_two_processes_on_one_history_each_keep_what_they_wrote(tmp_path: Path) -> None:
    """While a game is played in one window, another process imports games into the same
    history and lists it: both succeed, and neither loses what the other wrote."""
    import json

    from kniffel.engine.history_file import HistoryEntry, encode_history
    from test_faults import finished

    db = tmp_path / "h.sqlite3"
    gid = _stored_game(db)
    source = tmp_path / "new.json"
    source.write_text(json.dumps(encode_history([HistoryEntry(
        "new-1", "2026-05-01T10:00:00+00:00", "2026-05-01T10:30:00+00:00",
        finished(4, ("Clara",)))])), encoding="utf-8")
    env = clean_env(tmp_path, LANG="de_DE.UTF-8", COLUMNS="120")
    args = ["play", "--db", str(db), "--lang", "de", "--resume", str(gid)]
    with PtySession(KNIFFEL_PY + args, tmp_path) as window:
        window.read_until(b"Anna", 20)
        imported = subprocess.run([*KNIFFEL_PY, "import", "--db", str(db), str(source)],
                                  capture_output=True, text=True, env=env, timeout=60)
        assert imported.returncode == 0, imported.stderr
        window.write(b"\r")
        time.sleep(1.0)
        listed = subprocess.run([*KNIFFEL_PY, "history", "--db", str(db)],
                                capture_output=True, text=True, env=env, timeout=60)
        assert listed.returncode == 0, listed.stderr
        assert "Clara" in listed.stdout
        window.write(b"q")
        assert window.wait(20) == 0
    with History(db) as h:
        assert {tuple(g.players) for g in h.games()} == {("Anna", "Ben"), ("Clara",)}
        assert isinstance(h.load(gid).actions[-1], Score)


# --- the terminal game's writes ----------------------------------------------------------------


def _taken_by_init(db: Path, gid: int) -> None:
    """The lease of game ``gid`` taken by a live process of this machine (init, pid 1)."""
    start = Path("/proc/1/stat").read_text().rpartition(")")[2].split()[19]
    raw = sqlite3.connect(db, isolation_level=None)
    raw.execute("UPDATE leases SET owner = 'other', pid = 1, host = ?, process = ?, beat = ? "
                "WHERE game_id = ?", (socket.gethostname(), start, time.time(), gid))
    raw.close()


@pytest.mark.skipif(not Path("/proc/1/stat").exists(), reason="needs /proc")
def test_a_window_whose_game_was_taken_over_says_so_and_keeps_its_moves(tmp_path: Path) -> None:
    """The terminal's save: a window that lost its game's lease does not overwrite it; its
    warning line names why, and at quit the moves go to a rescue file."""

    from textual.widgets import Static

    from kniffel.tui.app import KniffelApp

    db = tmp_path / "h.sqlite3"
    gid = _stored_game(db)
    history = History(db)
    stored_before = actions_of(db, gid)

    async def main() -> KniffelApp:
        app = KniffelApp(lang="de", history=history, resume=(gid, history.load(gid)))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            _taken_by_init(db, gid)
            await pilot.press("enter")  # Anna scores her throw
            for _ in range(200):
                await pilot.pause()
                if app.screen.query_one("#save", Static).display:
                    break
            line = str(app.screen.query_one("#save", Static).render())
            assert f"Spiel Nr. {gid} wird inzwischen in einem anderen Fenster gespielt " \
                   f"(Prozess 1 auf {socket.gethostname()})" in line
            assert actions_of(db, gid) == stored_before  # not overwritten
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("q")  # the second q: the game goes to a rescue file
            await pilot.pause()
        return app

    app = run_async(main())
    try:
        report = app.quit_report()
        assert app.rescued is not None
        rescued, actions = app.rescued
        assert rescued.exists()
        assert isinstance(actions[-1], Score)
        assert str(rescued) in report
    finally:
        history.close()
    assert actions_of(db, gid) == stored_before


def test_loading_a_rescue_file_of_a_game_open_elsewhere_is_refused(tmp_path: Path) -> None:
    """``kniffel play --load FILE`` continues the stored game the file extends: refused, too,
    while that game is open in another window."""
    from kniffel.tui.app import KniffelApp

    db = tmp_path / "h.sqlite3"
    gid = _stored_game(db)
    with History(db) as first, History(db) as second:
        first.claim(gid)
        loaded = unfinished()
        with pytest.raises(GameOpenError):
            KniffelApp(lang="de", history=second, resume=(gid, loaded),
                       stored=unfinished().actions)

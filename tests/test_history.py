"""The SQLite game history: saving as play goes, resuming, statistics, export/import, migration,
and databases that are locked, corrupt or too new — always on real SQLite files."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from kniffel import Game, Player, PlayerKind, Score, preset, seeded_rng
from kniffel.engine.errors import InvalidImportError
from kniffel.engine.strategy import get_strategy
from kniffel.errors import (
    CorruptHistoryError,
    HistoryForeignError,
    HistoryFullError,
    HistoryLockedError,
    HistoryReadOnlyError,
    HistoryVersionError,
)
from kniffel.history import (
    APPLICATION_ID,
    LOCK_WAIT_S,
    SCHEMA_VERSION,
    History,
    _insert,
    _migrate_to_1,
    _wrap,
    default_db_path,
)
from kniffel.simulate import play_out

CLOCK = iter(f"2026-11-30T10:{m:02d}:{s:02d}+00:00" for m in range(60) for s in range(60))


def clock() -> str:
    return next(CLOCK)


def finished_game(seed: int, names: tuple[str, ...] = ("Anna", "Bot"),
                  rules: str = "kniffel") -> Game:
    ruleset = preset(rules)
    game = Game(ruleset, [Player(n, PlayerKind.COMPUTER, "greedy") for n in names], seed=seed)
    play_out(game, get_strategy("greedy", ruleset), random.Random(seed))
    return game


def step(game: Game) -> None:
    """One decision or dice throw by the greedy player."""
    if game.is_chance_node():
        game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
    else:
        game.apply(get_strategy("greedy", game.rules).choose(game, random.Random(0)))


def test_a_new_database_gets_the_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "h.sqlite3"
    with History(path) as db:
        assert db.schema_version == SCHEMA_VERSION
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    raw.close()


def test_default_path_is_in_the_xdg_data_dir(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "kniffel" / "history.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "kniffel" / "history.sqlite3"


def test_every_action_is_stored_as_it_happens_and_the_game_resumes(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    game = Game(preset("extreme"), ["Anna", "Ben"], seed=3)
    db = History(path, clock=clock)
    gid = db.start(game)
    for _ in range(25):
        step(game)
        db.record(gid, game)
        # a second connection (another process) sees every action at once
        with History(path) as other:
            assert other.load(gid).actions == game.actions
    db.close()
    with History(path) as db2:
        found = db2.latest_unfinished()
        assert found is not None
        assert found[0] == gid
        assert found[1].actions == game.actions
        assert found[1].players == game.players


def test_undo_removes_the_stored_actions(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    game = Game(preset("kniffel"), ["Anna"], seed=1)
    with History(path) as db:
        gid = db.start(game)
        for _ in range(6):
            step(game)
        db.record(gid, game)
        game.undo()
        game.undo()
        db.record(gid, game)
        assert db.load(gid).actions == game.actions
        step(game)
        db.record(gid, game)
        assert db.load(gid).actions == game.actions


def test_a_finished_game_stores_totals_ranks_and_leaves_the_unfinished_list(
        tmp_path: Path) -> None:
    game = finished_game(4)
    with History(tmp_path / "h.sqlite3", clock=clock) as db:
        gid = db.start(Game(game.rules, game.players, seed=game.seed))
        db.record(gid, game)
        assert db.latest_unfinished() is None
        [record] = db.games()
        assert record.finished
        assert record.totals == game.scores()
        assert record.players == ("Anna", "Bot")
        assert record.actions == len(game.actions)


def test_stats_count_games_wins_averages_best_bonus_and_kniffel(tmp_path: Path) -> None:
    games = [finished_game(s) for s in (1, 2, 3)]
    with History(tmp_path / "h.sqlite3", clock=clock) as db:
        for g in games:
            db.start(g)
        db.start(Game(preset("kniffel"), ["Anna", "Bot"]))  # unfinished: not counted
        stats = {s.name: s for s in db.stats()}
        anna = [g.sheet(0) for g in games]
        s = stats["Anna"]
        assert s.games == 3
        assert s.rules == "kniffel"
        assert s.wins == sum(1 for g in games if 0 in g.winners())
        assert s.average == pytest.approx(sum(x.total for x in anna) / 3)
        assert s.best == max(x.total for x in anna)
        assert s.bonus_rate == pytest.approx(sum(x.bonus > 0 for x in anna) / 3)
        kn = [x.entries[games[0].rules.box("kniffel")].points > 0 for x in anna]
        assert s.kniffel_rate == pytest.approx(sum(kn) / 3)
        assert [x.name for x in db.stats("anna")] == ["Anna"]
        assert db.stats("Nobody") == []


def test_stats_are_per_rule_set_never_one_average_over_extreme_and_classic(
        tmp_path: Path) -> None:
    # issue 29: an average over Kniffel Extreme and classic totals says nothing
    extreme, classic = finished_game(4, rules="extreme"), finished_game(5)
    with History(tmp_path / "h.sqlite3", clock=clock) as db:
        db.start(extreme)
        db.start(classic)
        rows = db.stats("Anna")
    assert [(s.rules, s.games, s.average, s.best) for s in rows] == [
        ("extreme", 1, extreme.scores()[0], extreme.scores()[0]),
        ("kniffel", 1, classic.scores()[0], classic.scores()[0])]


def test_killing_the_process_loses_at_most_the_unsaved_action(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    script = textwrap.dedent(f"""
        import random, sys
        from kniffel import Game, preset, seeded_rng
        from kniffel.history import History
        from kniffel.engine.strategy import get_strategy
        rules = preset("extreme")
        game = Game(rules, ["Anna"], seed=8)
        greedy = get_strategy("greedy", rules)
        db = History({str(path)!r})
        gid = db.start(game)
        while True:
            if game.is_chance_node():
                game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
            else:
                game.apply(greedy.choose(game, random.Random(0)))
            db.record(gid, game)
            print(len(game.actions), flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    saved = 0
    while saved < 30:
        saved = int(proc.stdout.readline())
    proc.kill()
    proc.wait()
    with History(path) as db:
        found = db.latest_unfinished()
        assert found is not None
        game = found[1]
        assert len(game.actions) >= saved  # every action reported saved is there
        ref = Game(preset("extreme"), ["Anna"], seed=8)
        greedy = get_strategy("greedy", ref.rules)
        while len(ref.actions) < len(game.actions):
            if ref.is_chance_node():
                ref.apply(ref.sample_outcome(seeded_rng(ref.seed, len(ref.actions))))
            else:
                ref.apply(greedy.choose(ref, random.Random(0)))
        assert ref.actions == game.actions


def test_a_lock_released_within_the_wait_is_waited_for(tmp_path: Path) -> None:
    """Another program's lock that ends within :data:`LOCK_WAIT_S` is no error: the history
    waits for it (the commands' fault tests shorten the wait; this pins it)."""
    assert LOCK_WAIT_S == 2.0
    path = tmp_path / "h.sqlite3"
    game = Game(preset("kniffel"), ["Anna"], seed=2)
    with History(path) as db:
        gid = db.start(game)
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN EXCLUSIVE")
    released = threading.Timer(0.3, lambda: blocker.execute("ROLLBACK"))
    released.start()
    try:
        with History(path) as db:  # opened while the lock is held
            step(game)
            db.record(gid, game)
            assert len(db.load(gid).actions) == 1
    finally:
        released.join()
        blocker.close()


def test_a_locked_database_is_a_clear_error_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    game = Game(preset("kniffel"), ["Anna"], seed=2)
    db = History(path, timeout=0.1)
    gid = db.start(game)
    step(game)
    db.record(gid, game)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(HistoryLockedError, match="locked by another program"):
            History(path, timeout=0.1)
        step(game)
        with pytest.raises(HistoryLockedError, match="nothing was changed"):
            db.record(gid, game)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert len(db.load(gid).actions) == 1
    db.record(gid, game)  # once the lock is gone the action is saved
    assert db.load(gid).actions == game.actions
    db.close()


def test_a_file_that_is_no_database_is_called_foreign_not_damaged_and_left_unchanged(
        tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    junk = b"this is not a database, just some bytes " * 200
    path.write_bytes(junk)
    for create in (True, False):
        with pytest.raises(HistoryForeignError, match="is not a database") as caught:
            History(path, create=create)
        assert caught.value.code == "history.not_database"
        assert "damaged" not in str(caught.value)
    assert path.read_bytes() == junk


def test_a_damaged_header_of_a_sqlite_file_is_called_damaged(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History(path) as db:
        db.start(finished_game(1))
    data = bytearray(path.read_bytes())
    data[16:24] = b"\xff" * 8  # page size and format bytes, the SQLite header intact
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptHistoryError) as caught:
        History(path)
    assert caught.value.code == "history.damaged"
    assert path.read_bytes() == bytes(data)


def test_a_damaged_page_is_found_and_the_file_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History(path) as db:
        for s in range(3):
            db.start(finished_game(s))
    data = bytearray(path.read_bytes())
    data[4096: 4096 + 16] = b"\xff" * 16  # scribble over the header of the second page
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptHistoryError):
        History(path)
    assert path.read_bytes() == bytes(data)


def test_another_sqlite_database_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE notes (text TEXT)")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(CorruptHistoryError, match="not a kniffel history"):
        History(path)
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History(path) as db:
        db.start(finished_game(1))
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(HistoryVersionError, match=f"schema version {SCHEMA_VERSION + 1}"):
        History(path)
    assert path.read_bytes() == before


@pytest.mark.solve
def test_a_version_1_database_migrates_and_keeps_every_game(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old_games = [finished_game(s) for s in (5, 6)]
    raw = sqlite3.connect(path, isolation_level=None)
    _migrate_to_1(raw)
    raw.execute("PRAGMA user_version = 1")
    raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for i, g in enumerate(old_games):
        _insert(raw, g, f"old-{i}", "2025-01-01T00:00:00+00:00", None)
    raw.close()
    with History(path) as db:
        assert db.schema_version == 2
        assert [db.load(r.id).actions for r in reversed(db.games())] == [
            g.actions for g in old_games]
        anna = next(s for s in db.stats() if s.name == "Anna")
        assert anna.games == 2
        assert anna.wins == sum(1 for g in old_games if 0 in g.winners())
        assert anna.bonus_rate == pytest.approx(
            sum(g.sheet(0).bonus > 0 for g in old_games) / 2)


def test_export_and_import_carry_every_game_and_skip_known_ones(tmp_path: Path) -> None:
    source = History(tmp_path / "a.sqlite3", clock=clock)
    done = finished_game(7)
    source.start(done)
    open_game = Game(preset("extreme"), ["Clara"], seed=9)
    step(open_game)
    source.start(open_game)
    data = json.loads(json.dumps(source.export()))
    source.close()
    with History(tmp_path / "b.sqlite3") as target:
        result = target.import_(data)
        assert (result.imported, result.skipped) == (2, 0)
        assert sorted(len(target.load(r.id).actions) for r in target.games()) == sorted(
            [len(done.actions), len(open_game.actions)])
        found = target.latest_unfinished()
        assert found is not None
        assert found[1].actions == open_game.actions
        again = target.import_(data)
        assert (again.imported, again.skipped) == (0, 2)
        assert len(target.games()) == 2
        assert target.export()["games"] == data["games"]


@pytest.mark.parametrize(("mangle", "message"), [
    (lambda d: d.update(format="other"), "not a kniffel history file"),
    (lambda d: d.update(version=99), "newer than this kniffel reads"),
    (lambda d: d["games"][1]["game"]["actions"].append({"type": "chip"}), "game #2"),
    (lambda d: d["games"][1].pop("uid"), "uid must be text"),
    (lambda d: d["games"][1].update(uid=d["games"][0]["uid"]), "appears twice"),
])
def test_an_invalid_import_is_refused_and_changes_nothing(tmp_path: Path, mangle: object,
                                                          message: str) -> None:
    with History(tmp_path / "a.sqlite3", clock=clock) as source:
        source.start(finished_game(1))
        source.start(finished_game(2))
        data = source.export()
    assert callable(mangle)
    mangle(data)
    path = tmp_path / "b.sqlite3"
    with History(path) as target:
        target.start(finished_game(3))
    before = path.read_bytes()
    with History(path) as target, pytest.raises(InvalidImportError, match=message):
        target.import_(data)
    assert path.read_bytes() == before


def test_recording_a_game_that_is_not_stored_is_an_error(tmp_path: Path) -> None:
    with History(tmp_path / "h.sqlite3") as db, pytest.raises(Exception, match="no game #7"):
        db.record(7, Game(preset("kniffel"), ["A"]))


def test_score_after_resume_continues_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    game = Game(preset("kniffel"), ["Anna"], seed=2)
    with History(path) as db:
        gid = db.start(game)
        step(game)  # the throw
        step(game)  # its dice
        db.record(gid, game)
    with History(path) as db:
        found = db.latest_unfinished()
        assert found is not None
        resumed = found[1]
        resumed.apply(Score(resumed.choices()[0].box))
        db.record(gid, resumed)
        assert len(db.load(gid).actions) == 3


def _old_database(path: Path, games: list[Game]) -> None:
    """A version-1 history (as an older kniffel wrote it) holding ``games``."""
    raw = sqlite3.connect(path, isolation_level=None)
    _migrate_to_1(raw)
    raw.execute("PRAGMA user_version = 1")
    raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for i, g in enumerate(games):
        _insert(raw, g, f"old-{i}", "2025-01-01T00:00:00+00:00", None)
    raw.close()


def test_reading_an_old_database_migrates_a_copy_in_memory_and_leaves_the_file(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    games = [finished_game(s) for s in (5, 6)]
    _old_database(path, games)
    before = path.read_bytes()
    with History(path, create=False) as db:
        assert db.schema_version == SCHEMA_VERSION
        assert next(s for s in db.stats() if s.name == "Anna").games == 2
        assert [db.load(r.id).actions for r in reversed(db.games())] == [g.actions
                                                                          for g in games]
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite3"]  # no journal left


def test_reading_never_creates_a_missing_file_nor_turns_an_empty_one_into_a_database(
        tmp_path: Path) -> None:
    missing, empty = tmp_path / "no" / "h.sqlite3", tmp_path / "empty.sqlite3"
    empty.touch()
    for path in (missing, empty):
        with History(path, create=False) as db:
            assert not db.exists
            assert db.games() == []
            assert db.stats() == []
            assert db.unfinished() == []
    assert not missing.parent.exists()
    assert empty.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"]


def test_a_history_opened_to_read_refuses_every_write_and_changes_nothing(
        tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History(path) as db:
        gid = db.start(finished_game(1))
    before = path.read_bytes()
    game = Game(preset("kniffel"), ["Anna"], seed=2)
    step(game)
    with History(path, create=False) as db:
        with pytest.raises(HistoryReadOnlyError) as caught:
            db.start(game)
        assert caught.value.code == "history.read_only"
        with pytest.raises(HistoryReadOnlyError):
            db.record(gid, game)
        assert len(db.games()) == 1
    assert path.read_bytes() == before


def _sqlite_error(path: Path, fault: str) -> sqlite3.Error:
    """The error SQLite itself raises on ``path`` (a history) for ``fault``."""
    if fault == "read-only":  # what a read-only file, folder or mount gives every writer
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        sql = "CREATE TABLE t (x)"
    elif fault == "full":  # what a full disk gives
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        sql = "CREATE TABLE t (x)"
    elif fault == "locked":
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        db = sqlite3.connect(path, timeout=0)
        sql = "SELECT count(*) FROM games"
    else:  # "not a database"
        path.write_bytes(b"plain text, no database " * 100)
        db = sqlite3.connect(path)
        sql = "SELECT count(*) FROM sqlite_master"
    try:
        db.execute(sql)
    except sqlite3.Error as e:
        return e
    finally:
        db.close()
    raise AssertionError(f"no error for {fault}")


@pytest.mark.parametrize(("fault", "kind", "code"), [
    ("read-only", HistoryReadOnlyError, "history.read_only"),
    ("full", HistoryFullError, "history.full"),
    ("locked", HistoryLockedError, "history.locked"),
    ("not a database", HistoryForeignError, "history.not_database"),
])
def test_sqlite_errors_are_named_for_what_they_are_never_damaged(
        tmp_path: Path, fault: str, kind: type[Exception], code: str) -> None:
    path = tmp_path / "h.sqlite3"
    with History(path) as db:
        db.start(finished_game(1))
    error = _wrap(path, _sqlite_error(path, fault), writing=True)
    assert isinstance(error, kind)
    assert error.code == code
    assert "damaged" not in str(error)
    assert error.params["where"] == str(path)


def test_unfinished_lists_every_open_game_newest_first_and_load_replays_each(
        tmp_path: Path) -> None:
    times = iter(f"2026-11-30T11:00:{s:02d}+00:00" for s in range(60))
    with History(tmp_path / "h.sqlite3", clock=lambda: next(times)) as db:
        first = Game(preset("kniffel"), ["Anna"], seed=1)
        step(first)
        a = db.start(first)
        db.start(finished_game(3))
        second = Game(preset("extreme"), ["Ben"], seed=2)
        b = db.start(second)
        step(first)
        db.record(a, first)  # played last: first in the list
        records = db.unfinished()
        assert [r.id for r in records] == [a, b]
        assert [r.players for r in records] == [("Anna",), ("Ben",)]
        assert not any(r.finished for r in records)
        assert db.load(a).actions == first.actions
        assert db.load(b).actions == second.actions
        latest = db.latest_unfinished()
        assert latest is not None
        assert latest[0] == records[0].id


def test_reading_a_history_a_crashed_writer_left_half_written_shows_its_last_complete_state(
        tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History(path) as db:
        db.start(finished_game(1))
        before = db.export()["games"]
    crash = textwrap.dedent(f"""
        import os, sqlite3
        db = sqlite3.connect({str(path)!r}, isolation_level=None)
        db.execute("PRAGMA cache_size = 1")  # pages reach the file before the commit
        db.execute("BEGIN IMMEDIATE")
        for i in range(200):
            db.execute("INSERT INTO actions VALUES (1, ?, ?)", (1000 + i, "x" * 500))
        os._exit(1)  # killed mid-transaction: the journal stays behind
    """)
    subprocess.run([sys.executable, "-c", crash], check=False)
    assert (tmp_path / "h.sqlite3-journal").exists()
    with History(path, create=False) as db:  # not "read-only", not "damaged"
        assert db.export()["games"] == before


def test_a_game_played_on_from_a_file_is_found_as_the_longest_stored_game_it_continues(
        tmp_path: Path) -> None:
    """``kniffel play --load`` finds the stored game a rescue file plays on: the same players,
    rules and seed, its moves the file's first moves; the longest of several."""
    ruleset = preset("kniffel")
    game = Game(ruleset, [Player("Anna", PlayerKind.COMPUTER, "greedy")], seed=7)
    with History(tmp_path / "h.sqlite3") as db:
        for _ in range(4):
            step(game)
        short = db.start(game.copy())
        for _ in range(6):
            step(game)
        longer = db.start(game.copy())
        other = Game(ruleset, game.players, seed=8)
        db.start(other)
        for _ in range(3):
            step(game)
        found = db.continued_by(game)
        assert found is not None
        assert found[0] == longer != short
        assert found[1].actions == game.actions[:len(found[1].actions)]
        assert db.continued_by(Game(ruleset, game.players, seed=9)) is None
        records = db.games()
        rounds = db.rounds(records)
        assert set(rounds) == {r.id for r in records}  # every game here is unfinished
        assert rounds[longer] == (db.load(longer).round, len(ruleset.boxes))


def test_a_stored_game_exports_as_a_save_with_its_start_and_finish(tmp_path: Path) -> None:
    from kniffel.storage import loads_game

    game = finished_game(3)
    with History(tmp_path / "h.sqlite3") as db:
        game_id = db.start(Game(game.rules, game.players, seed=game.seed))
        db.record(game_id, game)
        record = next(r for r in db.games() if r.id == game_id)
        text = db.export_game(game_id)
    data = json.loads(text)
    assert loads_game(text).actions == game.actions
    assert data["started"] == record.started_at
    assert record.finished_at is not None
    assert data["finished_at"] == record.finished_at

"""Fault injection: every command that writes a file or the history database, against every
target that must not or cannot be written — its own database, an existing file, a missing
folder, a read-only file or folder, a locked database, a file that is no database, a full disk.

Each case must end with exit status 2, one sentence naming the cause in German and in English
(``--lang de`` and ``--lang en``), no traceback, and every stored game and every other file
exactly as before.

Read-only files and folders: ``chmod`` does not stop root (these tests often run as root), so as
root the file or folder is made immutable (``chattr +i``), which stops root too; where neither
works the case is skipped with the reason. A full disk is a file size limit
(``RLIMIT_FSIZE``) in a child process that ignores ``SIGXFSZ``, so its writes fail with EFBIG.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel import Game, Player, PlayerKind, preset
from kniffel import history as history_module
from kniffel.cli import main
from kniffel.engine.history_file import HistoryEntry, encode_history
from kniffel.engine.messages import render
from kniffel.engine.strategy import get_strategy
from kniffel.errors import (
    HistoryError,
    HistoryForeignError,
    HistoryFullError,
    HistoryLockedError,
    HistoryReadOnlyError,
)
from kniffel.history import History, HistoryStorage
from kniffel.simulate import play_out
from kniffel.storage import is_sqlite_file

ENV: dict[str, str | None] = {"COLUMNS": "200", "NO_COLOR": "1", "FORCE_COLOR": None,
                              "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def finished(seed: int, names: tuple[str, ...] = ("Anna", "Ben")) -> Game:
    rules = preset("kniffel")
    game = Game(rules, [Player(n, PlayerKind.COMPUTER, "greedy") for n in names], seed=seed)
    play_out(game, get_strategy("greedy", rules), random.Random(seed))
    return game


def _chattr_works(folder: Path) -> bool:
    """Whether ``chattr +i`` makes files immutable here (root, a file system that has it)."""
    if shutil.which("chattr") is None:
        return False
    probe = folder / ".chattr-probe"
    probe.touch()
    try:
        if subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode != 0:
            return False
        subprocess.run(["chattr", "-i", str(probe)], check=True, capture_output=True)
        return True
    finally:
        probe.unlink(missing_ok=True)


def make_read_only(path: Path, undo: ExitStack) -> Path:
    """Make ``path`` (a file or folder) read-only, even for root; ``undo`` takes it back."""
    if not ROOT:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        undo.callback(path.chmod, mode)
    elif _chattr_works(path.parent):
        subprocess.run(["chattr", "+i", str(path)], check=True)
        undo.callback(subprocess.run, ["chattr", "-i", str(path)], check=True)
    else:
        pytest.skip("running as root where chattr +i does not work: nothing here makes a "
                    "file read-only for root")
    return path


def lock(db: Path, undo: ExitStack) -> None:
    """Another program holds ``db`` locked (BEGIN EXCLUSIVE); ``undo`` releases it."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    undo.callback(other.close)
    undo.callback(other.execute, "ROLLBACK")


class Scene:
    """A folder with a history database of two finished games (``db``), a history file with a
    game that is not stored (``source``) and an unrelated file (``notes``); ``undo`` takes every
    fault back."""

    def __init__(self, folder: Path, undo: ExitStack) -> None:
        self.dir = folder
        self.undo = undo
        self.db = folder / "h.sqlite3"
        with History(self.db) as h:
            for seed in (1, 2):
                h.start(finished(seed))
            self.game_id = h.games()[-1].id
        self.source = folder / "new.json"
        self.source.write_text(json.dumps(encode_history([HistoryEntry(
            "new-1", "2026-05-01T10:00:00+00:00", "2026-05-01T10:30:00+00:00",
            finished(3, ("Clara",)))])), encoding="utf-8")
        self.notes = folder / "notes.txt"
        self.notes.write_text("my notes\n", encoding="utf-8")

    def read_only(self, path: Path) -> Path:
        """Make ``path`` (a file or folder) read-only, even for root; taken back by undo."""
        return make_read_only(path, self.undo)

    def lock(self) -> None:
        """Another program holds the database locked (BEGIN EXCLUSIVE); taken back by undo."""
        lock(self.db, self.undo)

    def foreign_db(self) -> Path:
        """A database path holding a text file."""
        path = self.dir / "text.sqlite3"
        path.write_text("these are my notes, not a database\n" * 20, encoding="utf-8")
        return path

    def other_sqlite(self) -> Path:
        """Another program's SQLite database."""
        path = self.dir / "other.sqlite3"
        raw = sqlite3.connect(path)
        raw.execute("CREATE TABLE notes (text TEXT)")
        raw.commit()
        raw.close()
        return path

    def state(self) -> dict[str, object]:
        """Every file of the folder: a database by its games, every other file by its bytes."""
        out: dict[str, object] = {}
        for path in sorted(self.dir.rglob("*")):
            if path.is_dir() or path.name.endswith("-journal") or path.name.startswith("."):
                continue
            name = str(path.relative_to(self.dir))
            if is_sqlite_file(path) and path.suffix == ".sqlite3" and path.name != "other.sqlite3":
                with History(path, create=False) as h:
                    out[name] = h.export()["games"]
            else:
                out[name] = path.read_bytes()
        return out


@dataclass(frozen=True)
class Case:
    """A command against a fault: ``setup`` brings the fault and returns the arguments;
    ``de``/``en``: words of the sentence each language must show; ``full``: run in a child
    process with a file size limit of ``full`` bytes (-1: the database's size)."""

    id: str
    setup: Callable[[Scene], list[str]]
    de: tuple[str, ...]
    en: tuple[str, ...]
    full: int = 0


NOTHING = (("Es wurde nichts importiert.",), ("Nothing was imported.",))


def _export(*extra: str) -> Callable[[Scene, Path], list[str]]:
    return lambda s, target: ["export", "--db", str(s.db), *extra, str(target)]


def _game(s: Scene) -> list[str]:
    return ["--game", str(s.game_id)]


def _missing(s: Scene) -> Path:
    return s.dir / "no" / "such" / "x.json"


def _in_read_only_folder(s: Scene) -> Path:
    folder = s.dir / "locked-away"
    folder.mkdir()
    s.read_only(folder)
    return folder / "x.json"


def _ro_db_folder(s: Scene) -> list[str]:
    folder = s.dir / "ro"
    folder.mkdir()
    shutil.copy(s.db, folder / "h.sqlite3")
    s.read_only(folder)
    return ["import", "--db", str(folder / "h.sqlite3"), str(s.source)]


def _ro_new_db(s: Scene) -> list[str]:
    folder = s.dir / "ro"
    folder.mkdir()
    s.read_only(folder)
    return ["import", "--db", str(folder / "h.sqlite3"), str(s.source)]


def _lock_then(args: Callable[[Scene], list[str]]) -> Callable[[Scene], list[str]]:
    def setup(s: Scene) -> list[str]:
        s.lock()
        return args(s)
    return setup


def _target_cases(name: str, extra: Callable[[Scene], list[str]], full: int = 2000
                  ) -> list[Case]:
    """The file-target faults of ``kniffel export`` (``extra``: its options; ``full``: a disk
    that holds fewer bytes than it writes)."""
    def run(target: Callable[[Scene], Path], *more: str) -> Callable[[Scene], list[str]]:
        return lambda s: ["export", "--db", str(s.db), *extra(s), *more, str(target(s))]

    return [
        Case(f"{name}-to-its-own-database", run(lambda s: s.db, "--force"),
             ("ist der Spielverlauf selbst; er wird nicht überschrieben.",),
             ("is the game history itself; it is not overwritten.",)),
        Case(f"{name}-to-an-existing-file", run(lambda s: s.notes),
             ("gibt es schon; --force ersetzt die Datei.",),
             ("exists already; --force replaces it.",)),
        Case(f"{name}-to-another-sqlite-database-with-force",
             run(lambda s: s.other_sqlite(), "--force"),
             ("ist eine SQLite-Datenbank; sie wird nie überschrieben, auch nicht mit --force.",),
             ("is a SQLite database; it is never overwritten, not even with --force.",)),
        Case(f"{name}-to-a-missing-folder", run(_missing),
             ("den Ordner", "gibt es nicht (er wird nicht angelegt)."),
             ("the folder", "does not exist (it is not created).",)),
        Case(f"{name}-to-a-read-only-file-with-force",
             run(lambda s: s.read_only(s.notes), "--force"),
             ("ist schreibgeschützt; die Datei bleibt, wie sie ist.",),
             ("is read-only; the file was left as it is.",)),
        Case(f"{name}-to-a-read-only-folder", run(_in_read_only_folder),
             ("kann nicht geschrieben werden: der Ordner", "ist schreibgeschützt."),
             ("cannot be written: the folder", "is read-only.")),
        Case(f"{name}-to-a-full-disk", run(lambda s: s.dir / "x.json"),
             ("kann nicht geschrieben werden: der Speicherplatz ist voll.",),
             ("cannot be written: there is no space left.",), full=full),
    ]


CASES = [
    *_target_cases("export", lambda s: []),
    *_target_cases("export-game", _game),
    *_target_cases("export-csv", lambda s: ["--csv"], full=200),  # two games' rows: ~500 bytes
    *_target_cases("export-csv-game", lambda s: ["--csv", *_game(s)], full=200),
    Case("export-csv-from-a-locked-database",
         _lock_then(lambda s: ["export", "--csv", "--db", str(s.db)]),
         ("sperrt den Spielverlauf",), ("holds the game history locked",)),
    Case("export-from-a-locked-database", _lock_then(lambda s: ["export", "--db", str(s.db)]),
         ("sperrt den Spielverlauf",), ("holds the game history locked",)),
    Case("export-from-a-file-that-is-no-database",
         lambda s: ["export", "--db", str(s.foreign_db())],
         ("ist keine Datenbank, also kein Kniffel-Spielverlauf",),
         ("is not a database, so not a kniffel history",)),
    Case("import-into-a-read-only-database",
         lambda s: ["import", "--db", str(s.read_only(s.db)), str(s.source)],
         ("ist schreibgeschützt: der Spielverlauf lässt sich lesen, aber nicht ändern.",
          *NOTHING[0]),
         ("is read-only: the game history can be read but not changed.", *NOTHING[1])),
    Case("import-into-a-database-in-a-read-only-folder", _ro_db_folder,
         ("ist schreibgeschützt", *NOTHING[0]), ("is read-only", *NOTHING[1])),
    Case("import-into-a-new-database-in-a-read-only-folder", _ro_new_db,
         ("kann nicht angelegt werden: der Ordner ist schreibgeschützt.", *NOTHING[0]),
         ("cannot be created: its folder is read-only.", *NOTHING[1])),
    Case("import-into-a-locked-database",
         _lock_then(lambda s: ["import", "--db", str(s.db), str(s.source)]),
         ("sperrt den Spielverlauf", *NOTHING[0]),
         ("holds the game history locked", *NOTHING[1])),
    Case("import-into-a-file-that-is-no-database",
         lambda s: ["import", "--db", str(s.foreign_db()), str(s.source)],
         ("ist keine Datenbank, also kein Kniffel-Spielverlauf", *NOTHING[0]),
         ("is not a database, so not a kniffel history", *NOTHING[1])),
    Case("import-into-another-sqlite-database",
         lambda s: ["import", "--db", str(s.other_sqlite()), str(s.source)],
         ("ist eine SQLite-Datenbank, aber kein Kniffel-Spielverlauf", *NOTHING[0]),
         ("is a SQLite database, but not a kniffel history", *NOTHING[1])),
    Case("import-of-its-own-database", lambda s: ["import", "--db", str(s.db), str(s.db)],
         NOTHING[0], NOTHING[1]),
    Case("import-into-a-full-disk", lambda s: ["import", "--db", str(s.db), str(s.source)],
         ("kann nicht wachsen: der Speicherplatz ist voll.", *NOTHING[0]),
         ("cannot grow: there is no space left.", *NOTHING[1]), full=-1),
    Case("import-into-a-new-database-on-a-full-disk",  # and no empty file is left behind
         lambda s: ["import", "--db", str(s.dir / "new.sqlite3"), str(s.source)],
         ("kann nicht wachsen: der Speicherplatz ist voll.", *NOTHING[0]),
         ("cannot grow: there is no space left.", *NOTHING[1]), full=3000),
]


def _limit_file_size(limit: int) -> Callable[[], None]:
    def child() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes fail with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return child


def _run(args: list[str], full: int) -> tuple[int, str]:
    """Exit status and stderr of ``kniffel ARGS`` (in a child with a file size limit of
    ``full`` bytes, or in this process)."""
    if full:
        env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL",
                                                               "LC_MESSAGES")}
        env.update(PYTHONDONTWRITEBYTECODE="1", COLUMNS="200", NO_COLOR="1")
        proc = subprocess.run([sys.executable, "-m", "kniffel", *args], capture_output=True,
                              text=True, env=env, preexec_fn=_limit_file_size(full),
                              timeout=60)
        return proc.returncode, proc.stderr
    result = CliRunner().invoke(main, args, env=ENV)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    return result.exit_code, result.stderr


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_command_that_cannot_write_says_why_in_one_sentence_and_loses_nothing(
        tmp_path: Path, case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    # a locked history is given up on after 0.2 s here, not LOCK_WAIT_S (the wait itself:
    # test_history.py's test_a_lock_released_within_the_wait_is_waited_for)
    monkeypatch.setattr(history_module, "LOCK_WAIT_S", 0.2)
    with ExitStack() as undo:
        scene = Scene(tmp_path, undo)
        before = scene.state()
        args = case.setup(scene)
        made = {str(p.relative_to(tmp_path)): p.read_bytes() for p in tmp_path.rglob("*")
                if p.is_file() and str(p.relative_to(tmp_path)) not in before
                and not p.name.endswith("h.sqlite3")}
        full = scene.db.stat().st_size if case.full == -1 else case.full
        for lang, expected in (("de", case.de), ("en", case.en)):
            status, stderr = _run([*args, "--lang", lang], full)
            assert status == 2, stderr
            assert "Traceback" not in stderr
            lines = stderr.strip().splitlines()
            assert len(lines) == 1, stderr  # one message, on one line
            assert lines[0].startswith(f"kniffel {args[0]}: ")
            for words in expected:
                assert words in lines[0], (lang, stderr)
    after = scene.state()
    for name in set(after) - set(before):  # the files the case's setup made
        if name.endswith("h.sqlite3"):  # a copy of the history: its games as they were
            assert after.pop(name) == before["h.sqlite3"], name
        else:
            assert after.pop(name) == made[name], name
    assert after == before
    assert not list(tmp_path.rglob(".*.tmp"))
    assert not list(tmp_path.rglob("*.probe"))


# --- the history writes of play (through the library: the terminal game saves this way) ------

def _save_in_a_full_child(db: Path, game_id: int, game: Game) -> str:
    """Save ``game`` as game ``game_id`` of ``db`` in a child process whose files cannot grow;
    the child prints the error's class and its sentences, or "saved"."""
    script = (
        "import json, sys\n"
        "from kniffel import Game\n"
        "from kniffel.history import History, HistoryStorage\n"
        "from kniffel.engine.messages import render\n"
        "game = Game.from_json(json.loads(sys.stdin.read()))\n"
        "try:\n"
        f"    with History({str(db)!r}) as h:\n"
        f"        HistoryStorage(h, {game_id}).save(game)\n"
        "    print('saved')\n"
        "except Exception as e:\n"
        "    print(type(e).__name__, render(e, 'de'), render(e, 'en'), sep='\\n')\n")
    proc = subprocess.run([sys.executable, "-c", script], input=json.dumps(game.to_json()),
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
                          preexec_fn=_limit_file_size(db.stat().st_size))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


PLAY_FAULTS = [
    ("read-only-database", HistoryReadOnlyError, "ist schreibgeschützt", "is read-only"),
    ("database-in-a-read-only-folder", HistoryReadOnlyError, "ist schreibgeschützt",
     "is read-only"),
    ("locked-database", HistoryLockedError, "sperrt den Spielverlauf",
     "holds the game history locked"),
    ("full-disk", HistoryFullError, "der Speicherplatz ist voll", "there is no space left"),
]


@pytest.mark.parametrize(("fault", "kind", "de", "en"), PLAY_FAULTS,
                         ids=[f[0] for f in PLAY_FAULTS])
def test_a_game_saved_into_an_unwritable_history_fails_named_and_keeps_the_stored_moves(
        tmp_path: Path, fault: str, kind: type[HistoryError], de: str, en: str) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "h.sqlite3"
    game = finished(5)
    half = Game(game.rules, game.players, seed=game.seed)
    for action in game.actions[: len(game.actions) // 2]:
        half.apply(action)
    with History(db) as h:
        h.start(finished(1))
        gid = HistoryStorage(h, None)
        gid.save(half)
        assert gid.game_id is not None
        game_id = gid.game_id
        before = h.export()["games"]
    with ExitStack() as undo:
        if fault == "full-disk":
            out = _save_in_a_full_child(db, game_id, game).splitlines()
            assert out[0] == kind.__name__, out
            sentences = out[1:]
        else:
            if fault == "read-only-database":
                make_read_only(db, undo)
            elif fault == "database-in-a-read-only-folder":
                make_read_only(folder, undo)
            h = History(db, timeout=0.2)  # the game's history, as play holds it open
            undo.callback(h.close)
            if fault == "locked-database":
                lock(db, undo)  # another program locks it mid-game
            with pytest.raises(kind):
                h.check_writable()  # what play can ask before the first move
            with pytest.raises(kind) as caught:
                HistoryStorage(h, game_id).save(game)
            sentences = [render(caught.value, "de"), render(caught.value, "en")]
        assert de in sentences[0], sentences
        assert en in sentences[1], sentences
        assert "beschädigt" not in sentences[0]
        assert "damaged" not in sentences[1]
    with History(db) as h:
        assert h.export()["games"] == before  # the stored moves, all there
        HistoryStorage(h, game_id).save(game)  # and once the fault is gone the save goes in
        assert h.load(game_id).actions == game.actions


def test_checking_that_a_history_can_be_written_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    with History(db) as h:
        h.start(finished(1))
    before = db.read_bytes()
    with History(db) as h:
        h.check_writable()
        assert h.games()[0].players == ("Anna", "Ben")
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.sqlite3"]
    with History(db, create=False) as h, pytest.raises(HistoryReadOnlyError):
        h.check_writable()


def test_a_history_that_is_no_database_is_named_foreign_before_play_starts(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    db.write_text("not a database\n" * 50, encoding="utf-8")
    with pytest.raises(HistoryForeignError) as caught:
        History(db)
    assert render(caught.value, "de").endswith("ist keine Datenbank, also kein "
                                               "Kniffel-Spielverlauf; die Datei bleibt, wie sie "
                                               "ist.")
    assert "not a database" in render(caught.value, "en")
    assert db.read_text(encoding="utf-8") == "not a database\n" * 50

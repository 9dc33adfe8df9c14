"""The game history: every game, finished or not, in a SQLite database.

A game is stored as its header (rule set, mode, seed, start player, times), its players and its
actions, one row per action, written as the action happens (:meth:`History.record`), so a killed
process loses at most the action it had not yet saved, and an unfinished game can be resumed.
Finished games also store each player's total, rank, bonus and Kniffel points for the statistics.

The schema carries its version in ``PRAGMA user_version`` and migrates older databases in one
transaction. A database that is locked, read-only, full, no (kniffel) database, damaged or
written by a newer kniffel raises a :class:`~kniffel.errors.HistoryError` subclass named for
what
it is, and is left exactly as it was. A history opened with ``create=False`` only reads: it
creates no file, migrates an older schema in a copy in memory, and reads read-only files.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import Any

from kniffel.engine.errors import KniffelError
from kniffel.engine.game import SAVE_FORMAT, SAVE_VERSION, Game, action_to_json
from kniffel.engine.history_file import (
    FORMAT,
    VERSION,
    HistoryEntry,
    decode_history,
    encode_history,
)
from kniffel.engine.identity import KnownGames, game_identity
from kniffel.engine.rules import Box
from kniffel.engine.standings import Result, day_of
from kniffel.errors import (
    CorruptHistoryError,
    GameOpenError,
    HistoryError,
    HistoryForeignError,
    HistoryFullError,
    HistoryLockedError,
    HistoryReadOnlyError,
    HistoryVersionError,
)
from kniffel.paths import default_db_path as default_db_path  # where it was defined before
from kniffel.storage import is_sqlite_file, now, save_text

#: The schema version this kniffel writes; older databases are migrated up to it.
SCHEMA_VERSION = 2
#: Marks a SQLite file as a kniffel history (``PRAGMA application_id``).
APPLICATION_ID = 0x4B4E4946  # "KNIF"
#: The history file an export writes (see :mod:`kniffel.engine.history_file`).
EXPORT_FORMAT = FORMAT
EXPORT_VERSION = VERSION


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- schema -------------------------------------------------------------------------------------

_V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    rules TEXT NOT NULL,
    free_strike INTEGER NOT NULL,
    mode TEXT NOT NULL,
    seed INTEGER NOT NULL,
    start_player INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    strategy TEXT,
    total INTEGER,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

_V2 = """
ALTER TABLE players ADD COLUMN rank INTEGER;
ALTER TABLE players ADD COLUMN bonus INTEGER;
ALTER TABLE players ADD COLUMN kniffel INTEGER;
CREATE INDEX players_by_name ON players(name COLLATE NOCASE);
"""


def _migrate_to_2(db: sqlite3.Connection) -> None:
    """Version 2 keeps rank, bonus and Kniffel points per player: computed for the finished games
    already stored by replaying them."""
    for stmt in _V2.strip().split(";"):
        if stmt.strip():
            db.execute(stmt)
    finished = [r[0] for r in db.execute("SELECT id FROM games WHERE finished_at IS NOT NULL")]
    for game_id in finished:
        _store_results(db, game_id, _load(db, game_id))


def _migrate_to_1(db: sqlite3.Connection) -> None:
    for stmt in _V1.strip().split(";"):
        if stmt.strip():
            db.execute(stmt)


#: MIGRATIONS[n] brings a database from version n to n + 1.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_migrate_to_1, _migrate_to_2)


# --- leases: one game, one writer ------------------------------------------------------------

#: How long the lease of a game held from another machine lasts without being renewed (the
#: game's window renews it every :data:`LEASE_RENEW_S`); on this machine a lease lasts as long
#: as the process that holds it.
LEASE_S = 120.0
#: How often an open game renews its lease.
LEASE_RENEW_S = 30.0
#: How long a history waits for another program's lock on its database before it says the
#: history is locked (the ``timeout`` of :class:`History` where none is given).
LOCK_WAIT_S = 2.0

#: The lease table: which History (``owner``, in which process on which machine) writes which
#: game. It is created on the first claim, beside the schema (no schema version: an older
#: kniffel reads and writes the history as before, ignoring it).
_LEASES = """
CREATE TABLE IF NOT EXISTS leases (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    process TEXT NOT NULL,
    beat REAL NOT NULL
)
"""


def _process_start(pid: int) -> str:
    """When process ``pid`` started (clock ticks since boot, from ``/proc``), so a process id
    used again by a later process is not taken for the lease's holder; "" where unknown."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            stat = f.read()
    except OSError:
        return ""
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else ""


def _process_alive(pid: int, process: str) -> bool:
    """Whether process ``pid`` (which started at ``process``, "" unknown) still runs here."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: it runs
    except OSError:
        return False
    return not process or _process_start(pid) in ("", process)


# --- records -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One stored game, for ``kniffel history``."""

    id: int
    uid: str
    rules: str
    started_at: str
    updated_at: str
    finished_at: str | None
    players: tuple[str, ...]
    totals: tuple[int | None, ...]
    actions: int

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's finished games on one rule set."""

    name: str
    rules: str
    games: int
    wins: int
    average: float
    best: int
    bonus_rate: float
    kniffel_rate: float


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import did: how many games were new, and which were stored already."""

    imported: int
    skipped: int
    skipped_uids: tuple[str, ...] = ()


# --- the database ------------------------------------------------------------------------------


#: Free space (bytes) below which a failed write is taken for a full disk.
_LOW_SPACE = 1 << 20


def _no_space(path: Path) -> bool:
    """Whether a write next to ``path`` fails for want of space: little free space on its disk,
    or a file size limit (``RLIMIT_FSIZE``) the database has reached."""
    try:
        st = os.statvfs(path.parent)
        if st.f_bavail * st.f_frsize < _LOW_SPACE:
            return True
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # not on every platform (Pyodide, Windows)
        return False
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if soft == resource.RLIM_INFINITY:
        return False
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    return size + _LOW_SPACE >= soft


def _wrap(path: Path, e: sqlite3.Error, *, writing: bool = False) -> HistoryError:
    """The history error that ``e`` (raised by SQLite on ``path``) stands for: locked,
    read-only, full, not a database, an input/output error, or (only then) damaged.
    ``writing``: ``e`` came from a write (a journal that cannot be created means a folder that
    cannot be written)."""
    text = str(e)
    code = getattr(e, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or (
            primary is None and ("locked" in text or "busy" in text)):
        return HistoryLockedError(f"{path}: the history database is locked by another program "
                                  f"({text}); close it and try again — nothing was changed",
                                  code="history.locked", params={"where": str(path)})
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM) or (
            primary == sqlite3.SQLITE_CANTOPEN and writing) or (
            primary is None and "readonly" in text):
        return HistoryReadOnlyError(f"{path}: the history database is read-only ({text}); it "
                                    f"can be read, not changed — nothing was changed",
                                    code="history.read_only", params={"where": str(path)})
    if primary == sqlite3.SQLITE_FULL or (primary == sqlite3.SQLITE_IOERR and _no_space(path)) \
            or (primary is None and "full" in text):
        return HistoryFullError(f"{path}: no space left for the history database ({text}) — "
                                f"nothing was changed", code="history.full",
                                params={"where": str(path)})
    if primary == sqlite3.SQLITE_IOERR:
        return HistoryError(f"{path}: the history database cannot be read or written ({text}) "
                            f"— nothing was changed", code="history.io_error",
                            params={"where": str(path)})
    if primary == sqlite3.SQLITE_CANTOPEN:
        return HistoryError(f"{path}: cannot open the history database ({text})",
                            code="history.cannot_open", params={"where": str(path)})
    if (primary == sqlite3.SQLITE_NOTADB or "not a database" in text) and \
            not is_sqlite_file(path):
        return HistoryForeignError(f"{path} is not a database, so not a kniffel history; it "
                                   f"was left as it is", code="history.not_database",
                                   params={"where": str(path)})
    return CorruptHistoryError(f"{path}: the history database is damaged ({text}); it was left "
                               f"as it is", code="history.damaged", params={"where": str(path)})


class History:
    """A history database at ``path`` (created when missing), open until :meth:`close`.

    With ``create=False`` (the read-only commands) nothing is ever written: the file is opened
    read-only, a missing or empty file is not created but read as an empty history (an
    in-memory database; :attr:`exists` is then False), and an older schema is migrated in a
    copy in memory. Such a history can be read, also from a read-only file, folder or mount;
    its writes raise :class:`HistoryReadOnlyError`. ``timeout``: how many seconds to wait for
    another program's lock (:data:`LOCK_WAIT_S` where None)."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 timeout: float | None = None, clock: Callable[[], str] = _now,
                 create: bool = True) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._clock = clock
        self._timeout = LOCK_WAIT_S if timeout is None else timeout
        #: True for ``create=False``: every write raises :class:`HistoryReadOnlyError`.
        self.read_only = not create
        self._migrating = False
        #: Who this history is when it holds a game's lease (:meth:`claim`).
        self.owner = uuid.uuid4().hex
        self._leased: set[int] = set()
        if self.path.is_dir():
            raise CorruptHistoryError(f"{self.path} is a folder, not a history database",
                                      code="history.is_folder", params={"where": str(self.path)})
        try:
            size: int | None = self.path.stat().st_size
        except FileNotFoundError:
            size = None
        except NotADirectoryError:
            raise HistoryError(f"{self.path}: part of its path is a file, not a folder; no "
                               f"history can be there", code="history.path_not_folder",
                               params={"where": str(self.path)}) from None
        except OSError as e:
            raise HistoryError(f"{self.path}: cannot open the history database ({e})",
                               code="history.cannot_open",
                               params={"where": str(self.path)}) from None
        if size and not is_sqlite_file(self.path) and os.access(self.path, os.R_OK):
            raise HistoryForeignError(f"{self.path} is not a database, so not a kniffel "
                                      f"history; it was left as it is",
                                      code="history.not_database", params={"where": str(self.path)})
        self.exists = bool(size) if self.read_only else size is not None
        target: str = str(self.path)
        if self.read_only and not self.exists:
            target = ":memory:"  # nothing there (or an empty file): an empty history
        elif self.read_only:
            target = self.path.resolve().as_uri() + "?mode=ro"
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise HistoryError(f"{self.path}: cannot create its folder ({e})",
                                   code="history.no_folder",
                                   params={"where": str(self.path)}) from None
        try:
            try:
                # one connection, usable from a writer thread; every use holds self._lock
                self._db = sqlite3.connect(target, timeout=self._timeout, isolation_level=None,
                                           check_same_thread=False,
                                           uri=target.startswith("file:"))
                self._lock = threading.RLock()
            except sqlite3.Error as e:
                raise _wrap(self.path, e, writing=size is None) from None
            try:
                self._open(creating=size is None)
            except BaseException:
                self._db.close()
                if size is None and not self.read_only:
                    self._remove_if_empty()  # the empty file this call made, nothing else
                raise
        except HistoryReadOnlyError as e:
            if size is not None or self.read_only:
                raise
            raise HistoryReadOnlyError(f"{self.path}: cannot create the history database, its "
                                       f"folder is read-only ({e})", code="history.cannot_create",
                                       params={"where": str(self.path)}) from None

    def _remove_if_empty(self) -> None:
        with suppress(OSError):
            if self.path.stat().st_size == 0:
                self.path.unlink()

    def _header(self) -> tuple[int, int, int]:
        """The database's schema version, application id and number of schema objects."""
        db = self._db
        db.execute("PRAGMA foreign_keys = ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        return version, app, tables

    def _open(self, *, creating: bool) -> None:
        db = self._db
        try:
            try:
                version, app, tables = self._header()
            except sqlite3.Error as e:
                if not (self.read_only and getattr(e, "sqlite_errorcode", None) in (
                        sqlite3.SQLITE_READONLY_ROLLBACK, sqlite3.SQLITE_READONLY_RECOVERY)):
                    raise
                # a transaction that a crashed program left half done (a hot journal): open it
                # to write once, so SQLite rolls it back to the last complete state, as every
                # reader does; this kniffel still writes nothing itself
                db.close()
                self._db = db = sqlite3.connect(self.path, timeout=self._timeout,
                                                isolation_level=None, check_same_thread=False)
                version, app, tables = self._header()
        except sqlite3.Error as e:
            raise _wrap(self.path, e, writing=creating) from None
        if tables and app != APPLICATION_ID:
            raise HistoryForeignError(f"{self.path} is a SQLite database, but not a kniffel "
                                      f"history; it was left as it is",
                                      code="history.not_kniffel",
                                      params={"where": str(self.path)})
        if version > SCHEMA_VERSION:
            raise HistoryVersionError(
                f"{self.path}: the history database has schema version {version}, newer than "
                f"this kniffel knows ({SCHEMA_VERSION}); update kniffel to use it — it was left "
                f"as it is", code="history.newer_version",
                params={"where": str(self.path), "version": version, "known": SCHEMA_VERSION})
        if version == SCHEMA_VERSION:
            try:
                check = db.execute("PRAGMA quick_check").fetchone()[0]
            except sqlite3.Error as e:
                raise _wrap(self.path, e) from None
            if check != "ok":
                raise CorruptHistoryError(f"{self.path}: the history database is damaged "
                                          f"({check}); it was left as it is",
                                          code="history.damaged",
                                          params={"where": str(self.path)})
            return
        if self.read_only and self.exists:
            self._to_memory()  # an older schema, read through a migrated copy
        self._migrating = self.read_only  # the read-only history's migration runs in memory
        try:
            with self._transaction():
                # another process may have migrated it meanwhile
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                for step in range(version, SCHEMA_VERSION):
                    MIGRATIONS[step](self._db)
                    self._db.execute(f"PRAGMA user_version = {step + 1}")
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        finally:
            self._migrating = False

    def _to_memory(self) -> None:
        """Read from here on from a copy of the database in memory (the file stays as it is)."""
        memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        try:
            self._db.backup(memory)
        except sqlite3.Error as e:
            memory.close()
            raise _wrap(self.path, e) from None
        self._db.close()
        self._db = memory
        memory.execute("PRAGMA foreign_keys = ON")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything in it is stored, or nothing (also on errors)."""
        with self._lock, self._transaction_unlocked() as db:
            yield db

    @contextmanager
    def _transaction_unlocked(self) -> Iterator[sqlite3.Connection]:
        db = self._db
        if self.read_only and not self._migrating:
            raise HistoryReadOnlyError(f"{self.path}: the history was opened to read only — "
                                       f"nothing was changed", code="history.read_only",
                                       params={"where": str(self.path)})
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise _wrap(self.path, e, writing=True) from None
        try:
            yield db
            db.execute("COMMIT")
        except sqlite3.Error as e:
            self._rollback()
            raise _wrap(self.path, e, writing=True) from None
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        if self._db.in_transaction:
            # SQLite rolls back by itself where it cannot (an I/O error)
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return self._db.execute(sql, tuple(args)).fetchall()
        except sqlite3.Error as e:
            raise _wrap(self.path, e) from None

    def check_writable(self) -> None:
        """Raise the :class:`HistoryError` a write would raise now (read-only file, folder or
        mount, locked, full), or return when the history can be written; nothing is changed
        (one page is written in a transaction that is rolled back). For a game about to start:
        the player learns before the first move that it will not be stored."""
        if self.read_only:
            raise HistoryReadOnlyError(f"{self.path}: the history was opened to read only",
                                       code="history.read_only",
                                       params={"where": str(self.path)})
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except sqlite3.Error as e:
                raise _wrap(self.path, e, writing=True) from None
            finally:
                self._rollback()

    def close(self) -> None:
        """Close the database, handing back the leases of the games this history held (where
        the database cannot be written now, they lapse with the process)."""
        with self._lock:
            if self._leased:
                with suppress(KniffelError):
                    self.release()
            self._db.close()

    # --- leases --------------------------------------------------------------------------

    def _holder(self, db: sqlite3.Connection, game_id: int) -> tuple[Any, ...] | None:
        """The lease of game ``game_id`` held by another live history: (owner, pid, host), or
        None where nobody else holds it (a lease whose process ended, or which was not renewed
        for :data:`LEASE_S` from another machine, is no lease)."""
        db.execute(_LEASES)
        row = db.execute("SELECT owner, pid, host, process, beat FROM leases WHERE game_id = ?",
                         (game_id,)).fetchone()
        if row is None or row[0] == self.owner:
            return None
        owner, pid, host, process, beat = row
        if host == socket.gethostname():
            alive = _process_alive(int(pid), str(process))
        else:
            alive = time.time() - float(beat) < LEASE_S
        return (owner, pid, host) if alive else None

    def _take(self, db: sqlite3.Connection, game_id: int) -> None:
        pid = os.getpid()
        db.execute("INSERT OR REPLACE INTO leases (game_id, owner, pid, host, process, beat) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (game_id, self.owner, pid, socket.gethostname(),
                                                 _process_start(pid), time.time()))
        self._leased.add(game_id)

    def claim(self, game_id: int) -> None:
        """Take the lease of game ``game_id``: this history is then the one that writes it
        (:meth:`record` refuses the others) until :meth:`release` or :meth:`close`, or until
        its process ends. Raises :class:`GameOpenError` where another history holds it — a
        game open in another window — and changes nothing then."""
        with self._transaction() as db:
            holder = self._holder(db, game_id)
            if holder is not None:
                raise _open_error(game_id, holder, taken=False)
            self._take(db, game_id)

    def renew(self) -> None:
        """Renew the leases this history holds (a holder on another machine keeps them for
        :data:`LEASE_S` from now)."""
        if not self._leased:
            return
        with self._transaction() as db:
            db.execute(_LEASES)
            db.execute("UPDATE leases SET beat = ? WHERE owner = ?", (time.time(), self.owner))

    def release(self, game_id: int | None = None) -> None:
        """Hand back the lease of game ``game_id`` (None: of every game this history holds)."""
        if self.read_only:
            return
        with self._transaction() as db:
            db.execute(_LEASES)
            if game_id is None:
                db.execute("DELETE FROM leases WHERE owner = ?", (self.owner,))
                self._leased.clear()
            else:
                db.execute("DELETE FROM leases WHERE owner = ? AND game_id = ?",
                           (self.owner, game_id))
                self._leased.discard(game_id)

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return int(self._read("PRAGMA user_version")[0][0])

    # --- games ---------------------------------------------------------------------------

    def start(self, game: Game, *, uid: str | None = None) -> int:
        """Store a new game (with the actions it has so far) and return its id. An unfinished
        game's lease is this history's (:meth:`claim`)."""
        with self._transaction() as db:
            gid = _insert(db, game, uid or uuid.uuid4().hex, self._clock(), None)
            if not game.is_over():
                db.execute(_LEASES)
                self._take(db, gid)
            return gid

    def record(self, game_id: int, game: Game, *,
               expected: Sequence[Any] | None = None) -> None:
        """Bring the stored actions of game ``game_id`` in line with ``game`` (after moves or
        undos), and store the results once it is over.

        One game, one writer: this history takes the game's lease (:meth:`claim`) and raises
        :class:`GameOpenError` where another live history holds it; with ``expected`` (the
        actions this writer last knew stored) it also raises it where the stored actions
        differ, played on elsewhere meanwhile. Nothing is changed then."""
        with self._transaction() as db:
            stored = [r[0] for r in db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
            if not db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                raise HistoryError(f"there is no game #{game_id} in {self.path}",
                                   code="history.no_such_game", params={"id": game_id})
            holder = self._holder(db, game_id)
            if holder is not None:
                raise _open_error(game_id, holder, taken=True)
            if expected is not None and stored != [_action_text(a) for a in expected]:
                raise GameOpenError(f"game #{game_id} in {self.path} was played on elsewhere "
                                    f"since it was last written here; not overwritten",
                                    code="history.game_changed", params={"id": game_id})
            self._take(db, game_id)
            wanted = [_action_text(a) for a in game.actions]
            same = 0
            while same < min(len(stored), len(wanted)) and stored[same] == wanted[same]:
                same += 1
            db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, same))
            db.executemany("INSERT INTO actions (game_id, seq, action) VALUES (?, ?, ?)",
                           [(game_id, i, wanted[i]) for i in range(same, len(wanted))])
            now = self._clock()
            finished = now if game.is_over() else None
            db.execute("UPDATE games SET updated_at = ?, finished_at = ? WHERE id = ?",
                       (now, finished, game_id))
            _store_results(db, game_id, game)

    def load(self, game_id: int) -> Game:
        """The stored game ``game_id``, replayed and checked."""
        try:
            with self._lock:
                return _load(self._db, game_id)
        except sqlite3.Error as e:
            raise _wrap(self.path, e) from None

    def latest_unfinished(self) -> tuple[int, Game] | None:
        """The unfinished game played most recently, or None."""
        rows = self._read("SELECT id FROM games WHERE finished_at IS NULL "
                          "ORDER BY updated_at DESC, id DESC LIMIT 1")
        if not rows:
            return None
        return rows[0][0], self.load(rows[0][0])

    def unfinished(self) -> list[GameRecord]:
        """The unfinished games, the one played most recently first (as
        :meth:`latest_unfinished` orders them); :meth:`load` replays one by its id."""
        return self._records("WHERE g.finished_at IS NULL",
                             "g.updated_at DESC, g.id DESC", -1)

    def continued_by(self, game: Game) -> tuple[int, Game] | None:
        """The unfinished stored game that ``game`` plays on (the same players, rules, seed,
        start player and mode, its moves the first moves of ``game``), the longest such, with
        its id; or None (a rescue file of a game never stored)."""
        best: tuple[int, Game] | None = None
        for record in self.unfinished():
            stored = self.load(record.id)
            n = len(stored.actions)
            if (stored.rules, stored.players, stored.seed, stored.start_player, stored.mode) == (
                    game.rules, game.players, game.seed, game.start_player, game.mode) \
                    and game.actions[:n] == stored.actions \
                    and (best is None or n > len(best[1].actions)):
                best = record.id, stored
        return best

    def rounds(self, records: Sequence[GameRecord]) -> dict[int, tuple[int, int]]:
        """The round each unfinished game of ``records`` is in and how many it has, by id (as
        a player counts, not by its stored actions)."""
        return {r.id: (game.round, len(game.rules.boxes))
                for r in records if not r.finished for game in (self.load(r.id),)}

    def export_game(self, game_id: int) -> str:
        """The stored game ``game_id`` as a save file (``kniffel export --game``): the game, when
        it started and finished, and when it was written."""
        record = next((r for r in self.games() if r.id == game_id), None)
        return save_text(self.load(game_id), saved=now(),
                         started=None if record is None else record.started_at,
                         finished_at=None if record is None else record.finished_at)

    def games(self, limit: int | None = None) -> list[GameRecord]:
        """The stored games, most recent first."""
        return self._records("", "g.started_at DESC, g.id DESC", -1 if limit is None else limit)

    def _records(self, where: str, order: str, limit: int) -> list[GameRecord]:
        rows = self._read(
            "SELECT g.id, g.uid, g.rules, g.started_at, g.updated_at, g.finished_at, "
            "(SELECT count(*) FROM actions a WHERE a.game_id = g.id) "
            f"FROM games g {where} ORDER BY {order} LIMIT ?", (limit,))
        out = []
        for gid, uid, rules, started, updated, finished, actions in rows:
            seats = self._read("SELECT name, total FROM players WHERE game_id = ? ORDER BY seat",
                               (gid,))
            out.append(GameRecord(gid, uid, rules, started, updated, finished,
                                  tuple(s[0] for s in seats), tuple(s[1] for s in seats),
                                  actions))
        return out

    def stats(self, player: str | None = None) -> list[PlayerStats]:
        """Per player and rule set, over finished games: games, wins, average and best totals,
        bonus rate, Kniffel rate. ``player`` (ignoring case) picks one player."""
        where = "g.finished_at IS NOT NULL"
        args: list[object] = []
        if player is not None:
            where += " AND p.name = ? COLLATE NOCASE"
            args.append(player.strip())
        rows = self._read(
            "SELECT min(p.name), g.rules, count(*), sum(p.rank = 1), avg(p.total), max(p.total), "
            "avg(p.bonus > 0), avg(p.kniffel > 0) "
            f"FROM players p JOIN games g ON g.id = p.game_id WHERE {where} "
            "GROUP BY p.name COLLATE NOCASE, g.rules ORDER BY min(p.name) COLLATE NOCASE, g.rules",
            args)
        return [PlayerStats(name, rules, n, int(wins), float(avg), int(best), float(bonus),
                            float(kn))
                for name, rules, n, wins, avg, best, bonus, kn in rows]

    # --- export and import ---------------------------------------------------------------

    def entries(self, game_id: int | None = None) -> list[HistoryEntry]:
        """Every stored game as a history entry (oldest first); with ``game_id``, that game
        alone (:class:`HistoryError` ``history.no_such_game`` where there is none)."""
        if game_id is not None:
            self.load(game_id)  # says so where there is no such game
        where, args = ("WHERE id = ? ", (game_id,)) if game_id is not None else ("", ())
        return [HistoryEntry(uid, started, finished, self.load(gid))
                for gid, uid, started, finished in self._read(
                    f"SELECT id, uid, started_at, finished_at FROM games {where}"
                    "ORDER BY started_at, id", args)]

    def results(self, zone: tzinfo | None = None) -> list[Result]:
        """Every finished game's result (:class:`~kniffel.engine.standings.Result`), oldest
        first, its day the start's in ``zone``; read from the rows, nothing replayed."""
        records = sorted((r for r in self.games() if r.finished
                          and all(t is not None for t in r.totals)),
                         key=lambda r: (r.started_at, r.id))
        return [Result(r.rules, r.players, tuple(t for t in r.totals if t is not None),
                       day_of(r.started_at, zone)) for r in records]

    def export(self) -> dict[str, Any]:
        """Every stored game as one history file (:mod:`kniffel.engine.history_file`, oldest
        first)."""
        return encode_history(self.entries())

    def import_(self, data: object) -> ImportResult:
        """Add the games of a history file (any version :func:`decode_history` reads); games
        already stored (same uid, or the same content) are skipped and reported.

        Everything is checked first (every game replayed): an invalid file raises
        :class:`InvalidImportError` and changes nothing.
        """
        return self.add_entries(decode_history(data))

    def add_entries(self, entries: Sequence[HistoryEntry]) -> ImportResult:
        """Store the games of ``entries`` (already checked) in one transaction; those stored
        already (:class:`~kniffel.engine.identity.KnownGames`: the same uid, or the same game by
        its identity, from a file without uids or under another uid) are skipped and
        reported."""
        skipped: list[str] = []
        with self._transaction() as db:
            known = KnownGames(_identities(db))
            for entry in entries:
                if not known.add(entry.uid, entry.game.identity):
                    skipped.append(entry.uid)
                    continue
                gid = _insert(db, entry.game, entry.uid, entry.started, entry.finished_at)
                db.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                           (entry.finished_at or entry.started, gid))
        return ImportResult(len(entries) - len(skipped), len(skipped), tuple(skipped))


class HistoryStorage:
    """A :class:`~kniffel.engine.match.Storage` for one game in ``history``: the game is stored
    from its first action (a game nobody moved in leaves no row), then every save brings its stored
    actions in line. ``game_id`` is the stored game's id once there is one (a resumed game has
    it from the start), ``stored`` the actions the history holds of it (None: not checked).

    One game, one writer: the storage holds the game's lease (:meth:`History.claim`; a resumed
    game's is claimed here, so a game open in another window is refused at once with
    :class:`GameOpenError`, while a history that cannot be written now is left to the first
    write to report), and a save finds the actions it last wrote still stored, or
    raises :class:`GameOpenError` instead of overwriting moves made elsewhere. Failures raise
    :class:`HistoryError`; usable from a writer thread."""

    def __init__(self, history: History, game_id: int | None = None,
                 stored: Sequence[Any] | None = None) -> None:
        self.history = history
        self.game_id = game_id
        self.stored: tuple[Any, ...] | None = None if stored is None else tuple(stored)
        if game_id is not None:
            try:
                history.claim(game_id)
            except GameOpenError:
                raise
            except HistoryError:
                pass  # locked, read-only, full: the first write says so, and takes the lease

    def save(self, game: Game) -> None:
        if self.game_id is None:
            if not game.actions:
                return
            self.game_id = self.history.start(game)
        else:
            self.history.record(self.game_id, game, expected=self.stored)
        self.stored = game.actions

    def renew(self) -> None:
        """Keep the game's lease (see :data:`LEASE_RENEW_S`)."""
        if self.game_id is not None:
            self.history.renew()

    def release(self) -> None:
        """Hand the game's lease back (the window closed)."""
        if self.game_id is not None:
            self.history.release(self.game_id)


def _open_error(game_id: int, holder: tuple[Any, ...], *, taken: bool) -> GameOpenError:
    """The game is open in another window: so it is not opened here, or (``taken``) no longer
    written from here."""
    _owner, pid, host = holder
    if taken:
        return GameOpenError(f"game #{game_id} is now played in another window (process {pid} "
                             f"on {host}); not written", code="history.game_taken",
                             params={"id": game_id, "pid": pid, "host": host})
    return GameOpenError(f"game #{game_id} is open in another window (process {pid} on "
                         f"{host}); nothing was changed", code="history.game_open",
                         params={"id": game_id, "pid": pid, "host": host})


@lru_cache(maxsize=4096)
def _action_text(action: Any) -> str:
    return json.dumps(action_to_json(action), separators=(",", ":"))


def _insert(db: sqlite3.Connection, game: Game, uid: str, started: str,
            finished: str | None) -> int:
    if game.is_over() and finished is None:
        finished = started
    cur = db.execute(
        "INSERT INTO games (uid, rules, free_strike, mode, seed, start_player, started_at, "
        "updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (uid, game.rules.name, int(game.rules.free_strike), game.mode.value, game.seed,
         game.start_player, started, started, finished))
    gid = cur.lastrowid
    assert gid is not None
    db.executemany(
        "INSERT INTO players (game_id, seat, name, kind, strategy) VALUES (?, ?, ?, ?, ?)",
        [(gid, i, p.name, p.kind.value, p.strategy) for i, p in enumerate(game.players)])
    db.executemany("INSERT INTO actions (game_id, seq, action) VALUES (?, ?, ?)",
                   [(gid, i, _action_text(a)) for i, a in enumerate(game.actions)])
    _store_results(db, gid, game)
    return gid


def _store_results(db: sqlite3.Connection, game_id: int, game: Game) -> None:
    """Totals, ranks, bonus and Kniffel points of a finished game (cleared while it is not)."""
    has_rank = any(r[1] == "rank" for r in db.execute("PRAGMA table_info(players)"))
    ranks = {player: rank for rank, player, _ in game.ranking()}
    for seat in range(len(game.players)):
        over = game.is_over()
        sheet = game.sheet(seat)
        total = sheet.total if over else None
        if not has_rank:  # a version-1 database during its migration
            db.execute("UPDATE players SET total = ? WHERE game_id = ? AND seat = ?",
                       (total, game_id, seat))
            continue
        kn = sheet.entries.get(Box.KNIFFEL)
        db.execute("UPDATE players SET total = ?, rank = ?, bonus = ?, kniffel = ? "
                   "WHERE game_id = ? AND seat = ?",
                   (total, ranks[seat] if over else None, sheet.bonus if over else None,
                    (kn.points if kn else 0) if over else None, game_id, seat))


def _identities(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """The uid and identity (:func:`~kniffel.engine.identity.game_identity`) of every stored
    game, from its rows, without replaying it."""
    players: dict[int, list[dict[str, Any]]] = {}
    for gid, name, kind, strategy in db.execute(
            "SELECT game_id, name, kind, strategy FROM players ORDER BY game_id, seat"):
        players.setdefault(gid, []).append({"name": name, "kind": kind, "strategy": strategy})
    actions: dict[int, list[Any]] = {}
    for gid, text in db.execute("SELECT game_id, action FROM actions ORDER BY game_id, seq"):
        actions.setdefault(gid, []).append(json.loads(text))
    return [(uid, game_identity({"rules": {"name": rules, "free_strike": bool(free)},
                                 "mode": mode, "seed": seed, "start_player": start,
                                 "players": players.get(gid, []),
                                 "actions": actions.get(gid, [])}))
            for gid, uid, rules, free, mode, seed, start in db.execute(
                "SELECT id, uid, rules, free_strike, mode, seed, start_player FROM games")]


def _load(db: sqlite3.Connection, game_id: int) -> Game:
    row = db.execute("SELECT rules, free_strike, mode, seed, start_player FROM games "
                     "WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise HistoryError(f"there is no game #{game_id} in the history",
                           code="history.no_such_game", params={"id": game_id})
    rules, free, mode, seed, start = row
    players = [{"name": n, "kind": k, "strategy": s} for n, k, s in db.execute(
        "SELECT name, kind, strategy FROM players WHERE game_id = ? ORDER BY seat", (game_id,))]
    try:
        actions = [json.loads(a) for (a,) in db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
        return Game.from_json({
            "format": SAVE_FORMAT, "version": SAVE_VERSION,
            "rules": {"name": rules, "free_strike": bool(free)}, "mode": mode, "seed": seed,
            "start_player": start, "players": players, "actions": actions})
    except (KniffelError, ValueError) as e:
        raise CorruptHistoryError(f"game #{game_id} in the history is damaged: {e}",
                                  code="history.game_damaged", params={"id": game_id}) from None

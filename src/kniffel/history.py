"""The game history: every game, finished or not, in a SQLite database.

A game is stored as its header (rule set, mode, seed, start player, times), its players and its
actions, one row per action, written as the action happens (:meth:`History.record`), so a killed
process loses at most the action it had not yet saved, and an unfinished game can be resumed.
Finished games also store each player's total, rank, bonus and Kniffel points for the statistics.

The schema carries its version in ``PRAGMA user_version`` and migrates older databases in one
transaction. A database that is locked, damaged or written by a newer kniffel raises a
:class:`~kniffel.errors.HistoryError` and is left exactly as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from kniffel.errors import (
    CorruptHistoryError,
    HistoryError,
    HistoryLockedError,
    HistoryVersionError,
    KniffelError,
)
from kniffel.game import SAVE_FORMAT, SAVE_VERSION, Game, action_to_json
from kniffel.history_file import FORMAT, VERSION, HistoryEntry, decode_history, encode_history
from kniffel.paths import default_db_path as default_db_path  # where it was defined before
from kniffel.rules import Box

#: The schema version this kniffel writes; older databases are migrated up to it.
SCHEMA_VERSION = 2
#: Marks a SQLite file as a kniffel history (``PRAGMA application_id``).
APPLICATION_ID = 0x4B4E4946  # "KNIF"
#: The history file an export writes (see :mod:`kniffel.history_file`).
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


def _wrap(path: Path, e: sqlite3.Error) -> HistoryError:
    text = str(e)
    if isinstance(e, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return HistoryLockedError(f"{path}: the history database is locked by another program "
                                  f"({text}); close it and try again — nothing was changed",
                                  code="history.locked", params={"where": str(path)})
    return CorruptHistoryError(f"{path}: the history database is damaged ({text}); it was left "
                               f"as it is", code="history.damaged", params={"where": str(path)})


class History:
    """A history database at ``path`` (created when missing), open until :meth:`close`.

    With ``create=False`` (the read-only commands) a missing database is not created: the
    history is then empty (an in-memory database) and :attr:`exists` is False."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 2.0,
                 clock: Callable[[], str] = _now, create: bool = True) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._clock = clock
        if self.path.is_dir():
            raise CorruptHistoryError(f"{self.path} is a folder, not a history database",
                                      code="history.is_folder", params={"where": str(self.path)})
        self.exists = self.path.exists()
        target: str | Path = self.path
        if not self.exists and not create:
            target = ":memory:"
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise HistoryError(f"{self.path}: cannot create its folder ({e})",
                                   code="history.no_folder",
                                   params={"where": str(self.path)}) from None
        try:
            # one connection, usable from a writer thread; every use holds self._lock
            self._db = sqlite3.connect(target, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
            self._lock = threading.RLock()
        except sqlite3.Error as e:
            raise HistoryError(f"{self.path}: cannot open the history database ({e})",
                               code="history.cannot_open",
                               params={"where": str(self.path)}) from None
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        db = self._db
        try:
            db.execute("PRAGMA foreign_keys = ON")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            app = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.Error as e:
            raise _wrap(self.path, e) from None
        if tables and app != APPLICATION_ID:
            raise CorruptHistoryError(f"{self.path} is a SQLite database, but not a kniffel "
                                      f"history; it was left as it is",
                                      code="history.not_kniffel",
                                      params={"where": str(self.path)})
        if version > SCHEMA_VERSION:
            raise HistoryVersionError(
                f"{self.path}: the history database has schema version {version}, newer than "
                f"this kniffel knows ({SCHEMA_VERSION}); update kniffel to use it — it was left "
                f"as it is", code="history.newer_version",
                params={"where": str(self.path), "version": version, "known": SCHEMA_VERSION})
        if version < SCHEMA_VERSION:
            with self._transaction():
                # another process may have migrated it meanwhile
                version = db.execute("PRAGMA user_version").fetchone()[0]
                for step in range(version, SCHEMA_VERSION):
                    MIGRATIONS[step](db)
                    db.execute(f"PRAGMA user_version = {step + 1}")
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        else:
            try:
                check = db.execute("PRAGMA quick_check").fetchone()[0]
            except sqlite3.Error as e:
                raise _wrap(self.path, e) from None
            if check != "ok":
                raise CorruptHistoryError(f"{self.path}: the history database is damaged "
                                          f"({check}); it was left as it is",
                                          code="history.damaged",
                                          params={"where": str(self.path)})

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything in it is stored, or nothing (also on errors)."""
        with self._lock, self._transaction_unlocked() as db:
            yield db

    @contextmanager
    def _transaction_unlocked(self) -> Iterator[sqlite3.Connection]:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise _wrap(self.path, e) from None
        try:
            yield db
            db.execute("COMMIT")
        except sqlite3.Error as e:
            self._rollback()
            raise _wrap(self.path, e) from None
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return self._db.execute(sql, tuple(args)).fetchall()
        except sqlite3.Error as e:
            raise _wrap(self.path, e) from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return int(self._read("PRAGMA user_version")[0][0])

    # --- games ---------------------------------------------------------------------------

    def start(self, game: Game, *, uid: str | None = None) -> int:
        """Store a new game (with the actions it has so far) and return its id."""
        with self._transaction() as db:
            return _insert(db, game, uid or uuid.uuid4().hex, self._clock(), None)

    def record(self, game_id: int, game: Game) -> None:
        """Bring the stored actions of game ``game_id`` in line with ``game`` (after moves or
        undos), and store the results once it is over."""
        with self._transaction() as db:
            stored = [r[0] for r in db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
            if not db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                raise HistoryError(f"there is no game #{game_id} in {self.path}",
                                   code="history.no_such_game", params={"id": game_id})
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

    def games(self, limit: int | None = None) -> list[GameRecord]:
        """The stored games, most recent first."""
        rows = self._read(
            "SELECT g.id, g.uid, g.rules, g.started_at, g.updated_at, g.finished_at, "
            "(SELECT count(*) FROM actions a WHERE a.game_id = g.id) "
            "FROM games g ORDER BY g.started_at DESC, g.id DESC LIMIT ?",
            (-1 if limit is None else limit,))
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

    def entries(self) -> list[HistoryEntry]:
        """Every stored game as a history entry (oldest first)."""
        return [HistoryEntry(uid, started, finished, self.load(gid))
                for gid, uid, started, finished in self._read(
                    "SELECT id, uid, started_at, finished_at FROM games ORDER BY started_at, id")]

    def export(self) -> dict[str, Any]:
        """Every stored game as one history file (:mod:`kniffel.history_file`, oldest first)."""
        return encode_history(self.entries())

    def import_(self, data: object) -> ImportResult:
        """Add the games of a history file (any version :func:`decode_history` reads); games
        already stored (same uid) are skipped and reported.

        Everything is checked first (every game replayed): an invalid file raises
        :class:`InvalidImportError` and changes nothing.
        """
        return self.add_entries(decode_history(data))

    def add_entries(self, entries: Sequence[HistoryEntry]) -> ImportResult:
        """Store the games of ``entries`` (already checked) in one transaction; those whose uid
        is stored already are skipped and reported."""
        skipped: list[str] = []
        with self._transaction() as db:
            known = {r[0] for r in db.execute("SELECT uid FROM games")}
            for entry in entries:
                if entry.uid in known:
                    skipped.append(entry.uid)
                    continue
                known.add(entry.uid)
                gid = _insert(db, entry.game, entry.uid, entry.started, entry.finished_at)
                db.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                           (entry.finished_at or entry.started, gid))
        return ImportResult(len(entries) - len(skipped), len(skipped), tuple(skipped))


class HistoryStorage:
    """A :class:`~kniffel.match.Storage` for one game in ``history``: the game is stored from its
    first action (a game nobody moved in leaves no row), then every save brings its stored
    actions in line. ``game_id`` is the stored game's id once there is one (a resumed game has
    it from the start). Failures raise :class:`HistoryError`; usable from a writer thread."""

    def __init__(self, history: History, game_id: int | None = None) -> None:
        self.history = history
        self.game_id = game_id

    def save(self, game: Game) -> None:
        if self.game_id is None:
            if not game.actions:
                return
            self.game_id = self.history.start(game)
        else:
            self.history.record(self.game_id, game)


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

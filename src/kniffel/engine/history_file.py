"""The history file: one JSON format for a whole game history, shared by the desktop
(``kniffel export`` / ``kniffel import``) and the browser app (its export and import).

Pure Python, no I/O (it also runs inside Pyodide). A file is::

    {"format": "kniffel-history", "version": 2,
     "games": [{"uid": "...", "started": "2026-11-30T13:00:00+00:00",
                "finished_at": "2026-11-30T13:40:00+00:00" | null,
                "game": <Game.to_json()>}, ...]}

``finished_at`` null means the game is unfinished. Version-1 files of both older shapes are read
too: the desktop's (``uid``, ``started_at``, ``updated_at``, ``finished_at``) and the browser's
(``finished``: the time the page stored the entry, and no uid — a uid is derived from the game
itself, so importing the same file twice adds its games once). Across versions the same game is
known by its identity (:func:`kniffel.engine.identity.game_identity`), whatever its uid.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kniffel.engine.errors import InvalidImportError, KniffelError, cause_param
from kniffel.engine.game import SAVE_FORMAT, Game
from kniffel.engine.identity import game_identity

FORMAT = "kniffel-history"
VERSION = 2
#: The most games a file may hold (a browser keeps a few hundred).
MAX_GAMES = 10_000
#: The times a save file may state of its game (ISO 8601; none of them is part of the game):
#: when it started and finished, and when the file was written.
SAVE_TIMES = ("started", "finished_at", "saved")
#: The start time of a game the file does not date (an old browser entry without its time).
UNKNOWN_TIME = "1970-01-01T00:00:00+00:00"


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One game of a history: its uid, when it started, when it finished (None: unfinished) and
    the game itself (replayed and checked)."""

    uid: str
    started: str
    finished_at: str | None
    game: Game

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def to_json(self) -> dict[str, Any]:
        """The entry as it is written in a version-2 file."""
        return {"uid": self.uid, "started": self.started, "finished_at": self.finished_at,
                "game": self.game.to_json()}


def encode_history(entries: Iterable[HistoryEntry]) -> dict[str, Any]:
    """The version-2 history file holding ``entries`` (in the order given)."""
    return {"format": FORMAT, "version": VERSION, "games": [e.to_json() for e in entries]}


def is_history(data: object) -> bool:
    """Whether ``data`` claims to be a history file (rather than a single saved game)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def derived_uid(game: Game) -> str:
    """A uid for a game that came without one: the same game always gets the same uid (its
    identity's first 31 hex digits)."""
    return "g" + game.identity[:31]


def decode_history(data: object, *, undated: str | None = None) -> list[HistoryEntry]:
    """The entries of a history file (version 1 in either shape, or 2), every game replayed and
    checked. Anything wrong raises :class:`InvalidImportError` naming the game and the problem:
    a file is taken whole or not at all. A single saved game (a ``kniffel-game`` save, as
    ``kniffel export --game`` and the terminal game's rescue file write it) is a history of that
    one game, its uid derived from its content (so a second import of it is recognised), dated
    by the save itself: its ``started`` (and ``finished_at``) where the save has them, else the
    time it was saved (``saved``), else ``undated`` (what the reader knows, such as the file's
    time), else :data:`UNKNOWN_TIME`."""
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        return [_save_entry(data, undated)]
    version, games = history_games(data)
    out: list[HistoryEntry] = []
    uids: set[str] = set()
    for number, item in enumerate(games, start=1):
        entry = _entry(item, number, version)
        if entry.uid in uids:
            raise InvalidImportError(f"game #{number} of the file: the uid {entry.uid!r} "
                                     f"appears twice", code="import.uid_twice",
                                     params={"number": number})
        uids.add(entry.uid)
        out.append(entry)
    return out


def history_games(data: object) -> tuple[int, list[object]]:
    """The version and the list of games of the history file ``data``, checked as
    :func:`decode_history` checks a file before it replays a game (its format, a version this
    kniffel reads, a list of at most :data:`MAX_GAMES` games); no game is replayed."""
    if not is_history(data):
        raise InvalidImportError(f"not a kniffel history file (expected an object with "
                                 f"\"format\": \"{FORMAT}\")", code="import.not_history")
    assert isinstance(data, dict)
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidImportError(f"the history file's version {version!r} is not a version "
                                 f"number", code="import.bad_version",
                                 params={"version": repr(version)})
    if version > VERSION:
        raise InvalidImportError(f"the history file has version {version}, newer than this "
                                 f"kniffel reads ({VERSION}); update kniffel",
                                 code="import.newer_version",
                                 params={"version": version, "known": VERSION})
    games = data.get("games")
    if not isinstance(games, list):
        raise InvalidImportError(f"'games' must be a list, got {games!r:.60}",
                                 code="import.games_not_list")
    if len(games) > MAX_GAMES:
        raise InvalidImportError(f"the history file holds {len(games)} games, more than "
                                 f"{MAX_GAMES}", code="import.too_many",
                                 params={"count": len(games), "most": MAX_GAMES})
    return version, games


def stated_uid(item: object, version: int) -> str | None:
    """The uid an item of a history file of ``version`` states, or None where the file
    derives it from the game (a version-1 browser file) or states none."""
    if not isinstance(item, dict) or (version == 1 and "uid" not in item):
        return None
    uid = item.get("uid")
    return uid if isinstance(uid, str) and uid else None


def stated_game(item: object, version: int) -> tuple[str | None, str]:
    """The uid an item of a history file states (None where the file derives it from the game,
    or the item is no entry at all) and the identity of its game as written
    (:func:`~kniffel.engine.identity.game_identity`, the save not replayed): enough to know a
    game a history holds already, so that only the new ones are replayed
    (:func:`decode_entry`). An item that is malformed gets an identity all the same; its
    replay refuses it."""
    if not isinstance(item, dict):
        return None, ""
    game = item.get("game")
    try:
        identity = game_identity(game) if isinstance(game, dict) else ""
    except (KniffelError, TypeError, ValueError):  # an odd save: its replay says what is wrong
        identity = ""
    if version == 1 and "uid" not in item:
        return ("g" + identity[:31] if identity else None), identity
    return stated_uid(item, version), identity


def decode_entry(item: object, number: int, version: int) -> HistoryEntry:
    """Item ``number`` (from 1) of a history file of ``version``, its game replayed and checked
    as :func:`decode_history` checks each (raising :class:`InvalidImportError`)."""
    return _entry(item, number, version)


def _when(value: object) -> str | None:
    """A time a save states (ISO 8601 text), or None where it states none."""
    return value if isinstance(value, str) and value.strip() else None


def _save_entry(save: dict[str, Any], undated: str | None) -> HistoryEntry:
    """A single saved game as an entry, dated as :func:`decode_history` says."""
    saved = _when(save.get("saved"))
    started = _when(save.get("started")) or saved or undated or UNKNOWN_TIME
    finished = _when(save.get("finished_at")) or saved or undated
    item = {"uid": "", "started": started, "finished_at": finished, "game": save}
    return _entry(item, 1, VERSION, over_only=True)


def _entry(item: object, number: int, version: int, *, over_only: bool = False) -> HistoryEntry:
    where = f"game #{number} of the file"
    if not isinstance(item, dict):
        raise InvalidImportError(f"{where} is not an object: {item!r:.60}",
                                 code="import.entry_not_object", params={"number": number})
    try:
        game = Game.from_json(item.get("game"))
    except KniffelError as e:
        raise InvalidImportError(f"{where}: {e}", code="import.game_invalid",
                                 params={"number": number, "cause": cause_param(e)}) from None
    if over_only:  # a single save: its uid is its game's
        uid = derived_uid(game)
        started = _text(item, "started", number)
        finished_at = _opt_text(item, "finished_at", number)
    elif version == 1 and "uid" not in item:  # version 1, written by the browser
        stored = _opt_text(item, "finished", number)
        uid = derived_uid(game)
        started = stored or UNKNOWN_TIME
        finished_at = stored if game.is_over() else None
    else:  # version 2, or version 1 written by the desktop
        uid = _text(item, "uid", number)
        started = _text(item, "started" if "started" in item else "started_at", number)
        finished_at = _opt_text(item, "finished_at", number)
    if over_only and not game.is_over():  # a save's time is no finish for an unfinished game
        finished_at = None
    if finished_at is not None and not game.is_over():
        raise InvalidImportError(f"{where} is marked finished but is not over",
                                 code="import.finished_not_over", params={"number": number})
    if finished_at is None and game.is_over():
        finished_at = started
    return HistoryEntry(uid, started, finished_at, game)


def _text(item: dict[str, Any], key: str, number: int) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidImportError(f"game #{number} of the file: {key} must be text, got "
                                 f"{value!r:.60}", code="import.field_not_text",
                                 params={"number": number, "field": key})
    return value


def _opt_text(item: dict[str, Any], key: str, number: int) -> str | None:
    return None if item.get(key) is None else _text(item, key, number)

"""The desktop's errors: the game history database and the files a command reads or writes.

They are :class:`~kniffel.engine.errors.KniffelError` subclasses like every error of kniffel
(a ``ValueError`` with a catalog ``code`` and ``params``), kept out of the engine, which runs in
the browser and has neither a database nor files. :func:`kniffel.storage.file_error` turns an
``OSError`` into one of them.
"""

from __future__ import annotations

from kniffel.engine.errors import KniffelError

__all__ = ["CorruptHistoryError", "FileAccessError", "GameOpenError", "HistoryError",
           "HistoryForeignError", "HistoryFullError", "HistoryLockedError",
           "HistoryReadOnlyError", "HistoryVersionError", "KniffelError", "TargetError"]


class HistoryError(KniffelError):
    """The game history database cannot be used: locked, corrupt, or written by a newer version."""

    default_code = "history.unusable"


class HistoryLockedError(HistoryError):
    """Another program holds the history database locked."""

    default_code = "history.locked"


class CorruptHistoryError(HistoryError):
    """The history database file is not a kniffel database or is damaged."""

    default_code = "history.corrupt"


class HistoryVersionError(HistoryError):
    """The history database was written by a newer version of kniffel."""

    default_code = "history.newer_version"


class HistoryReadOnlyError(HistoryError):
    """The history database cannot be written: a read-only file, folder or mount, or an
    immutable file. It can still be read."""

    default_code = "history.read_only"


class HistoryFullError(HistoryError):
    """The history database cannot grow: the disk (or the file size limit) is full."""

    default_code = "history.full"


class HistoryForeignError(CorruptHistoryError):
    """The history file is not a kniffel history: not a SQLite database at all, or another
    program's SQLite database. Nothing in it is damaged; it is left as it is."""

    default_code = "history.not_database"


class GameOpenError(HistoryError):
    """A stored game is open in another window (another process holds its lease, see
    :meth:`kniffel.history.History.claim`), or was played on elsewhere since this one last
    wrote it: it is not opened or written twice, so no move of either is lost."""

    default_code = "history.game_open"


class TargetError(KniffelError):
    """A file a command was asked to write that it must not or cannot write: a history
    database, an existing file (without ``--force``), a missing or read-only folder, a full
    disk. Nothing was written."""

    default_code = "os.cannot_write"


class FileAccessError(KniffelError):
    """A file that cannot be read or written: missing, a folder, not permitted, a read-only
    file system; the message names the file and the cause (:func:`kniffel.storage.file_error`)."""

    default_code = "os.error"

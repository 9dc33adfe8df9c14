"""Saving and loading games as versioned JSON files, and the safety of every file a command
writes.

Writes are atomic: the save goes to a temporary file beside the target, is flushed to disk and
then renamed over it, so a crash leaves either the old save or the new one, never half of one.
Loading only reads: a file that cannot be loaded stays exactly as it was.

A command that writes a file the user named checks it first (:func:`check_target`, before any
work starts) and writes it with :func:`write_target`: a history database is never overwritten,
an existing file only when asked (``--force``), a missing folder is not created, and every
failure is a :class:`~kniffel.engine.errors.TargetError` that names the cause.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from kniffel.engine.errors import CorruptSaveError, InvalidArgumentError, TargetError
from kniffel.engine.game import Game
from kniffel.engine.saves import loads_game, save_text

__all__ = ["check_target", "is_sqlite_file", "load_game", "loads_game", "save_game", "save_text",
           "user_umask", "write_atomic", "write_error", "write_target"]

#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"

PathLike = str | os.PathLike[str]


def now() -> str:
    """The time now, as a save or a history writes it: ISO 8601 in UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def save_game(game: Game, path: PathLike, *, started: str | None = None) -> Path:
    """Write ``game`` to ``path`` atomically (creating its folder) and return the path; the
    save states when it was written (and ``started``, where given), which an import of it
    keeps as its date."""
    target = _path(path)
    write_atomic(target, save_text(game, started=started, saved=now()))
    return target


def _path(path: object) -> Path:
    """``path`` (text or a path object) as a :class:`Path`; anything else raises
    :class:`InvalidArgumentError`."""
    if isinstance(path, (str, os.PathLike)) and not isinstance(path, bytes):
        return Path(path)
    raise InvalidArgumentError(f"a file is named by a str or a path, got {path!r}",
                               code="argument.invalid",
                               params={"what": "path", "value": repr(path)[:40]})


def is_sqlite_file(path: PathLike) -> bool:
    """Whether ``path`` is a file that starts with the SQLite header (any SQLite database, a
    kniffel history or not); False for a missing, empty or unreadable file."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return a.resolve() == b.resolve()


def check_target(path: PathLike, *, force: bool = False, keep: Iterable[PathLike] = ()) -> Path:
    """``path`` as a file a command may write, checked before any work starts; raises
    :class:`TargetError` (nothing is written) for: one of the files ``keep`` (a command's own
    history database, also by another name), a folder, a SQLite database (never replaced, even
    with ``force``), an existing file (unless ``force``), a read-only file, a missing folder (it
    is not created), a part of the path that is not a folder, or a folder where no file can be
    written (tried with a temporary file, so it holds for root and read-only mounts too)."""
    target = Path(path)
    where = str(target)
    for kept in keep:
        if _same_file(target, Path(kept)):
            raise TargetError(f"{where} is the game history itself; it is not overwritten",
                              code="target.is_history", params={"where": where})
    if target.is_dir():
        raise TargetError(f"{where} is a folder, not a file", code="target.is_folder",
                          params={"where": where})
    folder = target.parent
    if not folder.exists():
        raise TargetError(f"{where} cannot be written: the folder {folder} does not exist (it "
                          f"is not created)", code="target.no_folder",
                          params={"where": where, "folder": str(folder)})
    if not folder.is_dir():
        raise TargetError(f"{where} cannot be written: {folder} is not a folder",
                          code="target.not_a_folder",
                          params={"where": where, "folder": str(folder)})
    if target.exists():
        if is_sqlite_file(target):
            raise TargetError(f"{where} is a SQLite database; it is never overwritten, not "
                              f"even with --force", code="target.is_database",
                              params={"where": where})
        if not force:
            raise TargetError(f"{where} exists already; --force replaces it",
                              code="target.exists", params={"where": where})
        try:
            with open(target, "ab"):  # appends nothing: only whether it may be written
                pass
        except OSError as e:
            raise write_error(target, e, file=True) from None
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".probe", dir=folder)
    except OSError as e:
        raise write_error(target, e) from None
    os.close(fd)
    Path(probe).unlink(missing_ok=True)
    return target


def write_error(target: Path, error: OSError, *, file: bool = False) -> TargetError:
    """Why writing ``target`` failed with ``error``, as a :class:`TargetError`; ``file``: the
    error came from opening the file itself (else from writing in its folder)."""
    where = str(target)
    folder = str(target.parent)
    match error.errno:
        case errno.ENOENT:
            return TargetError(f"{where} cannot be written: the folder {folder} does not exist",
                               code="target.no_folder", params={"where": where, "folder": folder})
        case errno.EACCES | errno.EPERM | errno.EROFS:
            if file:
                return TargetError(f"{where} is read-only ({error.strerror})",
                                   code="target.read_only",
                                   params={"where": where, "folder": folder})
            return TargetError(f"{where} cannot be written: the folder {folder} is read-only "
                               f"({error.strerror})", code="target.folder_read_only",
                               params={"where": where, "folder": folder})
        case errno.ENOSPC | errno.EFBIG | errno.EDQUOT:
            return TargetError(f"{where} cannot be written: no space left ({error.strerror})",
                               code="target.no_space", params={"where": where, "folder": folder})
        case errno.EISDIR:
            return TargetError(f"{where} is a folder, not a file", code="target.is_folder",
                               params={"where": where, "folder": folder})
        case errno.ENOTDIR:
            return TargetError(f"{where} cannot be written: {folder} is not a folder",
                               code="target.not_a_folder",
                               params={"where": where, "folder": folder})
    return TargetError(f"{where} cannot be written ({error.strerror})",
                       code="target.cannot_write", params={"where": where, "folder": folder})


def write_target(path: PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` (checked with :func:`check_target`) atomically, without
    creating folders; a failure raises :class:`TargetError` and leaves the old file (if any) as
    it was, with no temporary file left behind."""
    target = Path(path)
    try:
        write_atomic(target, text, folders=False)
    except OSError as e:
        raise write_error(target, e) from None
    return target


def user_umask() -> int:
    """The process's file-mode creation mask (read from ``/proc`` where it can be, else by
    setting and restoring it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode(target: Path, private: bool) -> int:
    """The mode of a file written to ``target``: 0600 when ``private``, else the mode of the
    file it replaces, else what the user's umask leaves of 0666."""
    if private:
        return 0o600
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        return 0o666 & ~user_umask()


def write_atomic(target: Path, text: str, *, folders: bool = True,
                 private: bool = False) -> None:
    """Replace ``target`` with ``text`` via a flushed temporary file and a rename; ``folders``:
    create the missing folders first. The one place every file kniffel writes gets its mode:
    the mode a new file gets from the user's umask (0644 under the usual 022), as ``open``
    would give it, and a replaced file keeps its own (the temporary file is made 0600 first);
    ``private``: readable by the owner only (0600), for content that is nobody else's."""
    if folders:
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), _mode(target, private))
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_game(path: PathLike) -> Game:
    """Read the game saved at ``path``.

    Raises :class:`CorruptSaveError` for a file that is not valid UTF-8 JSON, is truncated or holds
    an illegal game, and :class:`UnsupportedVersionError` for a newer format; the message names the
    file. ``FileNotFoundError`` passes through.
    """
    source = _path(path)
    raw = source.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CorruptSaveError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})",
                               code="file.not_utf8", params={"where": str(source)}) from None
    return loads_game(text, name=str(source))

"""Saving and loading games as versioned JSON files, and the safety of every file a command
writes.

Writes are atomic: the save goes to a temporary file beside the target, is flushed to disk and
then renamed over it, so a crash leaves either the old save or the new one, never half of one.
Loading only reads: a file that cannot be loaded stays exactly as it was.

A command that writes a file the user named checks it first (:func:`check_target`, before any
work starts) and writes it with :func:`write_target`: a history database is never overwritten,
an existing file only when asked (``--force``), a missing folder is not created, and every
failure is a :class:`~kniffel.errors.TargetError` that names the cause.

Every ``OSError`` a file met becomes a sentence here, in one place: :func:`file_error` (the
error, the file and what was being done) and :func:`os_sentence` (the same in words).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import tempfile
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from kniffel.engine.errors import CorruptSaveError, InvalidArgumentError, KniffelError
from kniffel.engine.game import Game
from kniffel.engine.saves import loads_game, save_text
from kniffel.errors import FileAccessError, TargetError

if TYPE_CHECKING:
    from kniffel.engine.rules import Lang

__all__ = ["check_new_file", "check_target", "file_error", "is_sqlite_file", "load_game",
           "loads_game", "os_sentence", "read_json", "save_game", "save_text", "user_umask",
           "write_atomic", "write_target"]

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
        raise TargetError(f"{where} is a folder, not a file", code="os.is_folder",
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
            raise file_error(e, target, doing="replace") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".probe", dir=folder)
    except OSError as e:
        raise file_error(e, target, doing="target") from None
    os.close(fd)
    Path(probe).unlink(missing_ok=True)
    return target


#: What a command was doing with a file when the system refused it: ``read`` it (or anything
#: not writing), ``write`` a file it checked the folder of (a plot), write a ``target`` file
#: (:func:`check_target`, :func:`write_target`: the folder's part), or ``replace`` the target
#: file that is there.
Doing = Literal["read", "write", "target", "replace"]


def file_error(error: OSError, where: PathLike | None = None, *,
               doing: Doing = "read") -> KniffelError:
    """The one place an ``OSError`` becomes kniffel's error with the catalog's sentence: a
    :class:`~kniffel.errors.TargetError` (``doing`` ``target`` or ``replace``) or a
    :class:`~kniffel.errors.FileAccessError` that names the file (``where``, else the error's
    own file name) and the cause."""
    shown = str(where) if where is not None else (
        str(error.filename) if error.filename is not None else "?")
    folder = str(Path(shown).parent)
    number = error.errno
    missing = isinstance(error, FileNotFoundError) or number == errno.ENOENT
    denied = isinstance(error, PermissionError) or number in (errno.EACCES, errno.EPERM)
    is_folder = isinstance(error, IsADirectoryError) or number == errno.EISDIR
    not_folder = isinstance(error, NotADirectoryError) or number == errno.ENOTDIR
    if doing == "read":
        return FileAccessError(
            f"{shown}: {error.strerror or error}",
            code=("os.not_found" if missing else "os.permission" if denied else
                  "os.is_folder" if is_folder else "os.not_a_folder" if not_folder else
                  "os.error"),
            params={"where": shown})
    if doing == "write":  # a missing file: the folder went away, or takes no new files (/proc)
        return FileAccessError(
            f"{shown} cannot be written ({error.strerror or error})",
            code=(("os.no_new_files" if Path(folder).is_dir() else "os.no_folder") if missing
                  else "os.read_only_file_system" if number == errno.EROFS
                  else "os.permission" if denied else "os.is_folder" if is_folder
                  else "os.cannot_write"),
            params={"where": shown, "folder": folder})
    return _target_error(error, shown, folder, file=doing == "replace")


def _target_error(error: OSError, where: str, folder: str, *, file: bool) -> TargetError:
    """Why writing the target ``where`` failed with ``error``; ``file``: the error came from
    opening the file itself (else from writing in its folder)."""
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
            return TargetError(f"{where} is a folder, not a file", code="os.is_folder",
                               params={"where": where, "folder": folder})
        case errno.ENOTDIR:
            return TargetError(f"{where} cannot be written: {folder} is not a folder",
                               code="target.not_a_folder",
                               params={"where": where, "folder": folder})
    return TargetError(f"{where} cannot be written ({error.strerror})",
                       code="os.cannot_write", params={"where": where, "folder": folder})


def os_sentence(error: OSError, lang: Lang, where: PathLike | None = None, *,
                doing: Doing = "read") -> str:
    """:func:`file_error` as the player reads it, in ``lang``."""
    from kniffel.engine.messages import render

    return render(file_error(error, where, doing=doing), lang)


def _first_existing(path: Path) -> Path:
    """The nearest of ``path``'s ancestors that exists (as anything), or ``path`` itself."""
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return Path(".")


def check_new_file(path: PathLike) -> Path:
    """``path`` as a file that can be written (a plot, before the work that draws it): raises
    :class:`~kniffel.errors.FileAccessError` for a folder, a missing folder or a part of the
    path that is not one, or a folder where writing is refused. Writing is tried: an existing
    file is opened for appending (nothing written), a missing one is created and removed again
    (only the file this check made)."""
    target = _path(path)
    where = str(path)
    folder = target.parent
    if target.is_dir():
        raise FileAccessError(f"{where} is a folder, not a file", code="os.is_folder",
                              params={"where": where})
    if not folder.is_dir():
        missing = _first_existing(folder).is_dir()
        raise FileAccessError(f"{where} cannot be written: {folder} is not a folder",
                              code="os.no_folder" if missing else "os.not_a_folder",
                              params={"where": where})
    try:
        if os.path.lexists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_APPEND))
        else:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            os.unlink(target)
    except FileExistsError:
        pass  # made meanwhile by someone else: theirs, and writing is tried when it is written
    except OSError as e:
        raise file_error(e, where, doing="write") from None
    return target


def write_target(path: PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` (checked with :func:`check_target`) atomically, without
    creating folders; a failure raises :class:`TargetError` and leaves the old file (if any) as
    it was, with no temporary file left behind."""
    target = Path(path)
    try:
        write_atomic(target, text, folders=False)
    except OSError as e:
        raise file_error(e, target, doing="target") from None
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


def read_json(path: str) -> tuple[object, str | None]:
    """The JSON value in the file ``path`` (``-``: standard input) and the time the file was
    last changed (ISO 8601 in UTC; None for standard input), which dates a save that states no
    time of its own. A file that cannot be read raises :class:`~kniffel.errors.FileAccessError`
    (:func:`file_error`), one that is not UTF-8 text or not JSON one with the code
    ``file.not_utf8`` or ``file.not_json``."""
    try:
        raw = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise file_error(e) from None
    except UnicodeDecodeError:
        raise FileAccessError(f"{path}: not UTF-8 text", code="file.not_utf8",
                              params={"where": path}) from None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise FileAccessError(f"{path}: not JSON", code="file.not_json",
                              params={"where": path}) from None
    changed: str | None = None
    if path != "-":
        with contextlib.suppress(OSError):
            changed = datetime.fromtimestamp(os.stat(path).st_mtime, UTC).isoformat(
                timespec="seconds")
    return data, changed


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

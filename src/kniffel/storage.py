"""Saving and loading games as versioned JSON files.

Writes are atomic: the save goes to a temporary file beside the target, is flushed to disk and
then renamed over it, so a crash leaves either the old save or the new one, never half of one.
Loading only reads: a file that cannot be loaded stays exactly as it was.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from kniffel.errors import CorruptSaveError, KniffelError
from kniffel.game import Game


def save_game(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write ``game`` to ``path`` atomically and return the path."""
    target = Path(path)
    text = json.dumps(game.to_json(), ensure_ascii=False, indent=1) + "\n"
    write_atomic(target, text)
    return target


def write_atomic(target: Path, text: str) -> None:
    """Replace ``target`` with ``text`` via a flushed temporary file and a rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read the game saved at ``path``.

    Raises :class:`CorruptSaveError` for a file that is not valid UTF-8 JSON, is truncated or holds
    an illegal game, and :class:`UnsupportedVersionError` for a newer format; the message names the
    file. ``FileNotFoundError`` passes through.
    """
    source = Path(path)
    raw = source.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CorruptSaveError(f"{source}: not UTF-8 text ({e.reason} at byte {e.start})",
                               code="file.not_utf8", params={"where": str(source)}) from None
    return loads_game(text, name=str(source))


def loads_game(text: str, *, name: str = "<save>") -> Game:
    """The game in the JSON text ``text``; errors name ``name``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        what = "truncated" if e.pos >= len(text.rstrip()) else "not valid JSON"
        raise CorruptSaveError(f"{name}: {what} (line {e.lineno}, column {e.colno}: "
                               f"{e.msg})",
                               code="file.truncated" if what == "truncated" else "file.not_json",
                               params={"where": name, "line": e.lineno,
                                       "column": e.colno}) from None
    except (ValueError, RecursionError) as e:
        # nesting too deep for the parser, or a number too long to convert
        raise CorruptSaveError(f"{name}: not valid JSON ({e})", code="file.not_json",
                               params={"where": name, "line": None, "column": None}) from None
    try:
        return Game.from_json(data)
    except KniffelError as e:
        raise e.within(name) from None

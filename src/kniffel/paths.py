"""Where kniffel keeps its files on the desktop: paths only, no I/O (a module of its own, so that
the command line can name them without importing what reads and writes them)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/kniffel/history.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kniffel" / "history.sqlite3"


def play_command(db_path: str | os.PathLike[str] | None) -> str:
    """``kniffel play`` as a sentence tells the player to type it again: with ``--db FILE``
    where the game is kept in another history than the default one (quoted for the shell).

    >>> play_command(None), play_command("/tmp/my games.db")
    ('kniffel play', "kniffel play --db '/tmp/my games.db'")
    """
    if db_path is None:
        return "kniffel play"
    db = Path(db_path)
    try:
        same = db.resolve() == default_db_path().resolve()
    except OSError:
        same = False
    return "kniffel play" if same else f"kniffel play --db {shlex.quote(str(db_path))}"

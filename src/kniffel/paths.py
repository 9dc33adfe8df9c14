"""Where kniffel keeps its files on the desktop: paths only, no I/O (a module of its own, so that
the command line can name them without importing what reads and writes them)."""

from __future__ import annotations

import os
from pathlib import Path


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/kniffel/history.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kniffel" / "history.sqlite3"

"""Where a game the history could not take goes at quit: a rescue file, a save of the whole
game (:func:`write_rescue`) in the first folder that takes it (:func:`rescue_places`)."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from kniffel.engine.game import Game
from kniffel.paths import default_db_path
from kniffel.storage import save_game


def rescue_places(history_path: Path | None) -> list[Path]:
    """Where a rescue file is tried, in this order: beside the history database, kniffel's
    data folder, the home folder, the temporary folder (each once)."""
    places = [] if history_path is None else [history_path.parent]
    places += [default_db_path().parent, Path.home(), Path(tempfile.gettempdir())]
    out: list[Path] = []
    for place in places:
        if place not in out:
            out.append(place)
    return out


def write_rescue(game: Game, history_path: Path | None) -> tuple[Path | None, list[Path]]:
    """Write the whole ``game`` as a save file (:func:`kniffel.storage.save_game`) to the first
    of :func:`rescue_places` that takes it: its path (None when none did) and the folders
    tried."""
    stem = history_path.stem if history_path is not None else "kniffel"
    name = f"{stem}.unsaved-{time.strftime('%Y%m%d-%H%M%S')}.json"
    tried: list[Path] = []
    for place in rescue_places(history_path):
        tried.append(place)
        target = place / name
        if target.exists():
            target = place / f"{stem}.unsaved-{random.SystemRandom().randrange(10**6):06d}.json"
        try:
            if not place.is_dir():
                continue
            return save_game(game, target), tried
        except OSError:
            continue
    return None, tried

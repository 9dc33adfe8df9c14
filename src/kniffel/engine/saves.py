"""A game's save as text: the versioned JSON of :meth:`Game.to_json`, written and read without
any file (the desktop's :mod:`kniffel.storage` puts it on disk; the browser keeps it in its own
storage)."""

from __future__ import annotations

import json

from kniffel.engine.errors import CorruptSaveError, InvalidArgumentError, KniffelError
from kniffel.engine.game import Game


def save_text(game: Game, *, started: str | None = None, finished_at: str | None = None,
              saved: str | None = None) -> str:
    """The text of ``game``'s save file; ``started``, ``finished_at`` and ``saved`` (ISO 8601
    times, each written where given) date it, so that an import files it under its own
    dates."""
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"only a Game can be saved, got {game!r}",
                                   code="argument.invalid",
                                   params={"what": "game", "value": repr(game)[:40]})
    data = game.to_json()
    for key, when in (("started", started), ("finished_at", finished_at), ("saved", saved)):
        if when is not None:
            data[key] = when
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def loads_game(text: str, *, name: str = "<save>") -> Game:
    """The game in the JSON text ``text``; errors name ``name``."""
    if not isinstance(text, (str, bytes)):
        raise InvalidArgumentError(f"a save is read from its text, got {text!r}",
                                   code="argument.invalid",
                                   params={"what": "text", "value": repr(text)[:40]})
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

"""Taking a game along: the final sheet as text to share, and the game packed into a link (and
its QR code) that opens it on another device with no server.

The link carries the game in its fragment (``#g=…``, never sent to a server): the save's JSON
without the dice that follow from the game's seed, compressed with zlib and written in base64url.
The QR code is drawn by ``segno`` (pure Python, shipped with the package into the browser).

Pure Python, no I/O: it runs inside Pyodide.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

import segno

from kniffel.engine.dice import seeded_rng
from kniffel.engine.errors import CorruptSaveError, KniffelError
from kniffel.engine.game import Game, Outcome, action_from_json, action_to_json
from kniffel.engine.messages import text
from kniffel.engine.rules import Lang

#: The fragment's prefix and the version of what follows it.
FRAGMENT_PREFIX = "g1."
#: The most a packed game may unpack to (a full 8-player game with every throw is ~100 kB).
MAX_UNPACKED = 2_000_000

#: The sheet's own words (the catalog's ``share.*``).
_WORDS = ("result", "box", "upper", "bonus", "lower", "extra", "total", "struck", "open")


def sheet_text(game: Game, lang: Lang = "de") -> str:
    """The sheet as plain text: title, the ranking, then every box and sum per player."""
    words = {key: text(f"share.{key}", lang) for key in _WORDS}
    rules = game.rules
    head = f"{rules.title(lang)} – " + (
        words["result"] if game.is_over()
        else text("share.running", lang, round=game.round, rounds=len(rules.boxes)))
    lines = [head, ""]
    for rank, player, total in game.ranking():
        lines.append(f"{rank}. {game.players[player].name}: {total}")
    sheets = [game.sheet(i) for i in range(len(game.players))]
    rows: list[tuple[str, list[str]]] = []

    def cell(i: int, box: Any) -> str:
        entry = sheets[i].entries.get(box)
        if entry is None:
            return words["open"]
        return words["struck"] if entry.struck else str(entry.points)

    for box in rules.upper_boxes:
        rows.append((rules.box_name(box, lang), [cell(i, box) for i in range(len(sheets))]))
    rows.append((words["upper"], [str(s.upper_sum) for s in sheets]))
    rows.append((words["bonus"], [str(s.bonus) for s in sheets]))
    for box in rules.boxes:
        if not box.is_upper:
            rows.append((rules.box_name(box, lang), [cell(i, box) for i in range(len(sheets))]))
    rows.append((words["lower"], [str(s.lower_sum) for s in sheets]))
    if any(s.extra_bonus for s in sheets):
        rows.append((words["extra"], [str(s.extra_bonus) for s in sheets]))
    rows.append((words["total"], [str(s.total) for s in sheets]))
    names = [p.name for p in game.players]
    first = max(len(words["box"]), *(len(r[0]) for r in rows))
    widths = [max(len(n), *(len(r[1][i]) for r in rows)) for i, n in enumerate(names)]
    lines.append("")
    lines.append("  ".join([words["box"].ljust(first), *(n.rjust(w) for n, w in
                                                          zip(names, widths, strict=True))]))
    for title, values in rows:
        lines.append("  ".join([title.ljust(first), *(v.rjust(w) for v, w in
                                                      zip(values, widths, strict=True))]))
    return "\n".join(lines)


def pack(game: Game) -> str:
    """The game as a fragment text: its save without the dice that its seed brings (those the
    bridge throws with ``seeded_rng(seed, len(actions))``), compressed, in base64url."""
    data = game.to_json()
    for key in ("over", "scores"):
        data.pop(key, None)
    replay = game.at_start()
    kept = []
    for action in game.actions:
        seeded = (isinstance(action, Outcome) and replay.is_chance_node()
                  and replay.sample_outcome(seeded_rng(game.seed, len(replay.actions))) == action)
        if not seeded:
            kept.append(action_to_json(action))
        replay.apply(action)
    data["actions"] = kept
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return FRAGMENT_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode()


def unpack(text: str) -> Game:
    """The game a fragment text from :func:`pack` carries, replayed and checked by the engine;
    raises :class:`CorruptSaveError` for anything that is not such a text."""
    if not isinstance(text, str) or not text.startswith(FRAGMENT_PREFIX):
        raise CorruptSaveError("the link does not carry a kniffel game", code="link.not_a_game")
    body = text[len(FRAGMENT_PREFIX):]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, MAX_UNPACKED)
        if inflate.unconsumed_tail:
            raise CorruptSaveError(f"the link's game is larger than {MAX_UNPACKED} bytes",
                                       code="link.too_large")
        data = json.loads(raw.decode())
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        raise CorruptSaveError("the link is damaged: its game cannot be read",
                               code="link.damaged") from None
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise CorruptSaveError("the link does not carry a kniffel game", code="link.not_a_game")
    stored = [action_from_json(a) for a in data["actions"]]
    # the header alone (checked like any save), then the actions with the seed's dice between
    game = Game.from_json({**data, "actions": []})
    try:
        for i, action in enumerate(stored):
            if game.is_chance_node() and not isinstance(action, Outcome):
                game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
            try:
                game.apply(action)
            except KniffelError as e:
                raise CorruptSaveError(f"the link's action #{i + 1} {action!r}: {e}",
                                           code="link.damaged") from None
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))
    except CorruptSaveError:
        raise
    except KniffelError as e:
        raise CorruptSaveError(f"the link's game is not valid: {e}",
                               code="link.damaged") from None
    return game


def qr_code(text: str) -> dict[str, Any]:
    """The QR code of ``text`` (error correction L, raised where the size allows) as an SVG
    path of its dark modules and its size in modules, with the quiet zone of 4."""
    qr = segno.make(text, error="l", boost_error=True, micro=False)
    size = len(qr.matrix)
    parts = []
    for y, row in enumerate(qr.matrix):
        x = 0
        while x < size:
            if row[x]:
                start = x
                while x < size and row[x]:
                    x += 1
                parts.append(f"M{start + 4} {y + 4}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return {"size": size + 8, "path": "".join(parts), "version": qr.version}

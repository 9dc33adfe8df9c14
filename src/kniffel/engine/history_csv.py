"""A game history as a table for spreadsheets: one row per player and finished game.

Pure Python, no I/O (it also runs inside Pyodide, for the browser's export). The columns, in the
reader's language (the catalog's ``csv.*`` words and the boxes' names): the game's number in
the file, its date (the start, ``YYYY-MM-DD HH:MM`` in the time zone the caller names), the rule
set, the player, the total, the place (1 for the winner; equal totals share a place), the bonus
(its points), the extra points for further Kniffels (where the rule set gives them), the upper
section's sum and then every box of the rule sets in the file (its
points, 0 for a struck box, empty where the game's rule set has no such box). Numbers are plain
integers, as every spreadsheet reads them; the text is UTF-8 with a byte order mark (so that a
spreadsheet reads names such as "Zoë" right), commas between fields and CRLF line ends
(RFC 4180). Unfinished games have no total or place yet and are left out. A name a
spreadsheet would take for a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) gets a leading ``'``, so opening a file from someone else runs nothing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import datetime, tzinfo

from kniffel.engine.errors import InvalidArgumentError
from kniffel.engine.history_file import HistoryEntry
from kniffel.engine.messages import text
from kniffel.engine.rules import BOX_TEXTS, Box, Lang

__all__ = ["BOM", "csv_rows", "csv_text"]

#: The byte order mark the text starts with.
BOM = "\ufeff"
#: The fixed columns before the boxes, as catalog codes.
HEAD = ("csv.game", "csv.date", "csv.rules", "csv.player", "csv.total", "csv.place",
        "csv.bonus", "csv.extra_bonus", "csv.upper_sum")
#: What a spreadsheet reads as the start of a formula.
FORMULA_STARTS = frozenset("=+-@\t\r")


def when(iso: str, zone: tzinfo | None = None) -> str:
    """The time ``iso`` (ISO 8601) as ``YYYY-MM-DD HH:MM``, in ``zone`` when given and the time
    states its offset, else as written; a text that is no time stays as it is."""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if zone is not None and moment.tzinfo is not None:
        moment = moment.astimezone(zone)
    return moment.strftime("%Y-%m-%d %H:%M")


def csv_rows(entries: Iterable[HistoryEntry], lang: Lang = "de",
             zone: tzinfo | None = None) -> list[list[str | int]]:
    """The header and one row per player of every finished game in ``entries`` (in the order
    given), as the module describes."""
    finished = [e for e in entries if _entry(e).finished]
    rule_sets = {e.game.rules.name: e.game.rules for e in finished}
    boxes = sorted({box for r in rule_sets.values() for box in r.boxes},
                   key=list(Box).index)
    only = next(iter(rule_sets.values())) if len(rule_sets) == 1 else None
    head: list[str | int] = [text(code, lang) for code in HEAD]
    head += [only.box_name(box, lang) if only else BOX_TEXTS[box].name(lang) for box in boxes]
    rows = [head]
    for number, entry in enumerate(finished, start=1):
        game = entry.game
        places = {player: place for place, player, _ in game.ranking()}
        date = when(entry.started, zone)
        title = game.rules.title(lang)
        for seat, player in enumerate(game.players):
            sheet = game.sheet(seat)
            row: list[str | int] = [number, date, title, _cell(player.name), sheet.total,
                                    places[seat], sheet.bonus, sheet.extra_bonus,
                                    sheet.upper_sum]
            for box in boxes:
                filled = sheet.entries.get(box)
                row.append("" if box not in game.rules.boxes else
                           filled.points if filled is not None else "")
            rows.append(row)
    return rows


def csv_text(entries: Iterable[HistoryEntry], lang: Lang = "de",
             zone: tzinfo | None = None) -> str:
    """:func:`csv_rows` as the text of a CSV file (byte order mark, commas, CRLF)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(csv_rows(entries, lang, zone))
    return BOM + out.getvalue()


def _cell(name: str) -> str:
    """A text cell no spreadsheet takes for a formula."""
    return "'" + name if name[:1] in FORMULA_STARTS else name


def _entry(entry: object) -> HistoryEntry:
    if not isinstance(entry, HistoryEntry):
        raise InvalidArgumentError(f"a history's table is made of its entries, got "
                                   f"{entry!r:.40}", code="argument.invalid",
                                   params={"what": "entry", "value": repr(entry)[:40]})
    return entry

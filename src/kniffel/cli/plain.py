"""Plain output for a terminal that cannot show kniffel's characters: the codec error handler
``kniffel-plain`` writes each as the nearest plain text (``ä`` as ``ae``, a dash as ``-``)."""

from __future__ import annotations

import contextlib
import sys
import unicodedata

#: What a terminal that cannot show a character gets instead: dashes, quotes, signs (letters
#: are spelt plainly by :func:`_plain_char`).
_PLAIN = {"–": "-", "—": "-", "−": "-", "„": '"', "“": '"', "”": '"', "‚": "'", "‘": "'",
          "’": "'", "…": "...", "×": "x", "≈": "~", "→": "->", "·": "*", "★": "*",
          "\u00a0": " ", "\u202f": " "}


def _plain_char(ch: str) -> str:
    """``ch`` as the nearest plain (ASCII) text: a letter without its accent, an umlaut with
    an "e" as German spells it without one, sharp s as "ss"; a line of a table as ``-``,
    ``|`` or ``+``; anything else "?"."""
    if ch in _PLAIN:
        return _PLAIN[ch]
    if "\u2500" <= ch <= "\u257f":  # box drawing
        return "-" if ch in "─━═╌╍┄┅" else "|" if ch in "│┃║╎╏┆┇" else "+"
    if "\u2580" <= ch <= "\u259f":  # blocks (progress bars)
        return "#"
    parts = unicodedata.normalize("NFKD", ch)
    base = "".join(c for c in parts if not unicodedata.combining(c))
    if "\u0308" in parts:  # a diaeresis: the umlaut spelt with an e
        base += "e"
    if not base.isascii() or not base or base == ch:
        base = ch.casefold() if ch.casefold().isascii() else "?"
    return base


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler ``kniffel-plain``: the characters the output cannot encode, as
    the nearest plain text (:func:`_plain_char`)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(map(_plain_char, error.object[error.start:error.end])), error.end


def plain_where_needed() -> None:
    """Output streams that cannot encode kniffel's words (``PYTHONIOENCODING=ascii``, a
    Latin-1 terminal) write them plainly instead of ending in a traceback."""
    import codecs

    codecs.register_error("kniffel-plain", _plain)
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            (chr(0xE4) + "\u2013\u2502").encode(encoding)  # an umlaut, a dash, a line
        except (UnicodeEncodeError, LookupError):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                with contextlib.suppress(ValueError, OSError):
                    reconfigure(errors="kniffel-plain")

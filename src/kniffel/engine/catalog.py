"""The word catalog's data: one JSON file per language, ``words/de.json`` and ``words/en.json``.

Each file is a flat object ``{code: template}`` (``str.format`` placeholders); both hold the same
codes. This module only reads them, so that every engine module (the rules' box names as well as
:mod:`kniffel.engine.messages`) can take its words from the catalog without importing the other.
The files travel inside the package (``importlib.resources``), in the browser too.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

#: The languages of the catalog, German first.
LANGS = ("de", "en")


@cache
def words(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` ("de" or "en") as ``{code: template}``, in the file's order."""
    if lang not in LANGS:
        raise ValueError(f"no words for the language {lang!r}")
    source = resources.files("kniffel.engine").joinpath("words", f"{lang}.json")
    loaded = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(loaded, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in loaded.items()):
        raise ValueError(f"words/{lang}.json is not an object of texts")
    return loaded


@cache
def pairs() -> dict[str, tuple[str, str]]:
    """The whole catalog as ``{code: (German, English)}``, in the German file's order.

    Raises :class:`ValueError` naming the codes one language lacks."""
    de, en = words("de"), words("en")
    missing = sorted(set(de) ^ set(en))
    if missing:
        raise ValueError(f"words/de.json and words/en.json differ in the codes {missing}")
    return {code: (de[code], en[code]) for code in de}


def word(code: str, lang: str) -> str:
    """The template of ``code`` in ``lang`` ("de" or "en")."""
    return pairs()[code][0 if lang == "de" else 1]

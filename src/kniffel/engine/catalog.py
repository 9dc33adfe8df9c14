"""The word catalog's data: one JSON file per language, ``words/de.json`` and ``words/en.json``.

Each file is a flat object ``{code: template}`` (``str.format`` placeholders); both hold the same
codes. This module only reads them, so that every engine module (the rules' box names as well as
:mod:`kniffel.engine.messages`) can take its words from the catalog without importing the other.
The files travel inside the package and are read through the package's own loader
(:func:`package_file`, from the folder or from a zip archive: in the browser too; the expert's
model and the win-chance data are read by it as well); ``importlib.resources`` would do the same
at about 30 ms of imports, a tenth of a command's start-up.
"""

from __future__ import annotations

import json
import os
from functools import cache

#: The languages of the catalog, German first.
LANGS = ("de", "en")


@cache
def words(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` ("de" or "en") as ``{code: template}``, in the file's order."""
    if lang not in LANGS:
        raise ValueError(f"no words for the language {lang!r}")
    loaded = json.loads(package_file("words", f"{lang}.json").decode("utf-8"))
    if not isinstance(loaded, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in loaded.items()):
        raise ValueError(f"words/{lang}.json is not an object of texts")
    return loaded


def package_file(*parts: str) -> bytes:
    """The bytes of the file ``parts`` inside the engine package (``kniffel/engine/…``), by its
    loader (a folder's or a zip archive's ``get_data``, as :func:`pkgutil.get_data` does); the
    word files, the expert's model and the win-chance data are read so. A missing file raises
    :class:`OSError`."""
    loader = __spec__.loader if __spec__ is not None else None
    get_data = getattr(loader, "get_data", None)
    path = os.path.join(os.path.dirname(__file__), *parts)
    if get_data is None:  # a loader without files: read the path itself
        with open(path, "rb") as f:
            return f.read()
    data = get_data(path)
    assert isinstance(data, bytes)
    return data


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

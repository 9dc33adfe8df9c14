"""The user's language: German or English, from the locale."""

from __future__ import annotations

import os
from collections.abc import Mapping

from kniffel.engine.rules import Lang


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """English when the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first one set) is
    English, German otherwise (also when it is unknown).

    >>> default_lang({"LANG": "en_GB.UTF-8"}), default_lang({"LANG": "fr_FR"}), default_lang({})
    ('en', 'de', 'de')
    """
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return "en" if value.lower().startswith("en") else "de"
    return "de"

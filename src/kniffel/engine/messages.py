"""The words kniffel shows a player, in German and English: one catalog for every front end.

Every :class:`~kniffel.engine.errors.KniffelError` carries a ``code`` and ``params``; :func:`render`
turns it into a plain sentence for a player (never the English developer message, which stays in
``str(error)`` for Python users and logs). The command line, the terminal game, the advisor and
the browser (through the bridge's error replies) all render from :data:`CATALOG`; :func:`text`
gives the other catalog entries (the command line's own sentences). The words themselves live
in one data file per language, ``engine/words/de.json`` and ``engine/words/en.json``
(:mod:`kniffel.engine.catalog` reads them): box names and rules, rule-set titles, the computer
players' names and the dice's labels as well as every sentence.

Parameters are shown in the player's language where they name something of the game: ``box``,
``boxes`` and ``strikes`` (box ids) as box names, ``rules`` (a rule-set id) as its title,
``strategy``/``strategies`` as strategy names, ``die`` as "W6"/"W10" or "d6"/"d10", ``roll`` and
``keep`` (``{"d6": [...], "d10": n}``) as dice, ``cause`` (an error inside this one) rendered
itself; a ``where`` (a file) that the sentence does not use leads it: ``"games.json: …"``.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from functools import cache
from typing import Any

from kniffel.engine.catalog import pairs
from kniffel.engine.rules import BOX_TEXTS, Box, Lang, preset

#: code -> (German, English), read from ``words/de.json`` and ``words/en.json`` (see
#: :mod:`kniffel.engine.catalog`). Placeholders are ``str.format`` fields filled from the params.
CATALOG: dict[str, tuple[str, str]] = pairs()

#: The computer players' names as a player reads them (the catalog's ``strategy.name.*``).
STRATEGY_NAMES: dict[str, tuple[str, str]] = {
    code.removeprefix("strategy.name."): pair for code, pair in CATALOG.items()
    if code.startswith("strategy.name.")}

#: The dice's labels, "W6"/"d6" (the catalog's ``die.*``).
_DIE_LABELS = {code.removeprefix("die."): pair for code, pair in CATALOG.items()
               if code.startswith("die.")}


def _pick(pair: tuple[str, str], lang: Lang) -> str:
    return pair[0] if lang == "de" else pair[1]


def die_label(die: str, lang: Lang) -> str:
    """The label of a die: ``die_label("d10", "de") == "W10"``."""
    return _pick(_DIE_LABELS[die], lang) if die in _DIE_LABELS else die


def strategy_name(name: str, lang: Lang) -> str:
    """A computer player's name in ``lang`` (``greedy`` -> "gierig"); unknown names as they
    are."""
    return _pick(STRATEGY_NAMES[name], lang) if name in STRATEGY_NAMES else name


def dice_text(d6: Sequence[int], d10: int | None, lang: Lang) -> str:
    """Dice as a player reads them: ``"5 5 6, W10=8"`` (English ``"5 5 6, d10=8"``)."""
    parts = [" ".join(map(str, d6))] if d6 else []
    if d10 is not None:
        parts.append(f"{die_label('d10', lang)}={d10}")
    return ", ".join(parts) if parts else _pick(CATALOG["dice.none"], lang)


def rules_title(name: str, lang: Lang) -> str:
    """The display name of the rule set ``name`` ("Kniffel Extreme"), or ``name`` when it is
    not one."""
    try:
        return preset(name).title(lang)
    except ValueError:
        return name


def _box_name(box: object, rules: object, lang: Lang) -> str:
    try:
        parsed = Box(box)
    except ValueError:
        return str(box)
    if isinstance(rules, str):
        try:
            return preset(rules).box_name(parsed, lang)
        except ValueError:
            pass
    return BOX_TEXTS[parsed].name(lang)


def _join(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "–"


def _shown(key: str, value: object, params: Mapping[str, object], lang: Lang) -> object:
    """A parameter as the player reads it (see the module's docstring)."""
    if value is None:
        return "–"
    rules = params.get("rules")
    if key == "box":
        return _box_name(value, rules, lang)
    if key in ("boxes", "strikes") and isinstance(value, list):
        return _join([_box_name(b, rules, lang) for b in value])
    if key == "rules" and isinstance(value, str):
        return rules_title(value, lang)
    if key == "strategy" and isinstance(value, str):
        return strategy_name(value, lang)
    if key == "strategies" and isinstance(value, list):
        return _join([f"{v} ({strategy_name(v, lang)})" if strategy_name(v, lang) != v else v
                      for v in map(str, value)])
    if key == "size" and isinstance(value, int) and not isinstance(value, bool):
        return size(value, lang)  # a file size in bytes: "2,4 GB"
    if key == "die" and isinstance(value, str):
        return die_label(value, lang)
    if key in ("roll", "keep") and isinstance(value, dict):
        d6 = value.get("d6")
        d10 = value.get("d10")
        return dice_text(list(d6) if isinstance(d6, list) else [],
                         d10 if isinstance(d10, int) else None, lang)
    if key == "field":  # a part of the save format: in words, never its name in the format
        return _pick(CATALOG.get(f"part.{value}") or CATALOG["part.unknown"], lang)
    if key == "cause" and isinstance(value, dict):
        inner = value.get("params")
        return render_code(str(value.get("code")), inner if isinstance(inner, dict) else {}, lang)
    if isinstance(value, (list, tuple)):
        return _join([str(v) for v in value])
    return value


def number(value: float, lang: Lang, digits: int = 1) -> str:
    """``value`` as a reader of ``lang`` writes it, with ``digits`` decimals and the digits
    grouped by thousands: German ``359.424`` and ``712,4``, English ``359,424`` and ``712.4``.
    The one number format of every front end (the command line, the terminal game and the
    browser's views): a German reader never sees a decimal point.

    >>> number(6.321, "de", 2), number(6321, "de", 0), number(6321, "en", 0), number(-0.5, "en")
    ('6,32', '6.321', '6,321', '-0.5')
    """
    formats = _babel_numbers(lang)
    if formats is not None and math.isfinite(value):
        shown = formats(value, digits)
    else:  # the browser (no Babel): the same format, by hand
        shown = f"{value:,.{digits}f}"
        if lang == "de":
            shown = shown.replace(",", "\0").replace(".", ",").replace("\0", ".")
    if shown.startswith("-") and not any(c in "123456789" for c in shown):
        shown = shown[1:]  # "-0.0" is 0.0
    return shown


@cache
def _babel_numbers(lang: Lang) -> Callable[[float, int], str] | None:
    """The number format of ``lang`` from Babel (CLDR's symbols and grouping), rounding the
    float's exact value half to even as Python's own format does; None without Babel (the
    engine in the browser, where :func:`number` writes the same by hand)."""
    try:
        from babel import Locale
        from babel.numbers import format_decimal
    except ImportError:
        return None
    locale = Locale.parse(lang)

    def shown(value: float, digits: int) -> str:
        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
        return str(format_decimal(Decimal(value), format=pattern, locale=locale))
    return shown


def decimal(value: float, lang: Lang, most: int = 3) -> str:
    """``value`` with as few decimals as it needs, at most ``most`` (rounded there), grouped and
    in the separators of ``lang`` like :func:`number`: the form for a value a player typed or a
    bound of an option.

    >>> decimal(0.5, "de"), decimal(2.0, "de"), decimal(65535, "de"), decimal(1 / 3, "en")
    ('0,5', '2', '65.535', '0.333')
    """
    shown = number(value, lang, most)
    point = "," if lang == "de" else "."
    if point in shown:
        shown = shown.rstrip("0").rstrip(point)
    return shown


def count(value: int, lang: Lang) -> str:
    """A whole number with its thousands grouped: ``count(359424, "de") == "359.424"``."""
    return number(value, lang, 0)


def percent(share: float, lang: Lang, digits: int = 1) -> str:
    """A share (0–1) in percent: ``percent(0.423, "de") == "42,3 %"``."""
    return f"{number(100 * share, lang, digits)} %"


def size(nbytes: int, lang: Lang) -> str:
    """A file size in decimal units: ``size(2_400_000_000, "de") == "2,4 GB"``, ``"512 B"``."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if nbytes >= scale:
            return f"{number(nbytes / scale, lang, 1)} {unit}"
    return f"{nbytes} B"


def plural_form(n: float, lang: Lang) -> str:
    """The plural category of ``n`` things in ``lang`` ("one" or "other" in German and
    English): CLDR's plural rules, from Babel where it is installed (the desktop); the engine in
    the browser, which comes without Babel, applies the same CLDR rule of both languages
    ("one": the whole number 1), as the page's ``Intl.PluralRules`` does.

    >>> plural_form(1, "de"), plural_form(0, "de"), plural_form(2, "en"), plural_form(1.5, "en")
    ('one', 'other', 'other', 'other')
    """
    rules = _plural_rules(lang)
    if rules is None:
        return "one" if n == 1 and float(n).is_integer() else "other"
    return str(rules(n))


@cache
def _plural_rules(lang: Lang) -> Callable[[float], str] | None:
    try:
        from babel import Locale
    except ImportError:  # the browser: the CLDR rule of German and English, above
        return None
    return Locale.parse(lang).plural_form


def plural(code: str, n: float, lang: Lang, **params: object) -> str:
    """The catalog's sentence for ``n`` things: ``code.one`` or ``code.other`` by the plural
    form of ``n`` in ``lang`` (:func:`plural_form`; ``code.other`` where the catalog has no
    entry for that form); ``n`` is shown as :func:`count` writes it unless ``params`` give it.

    >>> plural("cli.imported.new", 1, "de"), plural("cli.imported.new", 3, "en")
    ('1 neues Spiel importiert', '3 new games imported')
    """
    form = plural_form(n, lang)
    key = f"{code}.{form}" if f"{code}.{form}" in CATALOG else f"{code}.other"
    shown: dict[str, object] = {"n": count(int(n), lang) if float(n).is_integer() else
                                number(float(n), lang), **params}
    return render_code(key, shown, lang)


def fields(template: str) -> set[str]:
    """The parameter names a catalog text uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def render_code(code: str, params: Mapping[str, object], lang: Lang) -> str:
    """The catalog's sentence for ``code`` with ``params``, in ``lang``. A code without an entry,
    or params that do not fill its sentence, give the generic sentence "That is not possible."
    in ``lang``."""
    pair = CATALOG.get(code)
    template = _pick(pair, lang) if pair else None
    if template is not None:
        used = fields(template)
        if used <= params.keys():
            shown: dict[str, Any] = {k: _shown(k, params[k], params, lang) for k in used}
            text = template.format(**shown)
        else:
            template = None
    if template is None:
        text = _pick(CATALOG["error"], lang)
    where = params.get("where")
    if isinstance(where, str) and (template is None or "where" not in fields(template)):
        text = f"{where}: {text}"
    return text


def render(error: BaseException, lang: Lang = "de") -> str:
    """``error`` in plain German or English for a player: a kniffel error from the catalog, by
    its code and params; anything else as a generic sentence (never engine-internal text)."""
    code = getattr(error, "code", None)
    params = getattr(error, "params", None)
    if isinstance(code, str) and isinstance(params, dict):
        return render_code(code, params, lang)
    return _pick(CATALOG["unexpected"], lang)


def text(code: str, lang: Lang, **params: object) -> str:
    """A catalog sentence that is not an error (the command line's own words)."""
    return render_code(code, params, lang)

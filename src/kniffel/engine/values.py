"""The expert's view of the future: expected points still to come from a turn-start state.

For the classic rule sets these are the exact values of the solver's table file
(:class:`TableValues`, read with the standard library in the format of
:mod:`kniffel.engine.table_format`); for Kniffel Extreme, whose exact table is 2.4 GB, the
compact model fitted to a sample of it (:mod:`kniffel.engine.expert_model`).

Where a table file comes from is not the engine's business: a front end registers a provider
(:func:`register_table_provider`: the browser reads the tables shipped with the site), and the
installed package lists its table sources as entry points of the group ``kniffel.tables``
(the solver's cache, which it fills on request).
"""

from __future__ import annotations

import array
import hashlib
import sys
from collections.abc import Callable
from functools import cache
from typing import Protocol

from kniffel.engine import expert_model
from kniffel.engine.errors import ExpertError, KniffelError
from kniffel.engine.rules import RuleSet
from kniffel.engine.states import max_count, upper_key, upper_states, x_of
from kniffel.engine.table_format import (
    HEADER_SIZE,
    HeaderError,
    full_layout,
    header_bytes,
    identity,
    parse_header,
)


class Values(Protocol):
    """Expected points still to come from a turn-start state: the expert's view of the future."""

    #: Where the values come from, for :attr:`Advice.source`: "table" or "model".
    source: str

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        """V of the filled boxes ``mask`` (bit ``b`` = box ``b`` of the rule set), the upper
        sum ``upper_sum`` (uncapped) and the extra state ``x`` (chips left, or the kniffel
        flag)."""
        ...


# --- exact value tables (classic rule sets) ---------------------------------------------------


def _table_error(rules: RuleSet, where: str, problem: str) -> ExpertError:
    return ExpertError(f"{where}: not the value table of {rules.name}: {problem}",
                       code="expert.table_mismatch",
                       params={"rules": rules.name, "where": where, "problem": problem})


#: The dtypes a table file may hold, as :mod:`array` type codes.
_CODES = {"<f8": "d", "<f4": "f"}


class TableValues:
    """The exact values of a full solver table file (header + little-endian float64 or
    float32 values), read with the standard library and checked against its header."""

    source = "table"

    def __init__(self, rules: RuleSet, data: bytes, *, where: str = "table") -> None:
        self.rules = rules
        try:
            header = parse_header(data[:HEADER_SIZE])
        except HeaderError as e:
            raise _table_error(rules, where, "damaged header" if e.damaged else
                               "no table header") from None
        base, states = full_layout(rules)
        # the full table, complete; either dtype (checked next)
        want = {key: value for key, value in identity(rules, "", states, len(rules.boxes), 0)
                .items() if key != "dtype"}
        for key, value in {**want, "complete": True}.items():
            if header.get(key) != value:
                raise _table_error(rules, where, f"{key} is {header.get(key)!r}, expected "
                                   f"{value!r}")
        dtype = header.get("dtype")
        if dtype not in _CODES:
            raise _table_error(rules, where, f"dtype {dtype!r}")
        raw = data[HEADER_SIZE:]
        values = array.array(_CODES[dtype])
        if len(raw) != states * values.itemsize:
            raise _table_error(rules, where, f"{len(raw)} bytes of values, expected "
                               f"{states * values.itemsize}")
        if hashlib.sha256(raw).hexdigest() != header.get("sha256"):
            raise _table_error(rules, where, "checksum does not match")
        values.frombytes(raw)
        if sys.byteorder != "little":  # pragma: no cover - no big-endian machine at hand
            values.byteswap()
        self.header = header
        self.values = values
        self.base = base
        self._states = upper_states(rules.bonus_threshold, max_count(rules))
        self._index = [{u: k for k, u in enumerate(s)} for s in self._states]

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        """V from the table (see :class:`Values`)."""
        rules = self.rules
        u6 = mask & 63
        key = upper_key(u6, upper_sum, rules.bonus_threshold, max_count(rules))
        k = self._index[u6].get(key)
        if k is None:
            raise ExpertError(f"upper sum {upper_sum} cannot occur with the filled upper boxes "
                              f"{u6:06b}", code="expert.upper_impossible",
                              params={"upper": upper_sum})
        return float(self.values[self.base[mask] + k * x_of(rules, mask) + x])


def compact_table(rules: RuleSet, data: bytes) -> bytes:
    """The table file ``data`` with its values as float32 (half the size: what the browser
    ships); checked first, so a damaged table is refused, not shrunk."""
    table = TableValues(rules, data)
    values = array.array("f", table.values)
    if sys.byteorder != "little":  # pragma: no cover
        values.byteswap()
    raw = values.tobytes()
    header = dict(table.header, dtype="<f4", sha256=hashlib.sha256(raw).hexdigest())
    return header_bytes(header) + raw


# --- where table files come from --------------------------------------------------------------

#: A source of table files: for a rule set and whether it may build a missing table, the bytes
#: of the full table file and where they come from (for messages), or None.
TableSource = Callable[[RuleSet, bool], "tuple[bytes, str] | None"]
#: The entry-point group of the installed package's table sources.
ENTRY_POINTS = "kniffel.tables"

#: Functions that give the bytes of a rule set's table file, asked in order (the browser
#: registers one that reads the tables shipped with the site).
_TABLE_PROVIDERS: list[Callable[[RuleSet], bytes | None]] = []
#: What to forget when the providers change (the experts built on the old values).
_ON_CHANGE: list[Callable[[], None]] = []


def register_table_provider(provider: Callable[[RuleSet], bytes | None]) -> None:
    """Ask ``provider`` first for the bytes of a table file (None: it has none)."""
    _TABLE_PROVIDERS.insert(0, provider)
    _table_values.cache_clear()
    for forget in _ON_CHANGE:
        forget()


def on_providers_changed(forget: Callable[[], None]) -> None:
    """Call ``forget`` whenever a table provider is registered (to drop what was built on the
    values read before)."""
    _ON_CHANGE.append(forget)


@cache
def table_sources() -> tuple[TableSource, ...]:
    """The installed package's table sources (entry points of :data:`ENTRY_POINTS`, in their
    order); none where nothing is installed (the browser)."""
    try:
        from importlib.metadata import entry_points

        found = list(entry_points(group=ENTRY_POINTS))
    except Exception:  # pragma: no cover - broken metadata: no sources
        return ()
    seen: dict[str, TableSource] = {}
    for entry in found:
        if entry.name in seen:
            continue
        try:
            seen[entry.name] = entry.load()
        except (ImportError, KniffelError):  # its packages are missing (the solver without
            # numpy: kniffel.extras' MissingExtraError): no tables from it
            continue
    return tuple(seen.values())


def _find_table(rules: RuleSet, build: bool) -> tuple[bytes, str] | None:
    for provider in _TABLE_PROVIDERS:
        data = provider(rules)
        if data is not None:
            return data, "table"
    for source in table_sources():
        found = source(rules, build)
        if found is not None:
            return found
    return None


def table_bytes(rules: RuleSet) -> bytes | None:
    """The bytes of the full table file of classic ``rules``: from a registered provider, else
    an installed source (the solver's cache); None when there is none."""
    found = _find_table(rules, False)
    return None if found is None else found[0]


@cache
def _table_values(rules: RuleSet, build: bool) -> TableValues:
    found = _find_table(rules, build)
    if found is None:
        raise ExpertError(f"the expert of {rules.name} needs its exact value table: build it "
                          f"with `kniffel solve --rules {rules.name}` (about a second)",
                          code="expert.table_missing",
                          params={"rules": rules.name, "rules_id": rules.name})
    data, where = found
    return TableValues(rules, data, where=where)


def known_value(rules: RuleSet, values: Values, mask: int, upper_sum: int,
                x: int) -> float | None:
    """The exact expected points still to come under optimal play from the turn-start state
    (filled boxes ``mask``, upper sum ``upper_sum``, extra state ``x``) of ``rules`` where
    ``values`` know it, else None: every state of an exact table; for the expert's model, the
    states whose exact value its file records (:meth:`ValueModel.known
    <kniffel.engine.expert_model.ValueModel.known>`: the empty sheet of Kniffel Extreme,
    646.4189), for the rules it was fitted to (not a house rule it also plays)."""
    if values.source == "table":
        return values.future(mask, upper_sum, x)
    if isinstance(values, expert_model.ValueModel) and values.rules == rules:
        return values.known(mask, upper_sum, x)
    return None


def values_for(rules: RuleSet, *, build: bool = True) -> Values:
    """The expert's value function for ``rules``: the exact table of a classic rule set (built
    by an installed source when missing and ``build``), the fitted model for Kniffel
    Extreme."""
    if rules.d10:
        return expert_model.load_model(rules)  # looked up at each call (it can be replaced)
    return _table_values(rules, build)

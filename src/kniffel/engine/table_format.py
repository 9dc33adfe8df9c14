"""The value table's file format: its header and the layout of its values.

A table file is a 4,096-byte header (a JSON object after the line ``KNIFFEL-TABLE``, padded with
spaces, ending in a newline) followed by the values as raw little-endian floats. The header
names the format version, the rule set (its ``repr``), the dtype, the number of states, which
sets were solved (``max_open``: at most that many open boxes; ``root``: the boxes every set
holds), how many layers are done and, once complete, the SHA-256 of the values.

The values are ordered by the set of filled boxes (bit ``b`` = box ``b`` of the rule set),
then by upper state ``k`` and extra state ``x`` (:mod:`kniffel.engine.states`): the value of a
state lies at ``base[mask] + k * x_of(mask) + x``. The solver writes tables
(:mod:`kniffel.solver.table`) and the expert reads them (:mod:`kniffel.engine.values`), both with
this module.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from kniffel.engine.rules import RuleSet
from kniffel.engine.states import lanes

MAGIC = b"KNIFFEL-TABLE\n"
HEADER_SIZE = 4096
FORMAT = "kniffel-solver-table"
FORMAT_VERSION = 1
#: The fields of a header that say which table a file is, in the order they are checked.
IDENTITY = ("format", "version", "rules", "dtype", "states", "max_open", "root")


class HeaderError(ValueError):
    """A file's first bytes are no table header (``damaged`` False) or a damaged one."""

    def __init__(self, damaged: bool) -> None:
        super().__init__("damaged table header" if damaged else "no table header")
        self.damaged = damaged


def header_bytes(header: Mapping[str, Any]) -> bytes:
    """The header block of ``header``: :data:`HEADER_SIZE` bytes; ValueError when it does not
    fit."""
    body = MAGIC + json.dumps(header, sort_keys=True).encode()
    if len(body) >= HEADER_SIZE - 1:
        raise ValueError("table header too long")
    return body + b" " * (HEADER_SIZE - 1 - len(body)) + b"\n"


def parse_header(block: bytes) -> dict[str, Any]:
    """The header of a file whose first bytes are ``block`` (at least :data:`HEADER_SIZE` of
    them); :class:`HeaderError` when it has none or a damaged one."""
    if len(block) < HEADER_SIZE or not block.startswith(MAGIC):
        raise HeaderError(damaged=False)
    try:
        header = json.loads(block[len(MAGIC):HEADER_SIZE].decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise HeaderError(damaged=True) from None
    if not isinstance(header, dict):
        raise HeaderError(damaged=True)
    return header


def identity(rules: RuleSet, dtype: str, states: int, max_open: int, root: int
             ) -> dict[str, Any]:
    """The header fields of :data:`IDENTITY` of the table of ``rules`` with values of
    ``dtype`` (numpy's name: ``"<f8"``, ``"<f4"``) holding ``states`` states."""
    return {"format": FORMAT, "version": FORMAT_VERSION, "rules": repr(rules), "dtype": dtype,
            "states": states, "max_open": max_open, "root": root}


def full_layout(rules: RuleSet) -> tuple[list[int], int]:
    """The layout of the full table of ``rules``: per set of filled boxes the offset of its
    values (``base``), and the number of states. (The solver computes the same with numpy for
    tables of only some sets: :func:`kniffel.solver.table.make_layout`.)"""
    base = []
    offset = 0
    for mask in range(1 << len(rules.boxes)):
        base.append(offset)
        offset += lanes(rules, mask)
    return base, offset

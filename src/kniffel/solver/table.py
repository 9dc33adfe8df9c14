"""The value table: expected points still to come from every turn-start state, and its file.

A table file is a 4,096-byte header (a JSON object after the line ``KNIFFEL-TABLE``) followed by
the values as raw little-endian floats, in the engine's format and layout
(:mod:`kniffel.engine.table_format`). The header names the format version, the rule set (its
``repr``), the dtype, the number of states, which sets were solved (``max_open``, ``root``), how
many layers are done and, once complete, the SHA-256 of the values. A file whose header does not
match what is asked for is refused (:class:`TableMismatchError`) and never read as values.
"""

from __future__ import annotations

import errno
import hashlib
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.engine.errors import UnknownRuleSetError
from kniffel.engine.rules import RuleSet, preset
from kniffel.engine.table_format import (
    HEADER_SIZE,
    IDENTITY,
    HeaderError,
    header_bytes,
    identity,
    parse_header,
)
from kniffel.solver.tables import SolverError, Tables, build_tables

#: Tables up to this size are checked against their checksum at every load; larger ones once
#: per file change (the result is remembered next to the file).
VERIFY_ALWAYS_BYTES = 256 << 20


class TableMismatchError(SolverError):
    """A table file is not the table asked for, or is damaged."""

    default_code = "solver.table_mismatch"


class TableMissingError(SolverError):
    """No table covers the position asked about."""

    default_code = "solver.no_table"


def cache_dir() -> Path:
    """Where tables are kept: $KNIFFEL_CACHE_DIR, else $XDG_CACHE_HOME/kniffel/solver."""
    env = os.environ.get("KNIFFEL_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "kniffel" / "solver"


class CacheError(SolverError):
    """The solver's cache folder cannot be made or written: a part of its path is a file, it
    is read-only, or the disk is full. Nothing was stored there."""

    default_code = "solver.cache_unusable"


def cache_error(folder: Path, error: OSError) -> CacheError:
    """Why the cache folder ``folder`` cannot be used, from the ``error`` that said so."""
    where = str(folder)
    message = f"the solver's cache folder {where} cannot be used ({error.strerror})"
    match error.errno:
        case errno.ENOTDIR | errno.EEXIST:
            return CacheError(message, code="solver.cache_not_a_folder", params={"where": where})
        case errno.EACCES | errno.EPERM | errno.EROFS:
            return CacheError(message, code="solver.cache_read_only", params={"where": where})
        case errno.ENOSPC | errno.EDQUOT | errno.EFBIG:
            return CacheError(message, code="solver.cache_full", params={"where": where})
    return CacheError(message, code="solver.cache_unusable", params={"where": where})


def cache_folder(directory: Path | None = None) -> Path:
    """The folder the solver keeps its tables in (``directory``, else :func:`cache_dir`),
    made where it is missing and checked to take a file: the one place that makes it. A folder
    that cannot be made or written (a part of its path is a file, read-only, full) raises
    :class:`CacheError`, which names it in the catalog's sentence; nothing is left behind."""
    folder = directory or cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise cache_error(folder, e) from None
    return folder


def default_dtype(rules: RuleSet) -> np.dtype[Any]:
    """float64 for the classic games; float32 for Kniffel Extreme (2.4 GB instead of 4.8 GB)."""
    return np.dtype(np.float32 if rules.d10 else np.float64)


def table_name(rules: RuleSet, max_open: int | None) -> str:
    """The file name of the table of ``rules`` (``max_open`` None for the full table)."""
    try:
        own = preset(rules.name).free_strike
    except UnknownRuleSetError:
        own = False
    free = rules.free_strike and not own  # marked where the house rule differs from the preset
    name = rules.name + ("-free-strike" if free else "")
    return f"{name}.table" if max_open is None else f"{name}-open{max_open}.table"


@dataclass(frozen=True, eq=False)
class Layout:
    """Which filled-box sets a table holds and where: ``base[F]`` is the offset of F's lanes.

    Sets are included when they contain ``root`` and have at most ``max_open`` open boxes.
    """

    tables: Tables
    max_open: int
    root: int
    base: npt.NDArray[np.int64]
    open_count: npt.NDArray[np.int8]
    states: int

    @property
    def is_full(self) -> bool:
        return self.root == 0 and self.max_open == self.tables.nb

    def layers(self) -> Iterator[tuple[int, npt.NDArray[np.int64]]]:
        """(open boxes, the included sets with that many open boxes), from 0 open upwards."""
        for o in range(self.max_open + 1):
            masks = np.nonzero((self.open_count == o) & (self.base >= 0))[0].astype(np.int64)
            yield o, masks

    def lanes(self, mask: int) -> int:
        t = self.tables
        return int(t.n_u[mask & 63]) * t.x_of(mask)

    def layer_states(self, masks: npt.NDArray[np.int64]) -> int:
        """The number of states (lanes) of ``masks``."""
        t = self.tables
        return int((t.n_u[masks & 63].astype(np.int64) * t.x_of_masks(masks)).sum())


def make_layout(tables: Tables, max_open: int | None = None, root: int = 0) -> Layout:
    """The layout of the sets with at most ``max_open`` open boxes that contain ``root``: the
    engine's layout (:func:`kniffel.engine.table_format.full_layout`, numbered by
    :mod:`kniffel.engine.states`) over the sets included, computed with numpy."""
    nb = tables.nb
    if max_open is None:
        max_open = nb
    if not 0 <= max_open <= nb:
        raise SolverError(f"max_open must be 0–{nb} for {tables.rules.name}, got {max_open}",
                          code="solver.max_open_range",
                          params={"most": nb, "rules": tables.rules.name, "got": max_open})
    full = (1 << nb) - 1
    if root & ~full:
        raise SolverError(f"root {root:#x} names boxes {tables.rules.name} does not have")
    masks = np.arange(1 << nb, dtype=np.int64)
    filled = np.zeros(masks.shape, np.int8)
    for b in range(nb):
        filled += ((masks >> b) & 1).astype(np.int8)
    open_count = (nb - filled).astype(np.int8)
    include = (open_count <= max_open) & ((masks & root) == root)
    counts = np.where(include, tables.n_u[masks & 63].astype(np.int64)
                      * tables.x_of_masks(masks), 0)
    offsets = np.cumsum(counts) - counts
    base = np.where(include, offsets, -1).astype(np.int64)
    return Layout(tables, max_open, root, base, open_count, int(counts.sum()))


class ValueTable:
    """Expected points still to come, by turn-start state; the result of :func:`solve`."""

    def __init__(self, layout: Layout, values: npt.NDArray[Any], *, path: Path | None = None,
                 header: dict[str, Any] | None = None) -> None:
        self.layout = layout
        self.values = values
        self.path = path
        self.header = header or {}
        self._prepared: Any = None

    def prepared(self) -> Any:
        """The kernel's view of this table's index arrays (made once, on first use)."""
        if self._prepared is None:
            from kniffel.solver.kernel import Prepared

            self._prepared = Prepared(self.layout.tables, self.layout.base)
        return self._prepared

    @property
    def tables(self) -> Tables:
        return self.layout.tables

    @property
    def rules(self) -> RuleSet:
        return self.layout.tables.rules

    def covers(self, mask: int) -> bool:
        """Whether the table holds the set ``mask`` and every set after it."""
        return bool(self.layout.base[mask] >= 0)

    def value(self, mask: int, k: int, x: int) -> float:
        """V of filled set ``mask``, upper state ``k``, extra state ``x``."""
        b = int(self.layout.base[mask])
        if b < 0:
            raise TableMissingError(f"the table of {self.rules.name} does not hold the filled "
                                    f"boxes {mask:#x}")
        return float(self.values[b + k * self.tables.x_of(mask) + x])

    def expected_score(self) -> float:
        """The expected final score of optimal play from the empty sheet."""
        t = self.tables
        k = t.upper_state(0, 0)
        return self.value(0, k, t.rules.chips)


def write_header(f: Any, header: dict[str, Any]) -> None:
    """Write the header block at the start of the open binary file ``f``."""
    try:
        block = header_bytes(header)
    except ValueError:
        raise SolverError("table header too long") from None
    f.seek(0)
    f.write(block)
    f.flush()
    os.fsync(f.fileno())


def read_header(path: Path) -> dict[str, Any]:
    """The header of the table file ``path``; :class:`TableMismatchError` when it has none."""
    try:
        with open(path, "rb") as f:
            block = f.read(HEADER_SIZE)
    except OSError as e:
        raise TableMismatchError(f"{path}: cannot read: {e.strerror}") from None
    try:
        return parse_header(block)
    except HeaderError as e:
        raise TableMismatchError(f"{path}: damaged table header" if e.damaged else
                                 f"{path}: not a kniffel solver table") from None


def expected_header(layout: Layout, dtype: np.dtype[Any]) -> dict[str, Any]:
    """The header fields that say which table of ``layout`` with values of ``dtype`` a file
    holds."""
    return identity(layout.tables.rules, dtype.str, layout.states, layout.max_open, layout.root)


def check_header(path: Path, header: dict[str, Any], want: dict[str, Any]) -> None:
    """Raise :class:`TableMismatchError` naming the first field that differs."""
    for key in IDENTITY:
        if header.get(key) != want[key]:
            raise TableMismatchError(f"{path}: {key} is {header.get(key)!r}, expected "
                                     f"{want[key]!r}")
    size = path.stat().st_size
    itemsize = np.dtype(want["dtype"]).itemsize
    if size != HEADER_SIZE + want["states"] * itemsize:
        raise TableMismatchError(f"{path}: {size} bytes, expected "
                                 f"{HEADER_SIZE + want['states'] * itemsize}")


def checksum(values: npt.NDArray[Any]) -> str:
    """SHA-256 of the raw values."""
    h = hashlib.sha256()
    flat = values.reshape(-1)
    step = 1 << 22
    for i in range(0, flat.shape[0], step):
        h.update(np.ascontiguousarray(flat[i:i + step]).tobytes())
    return h.hexdigest()


def load_table(rules: RuleSet, *, max_open: int | None = None,
               directory: Path | None = None) -> ValueTable:
    """The complete table of ``rules`` from the cache, memory-mapped.

    Raises :class:`TableMissingError` when there is none and :class:`TableMismatchError` when the
    file is not that table or its checksum does not match.
    """
    directory = directory or cache_dir()
    path = directory / table_name(rules, max_open)
    if not path.exists():
        raise TableMissingError(f"no table for {rules.name} in {directory}")
    layout = make_layout(build_tables(rules), max_open)
    header = read_header(path)
    dtype = np.dtype(header.get("dtype", "?")) if isinstance(header.get("dtype"), str) else None
    if dtype is None or dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TableMismatchError(f"{path}: unknown dtype {header.get('dtype')!r}")
    check_header(path, header, expected_header(layout, dtype))
    if not header.get("complete"):
        raise TableMismatchError(f"{path}: the table is not complete")
    values = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_SIZE, shape=(layout.states,))
    _verify(path, header, values)
    return ValueTable(layout, values, path=path, header=header)


def _verify(path: Path, header: dict[str, Any], values: npt.NDArray[Any]) -> None:
    stat = path.stat()
    stamp = path.with_suffix(path.suffix + ".verified")
    mark = f"{stat.st_size} {stat.st_mtime_ns} {header.get('sha256')}"
    if stat.st_size > VERIFY_ALWAYS_BYTES:
        try:
            if stamp.read_text() == mark:
                return
        except OSError:
            pass
    if checksum(values) != header.get("sha256"):
        raise TableMismatchError(f"{path}: checksum does not match; the file is damaged")
    if stat.st_size > VERIFY_ALWAYS_BYTES:
        stamp.write_text(mark)

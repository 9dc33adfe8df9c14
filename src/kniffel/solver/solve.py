"""Solving a rule set: the dynamic program over turn-start states, layer by layer."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.engine.errors import KniffelError, cause_param
from kniffel.engine.rules import RuleSet
from kniffel.engine.table_format import HEADER_SIZE, header_bytes
from kniffel.solver import kernel
from kniffel.solver.table import (
    CacheError,
    Layout,
    TableMismatchError,
    TableMissingError,
    ValueTable,
    cache_dir,
    cache_error,
    cache_folder,
    check_header,
    checksum,
    default_dtype,
    expected_header,
    load_table,
    make_layout,
    read_header,
    table_name,
    write_header,
)
from kniffel.solver.tables import SolverError, build_tables

#: How many states one call of the kernel solves at most (between progress updates).
BATCH_STATES = 200_000
#: A solve into a file records how far it got at least this often (seconds), inside a layer too.
CHECKPOINT_SECONDS = 120.0


@dataclass(frozen=True)
class Progress:
    """Where a solve stands: states done of all, the layer (open boxes) being solved."""

    done: int
    total: int
    layer: int
    layers: int
    resumed: int = 0


ProgressCallback = Callable[[Progress], None]


#: Threads the kernel runs on (None: every core this process may use); see set_threads.
_threads: int | None = None


def set_threads(threads: int | None) -> int:
    """Use ``threads`` CPU threads in the kernel (all cores when None); returns the number."""
    global _threads
    most = kernel.cpu_threads()
    n = most if threads is None else threads
    if not 1 <= n <= most:
        raise SolverError(f"threads must be 1–{most}, got {n}", code="solver.threads",
                          params={"most": most, "got": n})
    _threads = n
    return n


def threads() -> int:
    """The threads the kernel runs on now."""
    return _threads or kernel.cpu_threads()


def layer_order(layout: Layout, masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The sets of one layer in the order they are solved (most lanes first; fixed, so that a
    checkpoint can name how many are done)."""
    lanes = layout.tables.n_u[masks & 63].astype(np.int64)
    return masks[np.argsort(-lanes, kind="stable")]


def run_layers(layout: Layout, values: npt.NDArray[Any], *, start_layer: int = 0,
               start_sets: int = 0, progress: ProgressCallback | None = None,
               on_batch: Callable[[int, int, bool], None] | None = None) -> None:
    """Solve the layers ``start_layer``…``max_open`` of ``layout`` into ``values``.

    The first ``start_sets`` sets of ``start_layer`` (in :func:`layer_order`) are taken as done.
    After every batch of sets ``on_batch(layer, sets done in it, layer complete)`` is called
    (before ``progress``), so that the caller can checkpoint.
    """
    tables = layout.tables
    prepared = kernel.Prepared(tables, layout.base)
    layers = list(layout.layers())
    sizes = [layout.layer_states(m) for _, m in layers]
    total = sum(sizes)
    done = sum(sizes[:start_layer])
    if start_sets and start_layer < len(layers):
        first = layer_order(layout, layers[start_layer][1])
        done += layout.layer_states(first[:start_sets])
    resumed = done
    for (o, masks), size in zip(layers, sizes, strict=True):
        if o < start_layer:
            continue
        if o == 0:
            for mask in masks:
                b = layout.base[mask]
                values[b:b + layout.lanes(int(mask))] = 0.0
            done += size
            if on_batch:
                on_batch(o, len(masks), True)
            if progress:
                progress(Progress(done, total, o, layout.max_open, resumed))
            continue
        masks = layer_order(layout, masks)
        start = start_sets if o == start_layer else 0
        per = layout.tables.n_u[masks[start:] & 63].astype(np.int64) * tables.xs
        stops = np.searchsorted(np.cumsum(per), np.arange(BATCH_STATES, per.sum()
                                                          + BATCH_STATES, BATCH_STATES))
        for stop in sorted({*(min(int(s) + 1 + start, len(masks)) for s in stops),
                            len(masks)}):
            if stop <= start:
                continue
            batch = masks[start:stop]
            kernel.solve_masks(batch, values, prepared, threads())
            done += layout.layer_states(batch)
            start = stop
            if on_batch:
                on_batch(o, stop, stop == len(masks))
            if progress:
                progress(Progress(done, total, o, layout.max_open, resumed))


def solve_in_memory(rules: RuleSet, *, max_open: int | None = None, root: int = 0,
                    progress: ProgressCallback | None = None,
                    dtype: npt.DTypeLike = np.float64) -> ValueTable:
    """Solve the sets of ``rules`` with at most ``max_open`` open boxes containing ``root``.

    The values are float64 unless ``dtype`` asks for float32 (the precision of a stored Extreme
    table, and its speed).
    """
    tables = build_tables(rules)
    layout = make_layout(tables, max_open, root)
    values = np.zeros(layout.states, np.dtype(dtype))
    run_layers(layout, values, progress=progress)
    return ValueTable(layout, values)



class Notice(str):
    """What :func:`solve` tells while it works (a table computed anew, a solve resumed): the
    English sentence, for Python users and logs, with the message catalog's ``code`` and
    ``params`` so that a front end says it in its user's language
    (``kniffel.engine.messages.render_code(n.code, n.params, lang)``)."""

    code: str
    params: dict[str, object]

    def __new__(cls, message: str, code: str, params: dict[str, object]) -> Notice:
        self = super().__new__(cls, message)
        self.code = code
        self.params = params
        return self

def solve(rules: RuleSet, *, max_open: int | None = None, directory: Path | None = None,
          progress: ProgressCallback | None = None, force: bool = False,
          notice: Callable[[str], None] | None = None,
          checkpoint_seconds: float | None = None) -> ValueTable:
    """The table of ``rules`` in the cache: loaded when a valid one exists, else computed.

    The computation writes into ``<name>.partial`` and, every ``checkpoint_seconds``
    (:data:`CHECKPOINT_SECONDS` by default), records in its header the finished layers and how
    many sets of the current one are done, so an interrupted solve loses at most that much work
    (and a solve of a few seconds does not wait for the disk after every layer);
    once complete the values get their checksum and the file is renamed to ``<name>.table``. A
    table that does not match (other rules, version, size, damaged) is reported through
    ``notice`` and computed anew.
    """
    every = CHECKPOINT_SECONDS if checkpoint_seconds is None else checkpoint_seconds
    try:
        directory = cache_folder(directory)
    except CacheError as e:
        return _solve_in_memory(rules, max_open, e, progress, notice)
    name = table_name(rules, max_open)
    final = directory / name
    if not force and final.exists():
        try:
            return load_table(rules, max_open=max_open, directory=directory)
        except TableMismatchError as e:
            if notice:
                notice(Notice(f"{e}; computing it anew", "solve.notice.recompute",
                              {"cause": cause_param(e)}))
        except TableMissingError:
            pass
    tables = build_tables(rules)
    layout = make_layout(tables, max_open)
    dtype = default_dtype(rules)
    want = expected_header(layout, dtype)
    partial = directory / (name + ".partial")
    start_layer = start_sets = 0
    if partial.exists():
        try:
            header = read_header(partial)
            check_header(partial, header, want)
            start_layer = int(header.get("layers_done", 0))
            start_sets = int(header.get("sets_done", 0))
            if notice and (start_layer or start_sets):
                notice(Notice(f"resuming {partial.name} after {start_layer} of "
                              f"{layout.max_open + 1} layers"
                              + (f" and {start_sets:,} sets of the next" if start_sets else ""),
                              "solve.notice.resuming_sets" if start_sets
                              else "solve.notice.resuming",
                              {"where": partial.name, "layers": start_layer,
                               "total": layout.max_open + 1, "sets": start_sets}))
        except (TableMismatchError, ValueError) as e:
            if notice:
                notice(Notice(f"{e}; starting over", "solve.notice.start_over",
                              {"cause": cause_param(e) if isinstance(e, KniffelError)
                               else {"code": "error", "params": {}}}))
            start_layer = start_sets = 0
    if start_layer == start_sets == 0:
        try:
            with open(partial, "wb") as new:
                new.truncate(HEADER_SIZE + layout.states * dtype.itemsize)
                write_header(new, {**want, "complete": False, "layers_done": 0})
        except OSError as oe:
            partial.unlink(missing_ok=True)
            return _solve_in_memory(rules, max_open, cache_error(directory, oe), progress,
                                    notice)
    began = time.perf_counter()
    mm = np.memmap(partial, dtype=dtype, mode="r+", offset=HEADER_SIZE, shape=(layout.states,))
    values = mm.view(np.ndarray)

    last = time.monotonic()

    def checkpoint(o: int, sets: int, complete: bool) -> None:
        nonlocal last
        if time.monotonic() - last < every:
            return
        mm.flush()  # the values first: the header never claims more than is on disk
        with open(partial, "r+b") as f:
            write_header(f, {**want, "complete": False, "layers_done": o + 1 if complete else o,
                             "sets_done": 0 if complete else sets})
        last = time.monotonic()

    run_layers(layout, values, start_layer=start_layer, start_sets=start_sets,
               progress=progress, on_batch=checkpoint)
    mm.flush()
    digest = checksum(values)
    table = ValueTable(layout, values)
    expected = table.expected_score() if layout.is_full else None
    header = {**want, "complete": True, "layers_done": layout.max_open + 1, "sha256": digest,
              "expected": expected, "created": datetime.now(UTC).isoformat(timespec="seconds"),
              "seconds": round(time.perf_counter() - began, 3)}
    with open(partial, "r+b") as f:
        write_header(f, header)
    os.replace(partial, final)
    return load_table(rules, max_open=max_open, directory=directory)


#: The largest table :func:`solve` computes in memory when the cache cannot take it (every
#: classic table and the Extreme endgames; never the full Extreme table of 2.4 GB).
IN_MEMORY_BYTES = 256 << 20


def _solve_in_memory(rules: RuleSet, max_open: int | None, why: CacheError,
                     progress: ProgressCallback | None,
                     notice: Callable[[str], None] | None) -> ValueTable:
    """The table of ``rules`` computed in memory and not kept, because the cache cannot take
    it (``why``); a table too large for that raises ``why``."""
    layout = make_layout(build_tables(rules), max_open)
    dtype = default_dtype(rules)
    if layout.states * dtype.itemsize > IN_MEMORY_BYTES:
        raise why
    if notice:
        notice(Notice(f"{why}; the table is computed in memory and not kept",
                      "solve.notice.not_kept", {"cause": cause_param(why)}))
    values = np.zeros(layout.states, dtype=dtype)
    run_layers(layout, values, progress=progress)
    header = {**expected_header(layout, dtype), "complete": True,
              "layers_done": layout.max_open + 1, "sha256": checksum(values)}
    table = ValueTable(layout, values, header=header)
    if layout.is_full:
        header["expected"] = table.expected_score()
    return table


def table_file_bytes(table: ValueTable) -> bytes:
    """The bytes of ``table``'s file: its own file's, or, for a table kept in memory, the
    same header and values."""
    if table.path is not None:
        return table.path.read_bytes()
    return header_bytes(table.header) + np.ascontiguousarray(table.values).tobytes()


def expert_table_file(rules: RuleSet, build: bool) -> tuple[bytes, str] | None:
    """The expert's source of exact tables (the entry point ``kniffel.tables``, see
    :mod:`kniffel.engine.values`): the full table file of ``rules`` in the cache, else, with
    ``build``, the one :func:`solve` writes there; with where the bytes come from, or None."""
    path = cache_dir() / table_name(rules, None)
    try:
        return path.read_bytes(), "table"
    except OSError:
        pass
    if not build:
        return None
    table = solve(rules)
    return table_file_bytes(table), str(table.path or "memory")

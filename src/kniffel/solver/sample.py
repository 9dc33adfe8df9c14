"""A sample of a value table, small enough to keep: what a compact value model is fitted to.

The full Kniffel Extreme table is 2.4 GB. A sample holds every state of a random choice of
filled-box sets, up to ``per_layer`` sets for each number of open boxes (every set of a layer
that has fewer), so the early game with its few sets is covered as well as the crowded middle.

File format (``numpy.savez_compressed``): arrays of one row per state,

- ``mask`` (n,) int32: the filled boxes (bit ``b`` = box ``b`` of the rule set's box order);
- ``upper`` (n,) int16: the upper sum so far, capped at the bonus threshold, or -1 when the
  bonus can no longer be reached (the solver's merged state);
- ``extra`` (n,) int8: chips left (rule sets with chips), or the extra-Kniffel flag;
- ``value`` (n,) float32: the expected points still to come under optimal play;

and ``meta``, a JSON string: rules name, table checksum, seed, ``per_layer``, the expected score
of the empty sheet (when the table is full) and the sample format version.

A sample of the states that play visits (:func:`kniffel.expert_fit.draw_visits`) has one more
array, ``count`` (n,) int32: how often each state was asked for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.solver.table import ValueTable, cache_dir
from kniffel.solver.tables import SolverError

#: The version of the sample file format.
SAMPLE_VERSION = 1
#: Filled-box sets drawn per number of open boxes by default (≈ 30 MB for Kniffel Extreme).
PER_LAYER = 1500


@dataclass(frozen=True, eq=False)
class Sample:
    """The states of a sample (see the module docstring for each array)."""

    mask: npt.NDArray[np.int32]
    upper: npt.NDArray[np.int16]
    extra: npt.NDArray[np.int8]
    value: npt.NDArray[np.float32]
    meta: dict[str, Any]
    count: npt.NDArray[np.int32] | None = None

    def __repr__(self) -> str:
        kind = "visited " if self.count is not None else ""
        return f"<Sample {self.meta.get('rules')} of {len(self.value):,} {kind}states>"


def sample_path(table: ValueTable, directory: Path | None = None) -> Path:
    """Where the sample of ``table`` lives: next to it, ``<table name>.sample.npz``."""
    if table.path is not None and directory is None:
        return table.path.with_suffix(".sample.npz")
    return (directory or cache_dir()) / f"{table.rules.name}.sample.npz"


def draw_sample(table: ValueTable, *, per_layer: int = PER_LAYER, seed: int = 0) -> Sample:
    """Every state of up to ``per_layer`` random filled-box sets per number of open boxes."""
    layout = table.layout
    t = table.tables
    rng = np.random.default_rng(seed)
    chosen: list[npt.NDArray[np.int64]] = []
    for _, masks in layout.layers():
        if masks.size > per_layer:
            masks = np.sort(rng.choice(masks, per_layer, replace=False))
        chosen.append(masks)
    masks = np.concatenate(chosen)
    rows_mask: list[npt.NDArray[np.int32]] = []
    rows_upper: list[npt.NDArray[np.int16]] = []
    rows_extra: list[npt.NDArray[np.int8]] = []
    rows_value: list[npt.NDArray[np.float32]] = []
    for m in masks.tolist():
        xf = t.x_of(m)
        nu = int(t.n_u[m & 63])
        start = int(layout.base[m])
        vals = np.asarray(table.values[start:start + nu * xf], dtype=np.float32)
        rows_value.append(vals)
        rows_mask.append(np.full(nu * xf, m, np.int32))
        rows_upper.append(np.repeat(t.uval[m & 63, :nu], xf).astype(np.int16))
        rows_extra.append(np.tile(np.arange(xf, dtype=np.int8), nu))
    meta = {"version": SAMPLE_VERSION, "rules": table.rules.name, "seed": seed,
            "per_layer": per_layer, "max_open": layout.max_open,
            "table_sha256": table.header.get("sha256"),
            "expected": table.expected_score() if layout.is_full else None}
    return Sample(np.concatenate(rows_mask), np.concatenate(rows_upper),
                  np.concatenate(rows_extra), np.concatenate(rows_value), meta)


def write_sample(sample: Sample, path: Path) -> None:
    """Write ``sample`` to ``path`` (through a temporary file, so a failed write leaves none)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    meta = np.array(json.dumps(sample.meta))
    if sample.count is None:
        np.savez_compressed(tmp, mask=sample.mask, upper=sample.upper, extra=sample.extra,
                            value=sample.value, meta=meta)
    else:
        np.savez_compressed(tmp, mask=sample.mask, upper=sample.upper, extra=sample.extra,
                            value=sample.value, meta=meta, count=sample.count)
    tmp.replace(path)


def read_sample(path: Path) -> Sample:
    """The sample stored at ``path``; a damaged or foreign file is a :class:`SolverError`."""
    try:
        with np.load(path, allow_pickle=False) as f:
            meta = json.loads(str(f["meta"]))
            count = f["count"].astype(np.int32) if "count" in f.files else None
            sample = Sample(f["mask"].astype(np.int32), f["upper"].astype(np.int16),
                            f["extra"].astype(np.int8), f["value"].astype(np.float32), meta,
                            count)
    except (OSError, KeyError, ValueError) as e:
        raise SolverError(f"{path} is not a readable table sample: {e}",
                          code="solver.sample_unreadable",
                          params={"path": str(path), "error": str(e)}) from e
    if meta.get("version") != SAMPLE_VERSION:
        raise SolverError(f"{path} is a sample of format {meta.get('version')}, "
                          f"this version reads {SAMPLE_VERSION}",
                          code="solver.sample_version",
                          params={"path": str(path), "got": meta.get("version"),
                                  "want": SAMPLE_VERSION})
    n = len(sample.value)
    if not len(sample.mask) == len(sample.upper) == len(sample.extra) == n or (
            sample.count is not None and len(sample.count) != n):
        raise SolverError(f"{path}: the arrays of the sample differ in length",
                          code="solver.sample_unreadable",
                          params={"path": str(path), "error": "arrays differ in length"})
    return sample

"""Fitting the expert's value model (:mod:`kniffel.expert_model`) to a sample of a value table.

Least squares by backfitting, deterministic (fixed order of every sum, no random numbers, the
result rounded to 1e-6 before it is written), so the same sample gives the same file bit for bit:

1. the terms that depend on the filled boxes and the chips only (``layer``, ``box``, ``pair``,
   ``chip_box``) are fitted to the sample's values averaged over the upper sums of each
   (filled boxes, chips), by weighted ridge regression (normal equations, Cholesky);
2. the upper table (``upper``): for each set of filled upper boxes and upper sum, a line in the
   number of open lower boxes fitted to what step 1 leaves over;

and again, a fixed number of rounds. Desktop only (numpy); the script is
``scripts/fit_expert_model.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.expert import DEAD
from kniffel.expert_model import (
    MODEL_FORMAT,
    MODEL_VERSION,
    model_from_json,
    params_digest,
)
from kniffel.rules import RuleSet, preset
from kniffel.solver.sample import Sample
from kniffel.solver.tables import SolverError

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

#: Rounds of backfitting.
ROUNDS = 12
#: Ridge penalty of the box terms (per unit of weight) and of the slopes of the upper table.
RIDGE = 1e-4
SLOPE_RIDGE = 1.0
#: Rows of the box features built at once (memory: CHUNK × 917 floats).
CHUNK = 8192
#: Decimals kept in the model file.
DECIMALS = 6


def _popcount(a: I64) -> I64:
    out = np.zeros_like(a)
    for b in range(32):
        out += (a >> b) & 1
    return out


def _design(masks: I64, xs: I64, nb: int, nx: int) -> tuple[F64, list[tuple[str, int, int]]]:
    """The box features of (filled boxes, chips) rows: one column per parameter of ``layer``,
    ``box``, ``pair`` and ``chip_box`` (see kniffel.expert_model), and the list naming them."""
    names: list[tuple[str, int, int]] = []
    open_ = np.stack([((masks >> b) & 1) == 0 for b in range(nb)], axis=1).astype(np.float64)
    n = nb - _popcount(masks)
    cols: list[F64] = []
    for k in range(nb + 1):
        for x in range(nx):
            cols.append(((n == k) & (xs == x)).astype(np.float64))
            names.append(("layer", k, x))
    for b in range(nb):
        for k in range(nb + 1):
            cols.append(open_[:, b] * (n == k))
            names.append(("box", b, k))
    for b in range(nb):
        for c in range(b + 1, nb):
            cols.append(open_[:, b] * open_[:, c])
            names.append(("pair", b, c))
    for b in range(nb):
        for x in range(nx):
            cols.append(open_[:, b] * (xs == x))
            names.append(("chip_box", b, x))
    return np.stack(cols, axis=1), names


def fit_model(sample: Sample, rules: RuleSet | None = None, *, rounds: int = ROUNDS
              ) -> dict[str, Any]:
    """The model file (a JSON-able dict) fitted to ``sample`` (see the module docstring)."""
    rules = rules or preset(str(sample.meta.get("rules")))
    if sample.meta.get("rules") != rules.name or not rules.chips:
        raise SolverError(f"the expert's model is fitted to a sample of a rule set with chips "
                          f"({rules.name}), not of {sample.meta.get('rules')}",
                          code="expert.model_rules",
                          params={"where": "sample", "rules": rules.name})
    nb = len(rules.boxes)
    nx = rules.chips + 1
    threshold = rules.bonus_threshold
    keep = sample.mask != (1 << nb) - 1  # a full sheet is worth 0 by definition
    mask = sample.mask[keep].astype(np.int64)
    upper = sample.upper[keep].astype(np.int64)
    x = sample.extra[keep].astype(np.int64)
    value = sample.value[keep].astype(np.float64)
    if value.size == 0:
        raise SolverError("the sample holds no state with an open box",
                          code="solver.sample_unreadable",
                          params={"path": "sample", "error": "no states"})
    # rows of step 1: (filled boxes, chips)
    row_key = mask * nx + x
    rows, row_of = np.unique(row_key, return_inverse=True)
    row_mask, row_x = rows // nx, rows % nx
    weight = np.bincount(row_of).astype(np.float64)
    names = _design(row_mask[:1], row_x[:1], nb, nx)[1]
    chunks = [slice(i, i + CHUNK) for i in range(0, len(rows), CHUNK)]

    def design(part: slice) -> F64:
        return _design(row_mask[part], row_x[part], nb, nx)[0]

    gram = np.zeros((len(names), len(names)))
    for part in chunks:
        d = design(part)
        gram += d.T @ (d * weight[part, None])
    gram[np.diag_indices_from(gram)] += RIDGE * weight.sum() / len(rows)
    chol = np.linalg.cholesky(gram)
    # cells of step 2: (filled upper boxes, upper sum), and the open lower boxes of each state
    u6 = mask & 63
    ukey = np.where(upper == DEAD, DEAD, upper) - DEAD
    cell = u6 * (threshold + 2) + ukey
    ncell = 64 * (threshold + 2)
    lower_open = (nb - 6) - _popcount(mask >> 6)
    lo = lower_open.astype(np.float64)
    cw = np.bincount(cell, minlength=ncell).astype(np.float64)
    has = cw > 0
    mean_lo = np.divide(np.bincount(cell, lo, ncell), cw, out=np.zeros(ncell), where=has)
    dlo = lo - mean_lo[cell]
    var = np.bincount(cell, dlo * dlo, ncell)
    theta = np.zeros(len(names))
    a = np.zeros(ncell)
    slope = np.zeros(ncell)
    pred_b = np.zeros_like(value)
    for _ in range(rounds):
        resid = value - pred_b
        target = np.bincount(row_of, resid, len(rows))
        rhs = np.zeros(len(names))
        for part in chunks:
            rhs += design(part).T @ target[part]
        theta = np.linalg.solve(chol.T, np.linalg.solve(chol, rhs))
        pred_rows = np.concatenate([design(part) @ theta for part in chunks])
        pred_a = pred_rows[row_of]
        resid = value - pred_a
        mean_r = np.divide(np.bincount(cell, resid, ncell), cw, out=np.zeros(ncell), where=has)
        cov = np.bincount(cell, dlo * (resid - mean_r[cell]), ncell)
        slope = cov / (var + SLOPE_RIDGE)
        a = mean_r - slope * mean_lo
        pred_b = a[cell] + slope[cell] * lo
    pred = pred_a + pred_b
    err = pred - value
    params = _params(theta, names, a, slope, nb, nx, threshold)
    doc: dict[str, Any] = {
        "format": MODEL_FORMAT, "version": MODEL_VERSION, "rules": repr(rules),
        "model": "additive boxes + pairs + chips + upper table (kniffel.expert_model)",
        "sample": {k: sample.meta.get(k) for k in ("rules", "table_sha256", "seed",
                                                   "per_layer", "max_open", "expected")}
        | {"states": int(value.size)},
        "fit": {"rounds": rounds, "ridge": RIDGE, "slope_ridge": SLOPE_RIDGE,
                "rms": round(float(np.sqrt(np.mean(err * err))), 4),
                "max_abs": round(float(np.max(np.abs(err))), 4)},
        "params": params,
        "sha256": params_digest(params),
    }
    model_from_json(rules, doc)  # what is written can be read
    return doc


def _r(v: float) -> float:
    out = round(float(v), DECIMALS)
    if not math.isfinite(out):
        raise SolverError("the fit gave a value that is not finite")
    return out + 0.0  # no -0.0


def _params(theta: F64, names: list[tuple[str, int, int]], a: F64, slope: F64, nb: int,
            nx: int, threshold: int) -> dict[str, Any]:
    layer = [[0.0] * nx for _ in range(nb + 1)]
    box = [[0.0] * (nb + 1) for _ in range(nb)]
    pair = [[0.0] * nb for _ in range(nb)]
    chip_box = [[0.0] * nx for _ in range(nb)]
    tables = {"layer": layer, "box": box, "pair": pair, "chip_box": chip_box}
    for v, (kind, i, j) in zip(theta.tolist(), names, strict=True):
        tables[kind][i][j] = _r(v)
        if kind == "pair":
            pair[j][i] = _r(v)
    width = threshold + 2
    upper = [[[_r(a[u6 * width + k]), _r(slope[u6 * width + k])] for k in range(width)]
             for u6 in range(64)]
    return {"layer": layer, "box": box, "pair": _half_pairs(pair), "chip_box": chip_box,
            "upper": upper}


def _half_pairs(pair: list[list[float]]) -> list[list[float]]:
    """The pair terms with each pair once (row ``b`` holds ``b < c``; the rest 0)."""
    nb = len(pair)
    return [[pair[b][c] if c > b else 0.0 for c in range(nb)] for b in range(nb)]


def model_text(doc: dict[str, Any]) -> str:
    """The model file's text: sorted keys, one line per table row, so it diffs well."""
    return json.dumps(doc, sort_keys=True, indent=1, allow_nan=False) + "\n"


def write_model(doc: dict[str, Any], path: Path) -> None:
    """Write the model file ``path`` (through a temporary file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(model_text(doc), encoding="utf-8")
    tmp.replace(path)

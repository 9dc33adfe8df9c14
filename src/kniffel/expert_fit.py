"""Fitting the expert's value model (:mod:`kniffel.expert_model`) to a sample of a value table.

Least squares by backfitting, deterministic (fixed order of every sum, no random numbers, the
result rounded to 1e-6 before it is written), so the same sample gives the same file bit for bit:

1. the terms that depend on the filled boxes and the chips only (``layer``, ``box``, ``chip``,
   ``pair``) are fitted to the sample's values summed over the upper sums of each (filled
   boxes, chips), by weighted ridge regression (normal equations, Cholesky), one regression
   per number of open boxes (the terms of each ``n`` are its own);
2. the upper tables (``upper``, ``upper_lower``): for each set of filled upper boxes, upper sum
   and chips a line in the number of open lower boxes, and per number of open lower boxes a
   correction shrunk towards 0 where few states tell it, fitted to what step 1 leaves over;

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
#: Shrinkage of the finest upper cells towards the line (in states of the sample).
FINE_SHRINK = 8.0
#: Decimals kept in the model file.
DECIMALS = 6


def _popcount(a: I64) -> I64:
    out = np.zeros_like(a)
    for b in range(32):
        out += (a >> b) & 1
    return out


def _design(masks: I64, xs: I64, nb: int, nx: int) -> F64:
    """The box features of (filled boxes, chips) rows of one layer, 0 or 1: the columns of
    ``layer[n]`` (per chips), ``box[n]`` (per box), ``chip[n]`` (per box and chips) and
    ``pair[n]`` (per pair of boxes, in :func:`numpy.triu_indices` order)."""
    rows = len(masks)
    open_ = np.stack([((masks >> b) & 1) == 0 for b in range(nb)], axis=1)
    ox = np.stack([xs == x for x in range(nx)], axis=1)
    iu, ju = np.triu_indices(nb, 1)
    blocks = [ox, open_, (open_[:, :, None] & ox[:, None, :]).reshape(rows, -1),
              open_[:, iu] & open_[:, ju]]
    return np.concatenate(blocks, axis=1).astype(np.float64)


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
    width = threshold + 2
    keep = sample.mask != (1 << nb) - 1  # a full sheet is worth 0 by definition
    mask = sample.mask[keep].astype(np.int64)
    upper = sample.upper[keep].astype(np.int64)
    x = sample.extra[keep].astype(np.int64)
    value = sample.value[keep].astype(np.float64)
    if value.size == 0:
        raise SolverError("the sample holds no state with an open box",
                          code="solver.sample_unreadable",
                          params={"path": "sample", "error": "no states"})
    # step 1: rows (filled boxes, chips), one regression per number of open boxes
    row_key = mask * nx + x
    rows, row_of = np.unique(row_key, return_inverse=True)
    row_mask, row_x = rows // nx, rows % nx
    row_n = nb - _popcount(row_mask)
    weight = np.bincount(row_of).astype(np.float64)
    layers = []
    for n in range(1, nb + 1):
        idx = np.nonzero(row_n == n)[0]
        if idx.size == 0:
            continue
        d = _design(row_mask[idx], row_x[idx], nb, nx)
        gram = d.T @ (d * weight[idx, None])
        gram[np.diag_indices_from(gram)] += RIDGE * weight[idx].sum() / idx.size
        layers.append((n, idx, d, np.linalg.cholesky(gram)))
    ncols = nx + nb + nb * nx + nb * (nb - 1) // 2
    theta = np.zeros((nb + 1, ncols))
    # step 2: cells (filled upper boxes, upper sum, chips): a line in the open lower boxes;
    # and the finest cells (filled upper boxes, upper sum, open lower boxes)
    u6 = mask & 63
    ucell = u6 * width + np.where(upper == DEAD, DEAD, upper) - DEAD
    cell = ucell * nx + x
    ncell = 64 * width * nx
    lower_open = (nb - 6) - _popcount(mask >> 6)
    lo = lower_open.astype(np.float64)
    cw = np.bincount(cell, minlength=ncell).astype(np.float64)
    has = cw > 0
    mean_lo = np.divide(np.bincount(cell, lo, ncell), cw, out=np.zeros(ncell), where=has)
    dlo = lo - mean_lo[cell]
    var = np.bincount(cell, dlo * dlo, ncell)
    nlow = nb - 6 + 1
    cell3 = ucell * nlow + lower_open
    ncell3 = 64 * width * nlow
    fine_w = np.bincount(cell3, minlength=ncell3).astype(np.float64)
    a = np.zeros(ncell)
    slope = np.zeros(ncell)
    fine = np.zeros(ncell3)
    pred_b = np.zeros_like(value)
    pred_rows = np.zeros(len(rows))
    for _ in range(rounds):
        target = np.bincount(row_of, value - pred_b, len(rows))
        for n, idx, d, chol in layers:
            theta[n] = np.linalg.solve(chol.T, np.linalg.solve(chol, d.T @ target[idx]))
            pred_rows[idx] = d @ theta[n]
        pred_a = pred_rows[row_of]
        resid = value - pred_a
        mean_r = np.divide(np.bincount(cell, resid, ncell), cw, out=np.zeros(ncell), where=has)
        cov = np.bincount(cell, dlo * (resid - mean_r[cell]), ncell)
        slope = cov / (var + SLOPE_RIDGE)
        a = mean_r - slope * mean_lo
        pred_line = a[cell] + slope[cell] * lo
        fine = np.bincount(cell3, value - pred_a - pred_line, ncell3) / (fine_w + FINE_SHRINK)
        pred_b = pred_line + fine[cell3]
    err = pred_a + pred_b - value
    params = _params(theta, a, slope, fine, nb, nx, width)
    doc: dict[str, Any] = {
        "format": MODEL_FORMAT, "version": MODEL_VERSION, "rules": repr(rules),
        "model": "per open-box count: boxes, chips, pairs; upper tables (kniffel.expert_model)",
        "sample": {k: sample.meta.get(k) for k in ("rules", "table_sha256", "seed",
                                                   "per_layer", "max_open", "expected")}
        | {"states": int(value.size)},
        "fit": {"rounds": rounds, "ridge": RIDGE, "slope_ridge": SLOPE_RIDGE,
                "fine_shrink": FINE_SHRINK,
                "rms": round(float(np.sqrt(np.mean(err * err))), 4),
                "max_abs": round(float(np.max(np.abs(err))), 4)},
        "params": params,
        "sha256": params_digest(params),
    }
    model_from_json(rules, doc)  # what is written can be read
    return doc


def _params(theta: F64, a: F64, slope: F64, fine: F64, nb: int, nx: int, width: int
            ) -> dict[str, Any]:
    iu, ju = np.triu_indices(nb, 1)
    r = np.vectorize(_r, otypes=[float])
    layer, box, chip, pair = [], [], [], []
    for n in range(nb + 1):
        t = r(theta[n])
        layer.append(t[:nx].tolist())
        box.append(t[nx:nx + nb].tolist())
        chip.append(t[nx + nb:nx + nb + nb * nx].reshape(nb, nx).tolist())
        full = np.zeros((nb, nb))
        full[iu, ju] = t[nx + nb + nb * nx:]
        pair.append(full.tolist())
    upper = np.stack([r(a), r(slope)], axis=1).reshape(64, width, nx, 2).tolist()
    upper_lower = r(fine).reshape(64, width, nb - 5).tolist()
    return {"layer": layer, "box": box, "chip": chip, "pair": pair, "upper": upper,
            "upper_lower": upper_lower}


def _r(v: float) -> float:
    out = round(float(v), DECIMALS)
    if not math.isfinite(out):
        raise SolverError(f"the fit gave a value that is not finite: {v}",
                          code="expert.fit_diverged", params={"value": str(v)})
    return out + 0.0  # no -0.0


def model_text(doc: dict[str, Any]) -> str:
    """The model file's text: sorted keys, one line per entry at the top and per table of the
    parameters, compact inside."""
    def compact(v: Any) -> str:
        return json.dumps(v, sort_keys=True, separators=(",", ":"), allow_nan=False)

    lines = []
    for key in sorted(doc):
        if key == "params":
            inner = ",\n".join(f"  {compact(k)}: {compact(doc[key][k])}"
                               for k in sorted(doc[key]))
            lines.append(f" {compact(key)}: {{\n{inner}\n }}")
        else:
            lines.append(f" {compact(key)}: {compact(doc[key])}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_model(doc: dict[str, Any], path: Path) -> None:
    """Write the model file ``path`` (through a temporary file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(model_text(doc), encoding="utf-8")
    tmp.replace(path)

"""Fitting the expert's value model (:mod:`kniffel.engine.expert_model`) to a sample of a value
table.

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

Every state of the sample weighs 1. A uniform sample of the filled-box sets is mostly sheets no
player meets, so the fit also weighs the states that play asks about (:func:`draw_visits`):
the end-of-turn states that the optimal player compares in ``VISIT_GAMES`` games, each with
weight √(times asked). Measured by play (``benchmarks/bench_expert.py strength``), this took the
expert's loss against optimal play from 1.04 to 0.63 points per game with the same model.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.engine.expert import ExpertStrategy
from kniffel.engine.expert_model import (
    MODEL_FORMAT,
    MODEL_VERSION,
    model_from_json,
    params_digest,
)
from kniffel.engine.rules import RuleSet, preset
from kniffel.engine.states import DEAD
from kniffel.solver.sample import SAMPLE_VERSION, Sample
from kniffel.solver.table import ValueTable, load_table
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
#: Games of optimal play whose end-of-turn states the fit weighs (:func:`draw_visits`).
VISIT_GAMES = 8000
#: Games per task of :func:`draw_visits` (what a worker plays at a time): a few seconds, so
#: the progress moves (the counts do not depend on it).
VISIT_CHUNK = 10


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


class _Asked:
    """Exact V from ``table`` (the expert's :class:`~kniffel.engine.expert.Values`), counting each
    state asked for as (filled boxes, upper state index, extra state)."""

    source = "table"

    def __init__(self, table: ValueTable) -> None:
        self.table = table
        self.asked: Counter[tuple[int, int, int]] = Counter()

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        k = self.table.tables.upper_state(mask & 63, upper_sum)
        self.asked[mask, k, x] += 1
        return self.table.value(mask, k, x)


def _asked_in_games(table: ValueTable, seed: int, start: int, stop: int
                    ) -> Counter[tuple[int, int, int]]:
    """The states asked for in games ``start``…``stop - 1`` of optimal play."""
    from kniffel.engine.game import Game, Player, PlayerKind
    from kniffel.simulate import game_seed, play_out

    rules = table.rules
    asked = _Asked(table)
    player = Player("Computer", PlayerKind.COMPUTER, "optimal")
    for i in range(start, stop):
        game = Game(rules, [player], seed=game_seed(seed, i))
        # a new expert per game: what it worked out in another game (the first turn) would not
        # be asked again, and the counts would depend on which games a worker plays
        strategy = ExpertStrategy(rules, values=asked)
        play_out(game, strategy, random.Random(f"visits:{seed}:{i}"))
    return asked.asked


#: The full table a worker process of :func:`draw_visits` plays with (:func:`_start_visits`).
_WORKER_TABLE: list[ValueTable] = []


def _start_visits(rules: RuleSet, directory: Path) -> None:
    """In a worker process: open the full table of ``rules`` from ``directory`` once."""
    _WORKER_TABLE[:] = [load_table(rules, directory=directory)]


def _asked_in_worker(task: tuple[int, int, int]) -> tuple[int, Counter[tuple[int, int, int]]]:
    """The games ``task`` = (seed, start, stop) in a worker process: their number and
    :func:`_asked_in_games`."""
    from kniffel.interrupt import worker_ready

    worker_ready()
    seed, start, stop = task
    return stop - start, _asked_in_games(_WORKER_TABLE[0], seed, start, stop)


def draw_visits(table: ValueTable, *, games: int = VISIT_GAMES, seed: int = 0, jobs: int = 1,
                progress: Callable[[int, int], None] | None = None) -> Sample:
    """The states optimal play asks about: ``games`` games played with the exact ``table`` by
    the expert (whose turn computation with exact values is the optimal player), every state
    at the end of a turn whose value it looks up, with how often (``count``), in the order of
    (filled boxes, upper state, extra state). Game ``i`` has the dice of
    :func:`kniffel.simulate.game_seed` ``(seed, i)``, so the result does not depend on
    ``jobs`` (with ``jobs`` > 1 the workers open the table from its file)."""
    layout = table.layout
    if not layout.is_full:
        raise SolverError(f"the visits of play are drawn from the full table of "
                          f"{table.rules.name}, not from its endgames up to "
                          f"{layout.max_open} open boxes", code="expert.visits_table",
                          params={"rules": table.rules.name, "open": layout.max_open})
    chunks = [(a, min(a + VISIT_CHUNK, games)) for a in range(0, games, VISIT_CHUNK)]
    total: Counter[tuple[int, int, int]] = Counter()
    done = 0
    with contextlib.ExitStack() as stack:
        parts: Iterator[tuple[int, Counter[tuple[int, int, int]]]]
        if jobs > 1 and table.path is not None and len(chunks) > 1:
            # the workers ignore Ctrl-C and end with the block (kniffel.interrupt); the sum
            # does not depend on the order the chunks come back in
            from kniffel.interrupt import worker_pool

            pool = stack.enter_context(worker_pool(jobs, _start_visits,
                                                   (table.rules, table.path.parent)))
            parts = pool.imap_unordered(_asked_in_worker, [(seed, a, b) for a, b in chunks])
        else:
            parts = ((b - a, _asked_in_games(table, seed, a, b)) for a, b in chunks)
        for played, part in parts:
            total.update(part)
            done += played
            if progress is not None:
                progress(done, games)
    keys = np.array(sorted(total), dtype=np.int64).reshape(-1, 3)
    mask, k, x = keys[:, 0], keys[:, 1], keys[:, 2]
    t = table.tables
    count = np.array([total[m, kk, xx] for m, kk, xx in keys.tolist()], dtype=np.int32)
    values = np.asarray(table.values[layout.base[mask] + k * t.x_of_masks(mask) + x],
                        dtype=np.float32)
    meta = {"version": SAMPLE_VERSION, "rules": table.rules.name, "seed": seed,
            "games": games, "per_layer": None, "max_open": layout.max_open,
            "table_sha256": table.header.get("sha256"),
            "expected": table.expected_score()}
    return Sample(mask.astype(np.int32), t.uval[mask & 63, k].astype(np.int16),
                  x.astype(np.int8), values, meta, count)


def fit_model(sample: Sample, rules: RuleSet | None = None, *, rounds: int = ROUNDS,
              visits: Sample | None = None) -> dict[str, Any]:
    """The model file (a JSON-able dict) fitted to ``sample`` and, with weight √count, to the
    states of ``visits`` (see the module docstring)."""
    rules = rules or preset(str(sample.meta.get("rules")))
    sampled = len(sample.value)
    state_weight = np.ones(sampled)
    if visits is not None:
        if visits.count is None or visits.meta.get("rules") != sample.meta.get("rules") or (
                visits.meta.get("table_sha256") != sample.meta.get("table_sha256")):
            raise SolverError(
                f"the visits ({visits.meta.get('rules')}, table "
                f"{str(visits.meta.get('table_sha256'))[:12]}) are not of the sample's table "
                f"({sample.meta.get('rules')}, {str(sample.meta.get('table_sha256'))[:12]})",
                code="expert.visits_mismatch", params={"rules": rules.name})
        state_weight = np.concatenate([state_weight, np.sqrt(visits.count.astype(np.float64))])
        sample = Sample(np.concatenate([sample.mask, visits.mask]),
                        np.concatenate([sample.upper, visits.upper]),
                        np.concatenate([sample.extra, visits.extra]),
                        np.concatenate([sample.value, visits.value]), sample.meta)
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
    w = state_weight[keep]
    if value.size == 0:
        raise SolverError("the sample holds no state with an open box",
                          code="solver.sample_unreadable",
                          params={"path": "sample", "error": "no states"})
    # step 1: rows (filled boxes, chips), one regression per number of open boxes
    row_key = mask * nx + x
    rows, row_of = np.unique(row_key, return_inverse=True)
    row_mask, row_x = rows // nx, rows % nx
    row_n = nb - _popcount(row_mask)
    weight = np.bincount(row_of, w)
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
    cw = np.bincount(cell, w, ncell)
    has = cw > 0
    mean_lo = np.divide(np.bincount(cell, w * lo, ncell), cw, out=np.zeros(ncell), where=has)
    dlo = lo - mean_lo[cell]
    var = np.bincount(cell, w * dlo * dlo, ncell)
    nlow = nb - 6 + 1
    cell3 = ucell * nlow + lower_open
    ncell3 = 64 * width * nlow
    fine_w = np.bincount(cell3, w, ncell3)
    a = np.zeros(ncell)
    slope = np.zeros(ncell)
    fine = np.zeros(ncell3)
    pred_b = np.zeros_like(value)
    pred_rows = np.zeros(len(rows))
    for _ in range(rounds):
        target = np.bincount(row_of, w * (value - pred_b), len(rows))
        for n, idx, d, chol in layers:
            theta[n] = np.linalg.solve(chol.T, np.linalg.solve(chol, d.T @ target[idx]))
            pred_rows[idx] = d @ theta[n]
        pred_a = pred_rows[row_of]
        resid = value - pred_a
        mean_r = np.divide(np.bincount(cell, w * resid, ncell), cw, out=np.zeros(ncell), where=has)
        cov = np.bincount(cell, w * dlo * (resid - mean_r[cell]), ncell)
        slope = cov / (var + SLOPE_RIDGE)
        a = mean_r - slope * mean_lo
        pred_line = a[cell] + slope[cell] * lo
        fine = np.bincount(cell3, w * (value - pred_a - pred_line), ncell3) / (fine_w + FINE_SHRINK)
        pred_b = pred_line + fine[cell3]
    err = pred_a + pred_b - value
    params = _params(theta, a, slope, fine, nb, nx, width)
    doc: dict[str, Any] = {
        "format": MODEL_FORMAT, "version": MODEL_VERSION, "rules": repr(rules),
        "model": ("per open-box count: boxes, chips, pairs; upper tables "
                  "(kniffel.engine.expert_model)"),
        "sample": {k: sample.meta.get(k) for k in ("rules", "table_sha256", "seed",
                                                   "per_layer", "max_open", "expected")}
        | {"states": int(np.count_nonzero(keep[:sampled]))},
        "fit": {"rounds": rounds, "ridge": RIDGE, "slope_ridge": SLOPE_RIDGE,
                "fine_shrink": FINE_SHRINK,
                "rms": round(float(np.sqrt(np.mean(err * err))), 4),
                "max_abs": round(float(np.max(np.abs(err))), 4)},
        "params": params,
        "sha256": params_digest(params),
    }
    if visits is not None:
        assert visits.count is not None
        doc["visits"] = {"games": visits.meta.get("games"), "seed": visits.meta.get("seed"),
                         "states": len(visits.value), "asked": int(visits.count.sum()),
                         "weight": "sqrt(count)"}
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

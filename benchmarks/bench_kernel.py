"""The solver kernel in isolation: this (C) kernel against the last numba kernel, on real sets.

Run: ``.venv/bin/pip install -e '.[bench]' && .venv/bin/python benchmarks/bench_kernel.py``
(``--help`` for options; needs numba for the earlier kernel). Solves a random choice of Kniffel
Extreme filled-box sets of one layer (float32, successor values zero) with both kernels, on 1 and
on 2 threads, alternating run by run; the fastest of ``--repeats`` counts, so the ratios hold on
a busy machine. Also checks that both give the same values to the bit.

Then the distance to this machine's limit: a copy of the C kernel compiled with stage timers
(``-DKN_PROFILE``, the time-stamp counter; the shipped library has none) gives each stage's share
of a widget on one thread, and the lane operations of each stage (adds, multiplications and
maxima of single lanes, counted from the tables) per second of the shipped kernel are set against
the add/max rate that ``lane_rate.c`` measures here, compiled with the kernel's flags. Both need
GCC and an x86-64 CPU with AVX2; ``--no-profile`` leaves them out.

``--project N`` instead projects the full Kniffel Extreme solve: for every layer a random sample
of up to N of its sets is solved on 2 threads (successor values zero: the kernel's time does not
depend on them), fastest of ``--repeats``; the layer takes its states over the sample's states
per second, the solve the sum of the layers (the kernel only: no start-up, checkpoints or final
checksum).
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numba
import numpy as np
import numpy.typing as npt

from kniffel.engine.rules import preset
from kniffel.solver import kernel
from kniffel.solver.kernel_flags import SHARED_LIBRARY_ARGS
from kniffel.solver.table import cache_dir, make_layout
from kniffel.solver.tables import P_CHIPS, P_NSMALL, P_ROLLS, P_STRIKE, Tables, build_tables

#: The last numba kernel (before the C kernel of issue 11).
BASE = "f713103"
REPO = Path(__file__).resolve().parent.parent
#: The kernel's compile flags (setup.py's), for the copies built here.
CFLAGS = list(SHARED_LIBRARY_ARGS)
#: Lanes of a widget (``kn_lanes_per_chunk``).
W = 8
#: The stages of ``_kernel.c``'s stage timers (KN_ST_*), in their order; keep layer 0 is the
#: chip's, layer r the keep before roll r + 1.
STAGES = (["entry plan (per set)", "successor gathering", "best entry per hand",
           "chip shift copy"]
          + [f"{what} layer {r}" for r in range(4)
             for what in ("keep expectations", "sub-keep maxima", "best keep per hand")]
          + ["first roll (no throw before it)"])


def base_kernel(commit: str) -> ModuleType:
    """``kernel.py`` of ``commit`` as a module (unpacked next to the solver cache once, so that
    numba caches its compiled code too)."""
    where = cache_dir().parent / "bench" / f"kernel-{commit}"
    path = where / "kernel_base.py"
    if not path.exists():
        where.mkdir(parents=True, exist_ok=True)
        path.write_bytes(subprocess.run(
            ["git", "-C", str(REPO), "show", f"{commit}:src/kniffel/solver/kernel.py"],
            check=True, capture_output=True).stdout)
    spec = importlib.util.spec_from_file_location("kernel_base", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kernel_base"] = module
    spec.loader.exec_module(module)
    return module


def box_major(t: Tables) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32],
                                  npt.NDArray[np.int32]]:
    """The numba kernel's (box_ptr, box_h, box_v): the hands that fit each box, box by box."""
    pair_h = np.repeat(np.arange(t.nh), np.diff(t.hand_ptr)).astype(np.int32)
    order = np.lexsort((pair_h, t.hand_box))
    box_ptr = np.zeros(t.nb + 1, np.int32)
    box_ptr[1:] = np.cumsum(np.bincount(t.hand_box[order], minlength=t.nb))
    return box_ptr, pair_h[order], t.hand_v[order].astype(np.int32)


def build(source: Path, out: Path, *flags: str) -> ctypes.CDLL:
    """``source`` compiled with the kernel's flags (and ``flags``) into ``out``, loaded."""
    subprocess.run(["gcc", *CFLAGS, *flags, "-o", str(out), str(source)], check=True)
    return ctypes.CDLL(str(out))


def add_max_rate(lib: ctypes.CDLL, repeats: int) -> dict[str, float]:
    """Lane operations per second of one core, fastest of ``repeats``: float32 adds, maxima,
    and both in turn, on AVX2 registers (``lane_rate.c``)."""
    lib.lane_ops.restype = ctypes.c_double
    lib.lane_ops.argtypes = [ctypes.c_int, ctypes.c_long]
    rounds = 20_000_000
    rates = {}
    for kind, name in enumerate(("add", "max", "add+max")):
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            lib.lane_ops(kind, rounds)
            best = min(best, time.perf_counter() - t0)
        rates[name] = rounds * 12 * 8 / best
    return rates


def stage_ops(t: Tables, layout_lanes: Callable[[int], int], chosen: npt.NDArray[np.int64]
              ) -> tuple[npt.NDArray[np.float64], int]:
    """Lane operations (adds, multiplications, maxima; padding lanes count) of each stage of
    STAGES over all widgets of the sets ``chosen``, and the number of widgets."""
    p = t.params
    nd, nh, nms, n5 = t.nd, t.nh, t.ms_add.shape[0], t.hand_ms.shape[0]
    nch = nd + 1 if nd > 1 else 1
    n_small, rolls, chips = int(p[P_NSMALL]), int(p[P_ROLLS]), int(p[P_CHIPS])
    faces = int(np.sum(t.ms_sub != np.arange(nms)[:, None]))  # K[m - f] that exist
    expect = n_small * nd * 6 + (nms * (nd + 1) if nd > 1 else 0)
    maxima = nms * 6 if nch == 1 else faces * nch
    hand = n5 * nd * 3
    ops = np.zeros(len(STAGES))
    widgets = 0
    hand_of_entry = np.repeat(np.arange(nh), np.diff(t.hand_ptr))
    for mask in chosen:
        xf = t.x_of(int(mask))
        chunk = W // xf * xf
        n = -(-layout_lanes(int(mask)) // chunk)
        widgets += n
        open_entry = ((int(mask) >> t.hand_box.astype(np.int64)) & 1) == 0
        entries = np.bincount(hand_of_entry[open_entry], minlength=nh)
        strikes = np.ones(nh) if int(p[P_STRIKE]) != 0 else (entries == 0)
        ops[2] += n * W * 2 * float(np.sum(entries + strikes))
        for r in ([0] if chips > 0 else []) + list(range(1, rolls)):
            ops[4 + 3 * min(r, 3):7 + 3 * min(r, 3)] += n * W * np.array([expect, maxima, hand])
        # the first roll's sum is taken in the last throw's best keep per hand (hand_best_into)
        last = 4 + 3 + 2 if rolls > 1 else 4 + 2 if chips > 0 else len(STAGES) - 1
        ops[last] += n * W * 2 * nh
    return ops, widgets


def profile(t: Tables, prepared: kernel.Prepared, chosen: npt.NDArray[np.int64],
            values: npt.NDArray[np.float32], shipped: Callable[[int], None],
            layout_lanes: Callable[[int], int], repeats: int) -> None:
    """Print each stage's share of a widget and its lane operations per second against the
    machine's add/max rate (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        prof = build(REPO / "src/kniffel/solver/_kernel.c", Path(tmp) / "prof.so", "-DKN_PROFILE")
        rate_lib = build(REPO / "benchmarks/lane_rate.c", Path(tmp) / "rate.so")
        rates = add_max_rate(rate_lib, repeats)
        prof.kn_profile.argtypes = [ctypes.c_void_p]
        solve = prof.kn_solve_f32
        solve.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                          ctypes.c_int64, ctypes.c_void_p]
        ticks = np.zeros(len(STAGES), np.uint64)
        best = None
        for _ in range(repeats):
            prof.kn_profile(ticks.ctypes.data)  # reset
            solve(ctypes.addressof(prepared.struct), chosen.ctypes.data, len(chosen), 0, 1,
                  values.ctypes.data)
            prof.kn_profile(ticks.ctypes.data)
            if best is None or ticks.sum() < best.sum():
                best = ticks.copy()
    assert best is not None
    fastest = float("inf")  # the shipped kernel, one thread
    for _ in range(repeats):
        t0 = time.perf_counter()
        shipped(1)
        fastest = min(fastest, time.perf_counter() - t0)
    ops, widgets = stage_ops(t, layout_lanes, chosen)
    share = best.astype(np.float64) / float(best.sum())
    limit = rates["add+max"]
    print(f"\nadd/max rate of one core (lane_rate.c, float32 AVX2): add {rates['add'] / 1e9:.1f}, "
          f"max {rates['max'] / 1e9:.1f}, both {limit / 1e9:.1f} G lane-ops/s")
    print(f"stages of a widget ({fastest / widgets * 1e6:.1f} µs each, shipped kernel, 1 thread; "
          f"shares from the -DKN_PROFILE copy; the last throw's best keep per hand takes the "
          f"first roll's sum as well):")
    print(f"  {'stage':<34} {'share':>6} {'G lane-ops/s':>13} {'of limit':>9}")
    for i, name in enumerate(STAGES):
        if best[i] == 0:
            continue
        seconds = share[i] * fastest
        rate = ops[i] / seconds
        print(f"  {name:<34} {share[i]:6.1%} {rate / 1e9:13.1f} {rate / limit:9.0%}"
              if ops[i] else f"  {name:<34} {share[i]:6.1%} {'':>13} {'':>9}")
    total = float(ops.sum()) / fastest
    print(f"  {'whole widget':<34} {1:6.0%} {total / 1e9:13.1f} {total / limit:9.0%}")


def project(sample: int, repeats: int) -> None:
    """Print each layer's states per second on a sample of its sets and the full Kniffel
    Extreme solve projected from them (see the module docstring)."""
    t = build_tables(preset("extreme"))
    layout = make_layout(t)
    values = np.zeros(layout.states, np.float32)
    prepared = kernel.Prepared(t, layout.base)
    rng = np.random.default_rng(1)
    total = 0.0
    print(f"{'open':>4} {'states':>12} {'states/s':>10} {'projected s':>12}")
    for open_boxes, masks in layout.layers():
        chosen = np.sort(rng.choice(masks, min(sample, len(masks)), replace=False))
        fastest = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            kernel.solve_masks(chosen, values, prepared, 2)
            fastest = min(fastest, time.perf_counter() - t0)
        rate = layout.layer_states(chosen) / fastest
        seconds = layout.layer_states(masks) / rate
        total += seconds
        print(f"{open_boxes:4d} {layout.layer_states(masks):12,d} {rate:10,.0f} {seconds:12.1f}")
    print(f"full Kniffel Extreme solve, projected: {total:,.0f} s = {total / 60:.1f} min "
          f"({layout.states:,} states, {layout.states / total:,.0f} states/s on 2 threads)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=BASE, help="the commit of the numba kernel")
    parser.add_argument("--layer", type=int, default=12, help="open boxes of the sets solved")
    parser.add_argument("--sets", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-profile", action="store_true",
                        help="leave out the stage shares and the add/max limit")
    parser.add_argument("--project", type=int, metavar="N", default=0,
                        help="only project the full Extreme solve from N sets of each layer")
    args = parser.parse_args()
    if args.project:
        project(args.project, args.repeats)
        return
    old = base_kernel(args.base)
    t = build_tables(preset("extreme"))
    layout = make_layout(t)
    values = np.zeros(layout.states, np.float32)
    masks = next(m for o, m in layout.layers() if o == args.layer)
    chosen = np.sort(np.random.default_rng(0).choice(masks, args.sets, replace=False))
    states = layout.layer_states(chosen)
    box = box_major(t)
    old_args = (t.params, t.ms_add, t.ms_sub, t.hand_ms, t.p0, t.pts, t.kn_face, t.n_u,
                t.trans_k, t.trans_gain, t.box_kind, t.box_max, *box)
    prepared = kernel.Prepared(t, layout.base)

    def run_old(threads: int) -> None:
        numba.set_num_threads(threads)
        old.solve_masks(chosen, values, layout.base, *old_args, 24, threads)

    def run_new(threads: int) -> None:
        kernel.solve_masks(chosen, values, prepared, threads)

    results: dict[str, npt.NDArray[np.float32]] = {}
    runs: list[tuple[str, Callable[[int], None]]] = [("numba", run_old), ("C", run_new)]
    for name, run in runs:
        values[:] = 0.0
        run(1)
        results[name] = np.concatenate(
            [values[layout.base[m]:layout.base[m] + layout.lanes(int(m))] for m in chosen])
    same = np.array_equal(results["numba"], results["C"])
    fastest: dict[tuple[str, int], float] = {}
    for i in range(args.repeats):
        for threads in (1, 2):
            for name, run in runs if i % 2 == 0 else runs[::-1]:
                t0 = time.perf_counter()
                run(threads)
                dt = time.perf_counter() - t0
                key = (name, threads)
                fastest[key] = min(fastest.get(key, float("inf")), dt)
    print(f"Kniffel Extreme float32, {args.sets} sets with {args.layer} open boxes "
          f"({states:,} states), fastest of {args.repeats}; numba kernel of {args.base}")
    for threads in (1, 2):
        a, b = fastest[("numba", threads)], fastest[("C", threads)]
        print(f"{threads} thread{'s' if threads > 1 else ' '}: numba {states / a:9,.0f} states/s, "
              f"C {states / b:9,.0f} states/s ({b * threads * 1e6 / states:5.2f} µs per state "
              f"and thread): {a / b:.2f}×")
    print("same values to the bit" if same else "VALUES DIFFER")
    if not args.no_profile:
        profile(t, prepared, chosen, values, run_new, layout.lanes, args.repeats)


if __name__ == "__main__":
    main()

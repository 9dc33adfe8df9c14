"""The solver kernel in isolation: this (C) kernel against the last numba kernel, on real sets.

Run: ``.venv/bin/pip install -e '.[bench]' && .venv/bin/python benchmarks/bench_kernel.py``
(``--help`` for options; needs numba for the earlier kernel). Solves a random choice of Kniffel
Extreme filled-box sets of one layer (float32, successor values zero) with both kernels, on 1 and
on 2 threads, alternating run by run; the fastest of ``--repeats`` counts, so the ratios hold on
a busy machine. Also checks that both give the same values to the bit.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numba
import numpy as np
import numpy.typing as npt

from kniffel.rules import preset
from kniffel.solver import kernel
from kniffel.solver.table import cache_dir, make_layout
from kniffel.solver.tables import Tables, build_tables

#: The last numba kernel (before the C kernel of issue 11).
BASE = "f713103"
REPO = Path(__file__).resolve().parent.parent


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=BASE, help="the commit of the numba kernel")
    parser.add_argument("--layer", type=int, default=12, help="open boxes of the sets solved")
    parser.add_argument("--sets", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()

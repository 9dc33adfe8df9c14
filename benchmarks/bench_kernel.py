"""Stages of the compiled solver kernel in isolation: this kernel against an earlier one.

Run: ``.venv/bin/python benchmarks/bench_kernel.py`` (``--help`` for options). One thread, one
chunk of Kniffel Extreme float32 lanes of a set with 19 open boxes (random successor values),
the compiled ``_keep_best``, ``_successors`` + ``_score`` and the whole ``_widget`` called
directly; the two kernels alternate call by call and the fastest of ``--repeats`` calls counts,
so the ratios hold on a busy machine. Also checks that both give the same values to the bit.
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
from typing import Any

import numba
import numpy as np

from kniffel.rules import preset
from kniffel.solver import kernel
from kniffel.solver.table import cache_dir
from kniffel.solver.tables import build_tables

#: The kernel before the vectorisation of issue 11's keep and score loops.
BASE = "4c95e29"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=BASE, help="the commit of the kernel compared against")
    parser.add_argument("--width", type=int, default=24, help="lanes per chunk")
    parser.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args()
    numba.set_num_threads(1)
    old = base_kernel(args.base)
    t = build_tables(preset("extreme"))
    p = t.params
    nd, nh, n_small, nb, xf, w = int(p[1]), int(p[2]), int(p[5]), int(p[0]), 4, args.width
    mask = 1 << 0 | 1 << 7 | 1 << 12  # 19 open boxes, chips
    base = np.zeros(1 << nb, np.int64)
    rng = np.random.default_rng(1)
    values = (rng.random(int(t.n_u.max()) * xf + 8) * 300).astype(np.float32)
    hands = (rng.random((nh, w)) * 300).astype(np.float32)
    scratch = {m: m._scratch(values, p, t.ms_add.shape[0], w) for m in (old, kernel)}

    def keep(m: ModuleType) -> Any:
        *_, best, keeps, subs = scratch[m]
        m._keep_best(hands, w, keeps, subs, best, t.ms_add, t.ms_sub, t.hand_ms, n_small, nd)
        return best

    def score(m: ModuleType) -> Any:
        uv, sv, sv50, z, s = scratch[m][:5]
        m._successors(mask, 0, w, xf, values, base, p, t.trans_k, t.trans_gain, uv, sv, sv50, z)
        m._score(mask, 0, w, xf, p, t.pts, t.kn_face, t.box_kind, t.box_max, t.box_ptr, t.box_h,
                 t.box_v, uv, sv, sv50, z, s)
        return s

    def widget(m: ModuleType) -> Any:
        out = np.zeros(w)
        m._widget(mask, 0, w, xf, values, base, p, t.ms_add, t.ms_sub, t.hand_ms, t.p0, t.pts,
                  t.kn_face, t.trans_k, t.trans_gain, t.box_kind, t.box_max, t.box_ptr, t.box_h,
                  t.box_v, out, scratch[m], False, np.zeros((1, 1, 1)), np.zeros((1, 1)))
        return out

    stages: list[tuple[str, Callable[[ModuleType], Any]]] = [
        ("one keep layer (_keep_best)", keep), ("successors + best entry (_score)", score),
        ("whole widget", widget)]
    print(f"Kniffel Extreme float32, {w} lanes, one thread, fastest of {args.repeats}; "
          f"base {args.base}")
    for name, stage in stages:
        same = np.array_equal(stage(old).copy(), stage(kernel).copy())
        fastest = {old: float("inf"), kernel: float("inf")}
        for i in range(args.repeats):
            for m in (old, kernel) if i % 2 == 0 else (kernel, old):
                t0 = time.perf_counter()
                stage(m)
                fastest[m] = min(fastest[m], time.perf_counter() - t0)
        print(f"{name:34s} base {fastest[old] * 1e6 / w:6.2f} µs/lane, this "
              f"{fastest[kernel] * 1e6 / w:6.2f} µs/lane: {fastest[old] / fastest[kernel]:.2f}× "
              f"{'(same values)' if same else '(VALUES DIFFER)'}")


if __name__ == "__main__":
    main()

"""Benchmark of the solver: Yahtzee against yatzy-solver, Kniffel Extreme states/s and the ratio
to the landed kernel, advice latency.

Run: ``.venv/bin/pip install -e '.[bench]' && .venv/bin/python benchmarks/bench_solver.py``
(``--help`` for options). Whatever is compared runs alternately in one run (the two Yahtzee
solvers in one process, and as whole processes; this kernel and the landed one of commit
:data:`LANDED` as whole ``kniffel solve`` processes), so the ratios hold on a busy machine;
absolute times do not.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from kniffel.engine.dice import Keep, roll_dice
from kniffel.engine.rules import Box, Entry, preset
from kniffel.solver import (
    TableMismatchError,
    TableMissingError,
    load_table,
    set_threads,
    solve,
    solve_in_memory,
)
from kniffel.solver.advise import Advisor, Position
from kniffel.solver.solve import Progress
from kniffel.solver.table import cache_dir, default_dtype

#: The commit of the landed kernel that issue 11 measures against.
LANDED = "7e915ec"
REPO = Path(__file__).resolve().parent.parent


def landed_source(commit: str = LANDED) -> Path:
    """The ``src`` folder of ``commit``, unpacked once next to the solver cache (so that its
    compiled kernel is cached too); the working tree is not touched."""
    where = cache_dir().parent / "bench" / f"landed-{commit}"
    if not (where / "src" / "kniffel" / "solver" / "kernel.py").exists():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where / "src"


def timed_process(args: list[str], pythonpath: Path | None = None) -> float:
    """Wall seconds of ``python args`` as a whole process (start-up included), with Python's
    bytecode cache as a user has it: an installed package's modules are compiled once, so
    ``PYTHONDONTWRITEBYTECODE`` (set in some shells and sandboxes) is dropped, and the first,
    untimed round of each comparison writes the cache."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    t = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def bench_landed(max_open: int, repeats: int, base: Path | None) -> None:
    """``kniffel solve --rules extreme --max-open K --force``: this kernel and the landed one as
    whole processes, alternately; the median of each and their ratio."""
    landed = base or landed_source()
    ours_src = REPO / "src"
    with tempfile.TemporaryDirectory() as tmp:
        runs: dict[str, list[float]] = {"landed": [], "ours": []}
        for i in range(repeats + 1):  # the first round compiles the kernels into their caches
            for who, src in (("landed", landed), ("ours", ours_src)):
                time.sleep(1.0)
                sec = timed_process(["-m", "kniffel", "solve", "--rules", "extreme",
                                     "--max-open", str(max_open), "--force", "--cache-dir",
                                     str(Path(tmp) / who)], src)
                if i:
                    runs[who].append(sec)
        a, b = statistics.median(runs["landed"]), statistics.median(runs["ours"])
        states = solve_layout_sizes(max_open)
        print(f"kniffel solve --rules extreme --max-open {max_open} --force ({states:,} states), "
              f"whole processes, alternately, median of {repeats}: landed kernel ({LANDED}) "
              f"{a:.2f} s, this one {b:.2f} s  ->  {a / b:.2f}x faster")
        print("  each run: " + ", ".join(f"{x:.2f}/{y:.2f}" for x, y in
                                         zip(runs["landed"], runs["ours"], strict=True)))


def bench_yahtzee(repeats: int) -> None:
    """Seconds to build the full Yahtzee table, ours and yatzy-solver's, alternately: the best
    of ``repeats`` of each (the least disturbed by the machine's other work; the median beside
    it), in process and as whole processes."""
    try:
        import yatzy_solver
    except ImportError:
        print("yatzy-solver is not installed: .venv/bin/pip install -e '.[bench]'")
        return
    rules = preset("yahtzee")
    solve_in_memory(rules, max_open=2)  # compile the kernel first
    ours: list[float] = []
    theirs: list[float] = []
    value_ours = value_theirs = 0.0
    for _ in range(repeats):
        time.sleep(1.0)  # let the other solver's worker threads go idle first
        t = time.perf_counter()
        table = solve_in_memory(rules)
        ours.append(time.perf_counter() - t)
        value_ours = table.expected_score()
        time.sleep(1.0)
        t = time.perf_counter()
        other = yatzy_solver.Solver.build(yatzy_solver.Variant("american"))
        theirs.append(time.perf_counter() - t)
        value_theirs = float(other.state_value("upper 0 | filled -"))
    print(f"yahtzee full table, {best_of(ours, theirs, repeats)}")
    print(f"  expected score: kniffel {value_ours:.10f}, yatzy-solver {value_theirs:.10f} "
          f"(difference {abs(value_ours - value_theirs):.1e})")
    with tempfile.TemporaryDirectory() as tmp:
        ours_p: list[float] = []
        theirs_p: list[float] = []
        build = ("import yatzy_solver; "
                 "yatzy_solver.Solver.build(yatzy_solver.Variant('american'))")
        for i in range(repeats + 1):  # a first round fills the compiled-code caches
            time.sleep(1.0)
            a = timed_process(["-m", "kniffel", "solve", "--rules", "yahtzee", "--force",
                               "--cache-dir", tmp])
            time.sleep(1.0)
            b = timed_process(["-c", build])
            if i:
                ours_p.append(a)
                theirs_p.append(b)
    print("yahtzee whole process (start-up, table, file; `kniffel solve --rules yahtzee "
          f"--force`), {best_of(ours_p, theirs_p, repeats)}")


def best_of(ours: list[float], theirs: list[float], repeats: int) -> str:
    """"best of N: kniffel a s, yatzy-solver b s -> b/a x faster (medians …)"."""
    a, b = min(ours), min(theirs)
    ma, mb = statistics.median(ours), statistics.median(theirs)
    return (f"best of {repeats}: kniffel {a:.3f} s, yatzy-solver 1.0.0 {b:.3f} s  ->  "
            f"{b / a:.1f}x faster (medians {ma:.3f} s and {mb:.3f} s: {mb / ma:.1f}x)")


def bench_extreme(max_open: int) -> None:
    """States per second of the Kniffel Extreme kernel by layer, and the full solve projected."""
    rules = preset("extreme")
    dtype = default_dtype(rules)  # float32, as the stored Extreme table
    solve_in_memory(rules, max_open=1, dtype=dtype)  # compile
    marks: list[tuple[float, int, int]] = []

    def progress(p: Progress) -> None:
        marks.append((time.perf_counter(), p.done, p.layer))

    start = time.perf_counter()
    table = solve_in_memory(rules, max_open=max_open, progress=progress, dtype=dtype)
    total = time.perf_counter() - start
    lay = table.layout
    print(f"extreme endgames with <= {max_open} open boxes ({np.dtype(dtype).name}): "
          f"{lay.states:,} states in "
          f"{total:.1f} s = {lay.states / total:,.0f} states/s")
    per_layer: dict[int, tuple[float, int]] = {}
    prev_t, prev_done = start, 0
    for t, done, layer in marks:
        sec, n = per_layer.get(layer, (0.0, 0))
        per_layer[layer] = (sec + t - prev_t, n + done - prev_done)
        prev_t, prev_done = t, done
    for layer, (sec, n) in sorted(per_layer.items()):
        if n and sec > 0:
            print(f"  layer {layer:2d} open: {n:>10,} states {n / sec:>10,.0f} states/s")
    # Project the full solve: seconds per state grows with the open boxes (scoring work); fit a
    # line through the three deepest measured layers (the shallow ones are too small to keep
    # both cores busy) and apply it to every layer of the full table.
    full = full_layer_sizes()
    xs = [o for o, (sec, n) in per_layer.items() if n and o >= max(1, max_open - 2)]
    ys = [per_layer[o][0] / per_layer[o][1] for o in xs]
    slope, icept = np.polyfit(xs, ys, 1) if len(xs) > 1 else (0.0, ys[0])
    projected = sum(n * max(icept + slope * o, min(ys)) for o, n in full.items())
    states = sum(full.values())
    print(f"full extreme table: {states:,} states; projected {projected / 3600:.2f} h on this "
          f"machine ({states / projected:,.0f} states/s on average)")


def solve_layout_sizes(max_open: int | None = None) -> int:
    """States of the Extreme table with at most ``max_open`` open boxes (all: the full table)."""
    return sum(full_layer_sizes().get(o, 0) for o in range(
        (max_open if max_open is not None else 22) + 1))


def full_layer_sizes() -> dict[int, int]:
    """States of the full Extreme table by open boxes."""
    from kniffel.solver.table import make_layout
    from kniffel.solver.tables import build_tables

    lay = make_layout(build_tables(preset("extreme")))
    return {o: lay.layer_states(m) for o, m in lay.layers()}


def bench_advice(decisions: int) -> None:
    """Milliseconds per decision of the advisor from a stored Yahtzee table and an Extreme one."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, max_open in (("yahtzee", None), ("extreme", 3), ("extreme", None)):
            rules = preset(name)
            if name == "extreme" and max_open is None:
                # the full table, where a solve has stored it in the user's cache
                try:
                    load_table(rules)
                except (TableMissingError, TableMismatchError):
                    print("advice extreme from the full table: no full table in the cache")
                    continue
                advisor = Advisor(rules)
            else:
                solve(rules, max_open=max_open, directory=Path(tmp))
                advisor = Advisor(rules, directory=Path(tmp))
            rng = random.Random(1)
            deepest = len(rules.boxes) if max_open is None else max_open
            times = []
            for i in range(decisions):
                boxes = list(rules.boxes)
                rng.shuffle(boxes)
                n_open = rng.randint(1, deepest)
                entries = {b: Entry(0, struck=True) for b in boxes[n_open:]}
                if Box.KNIFFEL in entries and rng.random() < 0.5:
                    entries[Box.KNIFFEL] = Entry(50)
                roll = roll_dice(Keep(), rng, d10=rules.d10)
                pos = Position(rules, entries, roll=roll, rolls_used=1 + i % rules.rolls)
                t = time.perf_counter()
                advisor.advise(pos)
                times.append(time.perf_counter() - t)
            times.sort()
            print(f"advice {name} (up to {deepest} open boxes): median "
                  f"{1000 * statistics.median(times[1:]):.1f} ms, 90th percentile "
                  f"{1000 * times[int(0.9 * len(times))]:.1f} ms, slowest {1000 * times[-1]:.1f} "
                  f"ms ({decisions} random positions, table on disk)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3, help="Yahtzee builds per solver")
    parser.add_argument("--max-open", type=int, default=4, help="Extreme endgame depth")
    parser.add_argument("--decisions", type=int, default=200, help="advice samples")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--only", choices=["yahtzee", "extreme", "landed", "advice"],
                        default=None)
    parser.add_argument("--base", type=Path, default=None,
                        help=f"the src folder of a checkout at {LANDED} (default: unpacked from "
                             "git into the cache)")
    parser.add_argument("--landed-max-open", type=int, default=4,
                        help="open boxes of the solve timed against the landed kernel")
    args = parser.parse_args()
    print(f"threads: {set_threads(args.threads)}")
    if args.only in (None, "yahtzee"):
        bench_yahtzee(args.repeats)
    if args.only in (None, "landed"):
        bench_landed(args.landed_max_open, args.repeats, args.base)
    if args.only in (None, "extreme"):
        bench_extreme(args.max_open)
    if args.only in (None, "advice"):
        bench_advice(args.decisions)


if __name__ == "__main__":
    main()

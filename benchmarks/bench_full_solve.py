"""The full Kniffel Extreme solve in one sitting, timed layer by layer.

Run: ``.venv/bin/python benchmarks/bench_full_solve.py --dir DIR [--log FILE]``.

Solves the whole Extreme table (23 layers, 0 to 22 open boxes, 597,950,464 states) into
``DIR`` with :func:`kniffel.solver.solve` on every core, and records for each layer the states it
holds, the seconds it took and its states per second (the time between the last progress report
of the layer before and its own last one: kernel, checkpoints and the copy-in of successors;
start-up and the final checksum are reported apart). The log (``--log``, JSON) is rewritten after
every layer, so a stopped run keeps what it measured and a new run with the same ``DIR`` resumes
the solve (the solver's own checkpoint) and adds the layers it solves; a layer cut by the stop
is timed only from the resume on and marked so. At the end the table's SHA-256 is compared
with the one the README publishes (``fd03f2b4…0419``): the same values to the bit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as Bar

from kniffel.engine.rules import preset
from kniffel.solver import solve
from kniffel.solver.solve import Progress
from kniffel.solver.table import read_header, table_name

#: The published SHA-256 of the full Extreme table, as the README gives it (head…tail).
PUBLISHED = ("fd03f2b4", "0419")


def main(argv: list[str] | None = None) -> int:
    """Run (or resume) the solve, print the per-layer table and the checksum; exit status 1 when
    the checksum differs from the published one."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, required=True, help="where the table is written")
    ap.add_argument("--log", type=Path, default=None,
                    help="the per-layer log (JSON; default DIR/full-solve.json)")
    ap.add_argument("--max-open", type=int, default=None,
                    help="only endgames with at most K open boxes (a short trial of the script)")
    args = ap.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    log_path = args.log or args.dir / "full-solve.json"
    rules = preset("extreme")
    log: dict[str, Any] = (json.loads(log_path.read_text()) if log_path.exists()
                           else {"rules": rules.name, "runs": [], "layers": {}})
    run: dict[str, Any] = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                           "cpus": os.cpu_count(), "load_at_start": os.getloadavg()}
    log["runs"].append(run)
    began = time.perf_counter()
    state: dict[str, Any] = {"layer": None, "since": None, "done_at_layer": 0, "first": True}
    bar = Bar("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
              TimeRemainingColumn())
    task = bar.add_task("full solve", total=None)
    bar.start()

    def write_log() -> None:
        log_path.write_text(json.dumps(log, indent=1))

    def on_progress(p: Progress) -> None:
        now = time.perf_counter()
        if "kernel_started_s" not in run:
            run["kernel_started_s"] = round(now - began, 3)
        bar.update(task, total=p.total, completed=p.done,
                   description=f"layer {p.layer} of {p.layers}")
        if state["layer"] != p.layer:
            if state["layer"] is not None:
                finish_layer(state["layer"], state["since"], state["last"], state["states"])
            state.update(layer=p.layer, since=state.get("last", now), states=0,
                         cut=state["first"] and p.resumed > 0)
            state["first"] = False
            state["start_done"] = state.get("prev_done", p.resumed)
        state["last"] = now
        state["prev_done"] = p.done
        state["states"] = p.done - state["start_done"]

    def finish_layer(layer: int, since: float, last: float, states: int) -> None:
        seconds = last - since
        log["layers"][str(layer)] = {
            "states": states, "seconds": round(seconds, 3),
            "states_per_s": round(states / seconds) if seconds > 0 else None,
            "cut_by_a_stop": bool(state.get("cut")), "run": len(log["runs"]) - 1}
        write_log()

    try:
        table = solve(rules, directory=args.dir, progress=on_progress, max_open=args.max_open,
                      notice=lambda n: print(n, file=sys.stderr))
    finally:
        bar.stop()
        if state["layer"] is not None and "last" in state:
            finish_layer(state["layer"], state["since"], state["last"], state["states"])
        run["wall_s"] = round(time.perf_counter() - began, 3)
        write_log()
    header = read_header(args.dir / table_name(rules, args.max_open))
    digest = str(header["sha256"])
    expected = table.expected_score() if args.max_open is None else None
    run.update(sha256=digest, expected=expected, solver_seconds=header["seconds"])
    write_log()
    print(f"{'open':>4} {'states':>12} {'seconds':>9} {'states/s':>10}")
    for layer in sorted(log["layers"], key=int):
        row = log["layers"][layer]
        print(f"{layer:>4} {row['states']:>12,} {row['seconds']:>9.1f} "
              f"{row['states_per_s'] or 0:>10,}{'  (resumed)' if row['cut_by_a_stop'] else ''}")
    total_s = sum(r["seconds"] for r in log["layers"].values())
    states = sum(r["states"] for r in log["layers"].values())
    print(f"all  {states:>12,} {total_s:>9.1f} {round(states / total_s):>10,}  "
          f"(this run's process: {run['wall_s']:.1f} s wall)")
    print(f"expected score {expected}; sha256 {digest}")
    if args.max_open is not None:
        return 0
    same = digest.startswith(PUBLISHED[0]) and digest.endswith(PUBLISHED[1])
    print("the same table as published" if same else "NOT the published table")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())

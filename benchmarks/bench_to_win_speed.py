"""The to-win player's speed against an earlier version, in the same run, and that both play the
same games.

Run: ``.venv/bin/python benchmarks/bench_to_win_speed.py --before 23ba8bd --rules extreme``
(``--help`` for the options). The earlier version's ``src`` and ``benchmarks`` are taken from git
(``git archive``) into a temporary folder; one worker process per version plays the head-to-head
games of ``benchmarks/bench_play_to_win.py`` (seat 0 to win, the others the expert), the two
taking turns game by game so that both meet the same load on a shared machine. Prints each
version's CPU seconds per game (after a first game that loads the tables) and whether every game
ended with the same totals and the same decisions per round (how many, how many chosen otherwise
than for the points, how many hints with two answers).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# A worker: reads game numbers, plays each with its tree's bench_play_to_win.play, answers
# one JSON line per game (CPU seconds, totals, share, per round the decision counts).
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import bench_play_to_win as bench
rules, players, base = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for line in sys.stdin:
    index = int(line)
    start = time.process_time()
    row = bench.play(rules, players, index, base, False)
    cpu = time.process_time() - start
    if "decisions" in row:  # an earlier row: (round, chose otherwise, two answers) per decision
        rounds = {}
        for rnd, differs, two in row["decisions"]:
            seen = rounds.setdefault(rnd, [0, 0, 0])
            seen[0] += 1
            seen[1] += int(differs)
            seen[2] += int(two)
    else:
        rounds = {k + 1: [d, f, t] for k, (d, f, t) in
                  enumerate(zip(row["decided"], row["differ"], row["two"])) if d}
    print(json.dumps({"cpu": cpu, "totals": row["totals"], "share": row["share"],
                      "rounds": sorted([int(k), v] for k, v in rounds.items())}), flush=True)
"""


def earlier_tree(rev: str, into: Path) -> Path:
    """``src`` and ``benchmarks`` of revision ``rev``, unpacked under ``into``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src",
                           "benchmarks"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def worker(tree: Path, rules: str, players: int, base: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    return subprocess.Popen([sys.executable, "-c", WORKER, str(tree / "benchmarks"), rules,
                             str(players), str(base)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)


def ask(proc: subprocess.Popen[str], index: int) -> dict[str, Any]:
    assert proc.stdin is not None
    assert proc.stdout is not None
    proc.stdin.write(f"{index}\n")
    proc.stdin.flush()
    answer: dict[str, Any] = json.loads(proc.stdout.readline())
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the earlier git revision")
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    args = parser.parse_args()
    base = 1_000_000
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = earlier_tree(args.before, Path(tmp))
        procs = {"before": worker(old_tree, args.rules, args.players, base),
                 "now": worker(ROOT, args.rules, args.players, base)}
        try:
            for proc in procs.values():  # a first game loads the tables: not counted
                ask(proc, 999_999)
            cpu = {name: 0.0 for name in procs}
            same = 0
            for i in range(args.first, args.first + args.games):
                answers = {name: ask(proc, i) for name, proc in procs.items()}
                for name, a in answers.items():
                    cpu[name] += a["cpu"]
                strip = [{k: v for k, v in a.items() if k != "cpu"} for a in answers.values()]
                same += strip[0] == strip[1]
        finally:
            for proc in procs.values():
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait()
    per = {name: c / args.games for name, c in cpu.items()}
    print(f"{args.rules}, {args.players} players, games {args.first}…"
          f"{args.first + args.games - 1}: before ({args.before}) {per['before']:.3f} s/game, "
          f"now {per['now']:.3f} s/game (CPU), {per['before'] / per['now']:.1f}× faster; "
          f"the same games: {same}/{args.games}")


if __name__ == "__main__":
    main()

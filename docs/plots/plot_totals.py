"""The manual's score-distribution plots, from the JSON of ``kniffel simulate --json``.

Run: ``.venv/bin/python docs/plots/plot_totals.py RESULT.json PLOT.png [--optimum X]``.

A histogram of the games' totals in bins of 10 points (aligned to multiples of 10, so every bin
holds the same number of possible totals), the mean, and the optimum's expected score where it
is given.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

RULE_SET_NAMES = {"extreme": "Kniffel Extreme", "kniffel": "Kniffel"}


def main(argv: list[str] | None = None) -> int:
    """Draw the plot of one simulation result; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", type=Path, help="the JSON of kniffel simulate --json")
    parser.add_argument("plot", type=Path, help="the PNG to write")
    parser.add_argument("--optimum", type=float, help="the optimal expected score, drawn too")
    args = parser.parse_args(argv)
    result = json.loads(args.result.read_text(encoding="utf-8"))
    totals: list[int] = result["totals"]
    low = 10 * math.floor(min(totals) / 10)
    high = 10 * math.ceil((max(totals) + 1) / 10)
    fig, ax = plt.subplots(figsize=(8, 4), dpi=100)
    ax.hist(totals, bins=range(low, high + 1, 10), color="#0072B2", edgecolor="white")
    mean = sum(totals) / len(totals)
    ax.axvline(mean, color="#D55E00", linestyle="--", label=f"mean {mean:.1f}")
    if args.optimum is not None:
        ax.axvline(args.optimum, color="#009E73", linestyle=":",
                   label=f"optimal play's expectation {args.optimum:.1f}")
    name = RULE_SET_NAMES.get(result["rules"], result["rules"])
    ax.set_title(f"{name} · {result['strategy']} · {len(totals):,} games · seed {result['seed']}")
    ax.set_xlabel("total points (bins of 10)")
    ax.set_ylabel("games")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

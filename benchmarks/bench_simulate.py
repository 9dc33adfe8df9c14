"""Benchmark of the computer players: complete solitaire games simulated per second, per strategy
and rule set, with the mean and standard deviation of the totals.

Run: ``.venv/bin/python benchmarks/bench_simulate.py`` (``--help`` for options). It calls the same
:func:`kniffel.simulate.simulate` as ``kniffel simulate``; the README records the numbers of the
project's reference machine.
"""

from __future__ import annotations

import argparse
import time

from kniffel.engine.rules import preset
from kniffel.engine.strategy import get_strategy, strategy_names
from kniffel.simulate import simulate


def measure(rules_name: str, strategy_name: str, games: int, seed: int) -> tuple[float, float,
                                                                                    float, float]:
    """(games/s, mean, std, set-up seconds) of ``games`` games; set-up (building the strategy)
    is timed apart from the games."""
    rules = preset(rules_name)
    start = time.perf_counter()
    strategy = get_strategy(strategy_name, rules)
    setup = time.perf_counter() - start
    result = simulate(rules, strategy, games, seed)
    return result.games_per_second, result.mean, result.std, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["extreme", "kniffel"])
    parser.add_argument("--strategies", nargs="+", default=list(strategy_names()))
    parser.add_argument("--games", type=int, default=200, help="games per strategy and rule set")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'rules':10} {'strategy':10} {'games':>6} {'games/s':>9} {'mean':>8} {'std':>7} "
          f"{'set-up s':>9}")
    for rules_name in args.rules:
        for name in args.strategies:
            rate, mean, std, setup = measure(rules_name, name, args.games, args.seed)
            print(f"{rules_name:10} {name:10} {args.games:6d} {rate:9.1f} {mean:8.1f} "
                  f"{std:7.1f} {setup:9.2f}", flush=True)


if __name__ == "__main__":
    main()

"""Benchmark of the rules engine: rolls scored per second and complete random games per second.

Run: ``.venv/bin/python benchmarks/bench_rules.py`` (``--help`` for options). Numbers are
machine-dependent; the README records those of the project's reference machine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from kniffel import Game, Mode, all_rolls, choices, evaluate, preset
from kniffel.engine.rules import Box, Entry, evaluate_uncached


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` done per second, repeating it for at least ``seconds``."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def bench_scoring(seconds: float) -> tuple[float, float]:
    """(rolls/s, rolls/s) for all 2,520 Extreme rolls × 22 boxes: computed afresh, and cached."""
    rolls = all_rolls(d10=True)
    raw = evaluate_uncached  # the computation without its cache

    def fresh() -> int:
        for r in rolls:
            raw(r)
        return len(rolls)

    def cached() -> int:
        for r in rolls:
            evaluate(r)
        return len(rolls)

    return _rate(fresh, seconds), _rate(cached, seconds)


def bench_choices(seconds: float) -> float:
    """Legal choices computed per second for random rolls on half-filled Extreme sheets."""
    rules = preset("extreme")
    rng = random.Random(1)
    rolls = all_rolls(d10=True)
    sheets = []
    for _ in range(64):
        boxes = rng.sample(list(Box), 11)
        sheets.append({b: Entry(0, struck=True) for b in boxes})

    def work() -> int:
        for sheet in sheets:
            choices(rules, sheet, rng.choice(rolls))
        return len(sheets)

    return _rate(work, seconds)


def random_game(rules_name: str, seed: int, mode: Mode = Mode.DICE) -> Game:
    """A complete solitaire game of uniformly random legal moves."""
    rng = random.Random(seed)
    game = Game(preset(rules_name), ["Bench"], mode=mode, seed=seed)
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game


def bench_games(rules_name: str, seconds: float, mode: Mode = Mode.DICE) -> float:
    """Complete random solitaire games per second."""
    seed = iter(range(10**9))
    return _rate(lambda: (random_game(rules_name, next(seed), mode), 1)[1], seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    s = args.seconds
    fresh, cached = bench_scoring(s)
    boxes = len(preset("extreme").boxes)
    print(f"scoring, all 2,520 Extreme rolls x {boxes} boxes:")
    print(f"  computed afresh: {fresh:12,.0f} rolls/s = {fresh * boxes:12,.0f} box scores/s")
    print(f"  cached:          {cached:12,.0f} rolls/s = {cached * boxes:12,.0f} box scores/s")
    print(f"legal choices (Extreme, half-filled sheet): {bench_choices(s):10,.0f} /s")
    for name in ("extreme", "kniffel", "yahtzee"):
        print(f"random games, {name:8s} dice mode: {bench_games(name, s):8,.1f} games/s")
    print(f"random games, extreme  pad mode:  {bench_games('extreme', s, Mode.PAD):8,.1f} games/s")


if __name__ == "__main__":
    main()

"""Benchmark of the expert player: its speed (complete games per second, numpy against pure
Python, as in the browser), the size of its model, and its strength against optimal play.

Run: ``.venv/bin/python benchmarks/bench_expert.py`` (``--help`` for options).

* ``speed``: solitaire games through :func:`kniffel.simulate.simulate`, the expert with numpy
  and without, alternately, in one process (the ratio is what counts on a shared machine).
* ``strength``: the expert plays; at every decision the exact advisor (a value table in the
  solver's cache) says how many expected points the expert's choice loses against the best one.
  The sum over a game is the expected loss per game against optimal play, with far less noise
  than comparing final scores. With ``--from-open K`` the greedy player plays until ``K`` boxes
  are open and the expert from there on (for a table of the endgames, ``kniffel solve --max-open
  K``); without, the full table is needed.
* ``simulate``: the mean final score of ``--games`` expert games with its standard error, and
  the loss against the optimum the sample file states (``--sample``) or the table.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path

from kniffel.engine.advice import Position
from kniffel.engine.expert import Expert, ExpertStrategy
from kniffel.engine.expert_model import load_model, model_bytes, model_from_bytes
from kniffel.engine.game import Game
from kniffel.engine.rules import RuleSet, preset
from kniffel.engine.strategy import get_strategy
from kniffel.engine.values import Values, values_for
from kniffel.simulate import simulate


def values_of(rules: RuleSet, model: Path | None) -> Values:
    """The expert's values: a model file given on the command line, else the packaged ones."""
    if model is not None:
        return model_from_bytes(rules, model.read_bytes(), where=str(model))
    return values_for(rules)


def speed(rules: RuleSet, values: Values, games: int, seed: int, repeats: int) -> None:
    """Games/s of the expert with numpy and in pure Python, alternately."""
    rates: dict[bool, list[float]] = {True: [], False: []}
    means: dict[bool, float] = {}
    for _ in range(repeats):
        for use_numpy in (True, False):
            strategy = ExpertStrategy(rules, use_numpy=use_numpy, values=values)
            result = simulate(rules, strategy, games, seed)
            rates[use_numpy].append(result.games_per_second)
            means[use_numpy] = result.mean
    fast, slow = max(rates[True]), max(rates[False])
    assert means[True] == means[False], "numpy and pure Python play the same games"
    print(f"{rules.name:22} numpy {fast:7.2f} games/s, pure Python {slow:7.2f} games/s "
          f"({fast / slow:.1f}×; best of {repeats}, {games} games each, mean {means[True]:.1f})",
          flush=True)


def strength(rules: RuleSet, values: Values, games: int, seed: int,
             from_open: int | None) -> None:
    """The expert's expected loss per game and per decision, judged by the exact advisor."""
    from kniffel.solver.advise import Advisor

    advisor = Advisor(rules)
    expert = Expert(rules, values=values)
    greedy = get_strategy("greedy", rules)
    losses: list[float] = []
    per_decision: list[float] = []
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(f"strength:{seed}:{g}")
        game = Game(rules, ["expert"], seed=seed * 100_000 + g)
        total = 0.0
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(rng))
                continue
            sheet = game.sheet(0)
            if from_open is not None and len(sheet.open_boxes) > from_open:
                game.apply(greedy.choose(game, rng))
                continue
            turn = game.turn
            assert turn is not None
            if turn.roll is None:
                game.apply(game.legal_actions()[0])
                continue
            pos = Position.from_game(game)
            action = expert.advise(pos).best.action
            exact = advisor.advise(pos)
            taken = next(o for o in exact.options if o.action == action)
            total += taken.loss
            per_decision.append(taken.loss)
            game.apply(action)
        losses.append(total)
    mean = statistics.fmean(losses)
    se = statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else math.nan
    where = "whole games" if from_open is None else f"from {from_open} open boxes on"
    print(f"{rules.name}: expected loss against optimal play ({where}), {games} games: "
          f"{mean:.3f} ± {se:.3f} points per game; {statistics.fmean(per_decision):.4f} per "
          f"decision ({len(per_decision)} decisions, "
          f"{sum(1 for x in per_decision if x > 1e-9)} not optimal); "
          f"{time.perf_counter() - start:.0f} s", flush=True)


def simulated(rules: RuleSet, values: Values | None, games: int, seed: int,
              sample: Path | None, jobs: int) -> None:
    """Mean final score of expert games with its standard error, against the optimum (the
    packaged values play in ``jobs`` processes)."""
    if values is None:
        result = simulate(rules, get_strategy("expert", rules), games, seed, jobs=jobs)
    else:
        result = simulate(rules, ExpertStrategy(rules, values=values), games, seed)
    se = result.std / math.sqrt(games)
    line = (f"{rules.name}: expert mean {result.mean:.2f} ± {se:.2f} over {games} games "
            f"({result.games_per_second:.1f} games/s, bonus {result.bonus_rate:.1%})")
    if sample is not None:
        from kniffel.solver.sample import read_sample

        optimum = read_sample(sample).meta.get("expected")
        if optimum is not None:
            line += f"; optimum {optimum:.2f}: loss {optimum - result.mean:.2f} ± {se:.2f}"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="*", default=["size", "speed"],
                        choices=["size", "speed", "strength", "simulate"])
    parser.add_argument("--rules", nargs="+", default=["extreme", "kniffel"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", type=Path, help="a model file instead of the packaged one")
    parser.add_argument("--from-open", type=int, help="strength: judge from K open boxes on")
    parser.add_argument("--sample", type=Path, help="simulate: the sample naming the optimum")
    parser.add_argument("--jobs", type=int, default=1, help="simulate: processes")
    args = parser.parse_args()
    for name in args.rules:
        rules = preset(name)
        values = values_of(rules, args.model if rules.d10 else None)
        if "size" in args.what and rules.d10:
            raw = args.model.read_bytes() if args.model else model_bytes(rules)
            assert raw is not None
            params = json.loads(raw)["params"]
            count = sum(len(json.dumps(v).split(",")) for v in params.values())
            print(f"{name}: model file {len(raw):,} bytes, about {count:,} numbers "
                  f"({'given' if args.model else 'packaged'}; loaded in "
                  f"{_load_seconds(rules, args.model):.3f} s)", flush=True)
        if "speed" in args.what:
            speed(rules, values, args.games, args.seed, args.repeats)
        if "strength" in args.what:
            strength(rules, values, args.games, args.seed, args.from_open)
        if "simulate" in args.what:
            simulated(rules, None if args.model is None or not rules.d10 else values,
                      args.games, args.seed, args.sample, args.jobs)


def _load_seconds(rules: RuleSet, model: Path | None) -> float:
    start = time.perf_counter()
    if model is not None:
        model_from_bytes(rules, model.read_bytes())
    else:
        load_model.cache_clear()
        load_model(rules)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()

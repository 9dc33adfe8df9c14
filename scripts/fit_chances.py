#!/usr/bin/env python3
"""Fit the win chances' spread model to the expert's games, for every preset.

    python scripts/fit_chances.py [--games-scale 1.0] [--seed 20261201] [--jobs 2] \\
        [--only extreme] [--coverage] [--shift-only] [--coverage-only] [OUT]

OUT defaults to ``src/kniffel/engine/data/chances.json``; with ``--only`` the other rule sets
keep what OUT holds. The games are those of ``kniffel.chances_fit.FIT_GAMES`` (times the scale);
about 10 minutes on two cores. ``--coverage`` fits the factors s[n] by the range's coverage of
what came instead of by the variance (those kept in ``fitted.variance_scale``).
``--shift-only`` keeps the spread OUT holds and fits only the shift of the expert's play beyond
its model (Kniffel Extreme: 400 games, ``--only extreme --games-scale 0.3333``);
``--coverage-only`` likewise only the factors s[n] by the range's coverage. See
``kniffel.chances_fit`` for the fit.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.progress import Progress

from kniffel.chances_fit import (
    COVERAGE_SAMPLES,
    FIT_GAMES,
    coverage_scale,
    fit_shift,
    fit_spread,
    model_file,
    play_samples,
)
from kniffel.engine.chances import SpreadModel
from kniffel.engine.rules import preset

OUT = Path(__file__).resolve().parent.parent / "src/kniffel/engine/data/chances.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    parser.add_argument("--games-scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", choices=sorted(FIT_GAMES))
    parser.add_argument("--coverage", action="store_true",
                        help="the factors s[n] by the range's coverage of what came (step 5 of "
                             "kniffel.chances_fit), not by the variance")
    parser.add_argument("--coverage-samples", type=int, default=COVERAGE_SAMPLES,
                        help="the most samples per number of open boxes the coverage fit "
                             f"reads (default {COVERAGE_SAMPLES}; the same games at every number)")
    parser.add_argument("--shift-only", action="store_true",
                        help="keep the spread OUT holds and fit only the shift of the expert's "
                             "play beyond its model (with --only)")
    parser.add_argument("--coverage-only", action="store_true",
                        help="keep the spread OUT holds and fit only its factors s[n] by the "
                             "range's coverage (with --only)")
    args = parser.parse_args()
    if (args.shift_only or args.coverage_only) and not (args.only and args.out.exists()):
        parser.error("--shift-only and --coverage-only need --only and an OUT that holds the "
                     "other numbers")
    models: dict[str, SpreadModel] = {}
    sources: dict[str, Any] = {}
    if args.only and args.out.exists():
        old = json.loads(args.out.read_text("utf-8"))["models"]
        for name, data in old.items():
            models[name] = SpreadModel.from_json(name, data)
            sources[name] = data["fitted"]
    with Progress() as progress:
        for name, games in FIT_GAMES.items():
            if args.only and name not in args.only:
                continue
            n = max(25, round(games * args.games_scale))
            task = progress.add_task(name, total=n)
            start = time.perf_counter()
            rules = preset(name)
            samples = play_samples(rules, n, args.seed, jobs=args.jobs,
                                   progress=lambda k, t=task: progress.advance(t, k))
            if args.coverage_only:
                old_scale = models[name].scale
                models[name] = replace(models[name], scale=coverage_scale(
                    rules, models[name], samples, most=args.coverage_samples))
                sources[name] = {**sources[name], "coverage": {
                    "games": n, "seed": args.seed, "samples": len(samples),
                    "per_open": args.coverage_samples, "variance_scale": list(old_scale),
                    "seconds": round(time.perf_counter() - start, 1)}}
                continue
            if args.shift_only:
                shift = fit_shift(rules, samples)
                models[name] = replace(models[name], shift=tuple(shift) if any(shift) else ())
                sources[name] = {**sources[name], "shift": {
                    "games": n, "seed": args.seed, "samples": len(samples),
                    "seconds": round(time.perf_counter() - start, 1)}}
                continue
            by_variance = fit_spread(rules, samples, coverage=False)
            models[name] = (replace(by_variance, scale=coverage_scale(
                rules, by_variance, samples, most=args.coverage_samples))
                            if args.coverage else by_variance)
            fitted: dict[str, object] = {"games": n, "seed": args.seed, "samples": len(samples),
                                         "player": "expert",
                                         "seconds": round(time.perf_counter() - start, 1)}
            if args.coverage:
                fitted.update(scale="coverage", variance_scale=list(by_variance.scale))
            sources[name] = fitted
    args.out.write_text(model_file([models[n] for n in FIT_GAMES if n in models], sources),
                        "utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

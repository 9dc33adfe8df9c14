#!/usr/bin/env python3
"""Fit the win chances' spread model to the expert's games, for every preset.

    python scripts/fit_chances.py [--games-scale 1.0] [--seed 20261201] [--jobs 2] \\
        [--only extreme] [OUT]

OUT defaults to ``src/kniffel/engine/data/chances.json``; with ``--only`` the other rule sets
keep what OUT holds. The games are those of ``kniffel.chances_fit.FIT_GAMES`` (times the scale);
about 10 minutes on two cores. See ``kniffel.chances_fit`` for the fit.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.progress import Progress

from kniffel.chances_fit import FIT_GAMES, fit_spread, model_file, play_samples
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
    args = parser.parse_args()
    models: dict[str, SpreadModel] = {}
    sources: dict[str, object] = {}
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
            models[name] = fit_spread(rules, samples)
            sources[name] = {"games": n, "seed": args.seed, "samples": len(samples),
                             "player": "expert",
                             "seconds": round(time.perf_counter() - start, 1)}
    args.out.write_text(model_file([models[n] for n in FIT_GAMES if n in models], sources),
                        "utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

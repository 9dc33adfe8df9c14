#!/usr/bin/env python3
"""Fit the expert's value model for Kniffel Extreme to a sample of the exact value table.

    python scripts/fit_expert_model.py ~/.cache/kniffel/solver/extreme.sample.npz \\
        src/kniffel/engine/data/expert-extreme.json

The sample is written by the solve (``kniffel.solver.sample``). The fit also weighs the states
that optimal play asks about (``kniffel.expert_fit.draw_visits``): they are read from
``<table>.visits.npz`` next to the sample, or, the first time, drawn by playing 8,000 games with
the full table from the same folder (about 12 minutes on two cores) and stored there.
``--no-visits`` fits to the sample alone.

The fit is deterministic: the same sample and visits give the same file, bit for bit (one BLAS
thread, fixed order of every sum, values rounded to 1e-6); see ``kniffel.expert_fit``. The fit
itself takes about half a minute.
"""

from __future__ import annotations

import os

# one BLAS thread: sums in a fixed order, so the file is the same on every run
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import hashlib  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from kniffel.engine.errors import KniffelError  # noqa: E402
from kniffel.expert_fit import VISIT_GAMES, draw_visits, fit_model, model_text, write_model  # noqa: E402
from kniffel.interrupt import EXIT_INTERRUPTED, interruptible  # noqa: E402
from kniffel.lang import default_lang  # noqa: E402
from kniffel.engine.messages import text as words  # noqa: E402
from kniffel.engine.rules import preset  # noqa: E402
from kniffel.solver.sample import Sample, read_sample, write_sample  # noqa: E402
from kniffel.solver.table import load_table  # noqa: E402


def visits_path(sample: Path) -> Path:
    """Where the visits of the table whose sample is ``sample`` are stored."""
    return sample.with_name(sample.name.removesuffix(".sample.npz") + ".visits.npz")


def visits_for(sample: Sample, path: Path, games: int, jobs: int) -> Sample:
    """The visits stored at ``path``, or drawn from the full table next to it and stored."""
    if path.exists():
        return read_sample(path)
    from rich.progress import Progress

    table = load_table(preset(str(sample.meta.get("rules"))), directory=path.parent)
    with Progress(transient=True) as bar:
        task = bar.add_task("games of optimal play", total=games)
        visits = draw_visits(table, games=games, jobs=jobs,
                             progress=lambda done, _: bar.update(task, completed=done))
    write_sample(visits, path)
    return visits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sample", type=Path, help="the table's sample (.sample.npz)")
    parser.add_argument("out", type=Path, help="the model file to write (.json)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds of backfitting")
    parser.add_argument("--visits", type=Path, default=None,
                        help="the visits file (default: <table>.visits.npz next to the sample)")
    parser.add_argument("--no-visits", action="store_true", help="fit to the sample alone")
    parser.add_argument("--games", type=int, default=VISIT_GAMES,
                        help="games of optimal play when the visits are drawn")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes when the visits are drawn")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        # Ctrl-C and SIGTERM: the workers drawing the visits end, nothing is written, exit 130
        with interruptible():
            sample = read_sample(args.sample)
            visits = None if args.no_visits else visits_for(
                sample, args.visits or visits_path(args.sample), args.games, args.jobs)
            if visits is not None:
                print(f"{visits!r} ({visits.meta.get('games')} games)")
            doc = (fit_model(sample, visits=visits) if args.rounds is None
                   else fit_model(sample, rounds=args.rounds, visits=visits))
    except KniffelError as e:
        print(f"fit_expert_model: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"fit_expert_model: {words('interrupt.stopped', default_lang())}", file=sys.stderr)
        return EXIT_INTERRUPTED
    write_model(doc, args.out)
    text = model_text(doc).encode()
    print(f"{sample!r} -> {args.out}: {len(text):,} bytes, file sha256 "
          f"{hashlib.sha256(text).hexdigest()}, params sha256 {doc['sha256']}")
    print(f"fit: rms {doc['fit']['rms']}, max |error| {doc['fit']['max_abs']} points; "
          f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

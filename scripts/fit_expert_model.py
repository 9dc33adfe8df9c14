#!/usr/bin/env python3
"""Fit the expert's value model for Kniffel Extreme to a sample of the exact value table.

    python scripts/fit_expert_model.py ~/.cache/kniffel/solver/extreme.sample.npz \\
        src/kniffel/data/expert-extreme.json

The sample is written by the solve (``kniffel.solver.sample``). The fit is deterministic: the
same sample gives the same file, bit for bit (one BLAS thread, fixed order of every sum, values
rounded to 1e-6); see ``kniffel.expert_fit``. It takes about a minute on two cores.
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

from kniffel.errors import KniffelError  # noqa: E402
from kniffel.expert_fit import fit_model, model_text, write_model  # noqa: E402
from kniffel.solver.sample import read_sample  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sample", type=Path, help="the table's sample (.sample.npz)")
    parser.add_argument("out", type=Path, help="the model file to write (.json)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds of backfitting")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        sample = read_sample(args.sample)
        doc = (fit_model(sample) if args.rounds is None
               else fit_model(sample, rounds=args.rounds))
    except KniffelError as e:
        print(f"fit_expert_model: {e}", file=sys.stderr)
        return 2
    write_model(doc, args.out)
    text = model_text(doc).encode()
    print(f"{sample!r} -> {args.out}: {len(text):,} bytes, file sha256 "
          f"{hashlib.sha256(text).hexdigest()}, params sha256 {doc['sha256']}")
    print(f"fit: rms {doc['fit']['rms']}, max |error| {doc['fit']['max_abs']} points; "
          f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

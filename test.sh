#!/usr/bin/env bash
# Set up the development environment (first run only) and run every check: ruff, mypy --strict
# and the whole pytest suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh --dev
echo "== ruff"
.venv/bin/ruff check src tests benchmarks
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"

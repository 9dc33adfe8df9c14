#!/usr/bin/env bash
# Set up the development environment (first run only) and run every check: ruff, mypy --strict
# and the whole pytest suite. Extra arguments go to pytest.
# ./test.sh --fast: the fast tier alone, everything but the slow tiers (the marks browser, tmux and
# solve on the tests; see tests/conftest.py) in three workers, in under a minute.
# pytest runs on both cores (-n 2), a module's tests in one worker (--dist loadfile: its
# module-scoped browser contexts and tables are made once); each worker builds and serves its
# own site and starts one Chromium (tests/conftest.py).
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh --dev
if [ "${1:-}" = "--fast" ]; then
    shift
    # three workers on two cores: Textual's pilot waits for the screen to settle between keys
    # (half of test_tui.py's time is idle), and a third worker fills those waits
    exec .venv/bin/python -m pytest -n 3 --dist worksteal -m "not browser and not tmux and not solve" "$@"
fi
echo "== ruff"
.venv/bin/ruff check src tests benchmarks
echo "== mypy --strict"
.venv/bin/mypy
echo "== docs (mkdocs --strict: a warning fails)"
# (never --quiet: it hides the warnings from --strict, which then passes)
.venv/bin/mkdocs build --strict --site-dir "$(mktemp -d)"
echo "== node --test (the page's pure modules: words, numbers, stored-data checks; its module graph)"
node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON --test tests/js/*.test.mjs
echo "== pytest"
.venv/bin/python -m pytest -n 2 --dist loadfile "$@"

#!/usr/bin/env bash
# Create (or update) the project's virtual environment in .venv and install kniffel into it.
# Usage: scripts/setup.sh [--dev]    (--dev adds the test and lint tools)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "kniffel needs Python 3.11 or newer; $PYTHON is $("$PYTHON" --version 2>&1)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
extra=""
[ "${1:-}" = "--dev" ] && extra="[dev]"
stamp=".venv/.installed${extra}"
# Reinstall only when the project's metadata changed since the last install.
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra}"
    touch "$stamp"
fi

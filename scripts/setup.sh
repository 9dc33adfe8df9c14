#!/usr/bin/env bash
# Create (or update) the project's virtual environment in .venv and install kniffel into it.
# Usage: scripts/setup.sh [--dev]    (--dev adds the test and lint tools and Chromium)
# Also installs Pyodide for the browser app from npm (package-lock.json pins it) into node_modules.
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
# Everything (kniffel[all]: the terminal game, plots, the solver, the browser app); --dev adds the
# test and lint tools (the extra dev holds all).
extra="[all]"
[ "${1:-}" = "--dev" ] && extra="[dev]"
stamp=".venv/.installed${extra}"
# Reinstall only when the project's metadata or the solver's C kernel changed since the last
# install (the install compiles the kernel with a C compiler, e.g. Debian's gcc; without one the
# solver says how to get it).
stale=0
for f in pyproject.toml setup.py src/kniffel/solver/kernel_flags.py src/kniffel/solver/_kernel.c \
         src/kniffel/solver/_kernel_body.h; do
    if [ "$f" -nt "$stamp" ]; then stale=1; fi
done
if [ ! -f "$stamp" ] || [ "$stale" = 1 ] || ! ls src/kniffel/solver/_kernel*.so >/dev/null 2>&1; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra}"
    touch "$stamp"
fi

# Pyodide and the QR code decoder jsQR for the browser app (`kniffel web`), from the npm packages
# pinned in package-lock.json.
if [ ! -f node_modules/pyodide/pyodide.mjs ] || [ ! -f node_modules/jsqr/dist/jsQR.js ] \
        || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    if ! command -v npm >/dev/null; then
        echo "kniffel web needs Pyodide and jsQR from npm, but npm is missing (Debian: apt-get install npm)" >&2
        exit 1
    fi
    npm ci --no-audit --no-fund --loglevel=error
fi
# The browser tests drive Debian's Chromium headless (Playwright cannot download browsers here).
if [ "${1:-}" = "--dev" ] && [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "the browser tests need /usr/bin/chromium: run as root, or apt-get install chromium" >&2
        exit 1
    fi
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >&2
fi
# The terminal game is tested in a real terminal too: tmux at 80×24.
if [ "${1:-}" = "--dev" ] && ! command -v tmux >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "the terminal tests need tmux: run as root, or apt-get install tmux" >&2
        exit 1
    fi
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends tmux >&2
fi

#!/usr/bin/env bash
# Quick start: set everything up (first run only) and start kniffel.
# ./run.sh                 in a terminal: the terminal game (kniffel play); otherwise the
#                          Kniffel Extreme score sheet and the commands
# ./run.sh score 5 5 5 6 6 6    any other kniffel command and its options
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh >&2
if [ $# -eq 0 ] && [ -t 0 ] && [ -t 1 ]; then
    exec .venv/bin/kniffel play
fi
if [ $# -eq 0 ]; then
    .venv/bin/kniffel rules
    echo
    exec .venv/bin/kniffel --help
fi
exec .venv/bin/kniffel "$@"

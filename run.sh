#!/usr/bin/env bash
# Quick start: set everything up (first run only) and start kniffel.
# ./run.sh                 starts the browser app (kniffel web) and prints its address
# ./run.sh play            the terminal game; ./run.sh score 5 5 5 6 6 6: any other kniffel
#                          command and its options (./run.sh --help)
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh >&2
if [ $# -eq 0 ]; then
    exec .venv/bin/kniffel web
fi
exec .venv/bin/kniffel "$@"

#!/usr/bin/env bash
# Watch bots play a game on a fresh machine with only Python 3.11+:
#   bash scripts/demo.sh kings-kilt --players 3 --seed 7
# creates .venv if missing, installs clangames into it, then runs `clangames demo ARGS`.
set -euo pipefail
source "$(dirname "$0")/_venv.sh"
ensure_venv demo "."
exec "$VENV/bin/clangames" demo "$@"

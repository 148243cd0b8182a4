#!/usr/bin/env bash
# The whole test suite on a fresh machine with only Python 3.11+: creates .venv if
# needed, installs clangames with its test extras, then runs ruff, mypy --strict and
# pytest (extra arguments go to pytest, e.g. `bash scripts/test.sh -k cli`).
set -euo pipefail
source "$(dirname "$0")/_venv.sh"
ensure_venv test ".[test]"
cd "$ROOT"
echo "== ruff"
"$VENV/bin/ruff" check src tests examples benchmarks
echo "== mypy --strict src"
"$VENV/bin/mypy" --strict src
echo "== pytest"
# Two workers by default (the reference machine has 2 cores); CLANGAMES_JOBS=0 runs serially.
"$VENV/bin/pytest" -q -n "${CLANGAMES_JOBS:-2}" "$@"

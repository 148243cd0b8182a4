#!/usr/bin/env bash
# The whole test suite on a fresh machine with only Python: creates .venv if needed,
# installs clangames with its test extras, then runs ruff, mypy --strict and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
echo "== ruff"
.venv/bin/ruff check src tests examples benchmarks
echo "== mypy --strict src"
.venv/bin/mypy --strict src
echo "== pytest"
.venv/bin/pytest -q "$@"

#!/usr/bin/env bash
# The whole test suite on a fresh machine with only Python 3.11+: creates .venv if
# needed, installs clangames with its test, web, openspiel and pettingzoo extras (and
# Debian's chromium for the browser test, when missing and run as root), then runs ruff,
# mypy --strict and
# pytest (extra arguments go to pytest, e.g. `bash scripts/test.sh -k cli`). Then, if the
# machine has a second Python 3.11+ (a different minor version than .venv's), the smoke
# selection (`pytest -m smoke`: every game and every command, briefly) runs on it too,
# with warnings as errors, in .venv-3.X. CLANGAMES_SMOKE_PYTHON=/path/to/python picks that
# Python; CLANGAMES_SMOKE_PYTHON=none skips the smoke run.
set -euo pipefail
source "$(dirname "$0")/_venv.sh"
ensure_venv test-all ".[test,web,openspiel,pettingzoo]"
cd "$ROOT"
# The browser test (tests/web/test_browser.py) drives Debian's Chromium; install it when
# missing and we may (root with apt). Without it that test skips.
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "== installing chromium for the browser test"
  { apt-get install -y chromium chromium-driver >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && apt-get install -y chromium chromium-driver >/dev/null 2>&1; }; } \
    || echo "could not install chromium: the browser test will skip"
fi
echo "== ruff"
"$VENV/bin/ruff" check src tests examples benchmarks
echo "== mypy --strict src"
"$VENV/bin/mypy" --strict src
echo "== pytest"
# Two workers by default (the reference machine has 2 cores); CLANGAMES_JOBS=0 runs serially.
"$VENV/bin/pytest" -q -n "${CLANGAMES_JOBS:-2}" "$@"

minor_version() {
  "$1" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")' 2>/dev/null
}

find_second_python() {
  # A Python >= 3.11 whose minor version differs from $1's: python3.14 ... python3.11 on
  # the PATH (a pyenv shim that is not active fails to run and is passed over), then pyenv's
  # own installs.
  local main=$1 cand version
  local -a cands=(python3.14 python3.13 python3.12 python3.11)
  if command -v pyenv >/dev/null 2>&1; then
    local root
    root=$(pyenv root)
    for version in 3.14 3.13 3.12 3.11; do
      for cand in "$root"/versions/"$version"*/bin/python"$version"; do
        [ -x "$cand" ] && cands+=("$cand")
      done
    done
  fi
  for cand in "${cands[@]}"; do
    command -v "$cand" >/dev/null 2>&1 || continue
    version=$(minor_version "$cand") || continue
    [ -n "$version" ] || continue
    "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || continue
    if [ "$version" != "$main" ]; then
      echo "$cand"
      return 0
    fi
  done
  return 1
}

echo "== smoke run on a second Python"
main_version=$(minor_version "$VENV/bin/python")
second=${CLANGAMES_SMOKE_PYTHON:-}
if [ "$second" = "none" ]; then
  echo "skipped: CLANGAMES_SMOKE_PYTHON=none"
  exit 0
fi
if [ -z "$second" ] && ! second=$(find_second_python "$main_version"); then
  echo "skipped: no Python 3.11+ other than $main_version found" \
    "(install one, or set CLANGAMES_SMOKE_PYTHON=/path/to/python3.X)"
  exit 0
fi
second_version=$(minor_version "$second")
# ensure_venv builds $VENV with $PYTHON: point both at the second Python for this call.
VENV="$ROOT/.venv-$second_version" PYTHON="$second" ensure_venv test ".[test]"
echo "Python $second_version ($second), main suite on $main_version"
"$ROOT/.venv-$second_version/bin/pytest" -q -n "${CLANGAMES_JOBS:-2}" -W error -m smoke

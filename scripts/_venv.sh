# Shared by scripts/demo.sh and scripts/test.sh (sourced, not run): make sure the
# project's virtualenv exists and has clangames installed (editable) with some extras.
# Needs only Python 3.11+ on the machine.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"

find_python() {
  # The first Python >= 3.11 among $PYTHON, python3, python3.13 ... python.
  local cand
  for cand in "${PYTHON:-}" python3 python3.14 python3.13 python3.12 python3.11 python; do
    [ -n "$cand" ] || continue
    if command -v "$cand" >/dev/null 2>&1 \
      && "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$cand"
      return 0
    fi
  done
  echo "clangames needs Python 3.11 or newer; set PYTHON=/path/to/python3.11" >&2
  return 1
}

ensure_venv() {
  # ensure_venv NAME SPEC: create .venv if missing, then `pip install -e SPEC` unless the
  # install stamp NAME is newer than pyproject.toml (so repeated runs start at once).
  local name=$1 spec=$2 py
  if [ ! -x "$VENV/bin/python" ]; then
    py=$(find_python)
    echo "creating $VENV with $py" >&2
    if ! "$py" -m venv "$VENV"; then
      echo "could not create a virtualenv (on Debian/Ubuntu: apt install python3-venv)" >&2
      return 1
    fi
  fi
  local stamp="$VENV/.clangames-$name"
  if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
    echo "installing clangames ($spec) into $VENV" >&2
    local log="$VENV/.clangames-$name.log"
    if ! (cd "$ROOT" && "$VENV/bin/python" -m pip install --disable-pip-version-check \
      -e "$spec") >"$log" 2>&1; then
      cat "$log" >&2
      echo "pip install failed (log above, also in $log)" >&2
      return 1
    fi
    touch "$stamp"
  fi
}

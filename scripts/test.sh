#!/usr/bin/env bash
# The whole test suite on a fresh machine with only Python 3.11+: creates .venv if
# needed, installs clangames with its test, web, openspiel, pettingzoo and ray extras (and
# Debian's chromium for the browser test, when missing and run as root), then runs ruff,
# mypy --strict and
# pytest (extra arguments go to pytest, e.g. `bash scripts/test.sh -k cli`). Then the rule
# tests run against the optional mypyc-compiled build in .venv-compiled (needs a C
# compiler; CLANGAMES_COMPILED=none skips it). Then, if the
# machine has a second Python 3.11+ (a different minor version than .venv's), the smoke
# selection (`pytest -m smoke`: every game and every command, briefly) runs on it too,
# with warnings as errors, in .venv-3.X. CLANGAMES_SMOKE_PYTHON=/path/to/python picks that
# Python; CLANGAMES_SMOKE_PYTHON=none skips the smoke run.
set -euo pipefail
source "$(dirname "$0")/_venv.sh"
ensure_venv test-all ".[test,web,openspiel,pettingzoo,ray]"
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

echo "== compiled build: rule, golden, rollout and quick conformance tests"
# The optional mypyc build (setup.py, CLANGAMES_COMPILE=1) installed, not editable, in
# .venv-compiled: the tests below import that install, never src/ (tests/ is what pytest
# puts on sys.path), and CLANGAMES_EXPECT_COMPILED=1 makes tests/test_compiled.py require
# every module setup.py lists to be an extension module loaded from it. No C compiler is
# a failure, not a skip: the compiled build must be tested where it can be built.
# CLANGAMES_COMPILED=none skips this step (say so explicitly).
if [ "${CLANGAMES_COMPILED:-}" = "none" ]; then
  echo "skipped: CLANGAMES_COMPILED=none"
else
  compiled="$ROOT/.venv-compiled"
  VENV="$compiled" ensure_venv test ".[test]"
  cc=${CC:-$("$compiled/bin/python" -c 'import sysconfig; print(sysconfig.get_config_var("CC") or "cc")')}
  cc=${cc%% *}
  if ! command -v "$cc" >/dev/null 2>&1; then
    echo "the compiled build needs a C compiler ($cc: \$CC or Python's own) and none was found;" \
      "install one (apt install gcc) or set CLANGAMES_COMPILED=none to skip" >&2
    exit 1
  fi
  log="$compiled/.clangames-compiled.log"
  # A previous build's extensions stay in build/lib.*: a module since dropped from
  # setup.py's list would be installed compiled again.
  rm -rf "$ROOT"/build/lib.*
  if ! { "$compiled/bin/python" -m pip install --disable-pip-version-check "setuptools>=77" \
      && CLANGAMES_COMPILE=1 "$compiled/bin/python" -m pip install --disable-pip-version-check \
        --no-build-isolation --no-deps --force-reinstall .; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "the compiled build failed (log above, also in $log)" >&2
    exit 1
  fi
  (cd / && "$compiled/bin/python" -c \
    'import clangames; m = clangames.compiled_modules(); assert m, "nothing compiled"; print("compiled:", *m)')
  CLANGAMES_EXPECT_COMPILED=1 "$compiled/bin/pytest" -q -n "${CLANGAMES_JOBS:-2}" \
    tests/test_compiled.py tests/test_golden.py tests/engine/test_rollout.py \
    tests/engine/test_rollout_loops_split.py \
    tests/engine/test_kernel_mutation_exact_draws.py tests/clan_feud/test_cf_compiled_moves.py \
    tests/clan_feud/test_cf_compiled_held.py \
    tests/clan_feud/test_cf_amounts_stop_at_the_cap.py tests/engine/test_rollout_arguments_refused.py \
    tests/engine/test_replace_at.py tests/engine/test_state.py tests/engine/test_bad_seats.py \
    tests/kings_kilt/test_resample_digests.py tests/kings_kilt/test_resample_posterior.py \
    tests/kings_kilt/test_rulebook.py tests/kings_kilt/test_rulings.py \
    tests/kings_kilt/test_actions.py tests/kings_kilt/test_chance.py \
    tests/kings_kilt/test_hidden.py tests/kings_kilt/test_bad_input.py \
    tests/kings_kilt/test_conformance_2p.py tests/kings_kilt/test_conformance_3p.py \
    tests/kings_kilt/test_conformance_4p.py \
    tests/koa_kingmaker/test_rulings.py tests/koa_kingmaker/test_households.py \
    tests/koa_kingmaker/test_cards.py tests/koa_kingmaker/test_hidden.py \
    tests/koa_kingmaker/test_conformance_2p.py tests/koa_kingmaker/test_conformance_3p.py \
    tests/koa_kingmaker/test_conformance_4p.py tests/koa_kingmaker/test_conformance_5p.py \
    tests/kilt_castle/test_kc_rules.py tests/kilt_castle/test_kc_setup.py \
    tests/kilt_castle/test_kc_relocation.py tests/kilt_castle/test_kc_memos.py \
    tests/kilt_castle/test_kc_conformance.py \
    tests/clan_feud/test_cf_speed_golden.py tests/clan_feud/test_cf_rules.py \
    tests/clan_feud/test_cf_england_war.py tests/clan_feud/test_cf_effects.py \
    tests/clan_feud/test_cf_speed_interpret.py tests/clan_feud/test_cf_audit_battle.py \
    tests/clan_feud/test_cf_audit_rules.py tests/clan_feud/test_cf_battle_contract.py \
    tests/clan_feud/test_cf_parts_together.py tests/clan_feud/test_cf_conformance_2p.py \
    tests/clan_feud/test_cf_draft.py tests/clan_feud/test_cf_speed_hook.py \
    tests/clan_feud/test_cf_speed_memos.py tests/clan_feud/test_cf_speed_owned.py \
    tests/clan_feud/test_cf_speed_round4.py tests/clan_feud/test_cf_speed_round5.py \
    tests/clan_feud/test_cf_speed_round6.py tests/clan_feud/test_cf_cards_play.py \
    tests/clan_feud/test_cf_ac_windows.py tests/clan_feud/test_cf_ac_dice.py \
    tests/clan_feud/test_cf_speed_kept.py tests/engine/test_rollout_kept.py \
    tests/engine/test_draft_kept.py tests/kings_kilt/test_resample_repeated.py \
    tests/kings_kilt/test_resample_same_stream.py
fi

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

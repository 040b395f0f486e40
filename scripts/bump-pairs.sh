#!/usr/bin/env bash
# The two "pairs" of issue 14's quality bar, measured for docs/engine.md ("When a site is a
# regression, per version" and "Checked by hand"), so anyone can rerun them:
#   - a library bump: tests/noise/bump/pyparsing_bench.py under CPython 3.12 in two venvs,
#     pyparsing 3.0.9 (base) and 3.2.0 (head), plus a repeated run of the head;
#   - interpreter upgrades: crates/cli/tests/programs/gate_workload.py, unchanged, under
#     3.11 → 3.12, 3.12 → 3.13 and 3.11 → 3.13, plus a repeated run per interpreter.
# Each pair is diffed with `--fail-on-regression` (text, markdown and JSON, exit code kept).
# Venvs live in .tools/bump (PyPI needed once); dumps and reports in $OUT (default out/bump).
#
#   scripts/bump-pairs.sh [--only pyparsing|interp] [--rounds N]
#
# Interpreters come from pyenv (3.11.7, 3.12.1, 3.13.0; SPECDIFF_PY311/312/313 override);
# a missing one skips the pairs that need it. The pyparsing runs take minutes each.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${OUT:-$ROOT/out/bump}"
ONLY=""
ROUNDS=600
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    *) echo "usage: $0 [--only pyparsing|interp] [--rounds N]" >&2; exit 2 ;;
  esac
done
SPECDIFF="${SPECDIFF:-$ROOT/target/release/specdiff}"
[ -x "$SPECDIFF" ] || { echo "build first: cargo build --release -p specdiff-cli" >&2; exit 2; }
mkdir -p "$OUT"

py() { # the python3 of a pyenv version, or the override, or nothing
  local var="SPECDIFF_PY${1//./}" ver="$2"
  if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
  local prefix; prefix="$(pyenv prefix "$ver" 2>/dev/null)" || return 0
  [ -x "$prefix/bin/python3" ] && echo "$prefix/bin/python3"
}

# diff NAME BASE HEAD: text (kept with its exit code), markdown and JSON reports
diff_pair() {
  local name="$1" base="$2" head="$3" code=0
  "$SPECDIFF" diff "$base" "$head" --fail-on-regression --allow-unrelated --color never \
    >"$OUT/$name.txt" 2>&1 || code=$?
  "$SPECDIFF" diff "$base" "$head" --fail-on-regression --allow-unrelated --format markdown \
    -o "$OUT/$name.md" >/dev/null 2>&1 || true
  "$SPECDIFF" diff "$base" "$head" --fail-on-regression --allow-unrelated --json \
    -o "$OUT/$name.json" >/dev/null 2>&1 || true
  echo "$name: exit $code ($(grep -m1 -i 'regress' "$OUT/$name.txt" || true))"
}

if [ -z "$ONLY" ] || [ "$ONLY" = pyparsing ]; then
  PY312="$(py 3.12 3.12.1)"
  if [ -z "$PY312" ]; then
    echo "skip pyparsing: no CPython 3.12" >&2
  else
    for v in 3.0.9 3.2.0; do
      venv="$ROOT/.tools/bump/pp-$v"
      if [ ! -x "$venv/bin/python" ]; then
        "$PY312" -m venv "$venv"
        "$venv/bin/pip" install -q "pyparsing==$v"
      fi
    done
    bench="$ROOT/tests/noise/bump/pyparsing_bench.py"
    "$SPECDIFF" dump --python "$ROOT/.tools/bump/pp-3.0.9/bin/python" -o "$OUT/pp-3.0.9.json" --force "$bench" "$ROUNDS"
    "$SPECDIFF" dump --python "$ROOT/.tools/bump/pp-3.2.0/bin/python" -o "$OUT/pp-3.2.0.json" --force "$bench" "$ROUNDS"
    "$SPECDIFF" dump --python "$ROOT/.tools/bump/pp-3.2.0/bin/python" -o "$OUT/pp-3.2.0-b.json" --force "$bench" "$ROUNDS"
    diff_pair pyparsing-bump "$OUT/pp-3.0.9.json" "$OUT/pp-3.2.0.json"
    diff_pair pyparsing-repeat "$OUT/pp-3.2.0.json" "$OUT/pp-3.2.0-b.json"
  fi
fi

if [ -z "$ONLY" ] || [ "$ONLY" = interp ]; then
  workload="$ROOT/crates/cli/tests/programs/gate_workload.py"
  have=()
  for pair in 3.11:3.11.7 3.12:3.12.1 3.13:3.13.0; do
    minor="${pair%%:*}" exe="$(py "${pair%%:*}" "${pair#*:}")"
    if [ -z "$exe" ]; then echo "skip $minor: not installed" >&2; continue; fi
    have+=("$minor")
    for run in a b; do
      "$SPECDIFF" dump --python "$exe" -o "$OUT/gate-$minor-$run.json" --force "$workload" "$ROUNDS"
    done
    diff_pair "gate-repeat-$minor" "$OUT/gate-$minor-a.json" "$OUT/gate-$minor-b.json"
  done
  for pair in 3.11:3.12 3.12:3.13 3.11:3.13; do
    b="${pair%%:*}" h="${pair#*:}"
    if [ -f "$OUT/gate-$b-a.json" ] && [ -f "$OUT/gate-$h-a.json" ] && [[ " ${have[*]} " == *" $b "* ]] && [[ " ${have[*]} " == *" $h "* ]]; then
      diff_pair "gate-$b-$h" "$OUT/gate-$b-a.json" "$OUT/gate-$h-a.json"
    fi
  done
fi

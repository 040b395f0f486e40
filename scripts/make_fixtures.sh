#!/usr/bin/env bash
# Regenerates the real dumps the engine tests read (crates/core/tests/fixtures/dumps/*.json.gz)
# by running small programs under each CPython found via pyenv (3.11.7, 3.12.1, 3.13.0), through
# the harness the CLI uses. Only __main__ code is kept, so the fixtures stay small.
#   scripts/make_fixtures.sh            # all versions that are installed
#   PYTHONS="3.12.1" scripts/make_fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=crates/core/tests/fixtures/dumps
SRC=$OUT/src
# The harness specdiff dump runs: build.rs joins it from crates/cli/src/harness/.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
HARNESS=$work/specdiff_harness.py
cargo run -q -p specdiff-cli --example harness -- "$HARNESS"
PYTHONS=${PYTHONS:-"3.11.7 3.12.1 3.13.0"}

dump() { # python, output name, harness target args...
  local py=$1 name=$2
  shift 2
  "$py" "$HARNESS" --out "$OUT/$name.json" --include __main__ -- "$@" >/dev/null
  gzip -9 -n -f "$OUT/$name.json"
}

for v in $PYTHONS; do
  prefix=$(pyenv prefix "$v" 2>/dev/null) || { echo "[fixtures] CPython $v not installed, skipped" >&2; continue; }
  py=$prefix/bin/python3
  mm=${v%.*}
  echo "[fixtures] CPython $v" >&2
  dump "$py" "demo-base-$mm" script examples/demo/base.py
  dump "$py" "demo-head-$mm" script examples/demo/head.py
  dump "$py" "rules-base-$mm" script "$SRC/rules_base.py"
  dump "$py" "rules-head-$mm" script "$SRC/rules_head.py"
  dump "$py" "poly-mono-$mm" script "$SRC/poly.py" mono
  dump "$py" "poly-poly-$mm" script "$SRC/poly.py" poly
done
du -ch "$OUT"/*.json.gz | tail -1 >&2

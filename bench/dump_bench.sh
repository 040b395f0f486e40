#!/usr/bin/env bash
# Dump benchmark: for every interpreter given (default: pyenv's 3.11-3.13 and pyodide's 3.14),
# (1) the harness decoder against a plain dis.get_instructions loop over the same code objects
# of bench/workload.py (CPU time, the two taking turns, best of 5 rounds), plus the Rust half
# of the decoding (positions, cache words and counters `specdiff dump` reads from the raw
# code the harness hands over, best of 7), and
# (2) the size of a whole-program `specdiff dump` of that workload, plain and gzip.
# Usage: bench/dump_bench.sh [PYTHON...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p specdiff-cli
cargo build --release -q -p specdiff-cli --example capture_bench --example harness
pythons=("$@")
if [ ${#pythons[@]} = 0 ]; then
  for v in 3.11 3.12 3.13; do
    full=$(pyenv versions --bare 2>/dev/null | grep -E "^$v\.[0-9]+$" | tail -1) || true
    [ -n "$full" ] && pythons+=("$(pyenv prefix "$full")/bin/python3")
  done
  [ -d .tools/npm/node_modules/pyodide ] && pythons+=("scripts/python-pyodide")
fi
out=$(mktemp -d)
target/release/examples/harness "$out/specdiff_harness.py"   # the harness specdiff dump runs
for py in "${pythons[@]}"; do
  SPECDIFF_HARNESS="$out/specdiff_harness.py" "$py" bench/dump_bench.py --raw-code "$out/raw.json" | tee "$out/py.txt"
  target/release/examples/capture_bench "$out/raw.json" | tee "$out/rs.txt"
  dis=$(sed -n 's/^cpu_ms dis=\([0-9.]*\) .*/\1/p' "$out/py.txt")
  harness=$(sed -n 's/^cpu_ms .* harness=\([0-9.]*\)$/\1/p' "$out/py.txt")
  rust=$(sed -n 's/.*: \([0-9.]*\) ms$/\1/p' "$out/rs.txt")
  awk -v d="$dis" -v h="$harness" -v r="$rust" -v py="$py" 'BEGIN {
    printf "%s: decoding = Python %.0f ms + Rust %.1f ms = %.0f ms; dis %.0f ms; ratio %.1fx\n", py, h, r, h + r, d, d / (h + r) }'
  target/release/specdiff dump --python "$py" -o "$out/w.json" bench/workload.py 20 >/dev/null 2>"$out/err" || { cat "$out/err"; exit 1; }
  target/release/specdiff dump --python "$py" -o "$out/w.json.gz" bench/workload.py 20 >/dev/null 2>>"$out/err"
  code=$(grep -o '([0-9]* code objects' "$out/err" | head -1 | tr -d '(')
  printf '%s: whole-program dump: %s, %s bytes plain, %s bytes gzip\n' "$py" "$code" \
    "$(stat -c %s "$out/w.json")" "$(stat -c %s "$out/w.json.gz")"
done
rm -rf "$out"

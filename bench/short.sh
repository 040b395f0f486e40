#!/usr/bin/env bash
# The benchmarks in short mode, run by the test command (scripts/test.sh, step `bench`) so that
# a change that makes specdiff slower shows where it lands. One pair, one interpreter, few
# runs: it prints ratios only (each against a baseline measured in the same run, never a
# wall-clock figure), each beside the last recorded one (bench/recorded-ratios.txt), and
# writes them to target/bench-short.txt (under CARGO_TARGET_DIR when set, where diff_bench.sh
# builds). No threshold: a slower ratio is printed, not failed.
# Record the current ratios as the new reference: bench/short.sh --record.
#
#   diff_speedup   difflib's alignment of the two dumps / `specdiff diff` (bench/diff_bench.sh;
#                  goal >= 100, wall time)
#   diff_vs_parse  `specdiff diff` / a bare read_dump of both files (goal <= 1.2)
#   engine_share   diff_dumps / parsing both dumps, inside one process (engine_bench)
set -euo pipefail
cd "$(dirname "$0")/.."
record=0
[ "${1-}" = --record ] && record=1
PY=${SPECDIFF_BENCH_PYTHON:-$(pyenv prefix 3.12.1 2>/dev/null)/bin/python}
[ -x "$PY" ] || { echo "bench/short.sh: no CPython 3.12.1 (set SPECDIFF_BENCH_PYTHON)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bench/diff_bench.sh --python "$PY" --runs 3 --py-runs 1 --keep "$out/dumps" > "$out/diff.txt"
cat "$out/diff.txt"
field() { # ratio line label -> its wall ratio
  grep -F "$1" "$out/diff.txt" | head -1 | sed -E 's/.* ([0-9.]+)x;.*/\1/'
}
parse=$(sed -nE 's/^  engine_bench parse both: *([0-9.]+)ms.*/\1/p' "$out/diff.txt")
engine=$(sed -nE 's/^  engine_bench diff_dumps: *([0-9.]+)ms.*/\1/p' "$out/diff.txt")
results="$out/ratios.txt"
{
  echo "diff_speedup $(field 'difflib / specdiff diff')"
  echo "diff_vs_parse $(field 'specdiff diff / bare parse (read_dump)')"
  echo "engine_share $(awk -v a="$engine" -v b="$parse" 'BEGIN { printf "%.2f", a / b }')"
} > "$results"
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target"
cp "$results" "$target/bench-short.txt"
echo "ratios (now; last recorded in bench/recorded-ratios.txt):"
while read -r name now; do
  last=$(awk -v n="$name" '$1 == n { print $2 }' bench/recorded-ratios.txt 2>/dev/null || true)
  printf '  %-14s %8s   (recorded %s)\n' "$name" "$now" "${last:-none}"
done < "$results"
if [ "$record" = 1 ]; then
  { echo "# bench/short.sh --record, $(date -u +%Y-%m-%d), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"; cat "$results"; } > bench/recorded-ratios.txt
  echo "recorded in bench/recorded-ratios.txt"
fi

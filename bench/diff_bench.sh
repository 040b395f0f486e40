#!/usr/bin/env bash
# Benchmark of `specdiff diff` on a whole-program pair (docs/benchmarks.md, "Diff engine").
#
#   bench/diff_bench.sh [--python PY] [--runs N] [--py-runs N] [--keep DIR]
#
# 1. Dumps bench/workload.py twice with the release `specdiff dump --include-unrun`: base
#    (`workload.py 20`) and head (`workload.py 20 --variant head`). --include-unrun keeps every
#    code object the program loaded, ~9k on CPython 3.12, the size of a real application.
# 2. Times whole processes (wall clock, best and median of N runs, after one warm-up run; and
#    the best CPU time, user + system, which a busy machine disturbs less):
#    (a) specdiff diff --format json BASE HEAD          (release build)
#    (b) PY bench/align_difflib.py BASE HEAD             (the same job in Python, difflib)
#    (c) bare parse of both files, nothing else          (crates/cli/examples/bare_parse.rs)
#        c1: into serde_json::Value; c2: with specdiff's own dump reader (read_dump)
#    Both Rust programs read the two files on two threads, as `specdiff diff` does.
#    Then one run each of the phases: the difflib script's load / compare times, and the
#    core's engine_bench (parse both dumps one after the other; diff_dumps alone).
# 3. Prints the ratios a/b (goal: specdiff ≥ 50× faster) and a/c (goal: ≤ 2× a bare parse).
#
# It measures; it asserts nothing. Wall-clock numbers depend on the machine and its load, so
# run it on a quiet machine (the ratios are what docs/benchmarks.md reports).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${SPECDIFF_PYTHON:-python3}
RUNS=7
PY_RUNS=3
DIR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --python) PY=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --py-runs) PY_RUNS=$2; shift 2 ;;
    --keep) DIR=$2; shift 2 ;;
    *) echo "usage: bench/diff_bench.sh [--python PY] [--runs N] [--py-runs N] [--keep DIR]" >&2; exit 2 ;;
  esac
done
if [ -z "$DIR" ]; then
  DIR=$(mktemp -d)
  trap 'rm -rf "$DIR"' EXIT
fi
mkdir -p "$DIR"

cargo build --quiet --release -p specdiff-cli --bin specdiff --example bare_parse
T=${CARGO_TARGET_DIR:-target}
SPECDIFF=$T/release/specdiff
BARE=$T/release/examples/bare_parse
BASE=$DIR/base.json
HEAD=$DIR/head.json

"$SPECDIFF" dump --python "$PY" --include-unrun -o "$BASE" bench/workload.py 20 >/dev/null
"$SPECDIFF" dump --python "$PY" --include-unrun -o "$HEAD" bench/workload.py 20 --variant head >/dev/null
echo "dumps: $("$BARE" "$BASE" "$HEAD"), $(du -k "$BASE" | cut -f1) KB + $(du -k "$HEAD" | cut -f1) KB, $("$PY" -c 'import platform; print("CPython", platform.python_version())')"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# measure NAME RUNS COMMAND…: prints the best and median wall time and the best CPU time
# (user + system) in milliseconds, and the highest peak resident memory of its runs; sets
# BEST_NAME (wall) and CPU_NAME.
measure() {
  local name=$1 runs=$2
  shift 2
  "$@" >/dev/null 2>&1 # warm-up (file cache, page-in of the binary)
  local walls=() cpus=() rss=0 t0 t1
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    /usr/bin/time -f '%U %S %M' -o "$DIR/cpu" "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    walls+=($(((t1 - t0) / 1000000)))
    cpus+=($(awk '{ printf "%d", ($1 + $2) * 1000 }' "$DIR/cpu"))
    rss=$(awk -v r="$rss" '{ print ($3 > r ? $3 : r) }' "$DIR/cpu")
  done
  local w c
  w=($(printf '%s\n' "${walls[@]}" | sort -n))
  c=($(printf '%s\n' "${cpus[@]}" | sort -n))
  printf '  %-24s wall best %7d ms, median %7d ms   cpu best %7d ms   peak RSS %5d MB   (%d runs)\n' \
    "$name" "${w[0]}" "${w[$((runs / 2))]}" "${c[0]}" "$((rss / 1024))" "$runs"
  printf -v "BEST_$name" '%s' "${w[0]}"
  printf -v "CPU_$name" '%s' "${c[0]}"
}

echo "timings:"
measure specdiff_diff "$RUNS" "$SPECDIFF" diff --format json "$BASE" "$HEAD"
measure bare_value "$RUNS" "$BARE" "$BASE" "$HEAD"
measure bare_read_dump "$RUNS" "$BARE" --typed "$BASE" "$HEAD"
measure difflib "$PY_RUNS" "$PY" bench/align_difflib.py "$BASE" "$HEAD"

echo "phases (one run each):"
echo "  difflib script:  $("$PY" bench/align_difflib.py --timings "$BASE" "$HEAD" 2>&1 >/dev/null | tail -1 | sed 's/^timings: //')"
cargo build --quiet --release -p specdiff-core --example engine_bench
"$T"/release/examples/engine_bench "$BASE" "$HEAD" | sed -n 's/^  \(parse both\|diff_dumps\) */  engine_bench \1: /p'

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / (b > 0 ? b : 1) }'; }
echo "ratios (best wall time; best CPU time):"
echo "  difflib / specdiff diff                  $(ratio "$BEST_difflib" "$BEST_specdiff_diff")x; $(ratio "$CPU_difflib" "$CPU_specdiff_diff")x   (goal >= 100)"
echo "  specdiff diff / bare parse (Value)       $(ratio "$BEST_specdiff_diff" "$BEST_bare_value")x; $(ratio "$CPU_specdiff_diff" "$CPU_bare_value")x"
echo "  specdiff diff / bare parse (read_dump)   $(ratio "$BEST_specdiff_diff" "$BEST_bare_read_dump")x; $(ratio "$CPU_specdiff_diff" "$CPU_bare_read_dump")x   (goal <= 1.2)"

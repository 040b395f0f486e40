#!/usr/bin/env bash
# Short fuzzing smoke run of specdiff-core's untrusted-input paths and the CLI's renderers
# (fuzz/fuzz_targets/*).
#
#   scripts/fuzz-smoke.sh                     # every target, 20 s each
#   FUZZ_SECONDS=300 scripts/fuzz-smoke.sh dump_reader diff_engine
#   FUZZ_RUNS=10000000 FUZZ_SECONDS=7200 scripts/fuzz-smoke.sh share_decode   # stop at 10 M executions
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); this script never installs it and
# prints SKIPPED (exit 0) when it is missing. Only stable Rust exists on the project's
# machines, so cargo-fuzz's nightly-only flags (-Zsanitizer=address, sancov passes) are
# unlocked with RUSTC_BOOTSTRAP=1. Builds are optimized with debug assertions and overflow
# checks on (a debug build of the CLI panics on overflow too). FUZZ_SANITIZER=none builds
# without AddressSanitizer. FUZZ_TRACE_COMPARES=0 builds without comparison tracing: about 2×
# the executions per second for diff_engine (see docs/benchmarks.md "Fuzzing"), at the cost of
# libFuzzer no longer solving comparisons against constants.
#
# The corpus is seeded from fuzz/seeds/<target>/ (small, kept in git), the dump fixtures of
# crates/core/tests/fixtures/dumps (gzip and decompressed) and the real pystats files in
# shared/data/pystats-3.11 when present; libFuzzer grows it in fuzz/corpus/<target>/ (ignored
# by git). A crash, panic, leak, timeout (> FUZZ_TIMEOUT s for one input) or an allocation
# over FUZZ_MALLOC_MB leaves its input in fuzz/artifacts/<target>/ and fails the run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${FUZZ_SECONDS:-20}"
timeout_s="${FUZZ_TIMEOUT:-10}"
malloc_mb="${FUZZ_MALLOC_MB:-1024}"
sanitizer="${FUZZ_SANITIZER:-address}"
build_flags=(--debug-assertions --sanitizer "$sanitizer")
[ "${FUZZ_TRACE_COMPARES:-1}" = 0 ] && build_flags+=(--no-trace-compares)
runs="${FUZZ_RUNS:-}"
all_targets=(dump_reader pystats_reader diff_engine share_decode render)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz-smoke: SKIPPED (cargo-fuzz is not installed: cargo install cargo-fuzz --locked)"
    exit 0
fi

fixtures="$root/crates/core/tests/fixtures/dumps"
shared=""
for d in "$root/../shared/data/pystats-3.11" "/work/shared/data/pystats-3.11"; do
    [ -d "$d" ] && { shared="$d"; break; }
done

# Seeds a corpus directory (only files it does not have yet; all well under 100 KB).
seed() {
    local target="$1" dir="$root/fuzz/corpus/$1"
    mkdir -p "$dir"
    [ -d "$root/fuzz/seeds/$target" ] && cp -n "$root/fuzz/seeds/$target"/* "$dir"/ 2>/dev/null || true
    case "$target" in
        dump_reader)
            for f in "$fixtures"/*.json.gz; do
                [ -e "$f" ] || continue
                # Small seeds only (the pyparsing fixtures inflate to ~290 KB).
                [ "$(gzip -dc "$f" | wc -c)" -lt 102400 ] || continue
                local b; b="$(basename "$f" .gz)"
                cp -n "$f" "$dir/$b.gz"
                [ -e "$dir/$b" ] || gzip -dc "$f" > "$dir/$b"
            done ;;
        pystats_reader)
            # The target's first byte picks the version (0: 3.11, 1: 3.12, 2: 3.13+).
            if [ -n "$shared" ]; then
                for f in "$shared"/*/*.txt; do
                    local out; out="$dir/real-$(basename "$(dirname "$f")")-$(basename "$f")"
                    [ -e "$out" ] || { printf '\000'; cat "$f"; } > "$out"
                done
            fi ;;
    esac
}

cd "$root/fuzz"
status=0
for t in "${targets[@]}"; do
    seed "$t"
    echo "fuzz-smoke: $t for ${seconds}s (sanitizer $sanitizer)"
    log="$(mktemp)"
    extra=()
    # diff_engine's inputs are `arbitrary` edit lists: let them be long from the start
    # (libFuzzer otherwise grows max_len slowly from the tiny seeds).
    case "$t" in diff_engine | render) extra=(-max_len=4096 -len_control=0) ;; esac
    [ -n "$runs" ] && extra+=(-runs="$runs")
    if RUSTC_BOOTSTRAP=1 cargo fuzz run "${build_flags[@]}" "$t" -- \
        -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb=2048 \
        -malloc_limit_mb="$malloc_mb" -print_final_stats=1 "${extra[@]}" >"$log" 2>&1; then
        grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|Done )|cov: .*(DONE|INITED)' "$log" | sed 's/^/    /' || true
    else
        status=1
        echo "fuzz-smoke: $t FAILED; last lines of its log:"
        tail -n 40 "$log" | sed 's/^/    /'
    fi
    rm -f "$log"
done
[ $status -eq 0 ] && echo "fuzz-smoke: ok (${#targets[@]} targets)"
exit $status

#!/usr/bin/env bash
# Runs every test of specdiff: installs what the tests need first (scripts/setup.sh is
# idempotent), then native Rust tests (which run the real interpreters found here and say which
# were skipped), the wasm32 build of the core, the packaging checks (wheel, sdist, Windows and
# macOS builds, crates.io), the web viewer's browser tests, the README's main job
# (scripts/demo.sh), the GitHub workflows' linters, the action run locally on a real git
# repository (scripts/test-actions.py), and the benchmarks' ratios in short mode (bench/short.sh,
# printed beside the recorded ones, never a threshold).
# With SPECDIFF_REQUIRE_INTERPRETERS=1 (.ci/run sets it; CI=true does the same) a test lacking
# an interpreter, tool or data set the setup provides fails instead of skipping
# (crates/test-support). Ends with two lines: which interpreters ran and which were skipped
# ("interpreters: ran …; skipped: …"), and "tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
setup_started=$SECONDS
./scripts/setup.sh || { echo "setup failed"; exit 1; }
setup_seconds=$((SECONDS - setup_started))
echo "=== setup: $setup_seconds s"
export PATH="$PWD/.tools/npm/node_modules/.bin:$HOME/.cargo/bin:$PATH"

log=$(mktemp -d)/test.log
passed=0
failed=0
failed_steps=()

durations=()
step() { # name, command...
  local name=$1; shift
  local started=$SECONDS
  echo "=== $name"
  if "$@" 2>&1 | tee -a "$log.$name"; then
    :
  else
    failed_steps+=("$name")
  fi
  durations+=("$name $((SECONDS - started)) s")
  echo "=== $name: $((SECONDS - started)) s"
  # Count cargo's per-binary results; a step without them counts as one test.
  local p f
  p=$(grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log.$name" 2>/dev/null | awk '{s+=$4} END {print s+0}')
  f=$(grep -Eo '[0-9]+ failed;' "$log.$name" 2>/dev/null | awk '{s+=$1} END {print s+0}')
  if [ "$p" = 0 ] && [ "$f" = 0 ]; then
    if [[ " ${failed_steps[*]-} " == *" $name "* ]]; then f=1; else p=1; fi
  elif [[ " ${failed_steps[*]-} " == *" $name "* ]] && [ "$f" = 0 ]; then
    f=1
  fi
  passed=$((passed + p)); failed=$((failed + f))
}

# Every test appends what it ran with and what it lacked here; summarized at the end.
record="${CARGO_TARGET_DIR:-target}/specdiff-test-interpreters.txt"
rm -f "$record"
step rust-tests cargo test --workspace --locked --no-fail-fast
step core-wasm32 cargo build --locked -p specdiff-core --target wasm32-unknown-unknown
step packaging ./scripts/test-packaging.sh
step web ./scripts/e2e.sh
step demo ./scripts/test-demo.sh
step workflows ./scripts/lint-workflows.sh
step actions python3 scripts/test-actions.py
step bench bench/short.sh

echo
echo "step durations: setup $setup_seconds s$(printf '; %s' "${durations[@]}")"
cargo run -q --locked -p specdiff-test-support --bin test-summary -- "$record"
if [ ${#failed_steps[@]} -gt 0 ]; then echo "failed steps: ${failed_steps[*]}"; fi
echo "tests: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ ${#failed_steps[@]} = 0 ]

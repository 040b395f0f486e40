#!/usr/bin/env bash
# Tests the README's main job, scripts/demo.sh, as a newcomer runs it: it must end serving the
# demo diff with `specdiff view` (the page with the viewer inside and the two demo dumps it just
# wrote, on 127.0.0.1), print the diff with the demo's known regressions first, and stop on
# Ctrl-C with exit 130. The page itself is checked in Chromium by tests/e2e/view.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() { echo "FAIL $*"; sed 's/^/  | /' "$log"; exit 1; }

./scripts/demo.sh --no-open --port 0 >"$log" 2>&1 &
pid=$!
url=
for _ in $(seq 1 1800); do # up to 15 minutes: the first run may still build the viewer
  url=$(sed -n 's/^specdiff view: .* at \(http:[^ ]*\) (Ctrl-C stops)$/\1/p' "$log")
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || fail "demo.sh ended before serving"
  sleep 0.5
done
[ -n "$url" ] || { kill "$pid"; fail "demo.sh did not serve within 15 minutes"; }
# The URL carries the run's access token (docs/hostile-input.md, "specdiff view: private to its user").
grep -Eq '^http://127\.0\.0\.1:[0-9]+/t/[0-9a-f]{64}/$' <<<"$url" || fail "the printed URL $url has no access token"
echo "ok   demo.sh serves $url"

grep -q '^__main__:dot_sum .*regression' "$log" || fail "the printed diff has no regression in dot_sum"
grep -q '^__main__:scale .*regression' "$log" || fail "the printed diff has no regression in scale"
grep -q '^demo: ready in [0-9]* s$' "$log" || fail "no 'demo: ready in N s' line"
echo "ok   the printed diff names dot_sum and scale as regressed; $(grep '^demo: ready' "$log")"

page=$(curl -sf "$url") || fail "GET $url"
grep -q 'id="specdiff-wasm"' <<<"$page" || fail "the page at $url is not the embedded viewer"
for side in base head; do
  path=$(grep -o "dumps/$side-[A-Za-z0-9._-]*" <<<"$page" | head -1)
  [ -n "$path" ] || fail "the page does not open a $side dump"
  cmp -s <(curl -sf "$url$path") "out/demo/$side.json" || fail "$url$path is not out/demo/$side.json"
done
echo "ok   the page is the embedded viewer opening out/demo/base.json and head.json as served"

kill -INT "$pid"
status=0
wait "$pid" || status=$?
[ "$status" = 130 ] || fail "Ctrl-C: exit $status, want 130"
echo "ok   Ctrl-C stops it (exit 130)"

# The same demo under the native CPython 3.14 and 3.15 (scripts/setup.sh installs them; required
# in CI): dot_sum's slot load is a regression there too, while scale's `+` is now
# BINARY_OP_EXTEND (3.14+ specialize int/float mixing), a change the diff names, not a loss.
for v in 3.14 3.15; do
  native=".tools/native-python/$v/usr/bin/python$v"
  if [ ! -x "$native" ]; then
    if [ "${SPECDIFF_REQUIRE_INTERPRETERS:-}" = 1 ] || [ "${CI:-}" = true ]; then
      fail "no native CPython $v in .tools/native-python (scripts/setup.sh installs it)"
    fi
    echo "SKIPPED the demo under CPython $v: no $native"
    continue
  fi
  PYTHON=$native ./scripts/demo.sh --no-serve >"$log" 2>&1 || fail "demo.sh --no-serve under CPython $v"
  grep -q "CPython $v\.[0-9]* · examples/demo/base.py" "$log" || fail "the demo under $v did not run CPython $v"
  grep -q '^__main__:dot_sum .*regression' "$log" || fail "CPython $v: the printed diff has no regression in dot_sum"
  grep -q 'BINARY_OP_ADD_INT → BINARY_OP_EXTEND' "$log" || fail "CPython $v: scale's change to BINARY_OP_EXTEND is not named"
  echo "ok   the demo under CPython $v: dot_sum regressed, scale's + changed to BINARY_OP_EXTEND"
done

#!/usr/bin/env bash
# Tests of the web viewer, in three layers:
#   1. the reducer, engine and share links natively  (cargo test -p specdiff-web)
#   2. components in headless Chromium               (wasm-bindgen-test, crates/web/tests/)
#   3. end to end: the built dist/ served on 127.0.0.1, two real dumps made by `specdiff dump`
#      from examples/demo/{base,head}.py dropped on the page (tests/e2e/e2e.mjs, playwright-core),
#      plus the offline single-file page from file://. Screenshots: out/e2e/*.png
#      Before that, the size budget: wasm + JS glue at most 441,800 bytes gzipped
#      (docs/web.md, "Size budget"). Then the viewer the `specdiff` binary carries (built after
#      dist/, so it embeds it): `specdiff view` on the same dumps, and the one-file report of
#      `diff --format html` (and --full) from file:// (tests/e2e/view.mjs). Then the page by
#      keyboard alone at 390×844 and 1280×800, its state in the URL across a reload, and the
#      report's share links with and without --link (tests/e2e/keyboard.mjs). Then accessibility
#      and layout (tests/e2e/a11y.mjs: axe-core, nothing clipped, phone and desktop, light and
#      dark) on the demo pair and the benchmark's pair. Then the JIT's traces side by side on a
#      pair dumped with PYTHON_JIT=1 on the native 3.14 (tests/e2e/traces.mjs), and a DEFLATE-bomb
#      share link refused within 256 MB of browser growth (tests/e2e/bomb_link.mjs).
#   4. the hosted page: a build for the sub-path /specdiff/ (as GitHub Pages serves it), served
#      there; dropped files, its share link, and `specdiff diff --link` links of the demo dumped
#      under every interpreter present, compared with `specdiff diff --format json`
#      (tests/e2e/links.mjs); no request may leave the origin.
# Needs scripts/setup.sh's tools. Usage: scripts/e2e.sh [--skip-build] [--bench]
#   --bench  also runs tests/e2e/bench.mjs (two ~8k-code-object dumps; prints timings)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export PATH="$root/.tools/npm/node_modules/.bin:$HOME/.cargo/bin:$PATH"
build=1
bench=0
for arg in "$@"; do
  case "$arg" in
    --skip-build) build=0 ;;
    --bench) bench=1 ;;
    *) echo "usage: scripts/e2e.sh [--skip-build] [--bench]" >&2; exit 2 ;;
  esac
done
out="$root/out/e2e"
mkdir -p "$out"
python="${PYTHON:-python3}"

echo "== 1. native tests (reducer, engine, share links)"
cargo test -q -p specdiff-web
cargo test -q -p specdiff-core --lib share::

echo "== 2. component tests in headless Chromium (wasm-bindgen-test)"
profile="$(mktemp -d)"
server_pid=""
pages_pid=""
cleanup() {
  rm -rf "$profile"
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  [ -n "$pages_pid" ] && kill "$pages_pid" 2>/dev/null || true
}
trap cleanup EXIT
# webdriver.json plus a fresh profile directory for this run.
python3 - "$root/crates/web/webdriver.json" "$profile" > "$profile/webdriver.json" <<'PY'
import json, sys
caps = json.load(open(sys.argv[1]))
caps["goog:chromeOptions"]["args"].append("--user-data-dir=" + sys.argv[2] + "/chrome")
print(json.dumps(caps))
PY
WASM_BINDGEN_TEST_WEBDRIVER_JSON="$profile/webdriver.json" WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test -p specdiff-web --target wasm32-unknown-unknown --test browser --test hostile_page

echo "== 3. end to end (built dist/, real dumps, headless Chromium)"
if [ "$build" = 1 ] || [ ! -f dist/index.html ]; then
  ./scripts/build-web.sh
fi
# The size goal (docs/web.md, "Size"): what a browser downloads for the app, wasm + JS glue.
size_budget=441800
size=0
for f in dist/*.wasm dist/*.js; do size=$((size + $(gzip -9c "$f" | wc -c))); done
if [ "$size" -gt "$size_budget" ]; then
  echo "e2e: dist/: wasm + js is $size bytes gzipped (gzip -9), over the budget of $size_budget" >&2
  exit 1
fi
echo "ok   wasm + js: $size bytes gzipped (budget $size_budget)"
cargo build -q --release -p specdiff-cli
for side in base head; do
  target/release/specdiff dump --python "$python" -o "$out/$side.json" "examples/demo/$side.py" >/dev/null
done
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist >"$out/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break
  sleep 0.1
done
# Raw pystats files (CPython 3.11.2, from the shared test data) when they are on this machine.
pystats=()
[ -d "$root/../shared/data/pystats-3.11/base" ] && pystats=(--pystats "$root/../shared/data/pystats-3.11")
node tests/e2e/e2e.mjs --url "http://127.0.0.1:$port/" --base "$out/base.json" --head "$out/head.json" \
  --offline dist/specdiff-offline.html --out "$out" "${pystats[@]}" 2>&1 | grep -v 'unexpected operator'
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || exit "$status"
target/release/specdiff diff --format json -o "$out/report.json" "$out/base.json" "$out/head.json"
node tests/e2e/view.mjs --specdiff target/release/specdiff --base "$out/base.json" --head "$out/head.json" \
  --report "$out/report.json" --out "$out" 2>&1 | grep -v 'unexpected operator'
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || exit "$status"
# Accessibility and layout (tests/e2e/a11y.mjs): the demo pair and the benchmark's pair (made
# once and kept in out/e2e, the files bench.mjs uses), every state at 390x844 and 1280x800 in
# light and dark: axe-core finds no violation, nothing is clipped. Screenshots go to
# ${CARGO_TARGET_DIR:-target}/e2e-screenshots/, where a CI run leaves them (docs/web.md).
for side in base head; do
  [ -f "$out/bench-$side.json" ] || target/release/specdiff dump --python "$python" --include-unrun \
    -o "$out/bench-$side.json" tests/e2e/bench_workload.py "$side" >/dev/null
done
node tests/e2e/a11y.mjs --url "http://127.0.0.1:$port/" --base "$out/base.json" --head "$out/head.json" \
  --big-base "$out/bench-base.json" --big-head "$out/bench-head.json" 2>&1 | grep -v 'unexpected operator'
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || exit "$status"
# The JIT's traces side by side (tests/e2e/traces.mjs): the JIT corpus's type_mixed pair dumped
# with PYTHON_JIT=1 on the native CPython 3.14 (scripts/setup.sh installs it; required in CI).
native314="$root/.tools/native-python/3.14/usr/bin/python3.14"
if [ -x "$native314" ]; then
  for side in base head; do
    (cd crates/cli/tests/programs/jit && PYTHON_JIT=1 "$root/target/release/specdiff" dump --python "$native314" \
      -o "$out/jit-$side.json" "type_mixed/$side.py" >/dev/null)
  done
  node tests/e2e/traces.mjs --url "http://127.0.0.1:$port/" --base "$out/jit-base.json" --head "$out/jit-head.json" \
    --out "$out" 2>&1 | grep -v 'unexpected operator'
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] || exit "$status"
elif [ "${SPECDIFF_REQUIRE_INTERPRETERS:-}" = 1 ] || [ "${CI:-}" = true ]; then
  echo "e2e: no native CPython 3.14 at $native314 for the JIT traces (scripts/setup.sh installs it)" >&2
  exit 1
else
  echo "SKIPPED the JIT traces in the page: no $native314"
fi
# A DEFLATE-bomb share link (tests/e2e/bomb_link.mjs): refused with its one-line error once it
# inflates past 64 times its size, the browser growing by less than 256 MB.
node tests/e2e/bomb_link.mjs --url "http://127.0.0.1:$port/" 2>&1 | grep -v 'unexpected operator'
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || exit "$status"
# Keyboard only (the walk on the demo pair and on the benchmark's pair made above, at 390x844
# and 1280x800, light and dark), the URL round trip on both pairs, and the report's share links
# (tests/e2e/keyboard.mjs).
node tests/e2e/keyboard.mjs --url "http://127.0.0.1:$port/" --base "$out/base.json" --head "$out/head.json" \
  --big-base "$out/bench-base.json" --big-head "$out/bench-head.json" \
  --specdiff target/release/specdiff --out "$out" 2>&1 | grep -v 'unexpected operator'
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || exit "$status"

echo "== 4. the page under a sub-path, and CLI links opened in it"
# specdiff installed with `cargo install --path` (README's install from a clone), here into out/
# and from this checkout's target dir, where it only copies the release build above; the links
# below are made with it.
CARGO_TARGET_DIR="$root/target" cargo install -q --locked --force --root "$out/install" --path crates/cli
specdiff="$out/install/bin/specdiff"
./scripts/build-web.sh --no-offline-html --public-url /specdiff/ --dist out/pages/specdiff >/dev/null
pages_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$pages_port" --bind 127.0.0.1 --directory out/pages >"$out/pages-server.log" 2>&1 &
pages_pid=$!
page_url="http://127.0.0.1:$pages_port/specdiff/"
for _ in $(seq 50); do
  curl -fs "$page_url" >/dev/null 2>&1 && break
  sleep 0.1
done
pythons=()
for v in $(pyenv versions --bare 2>/dev/null | grep -E '^3\.1[1-9]\.[0-9]+$'); do pythons+=("$(pyenv prefix "$v")/bin/python3"); done
[ -f .tools/npm/node_modules/pyodide/package.json ] && pythons+=("$root/scripts/python-pyodide")
[ ${#pythons[@]} -gt 0 ] || pythons=("$python")
cases="$out/links.json"
echo "[" >"$cases"
sep=""
# Step 3's pair (the one dropped on the page) first, then the demo under every interpreter.
for py in dropped "${pythons[@]}"; do
  if [ "$py" = dropped ]; then
    d="$out/links-dropped"
    mkdir -p "$d"
    cp "$out/base.json" "$out/head.json" "$d/"
  else
    d="$out/links-$(basename "$(dirname "$(dirname "$py")")")"
    mkdir -p "$d"
    for side in base head; do
      "$specdiff" dump --python "$py" -o "$d/$side.json" "examples/demo/$side.py" >/dev/null 2>&1
    done
  fi
  version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["python"]["version"])' "$d/base.json")
  "$specdiff" diff --format json -o "$d/report.json" "$d/base.json" "$d/head.json"
  link=$("$specdiff" diff --link "$page_url" "$d/base.json" "$d/head.json" | tail -n 1)
  link=${link#open in the viewer: }
  python3 -c 'import json, sys; print(sys.argv[1] + json.dumps({"python": sys.argv[2], "link": sys.argv[3], "report": sys.argv[4], "dropped": sys.argv[5] == "dropped"}))' \
    "$sep" "$version" "$link" "$d/report.json" "$py" >>"$cases"
  sep=","
  if [ "$py" = dropped ]; then
    # The same pair with the largest cap (in tenths of its link) that leaves functions out:
    # the CLI leaves the least important out and says how many; the page must say the same.
    for tenths in 9 8 7 6 5 4 3 2 1; do
      out_capped=$("$specdiff" diff --link "$page_url" --link-cap $(( ${#link} * tenths / 10 )) "$d/base.json" "$d/head.json")
      left_out=$(printf '%s\n' "$out_capped" | sed -n 's/^The link leaves out \([0-9]*\) functions\{0,1\} whose specialization changed.*/\1/p')
      [ -n "$left_out" ] && break
    done
    capped=$(printf '%s\n' "$out_capped" | tail -n 1)
    python3 -c 'import json, sys; print("," + json.dumps({"python": sys.argv[1], "link": sys.argv[2], "report": sys.argv[3], "dropped": True, "left_out": int(sys.argv[4] or 0)}))' \
      "$version" "${capped#open in the viewer: }" "$d/report.json" "$left_out" >>"$cases"
  fi
done
# A pair whose function, module, file and source line carry markup, escapes and a bidi
# override (crates/cli/tests/programs/hostile_names.py with `markup`): its link must show them
# as inert text and run nothing.
d="$out/links-hostile"
mkdir -p "$d"
for mode in mono poly; do
  "$specdiff" dump --python "$python" -o "$d/$mode.json" crates/cli/tests/programs/hostile_names.py "$mode" "$d" markup >/dev/null 2>&1
done
"$specdiff" diff --format json -o "$d/report.json" "$d/mono.json" "$d/poly.json"
link=$("$specdiff" diff --link "$page_url" "$d/mono.json" "$d/poly.json" | tail -n 1)
python3 -c 'import json, sys; print("," + json.dumps({"python": "hostile", "link": sys.argv[1], "report": sys.argv[2], "hostile": True}))' \
  "${link#open in the viewer: }" "$d/report.json" >>"$cases"
echo "]" >>"$cases"
node tests/e2e/links.mjs --url "$page_url" --base "$out/base.json" --head "$out/head.json" --cases "$cases" \
  --out "$out" 2>&1 | grep -v 'unexpected operator'
status=${PIPESTATUS[0]}
kill "$pages_pid" 2>/dev/null || true
[ "$status" = 0 ] || exit "$status"

if [ "$bench" = 1 ]; then
  echo "== 5. benchmark (two whole-program dumps)"
  node tests/e2e/bench.mjs --url "http://127.0.0.1:$port/" --python "$python" --out "$out" 2>&1 | grep -v 'unexpected operator'
fi
echo "e2e: screenshots in $out"

#!/usr/bin/env bash
# The main job: install only what the viewer's build needs (scripts/setup.sh --web: the wasm32
# target, trunk, wasm-bindgen, wasm-opt; no test interpreters, no apt packages), build the
# viewer and the `specdiff` binary that carries it, dump the bundled demo pair
# (examples/demo/base.py and head.py) with a local CPython 3.11+, print the diff, and serve it
# with `specdiff view` on 127.0.0.1 until Ctrl-C.
# Usage: scripts/demo.sh [--no-serve] [--no-open] [--port N]   (PYTHON=... picks the interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
serve=1
view_args=()
usage() { echo "usage: scripts/demo.sh [--no-serve] [--no-open] [--port N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --no-serve) serve=0 ;;
    --no-open) view_args+=(--no-open) ;;
    --port) [ $# -ge 2 ] || usage; view_args+=(--port "$2"); shift ;;
    *) usage ;;
  esac
  shift
done

# The first CPython 3.11+ of: $PYTHON, python3, python3.15 … python3.11 on PATH.
is_311_plus() {
  "$1" -c 'import sys; sys.exit(not (sys.implementation.name == "cpython" and sys.version_info >= (3, 11)))' 2>/dev/null
}
python=${PYTHON-}
if [ -z "$python" ]; then
  for candidate in python3 python3.15 python3.14 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null && is_311_plus "$candidate"; then
      python=$candidate
      break
    fi
  done
  [ -n "$python" ] || { echo "demo: no CPython 3.11+ found (python3, python3.11 … python3.15); set PYTHON=/path/to/python3" >&2; exit 1; }
fi

./scripts/setup.sh --web
# The viewer first: the binary embeds dist/specdiff-offline.html when it is there (build.rs).
# Rebuilt only when something it is made from is newer (the second run then takes seconds).
page=dist/specdiff-offline.html
if [ ! -f "$page" ] || [ -n "$(find crates/web crates/core www index.html Trunk.toml Cargo.toml Cargo.lock \
    scripts/build-web.sh -newer "$page" -print -quit)" ]; then
  ./scripts/build-web.sh >/dev/null
fi
cargo build --release --locked -q -p specdiff-cli
specdiff=target/release/specdiff
out=out/demo
mkdir -p "$out"
"$specdiff" dump --python "$python" -o "$out/base.json" examples/demo/base.py >/dev/null
"$specdiff" dump --python "$python" -o "$out/head.json" examples/demo/head.py >/dev/null
echo "demo dumps ($("$python" -c 'import platform; print("CPython", platform.python_version())')): $out/base.json $out/head.json"
echo
"$specdiff" diff "$out/base.json" "$out/head.json" || true
echo
echo "demo: ready in $((SECONDS - started)) s"

if [ "$serve" = 1 ]; then
  exec "$specdiff" view "${view_args[@]}" "$out/base.json" "$out/head.json"
fi

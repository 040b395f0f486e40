#!/usr/bin/env bash
# The main job: dump the bundled demo pair (examples/demo/base.py and head.py) with the local
# CPython, print the diff, build the viewer and serve it with that diff loaded.
# Usage: scripts/demo.sh [--no-serve] [--port N]   (PYTHON=... picks the interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."
serve=1
port=8080
while [ $# -gt 0 ]; do
  case "$1" in
    --no-serve) serve=0 ;;
    --port) port="$2"; shift ;;
    *) echo "usage: scripts/demo.sh [--no-serve] [--port N]" >&2; exit 2 ;;
  esac
  shift
done
python="${PYTHON:-python3}"

cargo build --release -q -p specdiff-cli
specdiff=target/release/specdiff
out=out/demo
mkdir -p "$out"
"$specdiff" dump --python "$python" -o "$out/base.json" examples/demo/base.py
"$specdiff" dump --python "$python" -o "$out/head.json" examples/demo/head.py
echo
echo "demo dumps: $out/base.json $out/head.json"

if "$specdiff" diff --help >/dev/null 2>&1; then
  echo
  "$specdiff" diff "$out/base.json" "$out/head.json" || true
fi

if [ "$serve" = 1 ] && [ -f scripts/build-web.sh ]; then
  ./scripts/setup.sh
  ./scripts/build-web.sh
  mkdir -p dist/demo
  cp "$out/base.json" "$out/head.json" dist/demo/
  echo
  echo "specdiff viewer with the demo diff: http://127.0.0.1:$port/#demo"
  exec ./scripts/serve.sh "$port"
fi

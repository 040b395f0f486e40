#!/usr/bin/env bash
# Serves the built viewer (dist/, made by scripts/build-web.sh) on http://127.0.0.1:PORT/.
# Usage: scripts/serve.sh [PORT]   (default 8080; loopback only)
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-8080}"
[ -f dist/index.html ] || { echo "serve: dist/ is not built; run scripts/build-web.sh" >&2; exit 1; }
echo "specdiff viewer: http://127.0.0.1:$port/" >&2
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory dist

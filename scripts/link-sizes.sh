#!/usr/bin/env bash
# Share-link sizes on real library pairs (docs/web.md, "Link sizes"): the same workload
# (examples/pyparsing-bump/workload.py) under pyparsing versions from PyPI, CPython 3.12,
# dumped once per version, then `specdiff diff --link` at several caps. Prints, per pair and
# cap, the payload's characters and what the link leaves out.
#
#   scripts/link-sizes.sh [PAIR ...]      PAIR: OLD:NEW pyparsing versions (default: the docs' three)
#
# Venvs live in .tools/bump/pp-VERSION (PyPI needed once), dumps in $OUT (default out/bump).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${OUT:-$ROOT/out/bump}"
SPECDIFF="${SPECDIFF:-$ROOT/target/release/specdiff}"
[ -x "$SPECDIFF" ] || { echo "build first: cargo build --release -p specdiff-cli" >&2; exit 2; }
PAIRS=("$@")
[ ${#PAIRS[@]} -gt 0 ] || PAIRS=(3.2.0:3.2.3 3.1.1:3.1.2 3.0.9:3.2.0)
PY312="${SPECDIFF_PY312:-$(pyenv prefix 3.12.1 2>/dev/null)/bin/python3}"
[ -x "$PY312" ] || { echo "skip: no CPython 3.12 (pyenv 3.12.1 or SPECDIFF_PY312)" >&2; exit 0; }
mkdir -p "$OUT"

dump() { # the workload's dump under pyparsing $1, made once
  local v="$1" venv="$ROOT/.tools/bump/pp-$1"
  if [ ! -x "$venv/bin/python" ]; then
    "$PY312" -m venv "$venv"
    "$venv/bin/pip" install -q "pyparsing==$v"
  fi
  [ -s "$OUT/wl-$v.json" ] || "$SPECDIFF" dump --python "$venv/bin/python" -o "$OUT/wl-$v.json" \
    "$ROOT/examples/pyparsing-bump/workload.py" >/dev/null
  echo "$OUT/wl-$v.json"
}

for pair in "${PAIRS[@]}"; do
  base="$(dump "${pair%%:*}")"
  head="$(dump "${pair##*:}")"
  for cap in 8192 32768 2000000; do
    # The text report, not markdown: markdown leaves out a link too long for a comment.
    text="$("$SPECDIFF" diff "$base" "$head" --allow-unrelated --color never --link http://localhost/ --link-cap "$cap")"
    link="$(sed -n 's/^open in the viewer: //p' <<<"$text")"
    left="$(grep -o 'leaves out [0-9]* functions\{0,1\} whose specialization changed' <<<"$text" | head -1 || true)"
    echo "pyparsing ${pair/:/ -> }  cap $cap: ${#link} characters of URL (${left:-all changed functions kept})"
  done
done

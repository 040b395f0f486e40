#!/usr/bin/env bash
# The viewer as release assets (.github/workflows/release.yml runs this): builds it with
# scripts/build-web.sh, then writes into OUTDIR
#   specdiff-viewer-VERSION.tar.gz  dist/ as it is, for serving from any folder of a web server
#   specdiff-viewer-VERSION.html    the one-file viewer that also works from file://
# The archive is reproducible (sorted, fixed owner and times). Needs what
# `scripts/setup.sh --web` installs. Usage: scripts/viewer-bundle.sh OUTDIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/viewer-bundle.sh OUTDIR" >&2; exit 2; }
out=$1
cd "$(dirname "$0")/.."
mkdir -p "$out"
version=$(cargo metadata --locked --no-deps --format-version 1 \
  | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "specdiff-web"))')
./scripts/build-web.sh
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --exclude=./specdiff-offline.html -cf - -C dist . \
  | gzip -9n >"$out/specdiff-viewer-$version.tar.gz"
cp dist/specdiff-offline.html "$out/specdiff-viewer-$version.html"
for f in "$out/specdiff-viewer-$version.tar.gz" "$out/specdiff-viewer-$version.html"; do
  echo "viewer-bundle: $f ($(stat -c %s "$f") bytes)"
done

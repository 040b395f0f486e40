#!/usr/bin/env bash
# Builds a CPython 3.11 configured with --enable-pystats, for the test that proves specdiff's
# pystats capture on a real pystats build (crates/cli/tests/pystats_capture.rs).
#
# Source: the Debian bookworm source package `python3.11` (`apt-get source`, Debian patches
# applied; a deb-src entry is added when apt has none). Built out of tree without
# optimizations (no --enable-optimizations, PGO or LTO) and installed to
#   .tools/pystats-python/bin/python3.11
# Idempotent: does nothing when that interpreter exists and is a 3.11 pystats build.
# Takes about 5 minutes on 2 cores (measured 283 s and 298 s from nothing, mostly `make -j2`).
# Needs root for apt (packages, deb-src entry).
#
# Note: every run of a 3.11 pystats build writes its statistics at exit, to
# /tmp/py_stats/<random>.txt if that folder exists and to stderr otherwise. The build runs the
# new interpreter many times, so its output goes to .tools/pystats-build/build.log.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
PREFIX="$REPO/.tools/pystats-python"
PYTHON="$PREFIX/bin/python3.11"
WORK="$REPO/.tools/pystats-build"
LOG="$WORK/build.log"
JOBS=${JOBS:-$(nproc)}

say() { printf '[pystats-python] %s\n' "$*" >&2; }

# os._exit: leave without finalizing, so this check writes no stats file (see the note above).
works() {
  [ -x "$PYTHON" ] && "$PYTHON" -c '
import os, sys, sysconfig
ok = sys.version_info[:2] == (3, 11) and "--enable-pystats" in (sysconfig.get_config_var("CONFIG_ARGS") or "")
os._exit(0 if ok else 1)
' 2>/dev/null
}

if works; then
  say "already built: $PYTHON"
  exit 0
fi

start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive

# 1. Build tools and the few -dev packages the modules specdiff's harness imports need.
#    (Not `apt-get build-dep python3.11`: that pulls in Tk, gdb, docs tools and more.)
#    Not built, and not needed: pyexpat (and so _elementtree): with Debian's setup.py its
#    compile stops at `pycore_*.h requires Py_BUILD_CORE` (the same with --with-system-expat).
need_apt=()
for p in build-essential dpkg-dev xz-utils pkg-config libssl-dev zlib1g-dev libffi-dev \
         libbz2-dev liblzma-dev; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = 'install ok installed' ] || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing from apt: ${need_apt[*]}"
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi

# 2. A deb-src entry, so `apt-get source` can find python3.11. Copies the machine's own
#    bookworm entries (same mirror) with `Types: deb-src`; falls back to deb.debian.org.
has_source() { apt-cache showsrc python3.11 2>/dev/null | grep -c '^Package: python3.11$' >/dev/null; }
if ! has_source; then
  src_list=/etc/apt/sources.list.d/specdiff-deb-src.sources
  say "no deb-src entry for python3.11: adding $src_list"
  if [ -f /etc/apt/sources.list.d/debian.sources ] && grep -q '^Types:.*\bdeb\b' /etc/apt/sources.list.d/debian.sources; then
    sed -e 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$src_list"
  else
    cat >"$src_list" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  fi
  apt-get update -qq >&2
fi

# 3. The source, unpacked with Debian's patches applied (dpkg-source -x).
mkdir -p "$WORK"
: >"$LOG"
src=$(find "$WORK" -maxdepth 1 -type d -name 'python3.11-3.11.*' | sort | tail -n1)
if [ -z "$src" ] || [ ! -x "$src/configure" ]; then
  # Newest version first; a mirror may lack one suite's source pool (here bookworm-security
  # answered 404 for its .dsc), so fall back to the next version apt knows.
  versions=$(apt-cache showsrc python3.11 | sed -n 's/^Version: //p' | sort -r -V -u)
  for v in $versions; do
    say "fetching the Debian source package python3.11=$v (apt-get source)"
    if (cd "$WORK" && apt-get source -qq "python3.11=$v" >>"$LOG" 2>&1); then break; fi
    say "python3.11=$v could not be fetched; trying an older one"
  done
  src=$(find "$WORK" -maxdepth 1 -type d -name 'python3.11-3.11.*' | sort | tail -n1)
fi
[ -n "$src" ] && [ -x "$src/configure" ] || { say "apt-get source gave no python3.11-3.11.* folder in $WORK (see $LOG)"; exit 1; }
say "source: $(basename "$src") ($(dpkg-parsechangelog -l "$src/debian/changelog" -S Version 2>/dev/null || echo '?'))"

# 4. Configure out of tree, build, install. A fresh build folder each time: a half-finished
#    earlier attempt must not leave a stale configuration behind.
build="$WORK/build"
rm -rf "$build" "$PREFIX"
mkdir -p "$build"
say "configure + make -j$JOBS + make install (log: $LOG)"
if ! (cd "$build" \
      && "$src/configure" --enable-pystats --prefix="$PREFIX" --without-ensurepip \
      && make -j"$JOBS" \
      && make install) >>"$LOG" 2>&1; then
  say "build failed; the end of $LOG:"
  grep -v -E '^[[:space:]]*(opcode|Calls|Object|Frame|Specialization stats|GC)' "$LOG" | tail -n 40 >&2
  exit 1
fi

if ! works; then
  say "built, but $PYTHON is not a working 3.11 pystats build"
  exit 1
fi
# The interpreter is installed; the sources and object files (~350 MB) are not needed again.
rm -rf "$build" "$src" "$WORK"/python3.11_*
say "built $PYTHON in $(( $(date +%s) - start )) s"

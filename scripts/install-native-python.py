#!/usr/bin/env python3
"""Installs native CPython 3.14 and 3.15 from Debian forky's binary packages.

    scripts/install-native-python.py [3.14] [3.15]     (default: both; scripts/setup.sh runs it)

Debian bookworm has no CPython 3.14 or 3.15 and pyenv here stops at 3.13, but forky's
binary packages run on this machine when unpacked beside forky's own C library:

1. read forky's package index (`dists/forky/main/binary-amd64/Packages.xz`) on every run,
   because forky moves: each package's current `Filename:` and `SHA256:` come from it,
   never from a name written here;
2. download the interpreter, its stdlib and the libraries its extension modules load,
   check each against the index's SHA256, and `dpkg -x` them into one folder per version;
3. point the interpreter at that folder's dynamic loader and libraries with `patchelf`
   (and every extension module at the same libraries: they do not inherit the
   interpreter's rpath). No LD_LIBRARY_PATH, which would leak forky's libc into every
   child process.

The result is `.tools/native-python/3.X/usr/bin/python3.X`, a native interpreter with its
own stdlib (`sys.prefix` is that folder's `usr`), built by Debian with the experimental JIT
built in and off (`PYTHON_JIT=1` turns it on). Idempotent: a version whose interpreter runs,
and whose installed package versions equal the index's, is left as it is. Needs `dpkg-deb`
and `patchelf` (apt; installed here when missing, as root).
"""

import hashlib
import lzma
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

MIRROR = os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian")
SUITE = "forky"
ARCH = "amd64"
REPO = Path(__file__).resolve().parent.parent
ROOT = REPO / ".tools" / "native-python"
LIBDIR = "usr/lib/x86_64-linux-gnu"
VERSIONS = ("3.14", "3.15")

# What one interpreter needs besides its own packages: the C library it was built against,
# and what the stdlib's extension modules load (ssl, sqlite3, decimal, lzma, ctypes, …).
SHARED_LIBS = (
    "libc6", "libexpat1", "zlib1g", "libffi8", "libmpdec4", "libssl3t64", "liblzma5",
    "libbz2-1.0", "libzstd1", "libsqlite3-0", "libuuid1", "libncursesw6", "libtinfo6",
    "libreadline8t64", "python3-pip-whl", "python3-setuptools-whl",
)


def packages_for(minor):
    own = (f"python{minor}-minimal", f"libpython{minor}-minimal", f"libpython{minor}-stdlib",
           f"python{minor}-venv")
    return own + SHARED_LIBS


def say(msg):
    print(f"[native-python] {msg}", file=sys.stderr, flush=True)


def fetch(url):
    with urllib.request.urlopen(url, timeout=120) as r:
        return r.read()


def read_index():
    """`{package: {"Filename", "SHA256", "Version"}}` from forky's Packages.xz."""
    url = f"{MIRROR}/dists/{SUITE}/main/binary-{ARCH}/Packages.xz"
    text = lzma.decompress(fetch(url)).decode("utf-8", "replace")
    index = {}
    for stanza in text.split("\n\n"):
        fields = {}
        for line in stanza.splitlines():
            if line[:1] in (" ", "\t") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key] = value.strip()
        name = fields.get("Package")
        if name and "Filename" in fields and "SHA256" in fields:
            index[name] = fields
    return index


def stamp_of(minor, index):
    return "\n".join(f"{p} {index[p]['Version']} {index[p]['SHA256']}" for p in packages_for(minor)) + "\n"


def python_of(minor):
    return ROOT / minor / "usr" / "bin" / f"python{minor}"


def works(minor):
    py = python_of(minor)
    if not py.is_file():
        return False
    check = ("import sys, ssl, sqlite3, decimal, lzma, ctypes, venv, ensurepip; "
             "assert ensurepip._find_wheel_pkg_dir_pip() is not None; "
             f"sys.exit(0 if sys.version_info[:2] == {tuple(map(int, minor.split('.')))} else 1)")
    r = subprocess.run([str(py), "-c", check], capture_output=True)
    return r.returncode == 0


def need_tools():
    missing = [t for t in ("patchelf",) if shutil.which(t) is None]
    if missing:
        say(f"installing from apt: {' '.join(missing)}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env)


def patch(folder, minor):
    libdir = folder / LIBDIR
    loader = libdir / "ld-linux-x86-64.so.2"
    if not loader.exists():
        raise SystemExit(f"{loader} is missing: libc6's layout changed")
    py = folder / "usr" / "bin" / f"python{minor}"
    subprocess.run(["patchelf", "--set-interpreter", str(loader), "--set-rpath", str(libdir), str(py)], check=True)
    dynload = folder / "usr" / "lib" / f"python{minor}" / "lib-dynload"
    for so in sorted(dynload.glob("*.so")):
        subprocess.run(["patchelf", "--set-rpath", str(libdir), str(so)], check=True)


def local_wheels(folder, minor):
    """Points ensurepip (and so `python -m venv`) at the pip wheel unpacked here: Debian's
    build looks in /usr/share/python-wheels, which on this machine holds bookworm's pip."""
    wheels = folder / "usr" / "share" / "python-wheels"
    stdlib = folder / "usr" / "lib" / f"python{minor}"
    for data in sorted(stdlib.glob("_sysconfigdata_*.py")):
        text = data.read_text()
        data.write_text(text.replace("'/usr/share/python-wheels/'", repr(f"{wheels}/")))


def install(minor, index):
    missing = [p for p in packages_for(minor) if p not in index]
    if missing:
        raise SystemExit(f"forky's index has no {', '.join(missing)}")
    folder = ROOT / minor
    stamp = folder.with_suffix(".packages")
    if works(minor) and stamp.exists() and stamp.read_text() == stamp_of(minor, index):
        say(f"{minor}: up to date ({index[f'python{minor}-minimal']['Version']})")
        return
    say(f"{minor}: installing {index[f'python{minor}-minimal']['Version']} from forky")
    ROOT.mkdir(parents=True, exist_ok=True)
    # Unpacked beside its destination, then renamed into place.
    work = Path(tempfile.mkdtemp(prefix=f".{minor}-", dir=ROOT))
    try:
        for name in packages_for(minor):
            entry = index[name]
            data = fetch(f"{MIRROR}/{entry['Filename']}")
            got = hashlib.sha256(data).hexdigest()
            if got != entry["SHA256"]:
                raise SystemExit(f"{entry['Filename']}: sha256 {got}, the index says {entry['SHA256']}")
            deb = work / "pkg.deb"
            deb.write_bytes(data)
            subprocess.run(["dpkg-deb", "-x", str(deb), str(work / "root")], check=True)
            deb.unlink()
        # patchelf writes absolute paths: the folder moves to its final place first. The stamp,
        # written last, is what marks it complete.
        stamp.unlink(missing_ok=True)
        if folder.exists():
            shutil.rmtree(folder)
        (work / "root").rename(folder)
        patch(folder, minor)
        local_wheels(folder, minor)
        if not works(minor):
            raise SystemExit(f"{python_of(minor)} does not run after installing")
        stamp.write_text(stamp_of(minor, index))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = subprocess.run([str(python_of(minor)), "-VV"], capture_output=True, text=True).stdout.strip()
    say(f"{minor}: {python_of(minor)} ({out})")


def main(argv):
    wanted = argv or list(VERSIONS)
    for v in wanted:
        if v not in VERSIONS:
            raise SystemExit(f"usage: {sys.argv[0]} [{'] ['.join(VERSIONS)}]")
    need_tools()
    index = read_index()
    for v in wanted:
        install(v, index)


if __name__ == "__main__":
    main(sys.argv[1:])

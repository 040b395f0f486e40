#!/usr/bin/env python3
"""The library-upgrade corpus: fetch its pinned wheels, unpack them, run the workloads and
dump them with specdiff. Everything is driven by manifest.json beside this file; only the
standard library is used, and any CPython 3.9+ can run it (the interpreters under test are
passed with --python and need no pip: wheels are unpacked with zipfile, they are all pure
Python, py3-none-any).

    corpus.py fetch  [--pip-python PY]           # download missing wheels, check sha256
    corpus.py unpack [--site DIR]                # one folder per library and version
    corpus.py run    --python [LABEL=]PY ... [--only NAME ...] [--side S] [--json FILE]
    corpus.py dump   --python [LABEL=]PY ... --specdiff BIN --out DIR
                     [--only NAME ...] [--side S] [--json FILE] [--jobs N]

`fetch` asks pip for each wheel by name and version (`pip download --require-hashes`, no
dependencies, binary only, platform `any`), so a wheel whose sha256 differs from the manifest's
is refused by pip itself, and checks the file once more. Wheels live in wheels/ (WHEELS=DIR
overrides). `unpack` writes SITE/NAME-VERSION/ (the wheel and the manifest's deps), which is the
PYTHONPATH of a run; default SITE is .site/ beside this file. `run` and `dump` unpack first when
a folder is missing, and byte-compile it once per interpreter (compileall). Exit status: 0 when
every run (or dump) succeeded, 1 otherwise.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = json.loads((HERE / "manifest.json").read_text())
WHEELS = Path(os.environ.get("WHEELS", HERE / "wheels"))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def project_name(lib, entry):
    """The PyPI name a wheel entry is fetched by: deps carry their own `name`."""
    return entry.get("name", lib["name"])


def all_wheels():
    """(PyPI name, entry) for every wheel the manifest pins, each once."""
    seen = {}
    for lib in MANIFEST:
        for entry in (lib["base"], lib["head"], *lib["deps"]):
            seen.setdefault(entry["wheel"], (project_name(lib, entry), entry))
    return list(seen.values())


def check(entry):
    path = WHEELS / entry["wheel"]
    if not path.is_file():
        return f"{entry['wheel']}: missing"
    got = sha256(path)
    if got != entry["sha256"]:
        return f"{entry['wheel']}: sha256 {got}, the manifest says {entry['sha256']}"
    return None


def cmd_fetch(args):
    WHEELS.mkdir(parents=True, exist_ok=True)
    todo = [(name, e) for name, e in all_wheels() if check(e) is not None]
    for name, entry in todo:
        path = WHEELS / entry["wheel"]
        if path.exists():  # wrong content: pip would keep it, so move it aside
            path.unlink()
        with tempfile.TemporaryDirectory() as tmp:
            req = Path(tmp) / "req.txt"
            req.write_text(f"{name}=={entry['version']} --hash=sha256:{entry['sha256']}\n")
            code = subprocess.run(
                [args.pip_python, "-m", "pip", "download", "--quiet", "--no-deps",
                 "--require-hashes", "--only-binary=:all:", "--implementation", "py",
                 "--abi", "none", "--platform", "any", "--python-version", "3.12",
                 "-d", tmp, "-r", str(req)],
            ).returncode
            if code != 0:
                raise SystemExit(f"pip download {name}=={entry['version']} failed (exit {code}); "
                                 "pip's message is above")
            got = Path(tmp) / entry["wheel"]
            if not got.is_file():
                raise SystemExit(f"pip did not bring {entry['wheel']}: {sorted(os.listdir(tmp))}")
            shutil.move(str(got), path)
        problem = check(entry)
        if problem:
            raise SystemExit(problem)
        print(f"fetched {entry['wheel']}")
    print(f"{len(all_wheels())} wheels in {WHEELS}, sha256 checked ({len(todo)} fetched)")


def site_dir(args, lib, side):
    return Path(args.site) / f"{lib['name']}-{lib[side]['version']}"


def unpack_one(args, lib, side):
    dest = site_dir(args, lib, side)
    if (dest / ".complete").exists():
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    tmp = dest.with_name(dest.name + ".part")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    for entry in (lib[side], *lib["deps"]):
        problem = check(entry)
        if problem:
            raise SystemExit(f"{problem} (run `corpus.py fetch`)")
        with zipfile.ZipFile(WHEELS / entry["wheel"]) as z:
            z.extractall(tmp)
    (tmp / ".complete").write_text("")
    tmp.rename(dest)
    return dest


def cmd_unpack(args):
    for lib in selected(args):
        for side in ("base", "head"):
            print(unpack_one(args, lib, side))


def selected(args):
    only = set(getattr(args, "only", None) or [])
    libs = [lib for lib in MANIFEST if not only or lib["name"] in only]
    if only - {lib["name"] for lib in libs}:
        raise SystemExit(f"not in the manifest: {sorted(only - {lib['name'] for lib in libs})}")
    return libs


def pythons(args):
    out = []
    for spec in args.python:
        label, _, exe = spec.rpartition("=")
        if not label:
            exe = spec
            label = subprocess.run([exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                   capture_output=True, text=True, check=True).stdout.strip()
        out.append((label, exe))
    return out


def env_for(site):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(site)
    env.pop("PYTHONHOME", None)
    return env


def precompile(site, exe):
    """Byte-compile SITE for EXE once, so a run neither compiles the library (seconds for
    pygments or sqlglot, repeated on every run when PYTHONDONTWRITEBYTECODE is set) nor prints
    the compiler's warnings (pyparsing 3.1's `return` in `finally` on 3.14+)."""
    stamp = site / f".compiled-{hashlib.sha256(str(exe).encode()).hexdigest()[:12]}"
    if not stamp.exists():
        subprocess.run([exe, "-m", "compileall", "-q", str(site)], capture_output=True)
        stamp.write_text(str(exe) + "\n")


def matrix(args):
    for lib in selected(args):
        for side in [args.side] if getattr(args, "side", None) else ("base", "head"):
            site = unpack_one(args, lib, side)
            for label, exe in pythons(args):
                precompile(site, exe)
                yield lib, side, site, label, exe


def report(args, rows):
    ok = all(r["ok"] for r in rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    print(f"{sum(r['ok'] for r in rows)}/{len(rows)} ok")
    return 0 if ok else 1


def cmd_run(args):
    rows = []
    for lib, side, site, label, exe in matrix(args):
        workload = HERE / "workloads" / lib["workload"]
        best = None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            p = subprocess.run([exe, str(workload)], env=env_for(site), capture_output=True,
                               text=True)
            wall = time.perf_counter() - t0
            best = wall if best is None else min(best, wall)
            if p.returncode != 0:
                break
        row = {"name": lib["name"], "side": side, "version": lib[side]["version"], "python": label,
               "ok": p.returncode == 0, "seconds": round(best, 3), "output": p.stdout.strip(),
               "stderr": p.stderr.strip()[-2000:]}
        rows.append(row)
        status = "ok  " if row["ok"] else f"FAIL({p.returncode})"
        print(f"{status} {label:5} {lib['name']:15} {side} {row['version']:12} {best:6.2f}s  "
              f"{row['output']}", flush=True)
        if not row["ok"]:
            print(row["stderr"], file=sys.stderr)
    return report(args, rows)


def dump_one(args, out, lib, side, site, label, exe):
    workload = HERE / "workloads" / lib["workload"]
    dump = out / f"{lib['name']}-{lib[side]['version']}-py{label}.json.gz"
    t0 = time.perf_counter()
    p = subprocess.run([args.specdiff, "dump", "--python", exe, "-o", str(dump), "--force",
                        str(workload)], env=env_for(site), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    ok = p.returncode == 0 and dump.is_file()
    row = {"name": lib["name"], "side": side, "version": lib[side]["version"], "python": label,
           "ok": ok, "seconds": round(wall, 3), "bytes": dump.stat().st_size if ok else 0,
           "dump": dump.name, "stderr": p.stderr.strip()[-2000:]}
    print(f"{'ok  ' if ok else 'FAIL'} {label:5} {lib['name']:15} {side} {row['version']:12} "
          f"{wall:6.2f}s {row['bytes']:>9} B  {dump.name}", flush=True)
    if not ok:
        print(p.stdout[-2000:] + row["stderr"], file=sys.stderr)
    return row


def cmd_dump(args):
    """Dumps every cell, --jobs at a time (each dump is one interpreter process; the rows keep
    the matrix's order whatever order they finish in). Unpacking and byte-compiling happen
    first, one at a time, as `matrix` yields the cells."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cells = list(matrix(args))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda cell: dump_one(args, out, *cell), cells))
    return report(args, rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch")
    f.add_argument("--pip-python", default=sys.executable,
                   help="a Python with pip (default: this one)")
    for name in ("unpack", "run", "dump"):
        s = sub.add_parser(name)
        s.add_argument("--site", default=str(HERE / ".site"))
        s.add_argument("--only", action="append", metavar="NAME")
        s.add_argument("--side", choices=("base", "head"),
                       help="only this version of each library (default: both)")
        if name != "unpack":
            s.add_argument("--python", action="append", required=True, metavar="[LABEL=]PY")
            s.add_argument("--json", metavar="FILE")
        if name == "run":
            s.add_argument("--repeat", type=int, default=1,
                           help="runs per cell; the fastest is kept")
        if name == "dump":
            s.add_argument("--specdiff", required=True)
            s.add_argument("--out", required=True)
            s.add_argument("--jobs", type=int, default=1,
                           help="dumps run at once (default 1: timings undisturbed)")
    args = ap.parse_args()
    commands = {"fetch": cmd_fetch, "unpack": cmd_unpack, "run": cmd_run, "dump": cmd_dump}
    return commands[args.cmd](args) or 0


if __name__ == "__main__":
    sys.exit(main())

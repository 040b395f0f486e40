#!/usr/bin/env python3
"""Noise floor of `specdiff diff --fail-on-regression`: unchanged programs, dumped several
times on every interpreter present and diffed pairwise, must give 0 gate failures and 0
reported regressions (docs/engine.md, "Noise floor"). Stdlib only.

    scripts/noise_floor.py [--runs 5] [--minor 3.12 ...] [--no-pypi] [--json OUT] [--keep DIR]

Workloads: tests/noise/workloads (stdlib scripts, dataclasses and namedtuples, a parser,
templates compiled with exec, asyncio, classes, a unittest suite) plus a pytest suite when
pytest can be installed from PyPI into a virtual environment per interpreter (`--no-pypi`
leaves it out; pyodide never has it). Prints one markdown table row per workload and
interpreter; exits 1 when any pair failed the gate or reported a regression.
"""

import argparse
import gzip
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS_DIR = os.path.join(ROOT, "tests", "noise", "workloads")

# (name, what it exercises, arguments after `specdiff dump`, needs pytest)
WORKLOADS = [
    ("logs", "stdlib: re, json, csv, collections", ["logs.py"], False),
    ("records", "dataclasses, namedtuples, enum, decorators", ["records.py"], False),
    ("exprs", "a tokenizer + recursive-descent parser", ["exprs.py"], False),
    ("templates", "templates compiled with exec, string.Template", ["templates.py"], False),
    ("tasks", "asyncio queues, gather, semaphore", ["tasks.py"], False),
    ("shapes", "classes, properties, __slots__, generators", ["shapes.py"], False),
    ("unittest", "a unittest suite", ["-m", "unittest", "-q", "test_inventory"], False),
    ("pytest", "a pytest suite", ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_pipeline.py"], True),
]


def log(msg):
    print("[noise] " + msg, file=sys.stderr, flush=True)


def pyenv_python(minor):
    try:
        versions = subprocess.run(["pyenv", "versions", "--bare"], capture_output=True, text=True).stdout.split()
    except OSError:
        return None
    for v in sorted(versions, reverse=True):
        if v.startswith(minor + "."):
            prefix = subprocess.run(["pyenv", "prefix", v], capture_output=True, text=True).stdout.strip()
            exe = os.path.join(prefix, "bin", "python3")
            if os.path.exists(exe):
                return exe
    return None


def interpreters(wanted):
    found = []
    for minor in wanted:
        if minor == "3.14":
            runner = os.path.join(ROOT, "scripts", "python-pyodide")
            if os.path.isdir(os.path.join(ROOT, ".tools", "npm", "node_modules", "pyodide")):
                found.append((minor, runner))
            else:
                log("skipped 3.14: pyodide is not installed (scripts/setup.sh installs it)")
            continue
        exe = pyenv_python(minor)
        if exe:
            found.append((minor, exe))
        else:
            log("skipped %s: no pyenv interpreter" % minor)
    return found


def pytest_python(minor, python, cache):
    """An interpreter of `minor` with pytest installed (a venv under `cache`), or None."""
    if minor == "3.14":
        return None
    venv = os.path.join(cache, "venv-" + minor)
    exe = os.path.join(venv, "bin", "python3")
    if not os.path.exists(exe):
        subprocess.run([python, "-m", "venv", venv], check=True)
    probe = subprocess.run([exe, "-c", "import pytest"], capture_output=True)
    if probe.returncode != 0:
        r = subprocess.run([exe, "-m", "pip", "install", "-q", "pytest==8.3.4"], capture_output=True, text=True)
        if r.returncode != 0:
            log("skipped pytest on %s: pip install failed: %s" % (minor, r.stderr.strip().splitlines()[-1:]))
            return None
    return exe


def specdiff_binary(given):
    if given:
        return os.path.abspath(given)
    exe = os.path.join(ROOT, "target", "release", "specdiff")
    log("building %s" % exe)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "specdiff-cli"], cwd=ROOT, check=True)
    return exe


def dump(specdiff, python, args, out):
    cmd = [specdiff, "dump", "--python", python, "-o", out] + args
    r = subprocess.run(cmd, cwd=WORKLOADS_DIR, capture_output=True, text=True)
    if not os.path.exists(out):
        raise SystemExit("dump failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return r.returncode


def diff(specdiff, a, b):
    cmd = [specdiff, "diff", a, b, "--format", "json", "--fail-on-regression"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise SystemExit("diff failed: %s\n%s" % (" ".join(cmd), r.stderr))
    report = json.loads(r.stdout)
    # Regressions in the import-time code the gate leaves out (module and class bodies,
    # importlib._bootstrap*, whose weakref callbacks run when the GC does) are counted apart.
    import_time = {g["function"] for g in report["gate"]["import_time"]}
    regressions = [
        "%s:%s %s" % (f["module"], f["qualname"], c["kind"])
        for f in report["functions"]
        for c in f["changes"]
        if c["kind"] in ("lost", "missing", "backed_off")
    ]
    skipped = [r for r in regressions if r.rsplit(" ", 1)[0] in import_time]
    regressions = [r for r in regressions if r.rsplit(" ", 1)[0] not in import_time]
    counts = report["summary"]["counts"]
    other = {k: v for k, v in counts.items() if k not in ("unchanged", "lost", "missing", "backed_off") and v}
    if skipped:
        other["import-time regressions"] = len(skipped)
    return r.returncode, regressions, other


def hotness_spread(dumps):
    """How much the sampled hotness of the same code varies between runs: the runs' sample
    counts (min, max); for the five hottest functions of the first run, the largest difference
    of their share of a run's samples (percentage points); and how many of those functions'
    run-to-run differences (every pair of runs) are beyond chance, and out of how many.

    "Beyond chance" is a two-proportion z-test at 5 %: if each sample saw a function on the
    stack independently with the same probability in both runs, ~5 % of the comparisons would
    be flagged. Many more would mean the samples vary more than the 95 % intervals the gate
    and the reports give (docs/engine.md, "Noise floor")."""
    runs = []
    for path in dumps:
        with gzip.open(path, "rt") as f:
            d = json.load(f)
        strings = d["strings"]
        counts = {}
        for c in d["code"]:
            key = (strings[c["module"]], strings[c["qualname"]], c["first_line"], tuple(c.get("made_at") or ()), c.get("body"))
            counts[key] = counts.get(key, 0) + c["samples"][1]
        runs.append((d["run"]["sampler"]["samples"], counts))
    first_n, first = runs[0]
    top = sorted((k for k in first if k[1] != "<module>"), key=lambda k: -first[k])[:5]

    def share(run, k):
        return 100.0 * run[1].get(k, 0) / max(run[0], 1)

    spread = max((max(share(r, k) for r in runs) - min(share(r, k) for r in runs) for k in top), default=0.0)
    beyond = compared = 0
    for a, b in itertools.combinations(runs, 2):
        if not a[0] or not b[0]:
            continue
        for k in top:
            compared += 1
            beyond += differs_beyond_chance(a[1].get(k, 0), a[0], b[1].get(k, 0), b[0])
    samples = [r[0] for r in runs]
    return min(samples), max(samples), spread, beyond, compared


def differs_beyond_chance(ka, na, kb, nb):
    """Two-proportion z-test, two-sided, 5 %: ka of na against kb of nb (pooled variance)."""
    pooled = (ka + kb) / (na + nb)
    se = (pooled * (1 - pooled) * (1 / na + 1 / nb)) ** 0.5
    return se > 0 and abs(ka / na - kb / nb) > 1.959964 * se


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--minor", action="append", help="CPython minor versions (default: 3.11 to 3.14)")
    ap.add_argument("--workload", action="append", help="only these workloads")
    ap.add_argument("--no-pypi", action="store_true", help="leave out the pytest workload")
    ap.add_argument("--specdiff", help="the specdiff binary (default: build target/release/specdiff)")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--keep", help="keep the dumps in this folder")
    opts = ap.parse_args()

    specdiff = specdiff_binary(opts.specdiff)
    cache = os.path.join(ROOT, ".tools", "noise")
    os.makedirs(cache, exist_ok=True)
    out_dir = opts.keep or tempfile.mkdtemp(prefix="specdiff-noise-")
    os.makedirs(out_dir, exist_ok=True)
    rows, failed = [], False
    print("| workload | exercises | CPython | runs | pairs | gate failures | regressions | other changes "
          "| samples per run | hottest-5 share spread | differences beyond chance |")
    print("|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|")
    for minor, python in interpreters(opts.minor or ["3.11", "3.12", "3.13", "3.14"]):
        for name, what, args, needs_pytest in WORKLOADS:
            if opts.workload and name not in opts.workload:
                continue
            py = python
            if name == "tasks" and minor == "3.14":
                log("skipped tasks on 3.14: pyodide has no asyncio.run (no WebAssembly stack switching in node)")
                continue
            if needs_pytest:
                py = None if opts.no_pypi else pytest_python(minor, python, cache)
                if py is None:
                    log("skipped %s on %s" % (name, minor))
                    continue
            t0 = time.time()
            dumps = []
            for k in range(opts.runs):
                path = os.path.join(out_dir, "%s-%s-%d.json.gz" % (name, minor, k))
                dump(specdiff, py, args, path)
                dumps.append(path)
            gate_failures, regressions, other = 0, [], {}
            pairs = list(itertools.combinations(dumps, 2))
            for a, b in pairs:
                code, regs, oth = diff(specdiff, a, b)
                gate_failures += code == 1
                regressions += regs
                for k, v in oth.items():
                    other[k] = other.get(k, 0) + v
            failed |= gate_failures > 0 or bool(regressions)
            other_text = ", ".join("%s %d" % kv for kv in sorted(other.items())) or "none"
            lo, hi, spread, beyond, compared = hotness_spread(dumps)
            print("| %s | %s | %s | %d | %d | %d | %d | %s | %d–%d | %.1f pp | %d of %d |"
                  % (name, what, minor, opts.runs, len(pairs), gate_failures, len(regressions), other_text,
                     lo, hi, spread, beyond, compared), flush=True)
            log("%s on %s: %.0f s%s" % (name, minor, time.time() - t0,
                                        "; regressions: " + "; ".join(sorted(set(regressions))[:8]) if regressions else ""))
            rows.append({"workload": name, "python": minor, "runs": opts.runs, "pairs": len(pairs),
                         "gate_failures": gate_failures, "regressions": regressions, "other": other,
                         "samples": [lo, hi], "top5_share_spread_pp": round(spread, 2),
                         "top5_differences_beyond_chance": [beyond, compared]})
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(rows, f, indent=1)
    if not opts.keep:
        shutil.rmtree(out_dir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

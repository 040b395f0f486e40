#!/usr/bin/env python3
"""What the sampler costs the program it samples: the run time `specdiff dump` records
(`run.duration_s`, the program alone, not the harness's work after it) with the sampler
and with `--no-sample`, on the work-bounded noise-floor workloads, per interpreter. Stdlib
only. Ratios, never absolute times: rerun on any machine.

    scripts/sampler-overhead.py [--runs 5] [--minor 3.12 ...] [--specdiff PATH ...]

With several `--specdiff` binaries (e.g. one built from an older commit), each is measured in
turn, runs interleaved, so a change to the sampler shows as a change of its ratio. Prints a
markdown table: median sampled / median unsampled run time per workload and interpreter, and
the sampled runs' median samples per second of run time.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from noise_floor import WORKLOADS_DIR, interpreters  # noqa: E402

# Work-bounded workloads: their run time is the program's work (asyncio's is mostly sleeps).
WORKLOADS = [("logs", ["logs.py"]), ("records", ["records.py"]), ("exprs", ["exprs.py"]),
             ("templates", ["templates.py"]), ("shapes", ["shapes.py"])]


def duration(specdiff, python, args, sampled, out):
    """The program's run time and the sampler's hits."""
    cmd = [specdiff, "dump", "--python", python, "-o", out] + ([] if sampled else ["--no-sample"]) + args
    subprocess.run(cmd, cwd=WORKLOADS_DIR, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as f:
        run = json.load(f)["run"]
    return run["duration_s"], run["sampler"]["samples"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--minor", nargs="*", default=["3.11", "3.12", "3.13", "3.14"])
    ap.add_argument("--specdiff", nargs="*", default=[os.path.join(ROOT, "target", "release", "specdiff")])
    a = ap.parse_args()
    pythons = interpreters(a.minor)   # 3.14: pyodide, sampled on timer ticks
    print("| workload | CPython | " + " | ".join("sampled / unsampled, samples/s (%s)" % s for s in a.specdiff) + " |")
    print("|---|---|" + "---|" * len(a.specdiff))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "d.json")
        for name, args in WORKLOADS:
            for minor, python in pythons:
                times = {(s, m): [] for s in a.specdiff for m in (True, False)}
                rates = {s: [] for s in a.specdiff}
                for _ in range(a.runs):
                    for s in a.specdiff:
                        for m in (True, False):
                            took, samples = duration(s, python, args, m, out)
                            times[(s, m)].append(took)
                            if m:
                                rates[s].append(samples / took)
                ratios = ["%.2f, %.0f/s" % (statistics.median(times[(s, True)]) / statistics.median(times[(s, False)]),
                                           statistics.median(rates[s]))
                          for s in a.specdiff]
                print("| %s | %s | %s |" % (name, minor, " | ".join(ratios)), flush=True)


if __name__ == "__main__":
    main()

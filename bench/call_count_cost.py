#!/usr/bin/env python3
"""What counting executions would cost instead of sampling them: each work-bounded
noise-floor workload (tests/noise/workloads) runs plain and with a `sys.monitoring` callback
on every function start and resume (CPython 3.12+), interleaved; prints the ratio of the
median CPU times, and whether the counts came out the same in every run. Stdlib only; ratios,
never absolute times (docs/engine.md, "Noise floor").

    bench/call_count_cost.py [--runs 3] [--minor 3.12 ...]

The measurement that kept specdiff's hotness on samples: exact, repeatable counts, at 2-4x
the run time of the program.
"""

import argparse
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from noise_floor import WORKLOADS_DIR, interpreters  # noqa: E402

WORKLOADS = ["logs.py", "records.py", "exprs.py", "templates.py", "shapes.py"]

# Runs one workload in the child interpreter, counting or not; prints "cpu_seconds calls".
CHILD = r"""
import contextlib, io, runpy, sys, time
counting, script = sys.argv[1] == "count", sys.argv[2]
sys.argv = [script]
calls = {}
if counting:
    mon = sys.monitoring
    tool = mon.PROFILER_ID
    mon.use_tool_id(tool, "specdiff-count")
    def started(code, offset):
        calls[code] = calls.get(code, 0) + 1
    for event in (mon.events.PY_START, mon.events.PY_RESUME):
        mon.register_callback(tool, event, started)
    mon.set_events(tool, mon.events.PY_START | mon.events.PY_RESUME)
t = time.process_time()
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(script, run_name="__main__")
took = time.process_time() - t
if counting:
    mon.set_events(tool, 0)
print(took, sum(calls.values()), file=sys.__stderr__)
"""


def run(python, mode, script):
    r = subprocess.run([python, "-c", CHILD, mode, script], cwd=WORKLOADS_DIR,
                       capture_output=True, text=True, check=True)
    took, calls = r.stderr.split()[-2:]
    return float(took), int(calls)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--minor", nargs="*", default=["3.12", "3.13"])
    a = ap.parse_args()
    print("| workload | CPython | counted / plain CPU time | starts counted | same count every run |")
    print("|---|---|---:|---:|---|")
    for minor, python in interpreters(a.minor):
        if python.endswith("python-pyodide"):
            continue   # no sys.monitoring events worth measuring under pyodide's timer ticks
        for script in WORKLOADS:
            plain, counted, counts = [], [], set()
            for _ in range(a.runs):
                plain.append(run(python, "plain", script)[0])
                took, calls = run(python, "count", script)
                counted.append(took)
                counts.add(calls)
            print("| %s | %s | %.2f | %s | %s |" % (script[:-3], minor, statistics.median(counted) / statistics.median(plain),
                                                 "–".join(str(c) for c in sorted(counts)[:: max(len(counts) - 1, 1)]),
                                                 "yes" if len(counts) == 1 else "no (%d values)" % len(counts)), flush=True)


if __name__ == "__main__":
    main()

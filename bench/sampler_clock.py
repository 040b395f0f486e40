#!/usr/bin/env python3
"""Wall-clock or CPU-clock samples: which agrees better between repeated runs? Each
work-bounded noise-floor workload (tests/noise/workloads) runs several times under a
stand-alone copy of the thread sampler's loop (1 ms, fixed rate, switch interval 1/8), once
keeping every look ("wall") and once keeping a look only when the main thread used at least a
quarter interval of CPU since the last one ("cpu", `time.pthread_getcpuclockid`; Linux). Prints,
per workload, interpreter and clock: samples per run, the hottest-5 share spread and the
run-to-run differences beyond chance, as scripts/noise_floor.py counts them. Stdlib only.

    bench/sampler_clock.py [--runs 5] [--minor 3.12 ...]

This measures a design for the harness's sampler (docs/engine.md, "Noise floor"); the harness
itself still samples on the wall clock.
"""

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from noise_floor import WORKLOADS_DIR, differs_beyond_chance, interpreters  # noqa: E402

WORKLOADS = ["logs.py", "records.py", "exprs.py", "templates.py", "tasks.py", "shapes.py"]

# Runs one workload under the sampler; writes {"samples": n, "hits": {function: samples}}.
CHILD = r"""
import _thread, contextlib, io, json, runpy, sys, time
clock, script, out = sys.argv[1:4]
sys.argv = [script]
interval, hits, taken, stop = 0.001, {}, [0], [False]
main = _thread.get_ident()
cpu_clock = time.pthread_getcpuclockid(main)
def look():
    last = time.clock_gettime(cpu_clock)
    due = time.perf_counter()
    while not stop[0]:
        due += interval
        time.sleep(max(due - time.perf_counter(), interval / 4))
        if time.perf_counter() > due + interval:
            due = time.perf_counter()
        used, last = time.clock_gettime(cpu_clock) - last, time.clock_gettime(cpu_clock)
        if clock == "cpu" and used < interval / 4:
            continue
        frame, seen = sys._current_frames().get(main), set()
        while frame is not None:
            code = frame.f_code
            key = "%s:%s" % (code.co_filename.rsplit("/", 1)[-1], code.co_qualname)
            if key not in seen:
                seen.add(key)
                hits[key] = hits.get(key, 0) + 1
            frame = frame.f_back
        taken[0] += 1
sys.setswitchinterval(interval / 8)
_thread.start_new_thread(look, ())
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(script, run_name="__main__")
stop[0] = True
time.sleep(0.01)
with open(out, "w") as f:
    json.dump({"samples": taken[0], "hits": dict(hits)}, f)
"""


def agreement(runs):
    """(samples per run, hottest-5 share spread in points, differences beyond chance, compared)."""
    first = runs[0]
    top = sorted((k for k in first["hits"] if not k.endswith("<module>")), key=lambda k: -first["hits"][k])[:5]

    def share(r, k):
        return 100.0 * r["hits"].get(k, 0) / max(r["samples"], 1)

    spread = max((max(share(r, k) for r in runs) - min(share(r, k) for r in runs) for k in top), default=0.0)
    pairs = [(a, b) for a, b in itertools.combinations(runs, 2) if a["samples"] and b["samples"]]
    beyond = sum(differs_beyond_chance(a["hits"].get(k, 0), a["samples"], b["hits"].get(k, 0), b["samples"])
                 for a, b in pairs for k in top)
    return [r["samples"] for r in runs], spread, beyond, len(pairs) * len(top)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--minor", nargs="*", default=["3.11", "3.12", "3.13"])
    a = ap.parse_args()
    print("| workload | CPython | clock | samples per run | hottest-5 share spread | differences beyond chance |")
    print("|---|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for minor, python in interpreters(a.minor):
            if python.endswith("python-pyodide"):
                continue   # no threads there: pyodide's sampler already runs on CPU-time ticks
            for script in WORKLOADS:
                runs = {"wall": [], "cpu": []}
                for k in range(a.runs):
                    for clock in runs:   # interleaved, so both clocks see the same machine
                        out = os.path.join(tmp, "%s-%d.json" % (clock, k))
                        subprocess.run([python, "-c", CHILD, clock, script, out], cwd=WORKLOADS_DIR, check=True,
                                       stdout=subprocess.DEVNULL)
                        with open(out) as f:
                            runs[clock].append(json.load(f))
                for clock, rs in runs.items():
                    samples, spread, beyond, compared = agreement(rs)
                    print("| %s | %s | %s | %d–%d | %.1f pp | %d of %d |" % (script[:-3], minor, clock, min(samples),
                                                                          max(samples), spread, beyond, compared),
                          flush=True)


if __name__ == "__main__":
    main()

"""What reading the JIT's tier-2 executors costs the harness (docs/benchmarks.md, "JIT executors").

    cat crates/cli/src/harness/*.py > /tmp/harness.py
    PYTHON_JIT=1 .tools/native-python/3.14/usr/bin/python3.14 bench/jit_executors.py /tmp/harness.py

Loads the joined harness as a module, runs bench/workload.py 20, then times over every live
function's code: the snapshot of its adaptive bytecode, finding its executors
(`read_executors`) and decoding them (`decode_trace`), as `specdiff dump` does.
"""

import gc
import importlib.util
import os
import runpy
import sys
import time
import types

spec = importlib.util.spec_from_file_location("specdiff_harness", sys.argv[1])
h = importlib.util.module_from_spec(spec)
spec.loader.exec_module(h)
here = os.path.dirname(os.path.abspath(__file__))
sys.argv = ["workload.py", "20"]
t0 = time.perf_counter()
runpy.run_path(os.path.join(here, "workload.py"), run_name="__main__")
run_s = time.perf_counter() - t0
h._T = h._T or h.tables()
codes = {id(o.__code__): o.__code__ for o in gc.get_objects() if type(o) is types.FunctionType}
t0 = time.perf_counter()
snap = {k: c._co_code_adaptive for k, c in codes.items()}
t1 = time.perf_counter()
found = {k: ex for k, c in codes.items() for ex in (h.read_executors(c, snap[k]),) if ex} \
    if h.executors_possible() else {}
t2 = time.perf_counter()
d = h.Dump()
n = sum(1 for exs in found.values() for ex in exs if h.decode_trace(d, *ex))
t3 = time.perf_counter()
print("run %.3f s, %d code objects: snapshot %.2f ms, find executors %.2f ms, %d executors, "
      "decode %.2f ms" % (run_s, len(codes), 1e3 * (t1 - t0), 1e3 * (t2 - t1), n, 1e3 * (t3 - t2)))

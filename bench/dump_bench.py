"""Benchmark: specdiff's harness decoder against a plain `dis.get_instructions(adaptive=True)`
loop, over every code object of a whole-program workload (bench/workload.py).

Run it under the interpreter to measure:  PYTHON bench/dump_bench.py [REPEAT]
It prints one line per measure and the ratio; scripts/bench-dump.sh runs it for every
interpreter and adds the dump sizes. Both sides decode the same code objects in the same
process, after the same warm-up, so the ratio does not depend on the machine's speed.
"""

import dis
import gc
import importlib.util
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def all_code_objects():
    """Every code object reachable from live functions, recursing through co_consts."""
    seen, stack = {}, []
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType):
            stack.append(obj.__code__)
    while stack:
        code = stack.pop()
        if id(code) in seen:
            continue
        seen[id(code)] = code
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return list(seen.values())


def best_of(repeat, fn):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    harness = load("specdiff_harness", os.path.join(ROOT, "crates/cli/src/harness.py"))
    workload = load("workload", os.path.join(HERE, "workload.py"))
    workload.load_modules()
    workload.workload(10, "base")
    codes = all_code_objects()
    n_instr = sum(len(harness.decode_code(c, harness.Dump())) for c in codes)

    def with_dis():
        for c in codes:
            list(dis.get_instructions(c, adaptive=True))

    def with_harness():
        # One Dump (string and op tables) for all code objects, as in a real dump.
        dump = harness.Dump()
        for c in codes:
            harness.decode_code(c, dump)

    t_dis = best_of(repeat, with_dis)
    t_harness = best_of(repeat, with_harness)
    v = "%d.%d.%d" % sys.version_info[:3]
    print(f"python {v}: {len(codes)} code objects, {n_instr} instructions")
    print(f"python {v}: dis.get_instructions loop {t_dis * 1000:.0f} ms")
    print(f"python {v}: harness decode_code       {t_harness * 1000:.0f} ms")
    print(f"python {v}: ratio {t_dis / t_harness:.1f}x faster than dis")


if __name__ == "__main__":
    main()

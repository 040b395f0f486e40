"""Benchmark: specdiff's harness decoder against a plain `dis.get_instructions(adaptive=True)`
loop, over every code object of a whole-program workload (bench/workload.py).

Run it under the interpreter to measure:
    SPECDIFF_HARNESS=FILE PYTHON bench/dump_bench.py [REPEAT] [--raw-code FILE]
FILE is the harness `specdiff dump` runs (`cargo run -q -p specdiff-cli --example harness -- FILE`
writes it). It prints one line per measure and the ratio; bench/dump_bench.sh runs it for every
interpreter, adds the Rust half of the decoding and the dump sizes. Both sides decode the same
code objects in the same process, after the same warm-up, so the ratio does not depend on the
machine's speed.

The harness's side is what the harness does per code object: decode_code, and for the code
objects whose positions and caches it leaves to the CLI, co_linetable.hex() and
_co_code_adaptive.hex() (what it hands over). The CLI's half, finishing those instructions in
Rust, is timed by crates/cli/examples/capture_bench.rs on what --raw-code FILE writes;
bench/dump_bench.sh adds the two.

The two sides take turns, REPEAT rounds (default 5), and each keeps its best round. The ratio
is of CPU time (time.process_time: both sides are single-threaded and CPU-bound), which on a
shared machine moves much less than wall time; the wall times are printed too.
"""

import dis
import gc
import importlib.util
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))


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


def best_of(repeat, sides):
    """{name: (best CPU time, best wall time)}, the sides taking turns."""
    best = {name: (float("inf"), float("inf")) for name in sides}
    for _ in range(repeat):
        for name, fn in sides.items():
            c, w = time.process_time(), time.perf_counter()
            fn()
            c, w = time.process_time() - c, time.perf_counter() - w
            best[name] = (min(best[name][0], c), min(best[name][1], w))
    return best


def main():
    args = sys.argv[1:]
    raw_code = None
    if "--raw-code" in args:
        i = args.index("--raw-code")
        raw_code = args[i + 1]
        del args[i:i + 2]
    repeat = int(args[0]) if args else 5
    harness_file = os.environ.get("SPECDIFF_HARNESS") or sys.exit(
        "dump_bench: set SPECDIFF_HARNESS to the harness file "
        "(cargo run -q -p specdiff-cli --example harness -- FILE writes it)")
    harness = load("specdiff_harness", harness_file)
    workload = load("workload", os.path.join(HERE, "workload.py"))
    workload.load_modules()
    workload.workload(10, "base")
    codes = all_code_objects()
    decoded = [harness.decode_code(c, harness.Dump()) for c in codes]
    n_instr = sum(len(instructions) for instructions, _ in decoded)
    if raw_code:
        import json
        t = harness.tables()
        counted = {op for op, kind in enumerate(t.counter) if kind in ("adaptive", "jit")}
        with open(raw_code, "w") as f:
            json.dump([[c.co_firstlineno, c.co_linetable.hex(), c._co_code_adaptive.hex(),
                        [i[0] for i in instructions],
                        [c._co_code_adaptive[i[0]] in counted for i in instructions]]
                       for c, (instructions, left) in zip(codes, decoded) if left], f)

    def with_dis():
        for c in codes:
            list(dis.get_instructions(c, adaptive=True))

    def with_harness():
        # One Dump (string and op tables) for all code objects, as in a real dump.
        dump = harness.Dump()
        decode = harness.decode_code
        for c in codes:
            raw = c._co_code_adaptive
            if decode(c, dump, raw)[1]:
                c.co_linetable.hex()
                raw.hex()

    best = best_of(repeat, {"dis": with_dis, "harness": with_harness})
    (c_dis, w_dis), (c_harness, w_harness) = best["dis"], best["harness"]
    v = "%d.%d.%d" % sys.version_info[:3]
    print(f"python {v}: {len(codes)} code objects, {n_instr} instructions, best of {repeat}")
    print(f"python {v}: dis.get_instructions loop {c_dis * 1000:.0f} ms CPU"
          f" ({w_dis * 1000:.0f} ms wall)")
    print(f"python {v}: harness decode_code       {c_harness * 1000:.0f} ms CPU"
          f" ({w_harness * 1000:.0f} ms wall)")
    print(f"python {v}: ratio {c_dis / c_harness:.1f}x faster than dis"
          f" (wall: {w_dis / w_harness:.1f}x), Python half only")
    print(f"cpu_ms dis={c_dis * 1000:.1f} harness={c_harness * 1000:.1f}")


if __name__ == "__main__":
    main()

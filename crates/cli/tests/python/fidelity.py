"""Check the harness's bytecode decoder against dis, on real code, under one interpreter.

    PYTHON crates/cli/tests/python/fidelity.py [--time] [--static] [--show N]
                                               [--left-to-cli FILE]

Imports a set of stdlib modules and the test workload (tests/programs/workload) with an "exec"
audit hook recording module bodies, runs a workload (classes, generators, comprehensions,
lambdas, async code, f-strings, match, except*, a function with EXTENDED_ARG, code left
instrumented by sys.monitoring, ...) so the code gets specialized, then compares, for every
code object reachable (module bodies, gc functions / generators / coroutines / frames, and
co_consts recursively, and a few hand-made code objects with odd location tables),
harness.decode_code(code, Dump()) with dis.get_instructions(code, adaptive=True): opname,
offset, arg, argrepr, line (positions.lineno) and positions; and the raw inline cache words
and decoded counter with _co_code_adaptive read directly. Where decode_code leaves positions,
cache words and counters to the CLI (crates/core capture.rs reads them from co_linetable and
the adaptive code), --left-to-cli FILE writes, per such code object, its raw bytes, its
instructions' offsets and counter kinds, and what they must come to (dis's positions, the
cache words, the counters) as JSON, for crates/cli/tests/harness_python.rs to check the Rust
side with. --static also compiles the source of every imported .py
module (code that never ran). --time times harness.decode_code against a plain dis loop over
the same code objects. Prints the first mismatches readably; exits 1 on any mismatch.

The harness is the file SPECDIFF_HARNESS names, as `specdiff dump` runs it: harness_python.rs
writes the one the binary embeds; by hand, `cargo run -q -p specdiff-cli --example harness --
FILE` writes it (build.rs joins it from crates/cli/src/harness/).
"""
import gc
import importlib.util
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.abspath(os.environ.get("SPECDIFF_HARNESS") or sys.exit(
    "fidelity: set SPECDIFF_HARNESS to the harness file "
    "(cargo run -q -p specdiff-cli --example harness -- FILE writes it)"))
WORKLOAD = os.path.normpath(os.path.join(HERE, "..", "programs", "workload"))

EXEC_CODES = []

# The counter word's split, as docs/dump-format.md documents it per version (12/4 up to 3.14,
# 13/3 from 3.15): written out here, so that it checks the harness's measured layout.
BACKOFF_BITS = 3 if sys.version_info >= (3, 15) else 4


def split(word):
    return [word >> BACKOFF_BITS, word & ((1 << BACKOFF_BITS) - 1)]

def _audit(event, args):
    if event == "exec":
        EXEC_CODES.append(args[0])


sys.addaudithook(_audit)
sys.path.insert(0, WORKLOAD)

# Imported after the hook, so that its module body is recorded too.
_spec = importlib.util.spec_from_file_location("harness", HARNESS)
harness = sys.modules["harness"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)
import dis  # noqa: E402
import opcode  # noqa: E402

STDLIB = ["json", "email.parser", "email.message", "argparse", "asyncio", "dataclasses",
          "decimal", "fractions", "collections", "textwrap", "string", "re", "enum",
          "functools", "itertools", "statistics", "pathlib", "typing", "csv", "difflib",
          "pprint", "heapq", "bisect", "random", "datetime", "calendar", "ipaddress",
          "tokenize", "ast", "inspect", "contextlib", "operator", "unittest", "logging",
          "urllib.parse", "html.parser", "configparser", "shlex", "fnmatch", "glob"]


def import_all():
    mods = []
    for name in STDLIB:
        try:
            mods.append(__import__(name))
        except Exception as e:   # pyodide lacks a few
            print("fidelity: skipping %s (%s)" % (name, e))
    return mods


# A source with everything odd we know of: run it after compiling so it gets specialized.
TRICKY = r'''
import asyncio, dataclasses, decimal, json, os
from fractions import Fraction

def big(x):
    # > 256 constants and names: EXTENDED_ARG on LOAD_CONST / jumps over long bodies
    t = 0
''' + "".join("    t += x * %d + %d.5 if x > %d else -%d\n" % (i, i, i, i)
              for i in range(300)) + r'''
    return t

class Base:
    def __init__(self, v):
        self.v = v
    def get(self):
        return self.v

class Child(Base):
    __slots__ = ()
    def get(self):
        return super().get() + 1          # LOAD_SUPER_ATTR (3.12+)
    @property
    def twice(self):
        return self.v * 2

@dataclasses.dataclass
class Item:
    name: str
    qty: int = 0
    def total(self, price):
        return self.qty * price

def fstrings(a, b):
    return f"{a!r} {b!s:>10} {a!a} {a:{b}} {b:>{a}}"

def matcher(x):
    match x:
        case {"k": v, **rest}:
            return v, rest
        case [1, *others]:
            return others
        case Item(name=n, qty=q) if q > 1:
            return n
        case str() | bytes():
            return "text"
        case _:
            return None

def gen(n):
    for i in range(n):
        try:
            yield i
        finally:
            pass
    yield from range(2)

async def agen(n):
    for i in range(n):
        yield i

async def coro(n):
    s = 0
    async for i in agen(n):
        s += i
    async with Ctx() as c:
        s += c
    return s

class Ctx:
    async def __aenter__(self):
        return 1
    async def __aexit__(self, *a):
        return False

def exc_groups():
    try:
        raise ExceptionGroup("g", [ValueError(1), TypeError(2)])
    except* ValueError as e:
        a = e
    except* TypeError:
        pass
    return a

def comprehensions(xs):
    return ([x for x in xs if x % 2], {x: x * x for x in xs}, {x % 3 for x in xs},
            list(x for x in xs), [(a, b) for a in xs for b in xs if a < b][:3],
            (lambda y, *, z=1: y + z)(2))

def closures():
    n = 0
    def inc(k=1):
        nonlocal n
        n += k
        return n
    return inc

def misc(d, xs, s):
    a, *b = xs
    x = d.get("a") or d.get("b", 3)
    y = not x
    z = x is None, x is not None, 1 in xs, 1 not in xs
    del d["a"]
    xs[0] += 1
    xs[1:2] = [7]
    s.add(3)
    w = -x, +x, ~x
    u = xs[::2]
    with open(os.devnull) as f:
        pass
    global G
    G = (a, b, x, y, z, w, u)
    assert G
    import os.path as p
    from json import dumps as du
    return du(G), p.sep

def drive(c):
    try:
        while True:
            c.send(None)
    except StopIteration as e:
        return e.value

def workload():
    r = 0
    for i in range(300):
        r += big(i % 50)
        r += Child(i).get() + Child(i).twice + Base(i).get()
        r += Item("a", i).total(2)
        fstrings(i, 3)
        matcher({"k": i, "z": 1}); matcher([1, 2]); matcher(Item("q", 3)); matcher("s")
        matcher(3.5)
        r += sum(gen(5))
        r += drive(coro(4))
        exc_groups()
        comprehensions(range(10))
        inc = closures(); inc(); inc(2)
        misc({"a": None, "b": i}, [1, 2, 3], set())
        r += int(decimal.Decimal(i) / 7) + Fraction(i, 3).numerator
        json.loads(json.dumps({"i": i, "l": [1.5, None, True, "x"]}))
    return r
'''


def instrumented():
    """3.12+: code carrying INSTRUMENTED_* opcodes (what a debugger or coverage leaves)."""
    mon = getattr(sys, "monitoring", None)
    if mon is None:
        return

    def target(n):
        total = 0
        for i in range(n):
            if i % 3:
                total += len(str(i))
        return total

    tool = mon.PROFILER_ID
    mon.use_tool_id(tool, "fidelity")
    ev = mon.events
    events = ev.LINE | ev.INSTRUCTION | ev.JUMP | ev.BRANCH | ev.CALL | ev.PY_RETURN
    mon.set_local_events(tool, target.__code__, events)
    mon.register_callback(tool, ev.LINE, lambda *a: None)
    target(50)
    return target


def run_workload():
    import shapes
    import textproc
    import asyncwork
    ns = {"__name__": "tricky", "__file__": "<tricky>"}
    code = compile(TRICKY, "<tricky>", "exec")
    EXEC_CODES.append(code)
    exec(code, ns)
    ns["workload"]()
    import argparse
    import email.parser
    import statistics
    import textwrap
    import difflib
    p = argparse.ArgumentParser(prog="x")
    p.add_argument("--n", type=int, default=3)
    p.add_argument("files", nargs="*")
    for _ in range(20):
        p.parse_args(["--n", "5", "a", "b"])
        email.parser.Parser().parsestr("From: a@b\nSubject: hi\n\nbody\n")
        statistics.mean([1, 2, 3.5])
        textwrap.fill("hello world " * 20, 30)
        list(difflib.unified_diff(["a\n", "b\n"], ["a\n", "c\n"]))
    points = [shapes.Point(i, i) for i in range(500)]
    for _ in range(30):
        shapes.centroid(points)
        shapes.total_area([shapes.Circle(1), shapes.Square(2), shapes.Blob()])
    textproc.stats(textproc.SAMPLE)
    asyncwork.run(2, 10)


def linetable_entries(table):
    """(start, end) byte ranges of the entries of a co_linetable (Objects/locations.md)."""
    out, i = [], 0
    while i < len(table):
        start, form = i, table[i] >> 3 & 15
        i += 1
        varints = 4 if form == 14 else 1 if form == 13 else 0
        i += 0 if form == 15 else 2 if form >= 10 and not varints else 1 if not varints else 0
        for _ in range(varints):
            while table[i] & 64:
                i += 1
            i += 1
        out.append((start, i))
    return out


def odd_linetables():
    """Hand-made code objects whose location tables the compiler never writes: one that ends
    early (an entry boundary before the end: dis gives no positions past it) and one whose
    lines go below 0 (dis gives the negative numbers; a dump holds none: the CLI reads them
    as no line)."""
    def sample(x):
        total = 0
        for i in range(x):
            total += i * 2
        return total
    code = sample.__code__
    table = code.co_linetable
    entries = linetable_entries(table)
    ends_early = code.replace(co_linetable=table[:entries[len(entries) // 2][0]])
    first_end = entries[0][1]
    units = (table[0] & 7) + 1
    delta = -(code.co_firstlineno + 5)     # first entry on line -5, the ones after it too
    signed = (-delta << 1) | 1
    varint = bytes([signed & 63 | 64, signed >> 6]) if signed >= 64 else bytes([signed])
    long_entry = bytes([0xf0 | (units - 1)]) + varint + bytes([0, 1, 2])
    negative = code.replace(co_linetable=long_entry + table[first_end:])
    return [ends_early, negative]


def all_codes(static):
    found = harness.find_codes([c for c in EXEC_CODES if type(c) is types.CodeType])
    codes = list(found.codes.values()) + odd_linetables()
    if static:
        seen = set()
        for mod in list(sys.modules.values()):
            path = getattr(mod, "__file__", None)
            if not isinstance(path, str) or not path.endswith(".py") or path in seen:
                continue
            seen.add(path)
            try:
                with open(path, "rb") as f:
                    top = compile(f.read(), path, "exec")
            except Exception:
                continue
            stack = [top]
            while stack:
                c = stack.pop()
                codes.append(c)
                stack.extend(k for k in c.co_consts if type(k) is types.CodeType)
    return codes


def cache_size(name):
    ice = opcode._inline_cache_entries
    if not isinstance(ice, list):   # a dict by name (3.13, 3.14), a frozendict (3.15)
        return ice.get(name, 0)
    return ice[opcode.opmap[name]] if name in opcode.opmap else 0


UNSTABLE = []
KEEP = []
LEFT_TO_CLI = []   # for --left-to-cli: what the CLI must make of the raw code


def decode_names(code):
    """harness.decode_code with names instead of table indexes: (left to the CLI, a list of
    (offset, opname, arg, argrepr, positions 4-tuple, cache words, counter or None))."""
    dump = harness.Dump()
    out = []
    instructions, left = harness.decode_code(code, dump)
    for ins in instructions:
        p = (None,) * 4 if ins[5] is None else (ins[4],) + tuple(ins[5])
        out.append((ins[0], dump.ops[ins[1]][0], ins[2], dump.strings[ins[3]], p, list(ins[6]),
                    list(ins[7]) if len(ins) > 7 else None))
    return left, out


def compare(code, tries=3):
    """Returns a list of mismatch descriptions (empty when equal)."""
    def dis_view():
        ins = list(dis.get_instructions(code, adaptive=True))
        return ins, [(d.offset, d.opname, d.arg, d.argrepr, d.positions) for d in ins]

    raw = code._co_code_adaptive
    before = dis_view()
    left, mine = decode_names(code)
    after = dis_view()
    if before[1] != after[1] or raw != code._co_code_adaptive:
        # Code that runs while we compare (dis's own, this file's): it changes under us.
        if tries:
            return compare(code, tries - 1)
        UNSTABLE.append(code)
        return []
    theirs = after[0]
    problems = []
    if left:   # checked on the Rust side (--left-to-cli), with the expected values below
        record = {"first_line": code.co_firstlineno, "linetable": code.co_linetable.hex(),
                  "code": raw.hex(), "where": "%s (%s:%d)" % (
                      code.co_qualname, code.co_filename, code.co_firstlineno),
                  "instructions": []}
        LEFT_TO_CLI.append(record)
    if len(mine) != len(theirs):
        problems.append("instruction count: harness %d, dis %d" % (len(mine), len(theirs)))
    for m, d in zip(mine, theirs):
        off, opname, arg, argrepr, pos, cache, counter = m
        got = (off, opname, arg, argrepr) + (() if left else (pos[0], pos))
        want = (d.offset, d.opname, d.arg, d.argrepr) + (
            () if left else (d.positions.lineno, tuple(d.positions)))
        if got != want:
            problems.append("offset %d: harness %r\n%s     dis %r" % (d.offset, got, " " * 12,
                                                                       want))
        # The cache belongs to the instruction in co_code on 3.13+ (dis walks co_code there;
        # INSTRUMENTED_* / ENTER_EXECUTOR hide it in the adaptive code).
        walked = code.co_code[off] if sys.version_info >= (3, 13) else d.opcode
        fam = dis._all_opname[dis._deoptop(walked)]
        words = [int.from_bytes(raw[k:k + 2], sys.byteorder)
                 for k in range(off + 2, off + 2 + 2 * cache_size(fam), 2)]
        counter_kind = harness.tables().counter[d.opcode]
        if left:
            counted = bool(words) and counter_kind in ("adaptive", "jit")
            record["instructions"].append(
                {"offset": d.offset, "counted": counter_kind in ("adaptive", "jit"),
                 "positions": list(d.positions), "cache": words,
                 "counter": split(words[0]) if counted else None})
            continue
        if cache != words:
            problems.append("offset %d: cache words %r, expected %r" % (off, cache, words))
        if (counter is not None) != (bool(words) and counter_kind in ("adaptive", "jit")):
            problems.append("offset %d: counter %r for %s" % (off, counter, fam))
        elif counter is not None and counter != split(words[0]):
            problems.append("offset %d: counter %r, words %r" % (off, counter, words))
        if len(problems) > 5:
            break
    return problems


def timing(codes):
    # Both sides keep what they produce, with the cyclic gc off (as the harness runs).
    def run_dis():
        return [[(i.opname, i.offset, i.arg, i.argrepr, i.positions)
                 for i in dis.get_instructions(c, adaptive=True)] for c in codes]

    def run_mine():
        dump = harness.Dump()
        return [harness.decode_code(c, dump)[0] for c in codes]

    best = {}
    gc.collect()
    gc.disable()
    for name, fn in (("dis", run_dis), ("harness", run_mine)) * 3:
        t0 = time.perf_counter()
        fn()
        best[name] = min(best.get(name, 1e9), time.perf_counter() - t0)
    gc.enable()
    n = sum(len(c.co_code) for c in codes) // 2
    print("timing: %d code objects, %d code units: dis %.3f s, harness.decode_code %.3f s, "
          "ratio %.1fx" % (len(codes), n, best["dis"], best["harness"],
                           best["dis"] / best["harness"]))


def main(argv):
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 10
    import_all()
    run_workload()
    KEEP.append(instrumented())   # keep its instrumented code alive for the comparison
    codes = all_codes("--static" in argv)
    gc.collect()
    bad = 0
    shown = 0
    counted = 0
    for code in codes:
        problems = compare(code)
        counted += 1
        if problems:
            bad += 1
            if shown < show:
                shown += 1
                print("MISMATCH %s (%s:%d):" % (code.co_qualname, code.co_filename,
                                                code.co_firstlineno))
                for p in problems[:6]:
                    print("    " + p)
    ninstr = sum(len(decode_names(c)[1]) for c in codes)
    v = ".".join(map(str, sys.version_info[:3]))
    print("fidelity %s: %d code objects, %d instructions, %d mismatching code objects "
          "(%d skipped: changing while compared)" % (v, counted, ninstr, bad, len(UNSTABLE)))
    if "--left-to-cli" in argv:
        import json
        with open(argv[argv.index("--left-to-cli") + 1], "w") as f:
            json.dump(LEFT_TO_CLI, f)
        print("positions and caches of %d code objects left to the CLI: written for the Rust "
              "check" % len(LEFT_TO_CLI))
    if "--time" in argv:
        timing(codes)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

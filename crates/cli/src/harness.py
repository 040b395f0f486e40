"""specdiff harness: run a Python program and dump what the specializing interpreter did to it.

Sections, in order (each opens with a `# ----` banner and a comment saying what it owns):
    1. Set-up                  imports allowed before the snapshot, constants, argrepr kinds, log
    2. Opcode tables           the running version's opcode facts, from its own `opcode` module
    3. Decoding                adaptive bytecode -> dump instruction arrays, as dis would list them
    4. Sampling thread         hotness (sampled stacks) and churn (opcodes changing over time)
    5. Finding code objects    every code object of the run, after it, and what kind each is
    6. Building the dump       which code is kept and ran, its entries, source lines
    7. Running the target      command line, __main__, running the program, exit status, main()
    8. The dump document       assembling the JSON document, timing, writing files atomically

The Rust CLI copies this file to a temporary folder and runs it (stdlib only, CPython 3.11-3.14).
It is one file on purpose: importing a second .py file would run importlib's path finder and
source loader (Python code) before the program starts, and what that does to their
specialization would show in the program's dump (importing one file changes the adaptive
bytecode of 20-23 of importlib._bootstrap_external's ~110 functions on 3.11-3.13); the
numbered sections stand in for modules.

Usage:

    PYTHON harness.py --out OUT.json [options] -- script PATH ARGS...
                                                 | module NAME ARGS...
                                                 | code SOURCE ARGS...
Options:
    --out PATH          where to write the dump (plain UTF-8 JSON, written to PATH.tmp then renamed),
                        and first PATH.extra.json: what the CLI finishes the dump with ("raw_code",
                        "pystats_raw_files"), kept out of the dump so the CLI reads each once
    --include GLOB      keep code whose module name or file name matches (repeatable; none = all)
    --exclude GLOB      drop code whose module name or file name matches (repeatable; wins)
    --include-unrun     also dump code objects with no evidence of having run
    --interval-ms MS    sampler interval in milliseconds (default 1.0)
    --no-sample         no sampling thread (sampler mode "off")
    --pystats-dir DIR   on a pystats build: where the interpreter writes its stats files
                        (CPython: /tmp/py_stats); new files there are listed in the dump

The program runs as __main__ with its own sys.argv and sys.path[0], like `python PATH`,
`python -m NAME` and `python -c SOURCE`; its stdin/stdout/stderr are untouched and this file
prints nothing to stdout (diagnostics go to stderr, prefixed "specdiff: "). When the program
ends (normally, SystemExit, an uncaught exception, Ctrl-C) the dump is written and the harness
exits with the program's status. Exit status 3: not CPython 3.11+, or the dump could not be
written. The format is docs/dump-format.md (version 1).

With --pystats-dir (the interpreter is a pystats build) and os.fork, the dump is built and
written by a forked child that leaves with os._exit, the parent waiting for it: the counters
this process writes when it exits (3.11: all of them) then cover start-up, the harness's
set-up and the program, not the building of the dump. Not when threads of the program are
still running (the dump looks at their frames, which a child does not have).

What this file owns, and the rules it applies:
- Decoding `code._co_code_adaptive` with the running version's own opcode tables (from the
  `opcode` module; `dis` is not imported) into exactly what `dis.get_instructions(code,
  adaptive=True)` gives (opname, offset, arg, argrepr, positions), plus the raw inline cache
  words: `decode_code(code, Dump())` returns a code object's dump instruction arrays
  (docs/benchmarks.md "Dump": how fast). What is only byte-format work is left to the CLI
  where it can be: positions and inline cache words. For each code object decoded that way,
  OUT.extra.json lists, in "raw_code", its `co_linetable` and adaptive code, and
  `specdiff dump` fills in each instruction's line, positions, cache words and counter
  (crates/core capture.rs) before writing the final dump. Where dis
  is itself wrong we are wrong the same way: 3.12 dis walks INSTRUMENTED_* code (left by a
  debugger or coverage tool) into its caches.
- Finding code objects: module bodies through the "exec" audit event, everything else through
  gc (functions, generators, coroutines, frames), the sampled stacks, and co_consts recursively.
  Their adaptive bytecode is snapshotted before the harness runs any more library code.
- Identity (`identities`): what tells apart code objects sharing a module and qualname, from
  what the running program knows: `owner`, the `__qualname__` all live functions using the code
  agree on (dataclasses, namedtuple, functools.wraps set it: `Point.__init__`); `made_at`, the
  position of the LOAD_CONST that loads the code in its enclosing code (a lambda's column);
  `body`, a CRC-32 of its bytecode, names and constants. The dump lists code sorted by file,
  line, qualname, name, these, and last its adaptive bytecode: never by memory order (which
  changes with PYTHONHASHSEED and made repeated runs pair differently, issue 14).
- `ran`: a module body seen by the exec hook; code seen on a sampled stack or on a live frame /
  suspended generator; adaptive evidence (3.11: any quickened opname, since 3.11 quickens only
  warm code; 3.12+: any specialized opname, since 3.12 inserts superinstructions at creation);
  a first cache word different from its initial value (probed at start-up by compiling code
  that never runs); a class body whose class is alive; and the enclosing code of any code that
  ran or of a live function (it executed the MAKE_FUNCTION).
- Class body: a code object that is not CO_OPTIMIZED and is not named "<module>" (checked on
  3.11-3.14: class bodies are the only such code the compiler makes).
- Hotness: a thread samples sys._current_frames() (never settrace/setprofile/sys.monitoring,
  which leave INSTRUMENTED_* opcodes behind). While it samples, the GIL switch interval is an
  eighth of the sampling interval, so the thread gets the GIL soon after each sleep, and a look
  counts a thread only if that thread used CPU since its last look (its CPU clock; the wall
  clock where the platform has none). Churn: at most every 10 ms per sampled code
  object, the opcodes at its instruction offsets are compared with the last look, and once
  more at the end; the first change seen at a site (e.g. to its first specialization) counts.
- Source lines (finish_entries): functions, lambdas, generators, coroutines and
  comprehensions keep their whole text; module and class bodies only their instructions'
  lines (a class body's range would drag in every method's text).
- Not recorded: a program leaving through os._exit() (the interpreter's status is the
  program's, and the CLI passes it on), what threads still running after the main program
  returned do later (the dump is written before interpreter shutdown), and other processes the
  program starts (os.fork, multiprocessing): a warning counts them, and a forked child that
  returns into the harness writes no dump of its own.
- Forking while the sampler runs: CPython 3.12+ warns that forking a multi-threaded process
  may deadlock; when the sampler is the only other thread that warning is the harness's doing,
  not the program's, so it is silenced for that fork (`_before_fork`), and only then.
"""

# ---------------------------------------------------------------------------------------------
# 1. Set-up
#
# Owns: the modules imported before the program runs (only ones already loaded at start-up,
# or written in C: importing them runs no Python code that would then show up in the dump;
# others are imported after the dump's snapshot), the dump's constants (generator name, code
# flags, code kinds, the churn period), the argrepr kind numbers shared by sections 2 and 3,
# and `log`, the one way this file writes diagnostics (stderr, "specdiff: ").

import _thread
import gc
import os
import sys
import time
import types
from _operator import itemgetter
from itertools import compress

GENERATOR = "specdiff 0.1.0"
# The newest CPython whose bytecode rules (argrepr encodings, counter kinds) this file knows.
# A newer one is decoded with these rules, checked against its own dis after the run, and
# corrected from it (check_against_dis).
NEWEST_KNOWN = (3, 15)
CO_OPTIMIZED, CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR = 0x1, 0x20, 0x80, 0x200
COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")
WHOLE_SOURCE_EXCEPT = ("module", "class")   # kinds whose source is only their instruction lines
CodeType, FunctionType, FrameType = types.CodeType, types.FunctionType, types.FrameType
GEN_TYPES = {types.GeneratorType: "gi", types.CoroutineType: "cr", types.AsyncGeneratorType: "ag"}
SELF_FILE = (lambda: 0).__code__.co_filename
PROBE_FILE = "<specdiff-probe>"
CHURN_EVERY_S = 0.010
# The sampler thread's switch interval is the sampling interval over this; its sleep between
# two looks at least the interval over SLEEP_FLOOR_SHARE (docs/benchmarks.md, "Sampler rate").
SWITCH_SHARE = 8
SLEEP_FLOOR_SHARE = 4
# A look counts a thread only when it used at least the interval over this of CPU since its
# last look (ThreadCPU).
CPU_LOOK_SHARE = 4

# Argrepr kinds: which rule of dis.get_instructions gives an instruction's argrepr. K_NOARG:
# no arg (0, so that `arg if kind else None` is dis's arg); K_NONE: an arg, no argrepr;
# K_ODD: an opcode decode_code leaves to _decode_general. decode_code's loop tests some of
# these numbers as literals, kept in step by the assert.
(K_NOARG, K_NONE, K_LOCAL, K_CONST, K_GLOBAL, K_ATTR, K_JUMP, K_NAME, K_SUPER, K_FASTFAST,
 K_EXT, K_ODD, K_COMPARE, K_FORMAT, K_FLAGS, K_BINOP, K_INTR1, K_INTR2, K_CONVERT, K_COMMON,
 K_SPECIAL, K_IS, K_CONTAINS, K_IMPORT) = range(24)
assert (K_LOCAL, K_CONST, K_GLOBAL, K_ATTR, K_JUMP, K_NAME, K_EXT, K_ODD) == (
    2, 3, 4, 5, 6, 7, 10, 11)
ZEROS = (0,) * 256      # argrepr table of the kinds without one: string index 0 for every arg
NONES = (None,) * 256   # argrepr table of the kinds decode_code never tables: "look it up"


def log(msg):
    print("specdiff: " + msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# 2. Opcode tables
#
# Owns: the per-version opcode tables, built once from the version's own dis/opcode modules
# (`tables()`): names, families, specialized flags, inline cache sizes, counter kinds, argrepr
# kinds, jump directions, and each cached instruction's initial counter value, probed by
# compiling code that never runs. Every table is indexed by the opcode byte found in
# _co_code_adaptive (specialized or not), so the decoding loop never has to look up the base
# instruction first. Also `instruction_offsets`, the instruction (not cache) offsets of code.

class Tables:
    pass


_T = None


def tables():
    global _T
    if _T is None:
        _T = _build_tables()
        _T.initial = _probe_initial_counters(_T)   # needs decode_code, hence _T set first
        _T.backoff_bits = _backoff_bits(_T)
    return _T


def _backoff_bits(t):
    """How many low bits of an adaptive counter word are its backoff, read from the
    interpreter: 3.12+ start a generic instruction at value 1, backoff 1, i.e. word
    (1 << bits) | 1 (17 on 3.12-3.14, 9 on 3.15). 3.11 starts at 0 and is split 12/4 like
    3.12-3.14 (its rules read the whole word)."""
    words = [w for op, w in enumerate(t.initial) if w and t.counter[op] == "adaptive"]
    if words:
        w = max(set(words), key=words.count)
        for bits in range(1, 9):
            if w == (1 << bits) | 1:
                return bits
    return 4


def rules_version():
    """The version whose rules this file decodes with: the running one, or for a CPython newer
    than any it knows, the newest it knows (NEWEST_KNOWN; SPECDIFF_ASSUME_NEWEST=3.X pretends
    that is the newest, which is how the tests withhold a version's rules)."""
    newest = NEWEST_KNOWN
    assumed = os.environ.get("SPECDIFF_ASSUME_NEWEST", "")
    if assumed:
        try:
            newest = min(newest, tuple(int(p) for p in assumed.split(".")[:2]))
        except ValueError:
            pass
    return min(sys.version_info[:2], newest)


def _build_tables():
    # Only `opcode` (data) is imported, not `dis`: importing dis runs collections.namedtuple &
    # co, which would then show up in every dump. What dis derives is rebuilt here.
    import opcode
    v = rules_version()
    t = Tables()
    t.v = v
    t.unknown = sys.version_info[:2] > v   # newer than this file's rules: checked against dis
    ice = opcode._inline_cache_entries
    names = list(opcode.opname)   # dis._all_opname: specialized names in the free slots
    if hasattr(opcode, "_specialized_opmap"):
        for name, op in opcode._specialized_opmap.items():
            names[op] = name
    else:
        free = [op for op, name in enumerate(names) if name.startswith("<")]
        for op, name in zip(free, opcode._specialized_instructions):
            names[op] = name
    deoptmap = {spec: base for base, fam in opcode._specializations.items() for spec in fam}
    ops = range(256)
    t.name = [names[op] for op in ops]
    t.deop = [opcode.opmap[deoptmap[n]] if n in deoptmap else op   # dis._deoptop
              for op, n in enumerate(t.name)]
    t.family = [t.name[t.deop[op]] for op in ops]

    def ncache(d):
        return ice[d] if isinstance(ice, list) else ice.get(names[d], 0)

    t.ncache = [ncache(t.deop[op]) for op in ops]
    hasarg = set(getattr(opcode, "hasarg", range(opcode.HAVE_ARGUMENT, 256)))
    # 3.13+ dis walks co_code, not the adaptive code, for the instruction stream and the args;
    # they only differ where ENTER_EXECUTOR or INSTRUMENTED_* replaced an opcode: decode those
    # on a slow path ("odd"), the rest straight from the adaptive code.
    odd = [v >= (3, 13) and (names[op] == "ENTER_EXECUTOR" or names[op].startswith("INSTRUMENTED_"))
           for op in ops]
    t.argmode = [2 if odd[op] else 1 if t.deop[op] in hasarg else 0 for op in ops]
    t.labels = v >= (3, 13)          # 3.13+ shows jump targets as "to L<n>"
    t.cmp_shift = 0 if v < (3, 12) else 4 if v < (3, 13) else 5
    t.global_fmt = "NULL + %s" if v < (3, 13) else "%s + NULL"
    t.attr_fmt = "NULL|self + %s" if v < (3, 13) else "%s + NULL|self"
    t.null_fmt = {K_GLOBAL: t.global_fmt, K_ATTR: t.attr_fmt}
    t.flags = ("defaults", "kwdefaults", "annotations", "closure", "annotate")[:5 if v >= (3, 14)
                                                                             else 4]
    t.nb_ops = [r for _, r in opcode._nb_ops]
    t.intr1 = list(getattr(opcode, "_intrinsic_1_descs", ()))
    t.intr2 = list(getattr(opcode, "_intrinsic_2_descs", ()))
    t.special = list(getattr(opcode, "_special_method_names", ()))
    t.common = [c.__name__ if isinstance(c, type) else repr(c)
                for c in getattr(opcode, "_common_constants", ())]
    om = opcode.opmap
    jumps = set(getattr(opcode, "hasjump", ())) | set(getattr(opcode, "hasexc", ()))
    fastfast = {om.get(n) for n in ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW",
                                     "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST")} - {None}
    tail = [("FORMAT_VALUE", K_FORMAT), ("CONVERT_VALUE", K_CONVERT),
            ("MAKE_FUNCTION", K_FLAGS), ("SET_FUNCTION_ATTRIBUTE", K_FLAGS),
            ("BINARY_OP", K_BINOP), ("CALL_INTRINSIC_1", K_INTR1), ("CALL_INTRINSIC_2", K_INTR2)]
    if v >= (3, 14):   # dis 3.14 added these four (IS_OP and CONTAINS_OP exist before it)
        tail += [("LOAD_COMMON_CONSTANT", K_COMMON), ("LOAD_SPECIAL", K_SPECIAL),
                 ("IS_OP", K_IS), ("CONTAINS_OP", K_CONTAINS)]
    tail = {om[n]: k for n, k in tail if n in om}
    kind_of_base, jump_of_base = {}, {}
    for d in set(t.deop):
        # Same order of tests as dis's argrepr code for this version.
        if d == opcode.EXTENDED_ARG:
            k = K_EXT
        elif d in opcode.hasconst:
            k = K_CONST if v >= (3, 12) or d == om["LOAD_CONST"] else K_NONE
        elif d in opcode.hasname:
            k = {om["LOAD_GLOBAL"]: K_GLOBAL}.get(d, K_NAME)
            if v >= (3, 12):
                k = {om["LOAD_ATTR"]: K_ATTR, om["LOAD_SUPER_ATTR"]: K_SUPER}.get(d, k)
            if v >= (3, 15) and d == om["IMPORT_NAME"]:
                k = K_IMPORT   # 3.15: name index << 2, lazy / eager flags in bits 0-1
        elif d in jumps or d in opcode.hasjabs or d in opcode.hasjrel:
            k = K_JUMP
        elif d in fastfast:
            k = K_FASTFAST
        elif d in opcode.haslocal or d in opcode.hasfree:
            k = K_LOCAL
        elif d in opcode.hascompare:
            k = K_COMPARE
        else:
            k = tail.get(d, K_NONE)
        kind_of_base[d] = k
        if k == K_JUMP:
            if d in opcode.hasjabs:
                jump_of_base[d] = (0, 0, 2)     # target = arg * 2
            else:                               # target = offset + 2 + sign * arg * 2 + caches
                sign = -2 if _is_backward_jump(v, names[d]) else 2
                jump_of_base[d] = (1, 2 + (2 * ncache(d) if v >= (3, 12) else 0), sign)
    t.kind = [kind_of_base[t.deop[op]] for op in ops]
    # decode_code: the argrepr kind, K_NOARG for no arg, K_ODD for the opcodes it leaves to
    # _decode_general (3.12 dis walks INSTRUMENTED_* into their caches; 3.13+ dis reads those
    # and ENTER_EXECUTOR's arg from co_code). It finds the instructions as the code units of
    # co_code that are not CACHE, which must be opcode 0 (it is in 3.11-3.14).
    t.fkind = [K_ODD if names[op] == "ENTER_EXECUTOR" or names[op].startswith("INSTRUMENTED_")
               else K_NOARG if t.argmode[op] == 0 else t.kind[op] for op in ops]
    t.fast = opcode.opmap.get("CACHE") == 0
    # Memo keys of _decode_general: (kind << 32) + arg; -1 for jumps, -2 for EXTENDED_ARG.
    t.memo_base = [-1 if k == K_JUMP else -2 if k == K_EXT else k << 32 for k in t.kind]
    t.jump = [jump_of_base.get(t.deop[op]) for op in ops]
    t.jump_word = ["from" if t.family[op] == "END_ASYNC_FOR" and v >= (3, 14) else "to"
                   for op in ops]
    t.enter_executor = om.get("ENTER_EXECUTOR", -1)
    # Ops table facts: specialized, counter kind, and "this opname is evidence of running".
    t.specialized = [_is_specialized(t.name[op], t.family[op]) for op in ops]
    t.counter = [_counter_kind(v, t.family[op], t.ncache[op]) for op in ops]
    t.counter_decoded = [c in ("adaptive", "jit") for c in t.counter]
    t.step = [2 + 2 * n for n in t.ncache]   # bytes from an instruction to the next
    t.evidence = [t.deop[op] != op for op in ops] if v < (3, 12) else list(t.specialized)
    return t


def _is_backward_jump(v, name):
    # dis._is_backward_jump of each version.
    if v < (3, 13):
        return "JUMP_BACKWARD" in name
    return name in ("JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT") or (
        v >= (3, 14) and name == "END_ASYNC_FOR")


def _is_specialized(name, family):
    return (name != family and not name.endswith(("_ADAPTIVE", "_QUICK"))
            and "__" not in name)   # LOAD_FAST__LOAD_FAST & co: quickened superinstructions


def _counter_kind(v, family, ncache):
    if not ncache:
        return None
    if v >= (3, 13) and family.startswith("POP_JUMP_IF_"):
        return "branch"
    if v >= (3, 13) and family == "JUMP_BACKWARD":
        return "jit"
    return "adaptive"


_PROBE_SOURCE = """
def f(a, b, *c, **d):
    x = a.b; a.b = x; x = a[b]; a[b] = x; x, y = b; x = a + b; x = a < b; x = a in b
    for i in a:
        g(i)
    while a:
        a = b
    if a is None or a is not None or not a:
        g(x=1)
    return [i for i in a]
def h():
    yield from f
class K:
    def m(self):
        return super().m
"""


def _probe_initial_counters(t):
    """First inline cache word of each family in code that never ran: the initial counters."""
    found = {}
    stack = [compile(_PROBE_SOURCE, PROBE_FILE, "exec")]
    while stack:
        code = stack.pop()
        stack.extend(c for c in code.co_consts if type(c) is CodeType)
        raw = code._co_code_adaptive
        for off in instruction_offsets(code):
            d = t.deop[raw[off]]
            if t.ncache[d]:
                found.setdefault(d, int.from_bytes(raw[off + 2:off + 4], sys.byteorder))
    by_kind = {}
    for d, w in found.items():
        by_kind.setdefault(t.counter[d], []).append(w)
    default = {k: max(set(ws), key=ws.count) for k, ws in by_kind.items()}
    return [found.get(t.deop[op], default.get(t.counter[op], 0)) if t.ncache[op] else None
            for op in range(256)]


def instruction_offsets(code):
    """Offsets of the instructions (not caches) of a code object."""
    t = _T
    raw = code.co_code
    offs, i = [], 0
    while i < len(raw):
        offs.append(i)
        i += 2 + 2 * t.ncache[raw[i]]
    return offs


# ---------------------------------------------------------------------------------------------
# 3. Decoding
#
# Owns: `Dump`, the string and op tables of the dump being built, and `decode_code`, which
# turns a code object's adaptive bytecode into its instruction arrays exactly as
# dis.get_instructions(code, adaptive=True) lists them (opname, offset, arg, argrepr), with
# the raw cache words. Code holding INSTRUMENTED_* or ENTER_EXECUTOR opcodes goes to the
# slower `_decode_general` (with `_decode_odd` for those opcodes on 3.13+), which reads
# everything itself, as dis does. Also `has_evidence`: whether adaptive bytecode shows that
# code ran.

class Dump:
    """The string table and the ops table of a dump being built."""

    def __init__(self):
        self.strings, self.string_index = [""], {"": 0}
        self.ops = []
        self.op_index = [None] * 256     # opcode -> index into ops
        # decode_code's memos. Argrepr tables, per argrepr kind: arg -> string index, None
        # until seen (K_LOCAL and K_CONST: one per code object; NONES: looked up every time).
        untabled = (K_LOCAL, K_CONST, K_GLOBAL, K_ATTR, K_JUMP, K_NAME, K_SUPER, K_FASTFAST,
                    K_EXT, K_ODD, K_IMPORT)
        self.argrepr_tables = [ZEROS if k in (K_NOARG, K_NONE) else NONES if k in untabled
                               else [None] * 256 for k in range(K_IMPORT + 1)]
        self.local_tables = {}           # co_varnames -> its K_LOCAL table
        self.null_memo = [None] * (K_ATTR + 1)   # K_GLOBAL/K_ATTR: name -> "NULL + name" & co
        self.null_memo[K_GLOBAL], self.null_memo[K_ATTR] = {}, {}
        self.str_const_memo = {}         # str constant -> index of its repr
        self.jump_memo = {}              # jump target -> index of "to N" (3.11, 3.12)

    def s(self, text):
        i = self.string_index.get(text)
        if i is None:
            i = self.string_index[text] = len(self.strings)
            self.strings.append(text)
        return i

    def op(self, opcode):
        i = self.op_index[opcode]
        if i is None:
            t = _T
            i = self.op_index[opcode] = len(self.ops)
            self.ops.append([t.name[opcode], t.family[opcode], t.specialized[opcode],
                             t.counter[opcode]])
        return i


def decode_code(code, dump, raw=None):
    """Decode code._co_code_adaptive into dump instructions (docs/dump-format.md), as tuples:
    returns (instructions, left_to_cli).

    Gives exactly what dis.get_instructions(code, adaptive=True) gives (opname, offset, arg,
    argrepr, positions), without dis: element 1 indexes dump.ops, element 3 dump.strings;
    element 6 holds the raw inline cache words, element 7 the decoded first one when it is an
    adaptive or jit counter. Element 8 (churn) is not added here. `raw`: a snapshot of
    code._co_code_adaptive taken earlier (default: read it now). When left_to_cli, the line and
    positions (elements 4 and 5) are None and the cache words (6) empty, with no counter: the
    CLI reads them from code.co_linetable and `raw` (crates/core capture.rs), doing in Rust
    what took two fifths of this function's time in Python on 3.11.

    Speed (bench/dump_bench.py, docs/benchmarks.md "Dump"): one Python loop iteration per
    instruction and none per inline cache unit. The instructions are the code units that are
    not CACHE in co_code (picked by itertools.compress, in C); argreprs come from tables
    (arg -> string index) filled the first time a value is seen, and per-dump memos. The loop
    tests argrepr kinds as literal ints (see K_*). Code holding INSTRUMENTED_* or
    ENTER_EXECUTOR is left to _decode_general, which reads everything itself (positions from
    co_positions()).
    """
    t = _T or tables()
    if raw is None:
        raw = code._co_code_adaptive
    if not t.fast:
        return _decode_general(code, dump, raw), False
    kinds, step, op_index, jump, labels = t.fkind, t.step, dump.op_index, t.jump, t.labels
    sget, null_memo = dump.string_index.get, dump.null_memo
    tb = dump.argrepr_tables[:]   # per argrepr kind: arg -> string index (None: unknown)
    tb[3] = consts = [None] * len(code.co_consts)   # K_CONST: this code object's own
    if code.co_cellvars or code.co_freevars:        # K_LOCAL
        tb[2] = _locals_table(code, dump)
    else:   # the fast locals only: a table shared by the code objects with the same names
        tb[2] = dump.local_tables.get(code.co_varnames) or _locals_table(code, dump)
    names = code.co_names
    off = ext = 0
    jumps = None
    out = []
    append = out.append
    try:
        # The instructions: the code units that are not (CACHE=0, 0) in co_code.
        for op, arg in compress(zip(raw[::2], raw[1::2]), code.co_code[::2]):
            if ext:
                arg |= ext
                ext = 0
            k = kinds[op]
            try:
                s = tb[k][arg]
            except IndexError:   # an arg made large by EXTENDED_ARG
                s = None
            if s is None:
                if k == 4 or k == 5:   # K_GLOBAL, K_ATTR: name, or "NULL + name" & co if arg & 1
                    r = names[arg >> 1]
                    if arg & 1:
                        memo = null_memo[k]
                        s = memo.get(r)
                        if s is None:
                            s = memo[r] = dump.s(t.null_fmt[k] % r)
                    else:
                        s = sget(r)
                        if s is None:
                            s = dump.s(r)
                elif k == 6:   # K_JUMP
                    base, extra, scale = jump[op]
                    target = base * off + extra + scale * arg
                    if labels:    # "to L<n>": numbered once all targets are known
                        if jumps is None:
                            jumps = []
                        jumps.append((len(out), target))
                        s = 0
                    else:
                        s = dump.jump_memo.get(target)
                        if s is None:
                            s = dump.jump_memo[target] = dump.s("to %r" % target)
                elif k == 3:   # K_CONST, first use of this constant in this code object
                    r = code.co_consts[arg]
                    if type(r) is str:   # one repr per string for the whole dump
                        s = dump.str_const_memo.get(r)
                        if s is None:
                            s = dump.str_const_memo[r] = dump.s(repr(r))
                    else:
                        r = repr(r)
                        s = sget(r)
                        if s is None:
                            s = dump.s(r)
                    consts[arg] = s
                elif k == 7:   # K_NAME
                    r = names[arg]
                    s = sget(r)
                    if s is None:
                        s = dump.s(r)
                elif k == 10:   # K_EXT
                    s = 0
                    ext = arg << 8
                    if ext >= 0x80000000:   # dis keeps the oparg a signed C int
                        return _decode_general(code, dump, raw), False
                elif k == 11:   # K_ODD
                    return _decode_general(code, dump, raw), False
                else:   # K_LOCAL (a name new to the string table) and the rarer kinds
                    table = tb[k]
                    if table is NONES:   # K_SUPER, K_FASTFAST, K_IMPORT: a table for this code
                        table = tb[k] = [None] * 256
                    s = _argrepr_index(t, k, arg, code, dump)
                    if arg < len(table):
                        table[arg] = s
            o = op_index[op]
            if o is None:
                o = dump.op(op)
            append((off, o, arg if k else None, s, None, None, ()))
            off += step[op]
    except IndexError:   # a name or constant index out of range (hand-made code only)
        return _decode_general(code, dump, raw), False
    if jumps:
        _set_labels(t, dump, raw, out, jumps)
    return out, True


def _argrepr_index(t, k, arg, code, dump):
    """String index of the argrepr of an instruction of argrepr kind k (not K_JUMP, K_EXT),
    added to the string table if new."""
    r = _argrepr(t, k, arg, code)
    s = dump.string_index.get(r)
    return dump.s(r) if s is None else s


def _locals_table(code, dump):
    """K_LOCAL argrepr table of a code object: the string index of each local (fast, cell or
    free) variable name already in the string table, None for the others (filled in when
    used); shared by the code objects that have the same local names."""
    if code.co_cellvars or code.co_freevars:
        n = len(set(code.co_varnames + code.co_cellvars)) + len(code.co_freevars)
        return list(map(dump.string_index.get, map(code._varname_from_oparg, range(n))))
    key = code.co_varnames   # the names of the fast locals, in order
    table = dump.local_tables.get(key)
    if table is None:
        table = dump.local_tables[key] = list(map(dump.string_index.get, key))
    return table


def _set_labels(t, dump, raw, out, jumps):
    """3.13+: the argreprs of the jumps, (index in out, target) each: label n is the n-th
    jump target in offset order, as dis numbers them."""
    label = {off: n + 1 for n, off in enumerate(sorted({tg for _, tg in jumps}))}
    for idx, target in jumps:
        ins = out[idx]
        s = dump.s("%s L%s" % (t.jump_word[raw[ins[0]]], label.get(target, "?")))
        out[idx] = ins[:3] + (s,) + ins[4:]


def _decode_general(code, dump, raw):
    """decode_code for any code, INSTRUMENTED_* and ENTER_EXECUTOR included: walks the code
    units one by one (dis's own walk) and reads the positions from co_positions()."""
    t = _T or tables()
    argmode, ncache, kind, counter_decoded = t.argmode, t.ncache, t.kind, t.counter_decoded
    memo_base, op_index, s_new, labels = t.memo_base, dump.op_index, dump.s, t.labels
    bits, mask = t.backoff_bits, (1 << t.backoff_bits) - 1
    opl, argl = raw[::2], raw[1::2]     # per 16-bit code unit: opcode byte, oparg byte
    words = memoryview(raw).cast("H")   # native-endian code units, for the inline caches
    pos = list(code.co_positions())     # per code unit too (dis: None past its end)
    pos += [(None, None, None, None)] * (len(opl) - len(pos))
    memo = {}   # memo_base[op] + arg -> string index of the argrepr
    jumps = []
    out = []
    append = out.append
    ext = 0
    w = 0   # code unit index; the offset is 2 * w
    n = len(opl)
    while w < n:
        op = opl[w]
        mode = argmode[op]
        if mode == 1:
            arg = argl[w]
            if ext:
                arg |= ext
                ext = 0
            key = memo_base[op]
            if key >= 0:   # the argrepr depends on the kind and the arg only
                key += arg
                s = memo.get(key)
                if s is None:
                    r = _argrepr(t, kind[op], arg, code)
                    s = memo[key] = s_new(r) if r else 0
            elif key == -1:   # a jump: the argrepr depends on the offset
                base, extra, scale = t.jump[op]
                target = base * (w + w) + extra + scale * arg
                if labels:
                    jumps.append((len(out), target))   # argrepr set once all targets known
                    s = 0
                else:
                    s = s_new("to %r" % target)
            else:   # EXTENDED_ARG
                ext = arg << 8
                if ext >= 0x80000000:   # dis keeps the oparg a signed C int
                    ext -= 0x100000000
                s = 0
        elif mode == 0:
            arg = None
            ext = 0
            s = 0
        else:
            i, ext = _decode_odd(t, dump, code, raw, w + w, ext, pos, words, jumps, out)
            w = i >> 1
            continue
        o = op_index[op]
        if o is None:
            o = dump.op(op)
        p = pos[w]
        line = p[0]
        nc = ncache[op]
        if nc:
            cache = words[w + 1:w + 1 + nc].tolist()
            if counter_decoded[op]:
                c = cache[0]
                append((w + w, o, arg, s, line, None if line is None else p[1:], cache,
                        (c >> bits, c & mask)))
            else:
                append((w + w, o, arg, s, line, None if line is None else p[1:], cache))
            w += 1 + nc
        else:
            append((w + w, o, arg, s, line, None if line is None else p[1:], ()))
            w += 1
    if jumps:
        _set_labels(t, dump, raw, out, jumps)
    return out


def _jump(t, op, arg, offset, jumps, index):
    base, extra, scale = t.jump[op]
    target = base * offset + extra + scale * arg
    if t.labels:
        jumps.append((index, target))   # argrepr filled in once all targets are known
        return ""
    return "to %r" % target


def _argrepr(t, k, arg, code):
    """dis's argrepr for an instruction of argrepr kind k (not K_JUMP) and this arg; "" when
    the arg does not fit these rules (hand-made code, or a CPython newer than this file whose
    encoding changed: check_against_dis then takes dis's)."""
    try:
        return _argrepr_of(t, k, arg, code)
    except (IndexError, KeyError, TypeError, ValueError):
        return ""


def _argrepr_of(t, k, arg, code):
    if k == K_LOCAL:
        return code._varname_from_oparg(arg)
    if k == K_CONST:
        return repr(code.co_consts[arg])
    if k == K_NAME:
        return code.co_names[arg]
    if k == K_ATTR or k == K_GLOBAL:
        r = code.co_names[arg >> 1]
        return (t.global_fmt if k == K_GLOBAL else t.attr_fmt) % r if arg & 1 else r
    if k == K_FASTFAST:
        return code._varname_from_oparg(arg >> 4) + ", " + code._varname_from_oparg(arg & 15)
    if k == K_COMPARE:
        r = ("<", "<=", "==", "!=", ">", ">=")[arg >> t.cmp_shift]
        return "bool(%s)" % r if t.v >= (3, 13) and arg & 16 else r
    if k == K_BINOP:
        return t.nb_ops[arg]
    if k == K_SUPER:
        r = code.co_names[arg >> 2]
        return t.attr_fmt % r if arg & 1 else r
    if k == K_FLAGS:
        return ", ".join(s for b, s in enumerate(t.flags) if arg & (1 << b))
    if k == K_FORMAT:
        r = ("", "str", "repr", "ascii")[arg & 3]
        return (r + ", " if r else "") + "with format" if arg & 4 else r
    if k == K_CONVERT:
        return ("", "str", "repr", "ascii")[arg]
    if k == K_INTR1:
        return t.intr1[arg]
    if k == K_INTR2:
        return t.intr2[arg]
    if k == K_COMMON:
        return t.common[arg]
    if k == K_SPECIAL:
        return t.special[arg]
    if k == K_IS:
        return "is not" if arg else "is"
    if k == K_CONTAINS:
        return "not in" if arg else "in"
    if k == K_IMPORT:
        r = code.co_names[arg >> 2]   # `from . import x` names "": no suffix, as in dis
        return r + " + lazy" if arg & 1 and r else r + " + eager" if arg & 2 and r else r
    return ""


def _decode_odd(t, dump, code, raw, i, ext, pos, words, jumps, out):
    """3.13+: an instruction whose adaptive opcode is ENTER_EXECUTOR or INSTRUMENTED_*. Like
    dis: walk and take the arg from co_code; show the executor's opcode for ENTER_EXECUTOR."""
    base = code.co_code
    op0 = base[i]
    op = raw[i]
    if op == t.enter_executor:
        try:
            from _opcode import get_executor
            op = get_executor(code, i).get_opcode()
        except Exception:
            pass
    arg, r = None, ""
    if t.argmode[op0] == 1:
        arg = base[i + 1] | ext
        k = t.kind[op]
        if t.kind[op0] == K_EXT:
            ext = arg << 8
            ext = ext - 0x100000000 if ext >= 0x80000000 else ext
        else:
            ext = 0
        if k == K_JUMP:
            r = _jump(t, op, arg, i, jumps, len(out))
        elif k != K_EXT:
            r = _argrepr(t, k, arg, code)
    else:
        ext = 0
    p = pos[i >> 1]
    nc = t.ncache[op0]
    cache = words[(i >> 1) + 1:(i >> 1) + 1 + nc].tolist()
    ins = (i, dump.op(op), arg, dump.s(r), p[0], None if p[0] is None else p[1:], cache)
    if nc and t.counter_decoded[op]:
        ins += ((cache[0] >> t.backoff_bits, cache[0] & ((1 << t.backoff_bits) - 1)),)
    out.append(ins)
    return i + 2 + 2 * nc, ext


def has_evidence(raw):
    """Adaptive evidence that the code ran, read straight from its _co_code_adaptive."""
    t = _T
    words = memoryview(raw).cast("H")
    evidence, initial, ncache = t.evidence, t.initial, t.ncache
    i, n = 0, len(raw)
    while i < n:
        op = raw[i]
        if evidence[op]:
            return True
        nc = ncache[op]
        if nc:
            if words[(i >> 1) + 1] != initial[op]:
                return True
            i += 2 + 2 * nc
        else:
            i += 2
    return False


# ---------------------------------------------------------------------------------------------
# 4. Sampling thread: hotness and churn
#
# Owns: `Sampler`, the thread that samples sys._current_frames() while the program runs
# (self, total and per-line hits per code object; the code objects seen on stacks) and
# looks at the opcodes of sampled code for churn; the GIL switch interval while it runs; its
# mode and note in the dump ("thread", "off", "unavailable"). Pyodide has no threads: there
# scripts/python-pyodide provides timer ticks (module `_specdiff_ticks`), delivered as a
# SIGPROF (the profiling timer's signal, which programs leave alone) whose handler samples the
# frame it interrupts (mode "signal").

# The filenames of the interpreter's import machinery (frozen in CPython 3.11+).
IMPORTLIB_FILES = ("<frozen importlib._bootstrap",)


def _deoptimized(raw, offs, counted):
    """3.11: indices of the sites a first look finds deoptimized, `*_ADAPTIVE` with the counter
    a 53rd miss leaves (backoff 5, counting down from 31: word 501 on 3.11.7, where a site that
    has not run yet shows 0). Only a site whose attempts failed exactly five times looks the
    same. Without this, a site seen adaptive and then specialized reads as warming up."""
    if _T.v != (3, 11):
        return set()
    name, little = _T.name, sys.byteorder == "little"
    found = set()
    for n in counted:
        o = offs[n]
        if name[raw[o]].endswith("_ADAPTIVE"):
            w = raw[o + 2] + 256 * raw[o + 3] if little else 256 * raw[o + 2] + raw[o + 3]
            if w & 15 == 5 and w >> 4 <= 31:
                found.add(n)
    return found


class ThreadCPU:
    """Each thread's CPU clock, so that a look counts a thread only when it ran since its last
    look. A wall-clock look also counts a thread that waited: for I/O, a lock, or a core on a
    busy machine. With two fuzzers on both cores, the sample counts of repeated runs of one
    program then went from 71 to 171, and their shares differed far more than sampling explains
    (bench/sampler_clock.py; docs/engine.md, "Noise floor"). Where the platform has no
    per-thread CPU clock (`time.pthread_getcpuclockid`: not on macOS or Windows), or a clock
    cannot be read, every look counts, as on the wall clock."""

    def __init__(self, min_used):
        self.available = hasattr(time, "pthread_getcpuclockid")
        self.min_used = min_used
        self.clocks, self.last = {}, {}

    def ran(self, tid):
        """True when thread `tid` used `min_used` seconds of CPU since its last look, on its
        first look, and when that cannot be told."""
        if not self.available:
            return True
        try:
            clock = self.clocks.get(tid)
            if clock is None:
                clock = self.clocks[tid] = time.pthread_getcpuclockid(tid)
            used = time.clock_gettime(clock)
        except (OSError, ValueError, OverflowError):
            self.clocks.pop(tid, None)
            self.last.pop(tid, None)
            return True
        before = self.last.get(tid)
        self.last[tid] = used
        return before is None or used - before >= self.min_used

    def keep_only(self, tids):
        """Forgets the threads that ended (their ids can be reused)."""
        for tid in [t for t in self.clocks if t not in tids]:
            del self.clocks[tid]
            self.last.pop(tid, None)


class Sampler:
    def __init__(self, interval_ms):
        self.interval = interval_ms / 1000.0
        self.mode, self.note, self.samples = "off", None, 0
        self.stop = False
        self.self_hits, self.total_hits, self.line_hits, self.codes = {}, {}, {}, {}
        # Per code object: samples taken while a module was being imported (an importlib
        # frame on the stack), so code that only ever ran inside imports is known as such.
        self.import_hits = {}
        self.churn_getter, self.churn_last, self.churn_time, self.churn = {}, {}, {}, {}
        self.churn_offsets = {}
        self._done = None
        self._old_switch = None
        self._ticks = self._old_handler = self._cpu = None
        self._in_tick = False

    def start(self):
        if sys.platform == "emscripten":
            self._start_ticks()
            return
        try:
            self._done = _thread.allocate_lock()
            self._done.acquire()
            self._old_switch = sys.getswitchinterval()
            # The thread waits for the GIL after each sleep until the program's thread is asked
            # to drop it, one switch interval later: at a switch interval equal to the sampling
            # interval half of each period went to that wait (~400 samples a second at 1 ms).
            sys.setswitchinterval(min(self._old_switch, self.interval / SWITCH_SHARE))
            self._cpu = ThreadCPU(self.interval / CPU_LOOK_SHARE)
            _thread.start_new_thread(self._run, ())
            self.mode = "thread"
            self.note = ("CPU clock: a look counts a thread that used a quarter interval of CPU since its last look"
                         if self._cpu.available else "wall clock: no per-thread CPU clock here")
        except Exception as e:
            self.mode, self.note = "unavailable", "cannot start a thread: %s" % e
            if self._old_switch is not None:
                sys.setswitchinterval(self._old_switch)

    def _start_ticks(self):
        try:
            import _specdiff_ticks   # only under scripts/python-pyodide
            import signal
            self._old_handler = signal.signal(signal.SIGPROF, self._tick)
            _specdiff_ticks.start(max(1, round(self.interval * 1000)), int(signal.SIGPROF))
            self._ticks = _specdiff_ticks
            self.mode = "signal"
            self.note = "no threads on emscripten: timer ticks from python-pyodide, as SIGPROF"
        except Exception as e:
            self.mode, self.note = "unavailable", "no threads on emscripten (pyodide): %s" % e

    def _tick(self, signum, frame):
        # A tick can arrive while the handler of the last one still runs (CPython runs Python
        # signal handlers between any two bytecodes, its own included): a nested look would
        # find the churn state half-updated.
        if self.stop or self._in_tick:
            return
        self._in_tick = True
        try:
            self.sample(frame, time.perf_counter())
        except Exception as e:   # never take the program down
            log("sampler tick failed: %r" % (e,))
        finally:
            self._in_tick = False

    @property
    def sampling(self):
        """Started: a thread, or timer ticks under pyodide."""
        return self.mode in ("thread", "signal")

    def running(self):
        return self.sampling and not self.stop

    def forked(self):
        """In a child the program forked: the thread did not come along."""
        self.mode, self.note = "off", "forked child"

    def finish(self):
        """Stop the thread (or the ticks), as soon as the program is done."""
        if self.mode == "signal":
            import signal
            self.stop = True
            self._ticks.stop()
            if signal.getsignal(signal.SIGPROF) != self._tick:   # (a new bound method each time)
                self.note += "; the program replaced the SIGPROF handler, so sampling stopped then"
            else:
                signal.signal(signal.SIGPROF, self._old_handler)
            return
        if self.mode != "thread":
            return
        self.stop = True
        self._done.acquire(timeout=2.0)
        sys.setswitchinterval(self._old_switch)

    def last_look(self):
        """One last churn look at every sampled code object, so late flips count too."""
        if not self.sampling:
            return
        for key, code in self.codes.items():
            try:
                self.check_churn(key, code)
            except Exception as e:   # a lost look must not cost the dump
                log("last churn look at %s failed: %r" % (code.co_qualname, e))

    def _run(self):
        me = _thread.get_ident()
        interval, floor, cpu = self.interval, self.interval / SLEEP_FLOOR_SHARE, self._cpu
        try:
            due = time.perf_counter()
            while not self.stop:
                # A fixed rate: the next look is due one interval after the last was due, so
                # the wait for the GIL and the look itself do not stretch the period; but the
                # thread always sleeps a little, so a slow look cannot starve the program.
                due += interval
                now = time.perf_counter()
                time.sleep(max(due - now, floor))
                now = time.perf_counter()
                if now > due + interval:
                    due = now   # fell behind (a long look, a loaded machine): no catching up
                frames = sys._current_frames()
                for tid, frame in frames.items():
                    if tid != me and cpu.ran(tid):
                        self.sample(frame, now)
                if len(cpu.clocks) > len(frames) + 16:
                    cpu.keep_only(frames)
        except Exception as e:   # never take the program down
            log("sampler stopped: %r" % (e,))
        finally:
            self._done.release()

    def sample(self, frame, now):
        self_hits, total_hits, codes = self.self_hits, self.total_hits, self.codes
        top, seen, importing = True, set(), False
        while frame is not None:
            code = frame.f_code
            if not importing and code.co_filename.startswith(IMPORTLIB_FILES):
                importing = True
            if code.co_filename != SELF_FILE:
                key = id(code)
                if top:
                    top = False
                    self_hits[key] = self_hits.get(key, 0) + 1
                    line = frame.f_lineno
                    if line is not None:
                        lk = (key, line)
                        self.line_hits[lk] = self.line_hits.get(lk, 0) + 1
                if key not in seen:
                    seen.add(key)
                    total_hits[key] = total_hits.get(key, 0) + 1
                    codes[key] = code
                    if now - self.churn_time.get(key, -1.0) >= CHURN_EVERY_S:
                        self.churn_time[key] = now
                        self.check_churn(key, code)
            frame = frame.f_back
        if not top:
            self.samples += 1
        if importing:
            import_hits = self.import_hits
            for key in seen:
                import_hits[key] = import_hits.get(key, 0) + 1

    def check_churn(self, key, code):
        """Counts the re-specializations of each site since the last look: an opcode that
        changed, or a specialized opcode whose miss counter went back up (3.12+ re-specializes
        in place after its 53rd miss, often to the same opname; 3.11 can go through
        *_ADAPTIVE and back between two looks). Counters of specialized sites only go down
        otherwise, so a higher counter word is proof of a re-specialization."""
        raw = code._co_code_adaptive
        state = self.churn_offsets.get(key)
        if state is None:
            offs = instruction_offsets(code)
            if len(offs) < 2:
                return
            counter = _T.counter
            self.churn_getter[key] = itemgetter(*offs)
            # Instruction indices of the sites with an adaptive counter in their first cache word.
            counted = [n for n, o in enumerate(offs) if counter[code.co_code[o]] == "adaptive"]
            state = self.churn_offsets[key] = [offs, counted, None, (), _deoptimized(raw, offs, counted)]
        offs, counted = state[0], state[1]
        ops = self.churn_getter[key](raw)
        last = self.churn_last.get(key)
        self.churn_last[key] = ops
        sites = None
        if last is not None and last != ops:
            deoptimized = state[4]
            for idx in range(len(offs)):
                a, b = last[idx], ops[idx]
                if a != b:
                    if idx in deoptimized:
                        # Its first look found it deoptimized: the specialization before that
                        # is proven, so re-specializing now is not a warm-up.
                        deoptimized.discard(idx)
                        sites = self._flip(key, sites, offs[idx], a, a)
                    sites = self._flip(key, sites, offs[idx], a, b)
        if last is None or last != ops or state[2] is None:
            # Watch the counters of the sites specialized now (a fast C-level comparison while
            # nothing misses); what they showed before a flip is not comparable.
            specialized = _T.specialized
            watched = [n for n in counted if specialized[ops[n]]]
            state[2] = (watched, itemgetter(*[offs[n] + b for n in watched for b in (2, 3)]) if watched else None)
            state[3] = state[2][1](raw) if watched else ()
            return
        watched, getter = state[2]
        if getter is None:
            return
        words = getter(raw)
        before, state[3] = state[3], words
        if words == before:
            return
        hi, lo = (1, 0) if sys.byteorder == "little" else (0, 1)
        for k, n in enumerate(watched):
            j = 2 * k
            if words[j + hi] * 256 + words[j + lo] > before[j + hi] * 256 + before[j + lo]:
                sites = self._flip(key, sites, offs[n], ops[n], ops[n])

    def _flip(self, key, sites, offset, a, b):
        if sites is None:
            sites = self.churn.setdefault(key, {})   # offset -> [flips, opcodes seen]
        site = sites.get(offset)
        if site is None:
            site = sites[offset] = [0, [a]]
        site[0] += 1
        if b not in site[1]:
            site[1].append(b)
        return sites


# ---------------------------------------------------------------------------------------------
# 5. Finding code objects after the run
#
# Owns: `find_codes`, every code object reachable after the run (exec'd module bodies, gc's
# functions, generators, coroutines and frames, the sampled stacks, co_consts recursively),
# with what gc shows about each (live frames, functions, classes) and the snapshot of its
# adaptive bytecode; `code_kind` (function, class, module, …); `file_modules`, file -> module; `path_module`, the module name of a file from sys.path.

class Found:
    def __init__(self):
        self.codes = {}          # id -> code
        self.live_ran = set()    # ids of code on live frames / suspended generators
        self.func_module = {}    # id -> __module__ of a function using the code
        self.func_codes = set()  # ids of code of live function objects
        self.func_qualnames = {} # id -> {__qualname__ of each live function using the code}
        self.classes = set()     # (module, qualname) of live classes
        self.class_objs = []     # the live classes themselves (class_table)


def find_codes(roots):
    found = Found()
    stack = list(roots)
    me = _thread.get_ident()
    for tid, frame in sys._current_frames().items():
        while tid != me and frame is not None:   # other threads still running
            stack.append(frame.f_code)
            found.live_ran.add(id(frame.f_code))
            frame = frame.f_back
    for obj in gc.get_objects():
        tp = type(obj)
        if tp is FunctionType:
            code = obj.__code__
            stack.append(code)
            found.func_codes.add(id(code))
            mod = obj.__module__
            if isinstance(mod, str):
                found.func_module.setdefault(id(code), mod)
            qual = obj.__qualname__
            if isinstance(qual, str):
                found.func_qualnames.setdefault(id(code), set()).add(qual)
        elif tp in GEN_TYPES:
            prefix = GEN_TYPES[tp]
            code = getattr(obj, prefix + "_code")
            stack.append(code)
            if getattr(obj, prefix + "_suspended", False) or getattr(obj, prefix + "_running", 0):
                found.live_ran.add(id(code))
        elif tp is FrameType:
            stack.append(obj.f_code)
            found.live_ran.add(id(obj.f_code))
        elif isinstance(obj, type):
            try:
                found.classes.add((obj.__module__, obj.__qualname__))
                found.class_objs.append(obj)
            except Exception:
                pass
    codes = found.codes
    while stack:
        code = stack.pop()
        if id(code) in codes or type(code) is not CodeType:
            continue
        if code.co_filename in (SELF_FILE, PROBE_FILE):
            continue
        codes[id(code)] = code
        stack.extend(c for c in code.co_consts if type(c) is CodeType)
    # Snapshot the adaptive bytecode now: whatever library code the harness runs from here on
    # (fnmatch, linecache, json...) must not show up in the dump.
    found.snapshot = {key: code._co_code_adaptive for key, code in codes.items()}
    return found


def code_kind(code):
    name, flags = code.co_name, code.co_flags
    if name == "<module>":
        return "module"
    if not flags & CO_OPTIMIZED:
        return "class"
    if name in COMPREHENSIONS:
        return "comprehension"
    if name == "<lambda>":
        return "lambda"
    if flags & CO_ASYNC_GENERATOR:
        return "async_generator"
    if flags & CO_COROUTINE:
        return "coroutine"
    if flags & CO_GENERATOR:
        return "generator"
    return "function"


def file_modules(main_code):
    """co_filename -> module name, from sys.modules and the target."""
    out = {}
    for name, mod in list(sys.modules.items()):
        try:
            path = mod.__dict__.get("__file__")
        except Exception:
            continue
        if isinstance(path, str):
            out.setdefault(path, name)
    if main_code is not None and not main_code.co_filename.startswith("<"):
        out[main_code.co_filename] = "__main__"   # "<string>" (-c) is no unique file name
    return out


def path_module(fn, roots):
    """The dotted module name of source file `fn` under the deepest of `roots` (sys.path
    folders), or None. For files that ran as a module but are not in sys.modules under their
    own file: 3.13's collections/abc.py replaces itself with _collections_abc there."""
    if not fn.endswith(".py") or fn.startswith("<"):
        return None
    best = None
    for root in roots:
        if isinstance(root, str) and root and fn.startswith(root.rstrip(os.sep) + os.sep):
            if best is None or len(root) > len(best):
                best = root
    if best is None:
        return None
    parts = fn[len(best.rstrip(os.sep)) + 1:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


# ---------------------------------------------------------------------------------------------
# 6. Building the dump
#
# Owns: choosing the code objects kept (--include/--exclude, --include-unrun), deciding `ran`
# (the rules in this file's docstring), each code entry with its instruction arrays, hotness
# and churn, its identity and stable place in the dump (`identities`), and the source lines
# each entry carries (`finish_entries`, `source_runs`).

def build_code_entries(dump, found, exec_ids, sampler, opts, main_code):
    """Decode the selected code objects, decide `ran`, build their instruction arrays."""
    codes, snapshot = found.codes, found.snapshot
    parent, children = {}, {}
    for key, code in codes.items():
        for c in code.co_consts:
            if type(c) is CodeType and id(c) in codes and id(c) not in parent:
                parent[id(c)] = key
                children.setdefault(key, []).append(id(c))
    fmods = file_modules(main_code)
    main_key = id(main_code) if main_code is not None else None

    roots = [os.path.abspath(p) for p in sys.path if isinstance(p, str) and p]

    def file_module(fn):
        mod = fmods.get(fn)
        if mod is None and fn.startswith("<frozen ") and fn.endswith(">"):
            mod = fn[8:-1]
        if mod is None:
            # Never the default "__main__" for a library file that left sys.modules.
            mod = path_module(fn, roots)
        return mod

    def direct_module(k):
        if k == main_key:
            return "__main__"
        return file_module(codes[k].co_filename) or found.func_module.get(k)

    def module_of(key):
        # The file's module; else (exec'd "<string>" code) the __module__ of a function made
        # from it or from code nested in it; else the enclosing code's module; else __main__.
        mod = direct_module(key)
        todo = list(children.get(key, ()))
        while mod is None and todo:
            k = todo.pop(0)
            mod = found.func_module.get(k)
            todo.extend(children.get(k, ()))
        k = key
        while mod is None and k in parent:
            k = parent[k]
            mod = direct_module(k)
        return mod or "__main__"

    def selected(mod, fn):
        if not opts.include and not opts.exclude:
            return True
        from fnmatch import fnmatch
        hit = lambda globs: any(fnmatch(mod, g) or fnmatch(fn, g) for g in globs)
        return (not opts.include or hit(opts.include)) and not hit(opts.exclude)

    # Evidence without decoding. A live function object means the code holding its code
    # object in co_consts ran (it executed MAKE_FUNCTION); the same goes up the parent chain.
    ran = set(exec_ids) | set(sampler.total_hits) | found.live_ran
    ran.update(parent[k] for k in found.func_codes if k in parent)
    ident = identities(found, parent)
    # A stable order, never memory order: code objects that tie on every key of their
    # identity (identical exec'd code) are ordered by their adaptive bytecode, so which of
    # them comes first depends on what they did, not on where they were allocated.
    order = sorted(codes, key=lambda k: (codes[k].co_filename, codes[k].co_firstlineno,
                                         codes[k].co_qualname, codes[k].co_name)
                   + ident[k].sort_key() + (snapshot[k],))
    chosen = []
    for key in order:
        code = codes[key]
        mod = module_of(key)
        if not selected(mod, code.co_filename):
            continue
        kind = code_kind(code)
        if key not in ran and (has_evidence(snapshot[key]) or kind == "class"
                               and (mod, code.co_qualname) in found.classes):
            ran.add(key)   # (class bodies run once, often leaving no adaptive evidence)
        chosen.append((key, code, mod, kind))
    for key in list(ran):
        while key in parent and parent[key] not in ran:
            key = parent[key]
            ran.add(key)
    if not opts.include_unrun:
        chosen = [c for c in chosen if c[0] in ran]
    index = {c[0]: n for n, c in enumerate(chosen)}
    entries = []
    for key, code, mod, kind in chosen:
        instructions, left_to_cli = decode_code(code, dump, snapshot[key])
        sites = sampler.churn.get(key)
        if sites:
            add_churn(dump, instructions, sites)
        entries.append({"_key": key, "_code": code, "_module": mod, "kind": kind,
                        "_ident": ident[key],
                        "ran": key in ran, "parent": index.get(parent.get(key)),
                        "_file_module": file_module(code.co_filename) or (
                            "__main__" if main_code is not None
                            and code.co_filename == main_code.co_filename else None),
                        "_raw": snapshot[key] if left_to_cli else None,
                        "instructions": instructions})
    return entries


class Identity:
    """What tells apart code objects that share a module and qualname (docs/dump-format.md,
    "Identity"): `owner`, the `__qualname__` every live function using the code agrees on when
    it differs from co_qualname (dataclasses, namedtuple and functools.wraps rename their
    functions: `Point.__init__`); `made_at`, the (line, column) of the instruction of the
    enclosing code that loads this code object, i.e. where the `def`, `lambda`, class or
    comprehension is; `body`, a CRC-32 of what the code is (bytecode, names, constants)."""
    __slots__ = ("owner", "made_at", "body")

    def __init__(self, owner, made_at, body):
        self.owner, self.made_at, self.body = owner, made_at, body

    def sort_key(self):
        line, col = self.made_at or (None, None)
        return (self.owner or "", -1 if line is None else line, -1 if col is None else col,
                self.body)


def identities(found, parent):
    """id -> Identity for every code object found."""
    import opcode
    codes = found.codes
    load_const, ext_arg = opcode.opmap["LOAD_CONST"], opcode.opmap["EXTENDED_ARG"]
    made_at = {}
    for key, code in codes.items():
        consts = code.co_consts
        wanted = {i for i, c in enumerate(consts) if type(c) is CodeType and parent.get(id(c)) == key}
        if not wanted:
            continue
        raw, arg_hi = code.co_code, 0
        for unit, pos in enumerate(code.co_positions()):
            op, arg = raw[2 * unit], raw[2 * unit + 1] | arg_hi
            arg_hi = arg << 8 if op == ext_arg else 0
            if op == load_const and arg in wanted:
                made_at.setdefault(id(consts[arg]), (pos[0], pos[2]))
    out, memo = {}, {}
    for key, code in codes.items():
        quals = found.func_qualnames.get(key, ())
        owner = next(iter(quals)) if len(quals) == 1 else None
        if owner == code.co_qualname:
            owner = None
        out[key] = Identity(owner, made_at.get(key), _body(code, memo))
    return out


def _body(code, memo):
    """CRC-32 of what a code object is, from bytes that do not depend on the run: its bytecode,
    names and constants (nested code by its own body, so that `exec`'d module bodies differing
    only in the function they define differ; a frozenset sorted: its order follows string
    hashes)."""
    import zlib
    key = id(code)
    if key in memo:
        return memo[key]

    def const(c):
        tp = type(c)
        if tp is CodeType:
            return "code:%s:%d" % (c.co_qualname, _body(c, memo))
        if tp is tuple:
            return "(" + ",".join(map(const, c)) + ")"
        if tp is frozenset:
            return "{" + ",".join(sorted(map(const, c))) + "}"
        if tp in (str, bytes, int, float, complex, bool) or c is None or c is Ellipsis:
            return repr(c)
        return tp.__name__
    parts = (code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)
    text = "\x00".join([const(c) for c in code.co_consts] + ["|".join(p) for p in parts])
    memo[key] = crc = zlib.crc32(code.co_code + text.encode("utf-8", "surrogatepass"))
    return crc


def add_churn(dump, instructions, sites):
    index = {ins[0]: n for n, ins in enumerate(instructions)}
    for offset, (flips, seen) in sites.items():
        n = index.get(offset)
        if n is not None:
            ins = instructions[n]
            instructions[n] = ins[:7] + (ins[7] if len(ins) > 7 else None,
                                         (flips, [dump.op(o) for o in seen]))


def finish_entries(dump, entries, sampler):
    """Fill strings, files and samples; returns (code list, files list, raw code): the last,
    [code index, co_linetable as hex, adaptive code as hex] for each code object whose
    positions and caches the CLI fills in."""
    import linecache
    files, file_index, need = [], {}, {}
    line_hits = {}
    for (key, line), hits in sampler.line_hits.items():
        line_hits.setdefault(key, []).append([line, hits])
    out, raw_code = [], []
    for e in entries:
        code, key = e["_code"], e["_key"]
        fn = code.co_filename
        if fn not in file_index:
            file_index[fn] = len(files)
            files.append({"path": fn, "module": e["_file_module"], "_globals": None})
            need[fn] = set()
        f = files[file_index[fn]]
        if e["_raw"] is not None:
            raw_code.append([len(out), code.co_linetable.hex(), e["_raw"].hex()])
            lines = {line for _, _, line in code.co_lines() if line is not None and line >= 0}
        else:
            lines = {ins[4] for ins in e["instructions"] if ins[4] is not None}
        if lines and e["kind"] not in WHOLE_SOURCE_EXCEPT:
            # A function's whole text (decorators, docstring, comments). A class body's range
            # would hold every method's text too, run or not: only its own lines, like a module.
            lines = range(code.co_firstlineno, max(lines) + 1)
        need[fn].update(lines)
        if f["_globals"] is None:
            mod = sys.modules.get(e["_module"])
            f["_globals"] = getattr(mod, "__dict__", None)
        out.append({
            "file": file_index[fn], "module": dump.s(e["_module"]),
            "qualname": dump.s(code.co_qualname), "name": dump.s(code.co_name),
            "first_line": code.co_firstlineno, "kind": e["kind"], "parent": e["parent"],
            "ran": e["ran"], **identity_fields(dump, e["_ident"]),
            "samples": [sampler.self_hits.get(key, 0), sampler.total_hits.get(key, 0)],
            **({"import_samples": sampler.import_hits[key]} if key in sampler.import_hits else {}),
            "line_samples": sorted(line_hits.get(key, [])),
            "instructions": e["instructions"]})
    for f in files:
        src = source_lines(linecache, f["path"], f.pop("_globals"))
        f["source"] = source_runs(dump, src, need[f["path"]])
    return out, files, raw_code


def identity_fields(dump, ident):
    """The optional identity keys of a code entry (left out when unknown)."""
    out = {"body": ident.body}
    if ident.owner is not None:
        out["owner"] = dump.s(ident.owner)
    if ident.made_at is not None and None not in ident.made_at:
        out["made_at"] = [ident.made_at[0], ident.made_at[1]]
    return out


def source_lines(linecache, path, module_globals):
    try:
        lines = linecache.getlines(path, module_globals)
        if not lines and path.startswith("<frozen ") and module_globals:
            real = module_globals.get("__file__")
            lines = linecache.getlines(real) if isinstance(real, str) else []
        return lines
    except Exception:
        return []


def source_runs(dump, src, wanted):
    runs, last = [], None
    get, s_new = dump.string_index.get, dump.s
    for line in sorted(wanted):
        if not 1 <= line <= len(src):
            continue
        text = src[line - 1].rstrip("\r\n")
        text = get(text) or s_new(text)
        if last is not None and line == last + 1:
            runs[-1][1].append(text)
        else:
            runs.append([line, [text]])
        last = line
    return runs


# ---------------------------------------------------------------------------------------------
# 7. Running the target
#
# Owns: the command line (`parse_args`), a fresh __main__ like `python PATH|-m|-c`
# (`prepare_main`), the "exec" audit hook that records module bodies, running the program and
# turning how it ended into an exit status and exception text, pystats counters on/off around
# it, and `main`, which runs everything in order; on a pystats build, writing the dump in a
# forked child (`in_forked_child`) unless program threads still run.

class Options:
    def __init__(self):
        self.out, self.include, self.exclude = None, [], []
        self.include_unrun, self.interval_ms, self.sample = False, 1.0, True
        self.pystats_dir, self.kind, self.value, self.args = None, None, None, []


def parse_args(argv):
    o = Options()
    if "--" not in argv:
        raise ValueError("expected -- script PATH | module NAME | code SOURCE")
    cut = argv.index("--")
    opts, target = argv[:cut], argv[cut + 1:]
    i = 0
    while i < len(opts):
        a = opts[i]
        if a in ("--include-unrun", "--no-sample"):
            o.include_unrun |= a == "--include-unrun"
            o.sample &= a != "--no-sample"
            i += 1
            continue
        if i + 1 >= len(opts) or a not in ("--out", "--include", "--exclude", "--interval-ms",
                                           "--pystats-dir"):
            raise ValueError("unknown option or missing value: " + a)
        val = opts[i + 1]
        if a == "--out":
            o.out = val
        elif a == "--include":
            o.include.append(val)
        elif a == "--exclude":
            o.exclude.append(val)
        elif a == "--interval-ms":
            o.interval_ms = float(val)
            if not o.interval_ms > 0:
                raise ValueError("--interval-ms must be positive")
        else:
            o.pystats_dir = val
        i += 2
    if not o.out:
        raise ValueError("--out is required")
    if len(target) < 2 or target[0] not in ("script", "module", "code"):
        raise ValueError("expected -- script PATH | module NAME | code SOURCE, then ARGS")
    o.kind, o.value, o.args = target[0], target[1], target[2:]
    return o


def prepare_main(opts):
    """Set sys.argv/sys.path and make a fresh __main__ module; returns (code, module)."""
    import builtins
    import importlib.machinery
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    if opts.kind == "script":
        path = opts.value
        sys.argv = [path] + opts.args
        sys.path[0] = os.path.dirname(os.path.realpath(path))
        main.__file__, main.__cached__ = path, None
        main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
        with open(path, "rb") as f:
            source = f.read()
        code = compile(source, path, "exec")
    elif opts.kind == "module":
        import importlib.util
        sys.argv = ["-m"] + opts.args
        sys.path[0] = os.getcwd()
        spec = importlib.util.find_spec(opts.value)
        if spec is None:
            raise ImportError("No module named %s" % opts.value)
        if spec.submodule_search_locations is not None:   # a package: run its __main__
            spec = importlib.util.find_spec(opts.value + ".__main__")
            if spec is None:
                raise ImportError("No module named %s.__main__" % opts.value)
        code = spec.loader.get_code(spec.name)
        sys.argv[0] = spec.origin
        main.__file__, main.__cached__ = spec.origin, getattr(spec, "cached", None)
        main.__loader__, main.__spec__, main.__package__ = spec.loader, spec, spec.parent
    else:
        sys.argv = ["-c"] + opts.args
        sys.path[0] = ""
        main.__loader__ = importlib.machinery.BuiltinImporter
        code = compile(opts.value, "<string>", "exec")
    sys.modules["__main__"] = main
    return code, main


def exception_text(exc):
    tp = type(exc)
    name = tp.__qualname__
    if tp.__module__ not in ("builtins", "__main__"):
        name = "%s.%s" % (tp.__module__, name)
    try:
        msg = str(exc).split("\n", 1)[0]
    except Exception:
        msg = "<unprintable %s object>" % tp.__name__
    return "%s: %s" % (name, msg) if msg else name


def report_exception(exc):
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == SELF_FILE:
        tb = tb.tb_next   # show the program's traceback, not the harness's frames
    exc.__traceback__ = tb
    try:
        sys.excepthook(type(exc), exc, tb)
    except Exception:
        import traceback
        traceback.print_exception(type(exc), exc, tb)


def exit_status_of(exc):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):   # bool too: unittest ends with sys.exit(not ok)
        return int(code)
    try:
        print(code, file=sys.stderr)
    except Exception:
        pass
    return 1


_EXEC_CODES = []
_RECORDING = [False]
_SAMPLER = [None]
_FORKS = [0]            # os.fork()s the program made in this process


class _ForkThreadsWarning:
    """Matches only the text of CPython's "forking a multi-threaded process" warning."""
    def match(self, text):
        return text.startswith("This process (pid=") and "is multi-threaded, use of fork()" in text


# Inserted by an approved fork's _before_fork and left until the next fork or the program's
# end: 3.12 warns before the after-fork hooks run, 3.13 after them, so no hook can remove it
# in time; it matches nothing but the warning of a fork.
_FORK_FILTER = ("ignore", _ForkThreadsWarning(), DeprecationWarning, None, 0)
_FORK_FILTERED = [False]
_FORK_HOOKED = [False]
_HARNESS_MODULE = None


def _audit(event, args):
    # Runs for every audit event in the process: keep it to one compare in the common case.
    if event == "exec" and _RECORDING[0]:
        _EXEC_CODES.append(args[0])


def _warning_filters():
    """The live warnings filter list, without running the warnings module's Python code."""
    import _warnings
    w = sys.modules.get("warnings")
    return getattr(w if w is not None else _warnings, "filters", None)


def _os_threads():
    """How many threads this process has, counted as CPython's fork warning counts them."""
    try:
        with open("/proc/self/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[17])
    except (OSError, ValueError, IndexError):
        return len(sys._current_frames())


def _before_fork():
    # Runs last of the before-fork hooks (registered first): counts the threads as they are
    # at the fork.
    _unfilter_fork()
    sampler = _SAMPLER[0]
    if (_RECORDING[0] and sampler is not None and sampler.running()
            and _os_threads() <= 2):   # this thread and the sampler's: the program has no other
        try:
            _warning_filters().insert(0, _FORK_FILTER)
            _FORK_FILTERED[0] = True
        except Exception:
            pass


def _unfilter_fork():
    if _FORK_FILTERED[0]:
        _FORK_FILTERED[0] = False
        try:
            _warning_filters().remove(_FORK_FILTER)
        except Exception:
            pass


def _after_fork(parent):
    if _RECORDING[0]:
        if parent:
            _FORKS[0] += 1
        else:
            _unfilter_fork()
            if _SAMPLER[0] is not None:
                _SAMPLER[0].forked()


def other_processes_warning():
    """Says which other Python processes the program started, whose bytecode is not dumped."""
    counter = getattr(sys.modules.get("multiprocessing.process"), "_process_counter", None)
    try:   # itertools.count(n): the next Process gets number n; reading it takes nothing
        mp = int(repr(counter)[6:-1]) - 1 if counter is not None else 0
    except ValueError:
        mp = 0
    parts = ["%d %s" % (n, w) for n, w in ((_FORKS[0], "os.fork()"),
                                           (mp, "multiprocessing process(es)")) if n]
    if parts:
        log("warning: the program started other processes (%s; a multiprocessing process with "
            "the fork start method counts in both); their bytecode is not captured, only this "
            "process's is in the dump" % ", ".join(parts))


def pystats_files(d):
    try:
        return {os.path.join(d, n) for n in os.listdir(d)}
    except OSError:
        return set()


def install_paths():
    """Where this interpreter keeps the standard library and installed packages, so that
    reports can show `<stdlib>/json/decoder.py` and `<site-packages>/pkg/mod.py` instead of
    one machine's absolute paths."""
    import site
    import sysconfig
    paths = sysconfig.get_paths()
    # Where the stdlib really is, too: a zip on sys.path (pyodide: /lib/python314.zip) holds
    # modules that sysconfig places in /lib/python3.14.
    stdlib = [paths.get("stdlib"), paths.get("platstdlib"), os.path.dirname(os.__file__)]
    packages = [paths.get("purelib"), paths.get("platlib")]
    try:
        packages += list(site.getsitepackages())
    except AttributeError:   # old virtualenv's site.py
        pass
    try:
        packages.append(site.getusersitepackages())
    except AttributeError:
        pass

    def unique(dirs):
        out = []
        for d in dirs:
            if d and os.path.abspath(d) not in out:
                out.append(os.path.abspath(d))
        return out
    return {"stdlib": unique(stdlib), "site_packages": unique(packages)}


def main(argv):
    impl = sys.implementation.name
    if impl != "cpython" or sys.version_info < (3, 11):
        log("adaptive bytecode needs CPython 3.11+ (this is %s %s)"
            % (impl, ".".join(map(str, sys.version_info[:3]))))
        return 3
    try:
        opts = parse_args(argv)
    except ValueError as e:
        log(str(e))
        return 2
    _OUT[0] = opts.out
    try:
        tables()
    except Exception:
        own_failure(opts.out, "reading the interpreter's opcode tables")
        return 3
    global _HARNESS_MODULE
    _HARNESS_MODULE = sys.modules.get("__main__")   # still ours: keep it once __main__ changes
    sampler = _SAMPLER[0] = Sampler(opts.interval_ms)
    main_pid = os.getpid()
    _FORKS[0] = 0
    if hasattr(os, "register_at_fork") and not _FORK_HOOKED[0]:   # hooks cannot be removed
        _FORK_HOOKED[0] = True
        os.register_at_fork(before=_before_fork, after_in_parent=lambda: _after_fork(True),
                            after_in_child=lambda: _after_fork(False))
    pystats = bool(opts.pystats_dir) and hasattr(sys, "_stats_clear")
    stats_before = pystats_files(opts.pystats_dir) if pystats else set()
    status, exc_text = 0, None
    sys.addaudithook(_audit)
    _RECORDING[0] = True   # before prepare_main: `-m` imports the parent packages
    started = time.time()
    t0 = time.perf_counter()
    try:
        main_code, main_module = prepare_main(opts)
    except OSError as e:   # like python: "can't open file", status 2
        log("can't open file %r: %s" % (opts.value, e))
        status, exc_text, main_code = 2, exception_text(e), None
    except ImportError as e:   # like python -m: "python: No module named x", status 1
        print("%s: %s" % (sys.executable, e), file=sys.stderr)
        status, exc_text, main_code = 1, exception_text(e), None
    except SyntaxError as e:
        report_exception(e)
        status, exc_text, main_code = 1, exception_text(e), None
    else:
        if pystats:
            sys._stats_clear()
            if sys.version_info < (3, 13):
                sys._stats_on()
        if opts.sample:
            sampler.start()
        try:
            exec(main_code, main_module.__dict__)
        except SystemExit as e:
            status = exit_status_of(e)
        except KeyboardInterrupt as e:
            report_exception(e)
            status, exc_text = 130, "KeyboardInterrupt"
        except BaseException as e:
            report_exception(e)
            status, exc_text = 1, exception_text(e)
        duration = time.perf_counter() - t0
        if pystats:
            # Off before the dump on 3.13 too (where -X pystats switched counting on): the
            # dump writes and clears the counters, and 3.13 writes them again when the
            # process exits if any is non-zero, so counting on would leave a second file.
            sys._stats_off()
            sys._stats_dump()
        sampler.finish()
    _RECORDING[0] = False
    _unfilter_fork()
    if os.getpid() != main_pid:
        return status   # a child the program forked came back here: the parent dumps
    other_processes_warning()
    if main_code is None:
        duration = time.perf_counter() - t0
        if pystats:
            # 3.12+: the program never started, so it counted nothing; drop the start-up's
            # and the harness's counts (3.13 would write them when the process exits).
            sys._stats_off()
            sys._stats_clear()

    def write_dump():
        """Build and write the dump; 0, or 3 (after saying why) when it could not be."""
        timer = Timer()
        gc.disable()   # the dump is hundreds of thousands of small lists: no point collecting
        try:
            sampler.last_look()
            run = {"argv": list(sys.argv), "target": {"kind": opts.kind, "value": opts.value},
                   "cwd": os.getcwd(), "started": rfc3339(started), "duration_s": duration,
                   "exit_status": status, "exception": exc_text,
                   "sampler": {"mode": sampler.mode, "interval_ms": opts.interval_ms,
                               "samples": sampler.samples, "note": sampler.note},
                   "filters": {"include": opts.include, "exclude": opts.exclude,
                               "include_unrun": opts.include_unrun}}
            doc, raw_code = make_dump(opts, run, sampler, main_code, timer)
            extra = {"raw_code": raw_code}
            if pystats:
                extra["pystats_raw_files"] = sorted(pystats_files(opts.pystats_dir) - stats_before)
            # Before the dump: a dump on disk always has its extra file beside it.
            write_json(opts.out + ".extra.json", extra)
            write_json(opts.out, doc)
            timer("write %s" % opts.out)
        except Exception:
            own_failure(opts.out, "building the dump")
            return 3
        return 0

    # A pystats build counts whatever this process executes (3.11: all of it, written when it
    # exits): build the dump in a child whose counters are never written.
    if (opts.pystats_dir and hasattr(os, "fork") and sys.platform not in ("emscripten", "wasi")
            and not program_threads_running()):
        failed = in_forked_child(write_dump)
    else:
        failed = write_dump()
    return 3 if failed else status


_OUT = [None]   # the dump's path, for own_failure in a forked child


def own_failure(out, phase):
    """Records a failure of this file's own code (a bug in specdiff, not in the program) in
    OUT.failed: the phase on its first line, the traceback after it. The CLI reports it as
    specdiff's own error (one line; the traceback with --debug), never as the program's exit
    status."""
    import traceback
    text = "%s\n%s" % (phase, traceback.format_exc())
    try:
        with open(out + ".failed", "w", encoding="utf-8", errors="replace") as f:
            f.write(text)
    except OSError:
        log("internal error while %s:\n%s" % (phase, text))


def program_threads_running():
    """Threads other than this one and the (stopped) sampler still run program code."""
    me = _thread.get_ident()
    for tid, frame in sys._current_frames().items():
        while tid != me and frame is not None:
            if frame.f_code.co_filename != SELF_FILE:
                return True
            frame = frame.f_back
    return False


def in_forked_child(work):
    """Run work() in a forked child and return its result (0-255), the parent waiting.

    The child leaves with os._exit: no atexit handlers, no flushing of buffers it inherited,
    no interpreter finalization, so a pystats build never writes its counters. Buffered
    output is flushed first so that neither process writes the other's. Ctrl-C: the parent
    makes sure the child got it too, waits for it, and raises KeyboardInterrupt like an
    unforked harness would have.
    """
    for f in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            f.flush()
        except Exception:
            pass
    # 3.12+ warns when it forks a process that has other threads (DeprecationWarning: on
    # stderr, or raised after the fork under -W error), and the stopped sampler's thread may
    # not be quite gone yet. Filters set without running the warnings module's Python code.
    import _warnings
    w = sys.modules.get("warnings")
    filters = getattr(w if w is not None else _warnings, "filters", None)
    ignore = ("ignore", None, DeprecationWarning, None, 0)
    try:
        filters.insert(0, ignore)
    except Exception:
        filters = None
    try:
        pid = os.fork()
    except OSError as e:
        log("cannot fork (%s): building the dump in this process" % e)
        pid = None
    finally:
        if filters is not None:
            try:
                filters.remove(ignore)
            except ValueError:
                pass
    if pid is None:
        return work()
    if pid == 0:
        code = 3
        try:
            code = work()
        except KeyboardInterrupt:
            code = 130
        except BaseException:
            own_failure(_OUT[0], "building the dump")
        finally:
            try:
                sys.stderr.flush()
            finally:
                os._exit(code)
    interrupted = False
    while True:
        try:
            _, wait_status = os.waitpid(pid, 0)
            break
        except KeyboardInterrupt:
            if not interrupted:
                interrupted = True
                try:
                    os.kill(pid, 2)   # SIGINT, for a Ctrl-C sent to this process alone
                except OSError:
                    pass
    code = os.waitstatus_to_exitcode(wait_status)
    if interrupted or code in (130, -2):
        raise KeyboardInterrupt
    if code < 0:
        log("the process writing the dump was killed by signal %d" % -code)
        return 3
    return code


# ---------------------------------------------------------------------------------------------
# 8. The dump document
#
# Owns: `make_dump`, which assembles the document (docs/dump-format.md) from sections 5 and 6
# plus the interpreter's description, and the raw code the CLI finishes it with; `Timer`
# (SPECDIFF_TIMING=1: each phase's time); timestamps; `write_json`, which writes UTF-8 JSON to
# PATH.tmp and renames it, so a dump on disk is always whole.

class Timer:
    """SPECDIFF_TIMING=1 in the environment: print how long each dump phase took (stderr)."""

    def __init__(self):
        self.on = bool(os.environ.get("SPECDIFF_TIMING"))
        self.t = time.perf_counter()

    def __call__(self, what):
        if self.on:
            now = time.perf_counter()
            log("timing: %-40s %.3f s" % (what, now - self.t))
            self.t = now


IMMUTABLETYPE = 1 << 8   # Py_TPFLAGS_IMMUTABLETYPE


def _type_name(t):
    return "%s:%s" % (type.__dict__["__module__"].__get__(t), type.__dict__["__qualname__"].__get__(t))


def _own_class(cls):
    """A class the harness itself defines (the program's classes share its `__main__`)."""
    for v in type.__dict__["__dict__"].__get__(cls).values():
        code = getattr(v, "__code__", None) if type(v) is FunctionType else None
        if code is not None and code.co_filename in (SELF_FILE, PROBE_FILE):
            return True
    return False


def _dict_without_values(cls):
    """3.13+: its instances have a `__dict__` (managed, or at `__dictoffset__`) but no inline
    values (Py_TPFLAGS_INLINE_VALUES): 3.13 gives none to a subclass of a slotted class or of a
    builtin, and then specializes no class attribute read through its instances."""
    if sys.version_info < (3, 13):
        return False
    flags = type.__dict__["__flags__"].__get__(cls)
    has_dict = flags & (1 << 4) or type.__dict__["__dictoffset__"].__get__(cls)
    return bool(has_dict) and not flags & (1 << 2)


def class_table(found, modules):
    """The `classes` table (docs/dump-format.md): every live class of a module the dump holds
    code of whose attribute lookup finds a value of a mutable type (an instance of a Python
    class, a class made by a Python metaclass), which CPython's specializer refuses to cache
    for any attribute load that finds it (analyze_descriptor: MUTABLE), or whose instances have
    a dict without inline values (_dict_without_values). Read through `type`'s own
    descriptors, so that no metaclass property or `__getattr__` runs."""
    out = []
    mro_of, dict_of = type.__dict__["__mro__"].__get__, type.__dict__["__dict__"].__get__
    for cls in found.class_objs:
        try:
            mod = type.__dict__["__module__"].__get__(cls)
            if type(mod) is not str or mod not in modules or _own_class(cls):
                continue
            mro = mro_of(cls)
            found_at, slotted = {}, None
            for k in mro:
                if k is object:
                    continue
                own = dict_of(k)
                if slotted is None and "__slots__" in own:
                    slotted = k
                for name, v in own.items():
                    if type(name) is str and name not in found_at:
                        found_at[name] = v
            mutable = sorted([n, _type_name(type(v)), isinstance(v, type)]
                             for n, v in found_at.items() if not type(v).__flags__ & IMMUTABLETYPE)
            # Dict without inline values under a slotted class only (a subclass that dropped
            # the `__slots__`): metaclasses, exceptions and the like would fill the table.
            no_values = slotted is not None and _dict_without_values(cls)
            if not mutable and not no_values:
                continue
            meta = [_type_name(k) for k in mro_of(type(cls)) if k is not type and k is not object]
            entry = {"class": _type_name(cls),
                     "mro": [_type_name(k) for k in mro[1:] if k is not object],
                     "meta": meta, "mutable": mutable}
            if no_values:
                entry["dict_without_values"] = True
                entry["slots_in"] = _type_name(slotted)
            out.append(entry)
        except Exception:
            continue
    out.sort(key=lambda e: (e["class"], e["mro"], e["meta"], e["mutable"]))
    return out


def make_dump(opts, run, sampler, main_code, timer):
    """The dump document, and the raw code the CLI finishes it with (finish_entries)."""
    exec_codes = [c for c in _EXEC_CODES if type(c) is CodeType]
    roots = exec_codes + list(sampler.codes.values())
    found = find_codes(roots)
    timer("find %d code objects" % len(found.codes))
    dump = Dump()
    entries = build_code_entries(dump, found, {id(c) for c in exec_codes}, sampler, opts,
                                 main_code)
    timer("decode %d code objects" % len(entries))
    if _T.unknown:
        check_against_dis(dump, entries)
        timer("checked against dis")
    code, files, raw_code = finish_entries(dump, entries, sampler)
    timer("source lines")
    classes = class_table(found, {dump.strings[c["module"]] for c in code})
    timer("%d classes with mutable-typed attributes" % len(classes))
    import platform
    import sysconfig
    python = {"version": platform.python_version(), "version_info": list(sys.version_info),
              "implementation": sys.implementation.name, "executable": sys.executable or "",
              "platform": sysconfig.get_platform(),
              "pystats_build": hasattr(sys, "_stats_clear")
              or "--enable-pystats" in (sysconfig.get_config_var("CONFIG_ARGS") or ""),
              "paths": install_paths(), "counter_backoff_bits": _T.backoff_bits}
    return {"format": "specdiff-dump", "version": 1, "generator": GENERATOR, "python": python,
            "run": run, "strings": dump.strings, "ops": dump.ops, "files": files, "code": code,
            "classes": classes, "pystats": None}, raw_code


def check_against_dis(dump, entries):
    """A CPython newer than NEWEST_KNOWN: compare every decoded instruction's arg and argrepr
    with the interpreter's own dis.get_instructions(adaptive=True), take dis's where they
    differ, and say in one line which rules were assumed. dis is imported only now, after the
    snapshot: what importing it runs cannot change what was decoded. Instructions whose opname
    changed since the snapshot (code dis itself ran) are left as decoded."""
    import dis
    t = _T
    checked = fixed = 0
    example = None
    for e in entries:
        ins = e["instructions"]
        at = {x[0]: n for n, x in enumerate(ins)}
        try:
            theirs = list(dis.get_instructions(e["_code"], adaptive=True))
        except Exception:
            continue
        for d in theirs:
            n = at.get(d.offset)
            if n is None:
                continue
            x = ins[n]
            if dump.ops[x[1]][0] != d.opname:
                continue
            checked += 1
            if x[2] != d.arg or dump.strings[x[3]] != d.argrepr:
                if example is None:
                    example = "%s %r where dis says %r" % (d.opname, dump.strings[x[3]], d.argrepr)
                ins[n] = x[:2] + (d.arg, dump.s(d.argrepr)) + x[4:]
                fixed += 1
    running = "%d.%d" % sys.version_info[:2]
    rules = "%d.%d" % t.v
    note = ("CPython %s is newer than any specdiff knows: its bytecode was decoded with %s's "
            "rules and checked against its own dis (%d instructions: %s); counters are read as "
            "%d-bit backoff fields, measured at start-up"
            % (running, rules, checked,
               "all agreed" if not fixed else "%d differed and were taken from dis, e.g. %s"
               % (fixed, example), t.backoff_bits))
    log(note)
    return note


def rfc3339(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + ".%03dZ" % (ts % 1 * 1000)


def write_json(path, doc):
    import json
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(text.encode("utf-8", "replace"))   # lone surrogates (odd argv/paths) -> "?"
    os.replace(tmp, path)


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException:
        if _OUT[0] is None:
            raise
        own_failure(_OUT[0], "running the harness")
        status = 3
    sys.exit(status)

"""specdiff harness: run a Python program and dump what the specializing interpreter did to it.

Sections, in order (each opens with a `# ----` banner and a comment saying what it owns):
    1. Set-up                  imports allowed before the snapshot, constants, argrepr kinds, log
    2. Opcode tables           the running version's opcode facts, from its own `opcode` module
    3. Decoding                adaptive bytecode -> dump instruction arrays, as dis would list them
    4. Sampling thread         hotness (sampled stacks) and churn (opcodes changing over time)
    5. Finding code objects    every code object of the run, after it, and what kind each is
    6. Tier-2 executors        the JIT's executors of each code object, read after the run
    7. Building the dump       which code is kept and ran, its entries, source lines
    8. Running the target      command line, __main__, running the program, exit status, main()
    9. The dump document       assembling the JSON document, timing, writing files atomically

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



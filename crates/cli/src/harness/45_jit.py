# ---------------------------------------------------------------------------------------------
# 6. Tier-2 executors
#
# Owns: reading the JIT's tier-2 executors (`read_executors`) when the interpreter has them
# (3.13+ built with the JIT, `PYTHON_JIT=1`): every executor attached to a code object's
# bytecode (an ENTER_EXECUTOR at an instruction start; `_opcode.get_executor`), its validity,
# its main trace's uops with the bytecode offset each came from, and its exit stubs with the
# guards that jump to them (`decode_trace`); the instructions of other code objects a trace
# runs in the frames of the calls it inlines (`Callees`, the dump's `inlined`); and the `jit`
# description of the interpreter.
# Detected, never assumed: no `_opcode.get_executor`, no ENTER_EXECUTOR, no executors.
# Read at the snapshot, like the adaptive bytecode: an executor that was invalidated before
# the end of the run is gone from the code (CPython detaches it), so the dump shows what was
# still attached when the program ended.

# Stub uops, by what taking them does: leave the trace for tier 1 at a bytecode offset where a
# side executor may later start (`side`), go back to tier 1 for good (`deopt`), or unwind
# after an error (`error`). Anything else after the main trace is kept as `other`.
EXIT_STUBS = {"_EXIT_TRACE": "side", "_DYNAMIC_EXIT": "side", "_DEOPT": "deopt",
              "_HANDLE_PENDING_AND_DEOPT": "deopt", "_ERROR_POP_N": "error"}
# Uops the optimizer adds that stand for no bytecode instruction: their target is 0 or 1.
SYNTHETIC_UOPS = ("_MAKE_WARM", "_SPILL_OR_RELOAD", "_JUMP_TO_TOP")
# A frame pushed (an inlined call; `_CREATE_INIT_FRAME` pushes the shim frame `__init__` returns
# into) or popped: uops between are at offsets of another code object.
FRAME_PUSH, FRAME_POP = ("_PUSH_FRAME", "_CREATE_INIT_FRAME"), ("_RETURN_VALUE", "_RETURN_GENERATOR", "_YIELD_VALUE")
# Uops whose operand is the version of the function a call is about to enter (3.14, 3.15).
VERSION_CHECKS = ("_CHECK_FUNCTION_VERSION", "_CHECK_FUNCTION_VERSION_INLINE",
                  "_CHECK_FUNCTION_VERSION_KW", "_CHECK_METHOD_VERSION",
                  "_CHECK_METHOD_VERSION_KW")


def jit_info():
    """The interpreter's JIT as `sys._jit` tells it (3.14+), or None when it says nothing."""
    j = getattr(sys, "_jit", None)
    out = {"executors_readable": _get_executor() is not None}
    for k in ("is_available", "is_enabled"):
        f = getattr(j, k, None)
        if f is not None:
            try:
                out[k[3:]] = bool(f())
            except Exception:
                pass
    return out


def _get_executor():
    try:
        from _opcode import get_executor
        return get_executor
    except ImportError:
        return None


def executors_possible():
    """False when the interpreter says its JIT is off (3.14+ `sys._jit`) or has no executors
    to read: then no code object is scanned."""
    if tables().enter_executor < 0 or _get_executor() is None:
        return False
    enabled = getattr(getattr(sys, "_jit", None), "is_enabled", None)
    try:
        return enabled is None or bool(enabled())
    except Exception:
        return True


# (id(code), offset) -> the opcode an attached executor replaced (its `get_opcode()`), read
# with the executors at the snapshot: the decoder names the instruction by it (section 2).
EXECUTOR_OPS = {}


def read_executors(code, raw):
    """[(offset, executor, valid)] of one code object's snapshot, or () without any. An
    ENTER_EXECUTOR byte is searched for at even offsets (C speed); a hit in an inline cache
    word is told apart by co_code, which holds the instruction's own opcode there and 0 (CACHE)
    in caches, and by get_executor, which knows only the offsets executors are attached to."""
    ee = tables().enter_executor
    i = raw.find(ee)
    if i < 0:
        return ()
    get, base, out = _get_executor(), None, []
    while i >= 0:
        if not i & 1:
            if base is None:
                base = code.co_code
            if base[i]:
                try:
                    ex = get(code, i)
                    out.append((i, ex, bool(ex.is_valid())))
                    EXECUTOR_OPS[(id(code), i)] = ex.get_opcode()
                except Exception:
                    pass
        i = raw.find(ee, i + 1)
    return out


class Callees:
    """Which code object an inlined frame of a trace runs. Best, from a uop in the frame whose
    operand points into a code object's bytecode (`_SET_IP`, 3.15's `_GUARD_IP_*`: the frame's
    instruction pointer), or that checks its code's version (3.15's `_GUARD_CODE_VERSION_*`).
    Else from the uops before the push: a version check's operand (a function's
    `func_version`, which CPython 3.14+ sets from its code's `co_version` when the function is
    made: one number per code object), or an operand that is a live function's address
    (3.14's `_PUSH_FRAME`, a constant callee). Versions are read from the function objects at
    the place `_version_offset` finds; without one, they name nothing."""

    def __init__(self, funcs, codes):
        self.by_id, self.by_version = {}, {}
        at = _version_offset()
        read = None
        if at is not None:
            import ctypes
            read = ctypes.c_uint32.from_address
        for f in funcs:
            code = f.__code__
            self.by_id[id(f)] = code
            if read is not None:
                v = read(id(f) + at).value
                # 0: no version (its code or defaults were replaced). Two code objects under
                # one number (never seen) name neither.
                if v and self.by_version.setdefault(v, code) is not code:
                    self.by_version[v] = None
        import bisect   # after the run, like ctypes: the program never sees them imported
        self.after = bisect.bisect_right
        self.spans = sorted((id(c), id(c) + c.__sizeof__(), c) for c in codes)
        self.starts = [s[0] for s in self.spans]

    def before_push(self, name, operand):
        """The code object this uop says the next pushed frame runs, or None."""
        if name in VERSION_CHECKS:
            return self.by_version.get(operand)
        return self.by_id.get(operand) if operand > 0xFFFF else None

    def in_frame(self, name, operand):
        """The code object of the frame this uop runs in, when the uop says, or None."""
        if name == "_SET_IP" or name.startswith("_GUARD_IP"):
            k = self.after(self.starts, operand) - 1
            if k >= 0 and operand < self.spans[k][1]:
                return self.spans[k][2]
        elif name.startswith("_GUARD_CODE_VERSION"):
            return self.by_version.get(operand)
        return None


def _version_offset():
    """Where a function object holds its `func_version` (a uint32), found by looking rather
    than assumed: code objects get consecutive versions in the order they are made, so three
    functions compiled in a row hold three consecutive numbers there, and a function made from
    the first one's code holds the same number. None unless exactly one place fits, or without
    ctypes."""
    try:
        import ctypes
    except ImportError:
        return None
    ns = {}
    exec(compile("def a(): pass\ndef b(): pass\ndef c(): pass\n", SELF_FILE, "exec"), ns)
    a, b, c = ns["a"], ns["b"], ns["c"]
    twin = FunctionType(a.__code__, {})
    read = ctypes.c_uint32.from_address
    fits = []
    for k in range(0, FunctionType.__basicsize__ - 3, 4):
        v = read(id(a) + k).value
        if v and read(id(b) + k).value == v + 1 and read(id(c) + k).value == v + 2 \
                and read(id(twin) + k).value == v:
            fits.append(k)
    return fits[0] if len(fits) == 1 else None


def decode_trace(dump, offset, ex, valid, callees=None, inlined=None):
    """One executor as the dump's `executors` entry (docs/dump-format.md). With `callees`,
    the byte offsets of the instructions the trace runs in inlined frames whose code it names
    are added to `inlined` (id(code) -> set)."""
    try:
        uops = [tuple(u) for u in ex]
    except Exception:
        return None
    layout = _stub_layout(uops)
    entry = {"offset": offset, "valid": valid, "length": len(uops)}
    if layout is None:
        # Not the layout this reader knows: the uops by name only, nothing claimed of exits.
        entry["uops"] = [[dump.s(str(u[0])), u[1]] for u in uops]
        entry["exits"] = None
        return entry
    start, links = layout
    # An exit's offset is in the code of the frame its first guard is in: kept for this code's.
    # A frame popped at depth 0 (a `yield` or `return` of this code) leaves its frame for the
    # caller's, whose depth is unknown: from there on no offset is this code's (depth -1).
    stub_depth, depth = {}, 0
    for k in range(start):
        for stub in links[k]:
            if stub:
                stub_depth.setdefault(stub, depth)
        depth = _depth_after(uops[k][0], depth)
    exits, exit_index = [], {}
    for k in range(start, len(uops)):
        name, _oparg, target, operand = uops[k][:4]
        unit = operand if name == "_ERROR_POP_N" else target
        exit_index[k] = len(exits)
        exits.append([EXIT_STUBS.get(name, "other"), dump.s(name),
                      None if stub_depth.get(k, 0) else 2 * unit])
    out, depth = [], 0
    # Each inlined frame above this code's: [the code its push named, the offsets it ran, the
    # code its own uops named]; a named callee's uops came from its instructions.
    frames, named = [], None
    for k in range(start):
        name, oparg, target = uops[k][:3]
        jump, error = links[k]
        if jump or error:
            stub = uops[jump or error]
            unit = stub[3] if stub[0] == "_ERROR_POP_N" else stub[2]
        else:
            unit = target
        at = None if depth or name in SYNTHETIC_UOPS else 2 * unit
        row = [dump.s(name), oparg, at, exit_index.get(jump), exit_index.get(error)]
        while row[-1] is None and len(row) > 2:
            row.pop()
        out.append(row)
        if callees is not None and depth >= 0:
            operand = uops[k][3] if len(uops[k]) > 3 else 0
            if depth:
                frame = frames[-1]
                if name not in SYNTHETIC_UOPS:
                    frame[1].append(2 * unit)
                if frame[2] is None:
                    frame[2] = callees.in_frame(name, operand)
            hit = callees.before_push(name, operand)
            # A version check, or the push's own operand, names the callee; another address
            # (a function passed as an argument) only when nothing did.
            if hit is not None and (named is None or name in VERSION_CHECKS or name in FRAME_PUSH):
                named = hit
            if name in FRAME_PUSH:
                frames.append([named, [], None])
                named = None
            elif name in FRAME_POP:
                named = None
                if frames:
                    _record_frame(frames.pop(), inlined)
        depth = _depth_after(name, depth)
    for frame in frames:
        _record_frame(frame, inlined)
    entry["uops"] = out
    entry["exits"] = exits
    return entry


def _record_frame(frame, inlined):
    """Adds an inlined frame's offsets to `inlined`, unless one is past its code's end (the
    callee was misnamed: nothing is claimed of it)."""
    pushed, offsets, own = frame
    code = own or pushed
    if code is not None and offsets and max(offsets) < len(code.co_code):
        inlined.setdefault(id(code), set()).update(offsets)


def _depth_after(name, depth):
    """The frame depth after uop `name`: 0 is this code's frame, above it inlined callees,
    -1 once this code's own frame was left (it stays -1)."""
    if depth < 0:
        return depth
    if name in FRAME_PUSH:
        return depth + 1
    if name in FRAME_POP:
        return depth - 1
    return depth


def _stub_layout(uops):
    """Where the exit stubs start, and each main-trace uop's (jump stub, error stub) or
    (0, 0). A uop's `target` is either a bytecode index (code units) or, for a uop that can
    exit, its exit stub's index in the low 16 bits and its error stub's in the high 16; which,
    the tuple does not say. CPython appends the stubs in the order of the uops that need them,
    reusing the previous one when equal, so a reading is right only when every stub is
    claimed exactly in order: tried from the first stub-like uop (and the next), None when
    neither reading accounts for every stub."""
    first = next((k for k, u in enumerate(uops) if u[0] in EXIT_STUBS), None)
    if first is None:
        return None
    for start in (first, first + 1):
        if not all(u[0] in EXIT_STUBS for u in uops[start:]):
            continue
        links, spare, cur = [], start, [0, 0]
        for u in uops[:start]:
            target = u[2]
            lo, hi = target & 0xFFFF, target >> 16
            link = (0, 0)
            ok, nxt, new = True, spare, list(cur)
            for slot, idx in ((0, lo), (1, hi)):
                if not idx:
                    continue
                want = "_ERROR_POP_N" if slot else None
                if idx >= len(uops):
                    ok = False
                elif idx == nxt and (uops[idx][0] == want if want else uops[idx][0] != "_ERROR_POP_N"):
                    nxt += 1
                    new[slot] = idx
                elif idx != cur[slot] or not idx:
                    ok = False
            if ok and (lo or hi) and lo < len(uops) and hi < len(uops) \
                    and (lo >= start or not lo) and (hi >= start or not hi):
                link, spare, cur = (lo, hi), nxt, new
            links.append(link)
        if spare == len(uops):
            return start, links
    return None

# ---------------------------------------------------------------------------------------------
# 6. Tier-2 executors
#
# Owns: reading the JIT's tier-2 executors (`read_executors`) when the interpreter has them
# (3.13+ built with the JIT, `PYTHON_JIT=1`): every executor attached to a code object's
# bytecode (an ENTER_EXECUTOR at an instruction start; `_opcode.get_executor`), its validity,
# its main trace's uops with the bytecode offset each came from, and its exit stubs with the
# guards that jump to them (`decode_trace`); and the `jit` description of the interpreter.
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


def decode_trace(dump, offset, ex, valid):
    """One executor as the dump's `executors` entry (docs/dump-format.md)."""
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
        depth = _depth_after(name, depth)
    entry["uops"] = out
    entry["exits"] = exits
    return entry


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

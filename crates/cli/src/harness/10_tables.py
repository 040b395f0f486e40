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



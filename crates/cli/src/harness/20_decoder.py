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
        # The opcode the executor replaced, as read at the snapshot (section 6): CPython may
        # detach the executor before this runs, and then asking again finds nothing. Never
        # ENTER_EXECUTOR itself: the instruction under it (a loop's jump, or the EXTENDED_ARG
        # before it) is what the dump names; co_code's opcode when nothing else is known.
        op = EXECUTOR_OPS.get((id(code), i), op0)
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



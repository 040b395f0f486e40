# specdiff calibrate: what one execution of each specialized form saves against the generic
# form of the same operation, measured on the interpreter running this file.
#
# Every case times one loop body `for i in it: OP` twice: once on operands the specializer
# accepts, once on operands it refuses while the generic instruction does the same work (an
# exact-type guard refused by a subclass that overrides nothing, a dict guard refused by one
# non-string key, a version guard missed by rotating among equal copies). Before timing, the
# site's form is read with dis (adaptive=True); a case whose forms are not the ones claimed is
# reported as unmeasured with what dis saw, never timed. Rounds interleave the two variants
# and alternate which goes first; the figure is the median of the per-round differences, the
# spread their 10th and 90th percentiles. Output: one JSON document on stdout.
import dis, json, sys, time, builtins, types

QUICK = "--quick" in sys.argv
ROUNDS = 5 if QUICK else 21
# each round times each variant BEST_OF times and keeps the fastest: on a shared machine the
# slow timings are other processes, not the interpreter
BEST_OF = 3 if QUICK else 5
EXECUTIONS = 5_000 if QUICK else 20_000


class Int(int):
    pass


class Float(float):
    pass


class Str(str):
    pass


class List(list):
    pass


class Tuple(tuple):
    pass


class Dict(dict):
    pass


class Set(set):
    pass


class Plain:
    def __init__(self):
        self.x = 1


class Slotted:
    __slots__ = ("x",)

    def __init__(self):
        self.x = 1


def plain_rotation():
    # eight classes with the same shape: a site specialized for one misses on the others
    out = []
    for k in range(8):
        cls = type("Plain%d" % k, (), {"__init__": Plain.__init__})
        out.append(cls())
    return out


def slotted_rotation():
    out = []
    for k in range(8):
        cls = type("Slotted%d" % k, (), {"__slots__": ("x",), "__init__": Slotted.__init__})
        out.append(cls())
    return out


def function_rotation(copies):
    out = []
    for k in range(copies):
        ns = {}
        # distinct code objects: 3.13+ gives functions sharing code one version
        exec(compile("def f(x):\n    return x\n", "<callee%d>" % k, "exec"), ns)
        out.append(ns["f"])
    return out


def module_with(non_string_key):
    m = types.ModuleType("calibration_module")
    m.x = 1
    if non_string_key:
        m.__dict__[0] = 0
    return m


def globals_with(non_string_key):
    g = {"__builtins__": builtins, "G": 1}
    if non_string_key:
        g[0] = 0
    return g


# (family, operation as people read it, loop body, specialized operands, generic operands,
#  how the generic site is made, globals: None or a function of non_string_key)
CASES = [
    ("BINARY_OP", "int + int", "a + b", lambda: (1, 2), lambda: (Int(1), Int(2)), "int subclass operands", None),
    ("BINARY_OP", "float * float", "a * b", lambda: (1.5, 2.5), lambda: (Float(1.5), Float(2.5)), "float subclass operands", None),
    ("BINARY_OP", "str + str", "a + b", lambda: ("ab", "cd"), lambda: (Str("ab"), Str("cd")), "str subclass operands", None),
    ("BINARY_SUBSCR", "list[int]", "a[b]", lambda: ([1, 2, 3], 1), lambda: (List([1, 2, 3]), 1), "list subclass operand", None),
    ("BINARY_SUBSCR", "tuple[int]", "a[b]", lambda: ((1, 2, 3), 1), lambda: (Tuple((1, 2, 3)), 1), "tuple subclass operand", None),
    ("BINARY_SUBSCR", "dict[key]", "a[b]", lambda: ({"k": 1}, "k"), lambda: (Dict({"k": 1}), "k"), "dict subclass operand", None),
    ("STORE_SUBSCR", "list[int] = v", "a[1] = b", lambda: ([1, 2, 3], 0), lambda: (List([1, 2, 3]), 0), "list subclass operand", None),
    ("STORE_SUBSCR", "dict[key] = v", "a['k'] = b", lambda: ({"k": 1}, 0), lambda: (Dict({"k": 1}), 0), "dict subclass operand", None),
    ("COMPARE_OP", "int < int", "a < b", lambda: (1, 2), lambda: (Int(1), Int(2)), "int subclass operands", None),
    ("COMPARE_OP", "float < float", "a < b", lambda: (1.5, 2.5), lambda: (Float(1.5), Float(2.5)), "float subclass operands", None),
    ("COMPARE_OP", "str == str", "a == b", lambda: ("ab", "cd"), lambda: (Str("ab"), Str("cd")), "str subclass operands", None),
    ("CONTAINS_OP", "key in dict", "a in b", lambda: ("k", {"k": 1}), lambda: ("k", Dict({"k": 1})), "dict subclass operand", None),
    ("CONTAINS_OP", "key in set", "a in b", lambda: ("k", {"k"}), lambda: ("k", Set({"k"})), "set subclass operand", None),
    ("TO_BOOL", "if list", "if a: pass", lambda: ([1], 0), lambda: (List([1]), 0), "list subclass operand", None),
    ("TO_BOOL", "if int", "if a: pass", lambda: (1, 0), lambda: (Int(1), 0), "int subclass operand", None),
    ("TO_BOOL", "if str", "if a: pass", lambda: ("a", 0), lambda: (Str("a"), 0), "str subclass operand", None),
    ("UNPACK_SEQUENCE", "x, y = tuple", "x, y = a", lambda: ((1, 2), 0), lambda: (Tuple((1, 2)), 0), "tuple subclass operand", None),
    ("UNPACK_SEQUENCE", "x, y = list", "x, y = a", lambda: ([1, 2], 0), lambda: (List([1, 2]), 0), "list subclass operand", None),
    ("LOAD_GLOBAL", "module global", "G", lambda: (0, 0), lambda: (0, 0), "a non-string key in the globals", globals_with),
    ("LOAD_GLOBAL", "builtin", "len", lambda: (0, 0), lambda: (0, 0), "a non-string key in the globals", globals_with),
    ("LOAD_ATTR", "instance attribute", "a[i & 7].x", lambda: ([Plain()] * 8, 0), lambda: (plain_rotation(), 0), "the site missing: 8 classes in turn", None),
    ("LOAD_ATTR", "slot", "a[i & 7].x", lambda: ([Slotted()] * 8, 0), lambda: (slotted_rotation(), 0), "the site missing: 8 classes in turn", None),
    ("LOAD_ATTR", "module attribute", "a.x", lambda: (module_with(False), 0), lambda: (module_with(True), 0), "a non-string key in the module dict", None),
    ("STORE_ATTR", "instance attribute", "a[i & 7].x = b", lambda: ([Plain()] * 8, 0), lambda: (plain_rotation(), 0), "the site missing: 8 classes in turn", None),
    ("STORE_ATTR", "slot", "a[i & 7].x = b", lambda: ([Slotted()] * 8, 0), lambda: (slotted_rotation(), 0), "the site missing: 8 classes in turn", None),
    ("CALL", "Python function f(x)", "a[i & 7](b)", lambda: (function_rotation(1) * 8, 0), lambda: (function_rotation(8), 0), "the site missing: 8 functions in turn", None),
]

UNMEASURED = [
    ("LOAD_SUPER_ATTR", "its guards check only that `super` is the builtin and the class is a type: a `super()` site specializes whatever it meets"),
    ("FOR_ITER", "no fair generic form: a FOR_ITER stays generic only on iterators no form handles (a class's __next__, map, zip), not the list, tuple, range or generator iteration the forms do"),
]


def specializations():
    try:
        import _opcode_metadata
        table = _opcode_metadata._specializations
    except Exception:
        import opcode
        table = opcode._specializations
    family = {}
    for base, forms in table.items():
        family[base] = base
        for form in forms:
            family[form] = base
    return family


FAMILY = specializations()
# 3.14 merged BINARY_SUBSCR into BINARY_OP ([] operand); 3.12 and 3.13 have no TO_BOOL
SUBSCR_IN_BINARY_OP = "BINARY_SUBSCR" not in FAMILY


def family_of(opname):
    return FAMILY.get(opname, opname)


def make(body, glb):
    src = "def run(it, a, b):\n    for i in it:\n        %s\n" % body
    ns = {} if glb is None else glb
    exec(compile(src, "<calibration>", "exec"), ns)
    return ns["run"]


def site_forms(run, family):
    # the forms of the loop body's instructions of `family` (the loop's own FOR_ITER apart)
    forms = []
    for ins in dis.get_instructions(run, adaptive=True):
        fam = family_of(ins.opname)
        if fam == "FOR_ITER" or ins.opname.startswith("FOR_ITER"):
            continue
        if fam == family:
            if family == "BINARY_OP" and ins.argrepr == "[]" and not WANT_SUBSCR[0]:
                continue
            forms.append(ins.opname)
    return forms


WANT_SUBSCR = [False]


# this thread's CPU time: time the machine spent on other processes is not counted
CLOCK = getattr(time, "thread_time_ns", time.perf_counter_ns)


def timed(run, it, a, b):
    best = None
    for _ in range(BEST_OF):
        start = CLOCK()
        run(it, a, b)
        took = CLOCK() - start
        best = took if best is None or took < best else best
    return best


def percentile(sorted_values, q):
    k = (len(sorted_values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def measure(case):
    family, operation, body, spec_args, gen_args, generic_by, glb = case
    site_family = family
    WANT_SUBSCR[0] = False
    if family == "BINARY_SUBSCR" and SUBSCR_IN_BINARY_OP:
        site_family = "BINARY_OP"
        WANT_SUBSCR[0] = True
    if site_family not in FAMILY:
        return None, "no %s on this version" % family
    spec_run = make(body, None if glb is None else glb(False))
    gen_run = make(body, None if glb is None else glb(True))
    sa, sb = spec_args()
    ga, gb = gen_args()
    warm = range(200)
    for _ in range(5):
        spec_run(warm, sa, sb)
        gen_run(warm, ga, gb)
    spec_forms = site_forms(spec_run, site_family)
    gen_forms = site_forms(gen_run, site_family)
    result = {
        "family": site_family if family != "BINARY_SUBSCR" else family,
        "operation": operation,
        "specialized": spec_forms[0] if len(spec_forms) == 1 else None,
        "generic": gen_forms[0] if len(gen_forms) == 1 else None,
        "generic_by": generic_by,
    }
    if len(spec_forms) != 1 or len(gen_forms) != 1:
        return None, "%s: dis found %s and %s" % (operation, spec_forms, gen_forms)
    if spec_forms[0] == site_family:
        return None, "%s: does not specialize on this version" % operation
    rotated = "in turn" in generic_by
    if gen_forms[0] != site_family and not rotated:
        return None, "%s: the generic operands specialize too (%s)" % (operation, gen_forms[0])
    it = range(EXECUTIONS)
    base_run = make("pass", None)
    diffs, spec_ns, gen_ns = [], [], []
    for r in range(ROUNDS):
        order = [(spec_run, sa, sb, spec_ns), (gen_run, ga, gb, gen_ns)]
        if r % 2:
            order.reverse()
        t = {}
        for run, a, b, sink in order:
            ns = timed(run, it, a, b) / EXECUTIONS
            sink.append(ns)
            t[id(sink)] = ns
        diffs.append(t[id(gen_ns)] - t[id(spec_ns)])
    # what dis sees after timing: a rotated site must still be missing, not settled
    after = site_forms(gen_run, site_family)
    result["generic_after"] = after[0] if after else None
    base = sorted(timed(base_run, it, 0, 0) / EXECUTIONS for _ in range(max(3, ROUNDS // 3)))
    diffs.sort()
    spec_ns.sort()
    gen_ns.sort()
    loop = percentile(base, 0.5)
    result.update({
        "specialized_ns": round(percentile(spec_ns, 0.5) - loop, 2),
        "generic_ns": round(percentile(gen_ns, 0.5) - loop, 2),
        "saved_ns": round(percentile(diffs, 0.5), 2),
        "saved_low_ns": round(percentile(diffs, 0.1), 2),
        "saved_high_ns": round(percentile(diffs, 0.9), 2),
    })
    return result, None


def main():
    forms, unmeasured = [], []
    for case in CASES:
        try:
            result, why = measure(case)
        except Exception as e:  # a case the version cannot run is reported, not fatal
            result, why = None, "%s: %s: %s" % (case[1], type(e).__name__, e)
        if result is not None:
            forms.append(result)
        else:
            unmeasured.append({"family": case[0], "why": why})
    for family, why in UNMEASURED:
        unmeasured.append({"family": family, "why": why})
    v = sys.version_info
    json.dump({
        "format": "specdiff-cost-model",
        "version": 1,
        "python": "%d.%d.%d" % (v[0], v[1], v[2]),
        "implementation": sys.implementation.name,
        "mode": "quick" if QUICK else "full",
        "rounds": ROUNDS,
        "executions": EXECUTIONS,
        "forms": forms,
        "unmeasured": unmeasured,
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()

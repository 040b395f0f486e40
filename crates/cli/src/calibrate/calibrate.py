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
import collections, dis, enum, json, sys, time, builtins, types

QUICK = "--quick" in sys.argv
ROUNDS = 5 if QUICK else 21
# each round times each variant BEST_OF times and keeps the fastest: on a shared machine the
# slow timings are other processes, not the interpreter
BEST_OF = 3 if QUICK else 5
EXECUTIONS = 5_000 if QUICK else 20_000
# whole calibrations, one after the other; each form keeps the pass with its median saving:
# one pass is not reproducible on a shared machine (a pass taken while the machine was in
# another state read some generic paths 2-5x slower, docs/cost-validation.md)
PASSES = 1 if QUICK else 3


class Int(int):
    pass


class Float(float):
    pass


class Level(enum.IntEnum):
    # how int comparisons lose their form in programs: an enum member against a plain int,
    # which makes the generic path try the subclass's reflected comparison first (an int
    # subclass on both sides does not, and measured 1.5x less on 3.14)
    TWO = 2


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
    ("COMPARE_OP", "int < int", "a < b", lambda: (1, 2), lambda: (1, Level.TWO), "an IntEnum operand", None),
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
    # the body's instructions besides the site (operand loads, a pop), timed with it: an
    # estimate pricing the site among a program's instructions takes them off
    result["others"] = max(0, body_instructions(spec_run) - body_instructions(base_run) - 1)
    spec_ns, gen_ns, diffs = interleaved((spec_run, it, sa, sb), (gen_run, it, ga, gb))
    # what dis sees after timing: a rotated site must still be missing, not settled
    after = site_forms(gen_run, site_family)
    result["generic_after"] = after[0] if after else None
    base = sorted(timed(base_run, it, 0, 0) / EXECUTIONS for _ in range(max(3, ROUNDS // 3)))
    result.update(figures(spec_ns, gen_ns, diffs, percentile(base, 0.5)))
    return result, None


def interleaved(spec, gen):
    # ROUNDS rounds timing both variants, each a (run, it, a, b) call, which goes first
    # alternating: per execution, the specialized and generic times and their differences
    spec_ns, gen_ns, diffs = [], [], []
    for r in range(ROUNDS):
        order = [(spec, spec_ns), (gen, gen_ns)]
        if r % 2:
            order.reverse()
        for (run, it, a, b), sink in order:
            sink.append(timed(run, it, a, b) / EXECUTIONS)
        diffs.append(gen_ns[-1] - spec_ns[-1])
    return spec_ns, gen_ns, diffs


def figures(spec_ns, gen_ns, diffs, loop):
    # the medians per execution with the loop's own time (`loop` ns) taken off, and the
    # saving's median and p10-p90 over the rounds
    diffs, spec_ns, gen_ns = sorted(diffs), sorted(spec_ns), sorted(gen_ns)
    return {
        "specialized_ns": round(percentile(spec_ns, 0.5) - loop, 2),
        "generic_ns": round(percentile(gen_ns, 0.5) - loop, 2),
        "saved_ns": round(percentile(diffs, 0.5), 2),
        "saved_low_ns": round(percentile(diffs, 0.1), 2),
        "saved_high_ns": round(percentile(diffs, 0.9), 2),
    }


def body_instructions(run):
    # the instructions run once per pass of the loop, the loop's own (FOR_ITER, the store to
    # `i`, the jump back) included: counted statically, as a dump lists them
    ins = [i.opname for i in dis.get_instructions(run)]
    start = next(k for k, op in enumerate(ins) if op.startswith("FOR_ITER"))
    end = next(k for k, op in enumerate(ins) if op.startswith("JUMP_BACKWARD"))
    return end - start


def measure_simple():
    # what one simple instruction takes (local loads and stores, a pop, a jump on a bool): a
    # body of them against the empty loop, over the number of instructions it adds
    body = "x = a\n        if b:\n            pass\n        a\n        y = x"
    run = make(body, None)
    empty = make("pass", None)
    added = body_instructions(run) - body_instructions(empty)
    it = range(EXECUTIONS)
    for _ in range(5):
        run(range(200), 1, True)
        empty(range(200), 1, True)
    diffs = []
    for r in range(ROUNDS):
        t = [timed(run, it, 1, True), timed(empty, it, 1, True)]
        diffs.append((t[0] - t[1]) / EXECUTIONS / added)
    diffs.sort()
    return {
        "instructions": added,
        "ns": round(percentile(diffs, 0.5), 2),
        "low_ns": round(percentile(diffs, 0.1), 2),
        "high_ns": round(percentile(diffs, 0.9), 2),
    }


def measure_for_iter(simple_ns):
    # FOR_ITER_LIST against a deque's iterator, which no form handles: one execution is one
    # element; the loop's store and jump back are taken off at the simple instructions' time
    def run(it, a, b):
        for x in a:
            pass
    spec, gen = list(range(EXECUTIONS)), collections.deque(range(EXECUTIONS))
    for _ in range(5):
        run(0, spec[:200], 0)
    gen_run = types.FunctionType(run.__code__.replace(co_name="run_generic"), {})
    for _ in range(5):
        gen_run(0, collections.deque(range(200)), 0)
    forms = [
        [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("FOR_ITER")]
        for f in (run, gen_run)
    ]
    result = {
        "family": "FOR_ITER",
        "operation": "for x in list",
        "specialized": forms[0][0] if len(forms[0]) == 1 else None,
        "generic": forms[1][0] if len(forms[1]) == 1 else None,
        "generic_by": "a deque",
    }
    if forms[0] != ["FOR_ITER_LIST"] or forms[1] != ["FOR_ITER"]:
        return None, "for x in list: dis found %s and %s" % (forms[0], forms[1])
    spec_ns, gen_ns, diffs = interleaved((run, 0, spec, 0), (gen_run, 0, gen, 0))
    result["generic_after"] = [i.opname for i in dis.get_instructions(gen_run, adaptive=True) if i.opname.startswith("FOR_ITER")][0]
    result.update(figures(spec_ns, gen_ns, diffs, 2 * simple_ns))
    return result, None


def guarded(label, fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # a case the version cannot run is reported, not fatal
        return None, "%s: %s: %s" % (label, type(e).__name__, e)


def median_pass(results):
    # the pass whose saving is the median of the passes', whole (its fields belong together)
    measured = [r for r, _ in results if r is not None]
    if len(measured) < len(results):
        return None, next(why for r, why in results if r is None)
    measured.sort(key=lambda r: r["saved_ns"])
    return measured[len(measured) // 2], None


def main():
    forms, unmeasured = [], []
    simple = sorted((measure_simple() for _ in range(PASSES)), key=lambda s: s["ns"])[PASSES // 2]
    cases = [(case[0], case[1], measure, (case,)) for case in CASES]
    cases.append(("FOR_ITER", "for x in list", measure_for_iter, (simple["ns"],)))
    passes = [[] for _ in cases]
    for _ in range(PASSES):
        for k, (family, label, fn, args) in enumerate(cases):
            passes[k].append(guarded(label, fn, *args))
    for (family, _, _, _), results in zip(cases, passes):
        result, why = median_pass(results)
        if result is not None:
            forms.append(result)
        else:
            unmeasured.append({"family": family, "why": why})
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
        "passes": PASSES,
        "simple": simple,
        "forms": forms,
        "unmeasured": unmeasured,
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()

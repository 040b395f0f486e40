"""What this interpreter's specializer does with the shapes of code specdiff's explanations
talk about (crates/core/src/cpython/facts.rs). Each experiment runs a fresh site a known
number of times and prints one line: the fact's name and the site's opname afterwards
(the base name when it stayed generic). tests/version_facts.rs runs this on every interpreter
and compares each line with what facts.rs says of that version.
"""
import dis
import sys


def site(fn, family):
    """Opname of the first instruction of `family` in fn's adaptive code."""
    for i in dis.get_instructions(fn, adaptive=True):
        if i.opname == family or i.opname.startswith(family + "_"):
            if family == "CALL" and i.opname.startswith("CALL_INTRINSIC"):
                continue
            return i.opname
    return "absent"


def fresh(source, name="f", env=None):
    ns = dict(env or {})
    exec(compile(source, "<probe>", "exec"), ns)
    return ns[name]


def run(fn, times, *args, **kwargs):
    for _ in range(times):
        fn(*args, **kwargs)
    return fn


def callee(a=0, b=0):
    return a


class Meta(type):
    pass


class Plain:
    x = 1

    def __init__(self):
        self.y = 1


class WithMeta(metaclass=Meta):
    x = 1

    def __init__(self):
        self.y = 1


class Callable:
    def __call__(self, a):
        return a


class Base:
    def m(self):
        return 1


def show(name, fn, family):
    print("%-34s %s" % (name, site(fn, family)))


add = "def f(x, y):\n    return x + y\n"
less = "def f(x, y):\n    return x < y\n"
show("int_plus_float", run(fresh(add), 100, 1, 2.0), "BINARY_OP")
show("int_less_float", run(fresh(less), 100, 1, 2.0), "COMPARE_OP")
show("list_plus_list", run(fresh(add), 100, [1], [2]), "BINARY_OP")
show("big_int_plus_int", run(fresh(add), 100, 10 ** 12, 1), "BINARY_OP")
# Warm-up: the same attribute load run once, then twice more.
load = fresh("def f(o):\n    return o.x\n")
show("attr_load_after_1_run", run(load, 1, Plain), "LOAD_ATTR")
show("attr_load_after_2_runs", run(load, 1, Plain), "LOAD_ATTR")
show("py_call_with_keywords", run(fresh("def f():\n    return g(a=1)\n", env={"g": callee}), 100), "CALL")
show("class_call_type", run(fresh("def f():\n    return C()\n", env={"C": Plain}), 100), "CALL")
show("class_call_metaclass", run(fresh("def f():\n    return C()\n", env={"C": WithMeta}), 100), "CALL")
show("class_attr_type", run(fresh("def f():\n    return C.x\n", env={"C": Plain}), 100), "LOAD_ATTR")
show("class_attr_metaclass", run(fresh("def f():\n    return C.x\n", env={"C": WithMeta}), 100), "LOAD_ATTR")
show("call_object_dunder_call", run(fresh("def f():\n    return o(1)\n", env={"o": Callable()}), 100), "CALL")
if sys.version_info >= (3, 12):   # 3.11 has no LOAD_SUPER_ATTR
    k = fresh("class K(B):\n    def m(self):\n        return super().m()\n", "K", {"B": Base})()
    show("super_method_one_expression", run(k.m, 100), "LOAD_SUPER_ATTR")

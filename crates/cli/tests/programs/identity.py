"""Code objects that share a (module, qualname), for tests/identity.rs: the same program dumped
several times must pair them the same way every time. Each kind here made the gate fail on an
unchanged program when pairing followed the harness's memory order (issue 14)."""

import collections
import dataclasses
import functools


# Same-field dataclasses: each gets its own exec'd `__create_fn__.<locals>.__init__` (and
# `__repr__`, `__eq__`) from "<string>", all at the same line. Size has slots, so its
# `__init__` specializes differently (STORE_ATTR_SLOT) from Point's: paired wrongly, a site is
# "lost".
@dataclasses.dataclass
class Point:
    x: int
    y: int


@dataclasses.dataclass(slots=True)
class Size:
    x: int
    y: int


# Same fields again, made once and never warmed up: its `__init__` stays unspecialized.
@dataclasses.dataclass
class Cold:
    x: int
    y: int


@dataclasses.dataclass
class Pair:
    x: object
    y: object


# namedtuples: `__new__` is an exec'd `<lambda>` per type.
Pt = collections.namedtuple("Pt", "a b")
Sz = collections.namedtuple("Sz", "a b")


# Lambdas and generator expressions sharing a name and a line.
def make():
    fs = [lambda v: v + 1, lambda v: v * 2.5, lambda v: str(v), lambda v: v + 1]
    gens = lambda n: (sum(i for i in range(n)), sum(i * 1.5 for i in range(n)))
    return fs, gens


# Same-named classes in one module, made by one factory at one line.
def klass(base):
    class Box(base):
        def get(self):
            return self[0] if isinstance(self, tuple) else self.v
    return Box


IntBox, TupleBox, ColdBox = klass(object), klass(tuple), klass(object)


# Functions made by exec: same name, same line, different bodies.
def exec_made(body):
    ns = {}
    exec("def f(v):\n    return " + body, ns)
    return ns["f"]


f_add, f_mul, f_cat = exec_made("v + 1"), exec_made("v * 2.0"), exec_made("str(v) + 'x'")
f_cold = exec_made("v + 1")


# functools.wraps wrappers: one wrapper code object shared under several names.
def traced(fn):
    @functools.wraps(fn)
    def wrapper(*a):
        return fn(*a)
    return wrapper


@traced
def double(v):
    return v * 2


@traced
def halve(v):
    return v / 2.0


def work(n):
    total = 0.0
    fs, gens = make()
    box = IntBox()
    box.v = 1
    tbox = TupleBox((2,))
    for i in range(n):
        p, s, q = Point(i, i + 1), Size(i * 0.5, 2.5), Pair("a", [i])
        total += p.x + p.y + s.x + s.y + len(q.y)
        a, b = Pt(i, 1), Sz(0.5, i)
        total += a.a + b.a
        total += fs[0](i) + fs[1](i) + len(fs[2](i))
        total += sum(gens(4))
        total += box.get() + tbox.get()
        total += f_add(i) + f_mul(i) + len(f_cat(i))
        total += double(i) + halve(i)
    cold = ColdBox()
    cold.v = 2
    total += Cold(1, 2).x + fs[3](1) + f_cold(1) + cold.get()
    return total


print(work(3000))

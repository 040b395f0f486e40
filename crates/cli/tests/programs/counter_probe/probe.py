"""The experiments of docs/engine.md, "Counter semantics": after each step, one line with the
opname of the site under test and the first word of its inline cache (its adaptive counter),
raw and as `value/backoff`. tests/counter_semantics.rs runs this under every interpreter and
compares the lines with `expected-3.11.txt`, `expected-3.12-3.14.txt` or `expected-3.15.txt`,
the behaviour the engine's counter rules (crates/core/src/cpython/counters.rs) are written for.
The word is split as each version lays it out: value/backoff in 12/4 bits up to 3.14, in 13/3
from 3.15.
"""
import dis
import sys


class Slotted:
    __slots__ = ("a",)

    def __init__(self):
        self.a = 1


class Plain:
    def __init__(self):
        self.a = 2


class Summable:
    """A Python `__add__`: no version specializes `+` on it (3.15's BINARY_OP_EXTEND does
    specialize list + list, which this probe used before)."""

    def __add__(self, other):
        return self


BITS = 3 if sys.version_info >= (3, 15) else 4


def load(x):
    return x.a


def add(x, y):
    return x + y


def show(step, fn, family):
    code = fn.__code__
    for i in dis.get_instructions(fn, adaptive=True):
        if i.opname.startswith(family):
            raw = code._co_code_adaptive
            word = int.from_bytes(raw[i.offset + 2:i.offset + 4], sys.byteorder)
            print("%-20s %-26s %4d = %d/%d" % (step, i.opname, word, word >> BITS,
                                                word & ((1 << BITS) - 1)))
            return


# 1. A site specialized for a __slots__ instance, then fed an instance of another class.
show("load: never run", load, "LOAD_ATTR")
slotted, plain = Slotted(), Plain()
load(slotted)
show("load: ran once", load, "LOAD_ATTR")
for _ in range(9):
    load(slotted)
show("load: ran 10 times", load, "LOAD_ATTR")
for k in range(1, 91):
    load(plain)
    if k in (1, 2, 52, 53, 54, 84, 85, 90):
        show("load: miss %d" % k, load, "LOAD_ATTR")

# 2. A site whose every attempt fails (`+` on a class with a Python __add__).
x, y = Summable(), Summable()
for k in range(1, 41):
    add(x, y)
    if k <= 10 or k in (15, 16, 17, 31, 32, 33, 40):
        show("add: run %d" % k, add, "BINARY_OP")

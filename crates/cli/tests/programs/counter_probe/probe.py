"""The experiments of docs/engine.md, "Counter semantics": after each step, one line with the
opname of the site under test and the first word of its inline cache (its adaptive counter),
raw and as `value/backoff`. tests/counter_semantics.rs runs this under every interpreter and
compares the lines with `expected-3.11.txt` or `expected-3.12-3.14.txt`, the behaviour the
engine's counter rules (crates/core/src/cpython/counters.rs) are written for.
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
            print("%-20s %-26s %4d = %d/%d" % (step, i.opname, word, word >> 4, word & 15))
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

# 2. A site whose every attempt fails (list + list has no specialization).
for k in range(1, 41):
    add([1], [2])
    if k <= 10 or k in (15, 16, 17, 31, 32, 33, 40):
        show("add: run %d" % k, add, "BINARY_OP")

"""specdiff churn check: one LOAD_ATTR site whose receiver class alternates in long phases.

`read_size` loads `obj.size` from a __slots__ class (LOAD_ATTR_SLOT) in one phase and from a
plain class (LOAD_ATTR_INSTANCE_VALUE) in the next, each phase long enough (~40 ms) for the
interpreter to give up the old specialization and specialize again, and for a sampler looking
every ~10 ms to see each state. Usage: python churn.py [PHASES] [PHASE_MS]
"""
import sys
import time


class Slotted:
    __slots__ = ("size",)

    def __init__(self, size):
        self.size = size


class Plain:
    def __init__(self, size):
        self.size = size


def read_size(obj):
    return obj.size


def phase(objs, seconds):
    total = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for o in objs:
            total += read_size(o)
    return total


def main(argv):
    phases = int(argv[1]) if len(argv) > 1 else 8
    phase_s = (float(argv[2]) if len(argv) > 2 else 40.0) / 1000.0
    slotted = [Slotted(i) for i in range(200)]
    plain = [Plain(i) for i in range(200)]
    total = 0
    for n in range(phases):
        total += phase(slotted if n % 2 == 0 else plain, phase_s)
    print("phases=%d total>0=%s" % (phases, total > 0))


if __name__ == "__main__":
    main(sys.argv)

"""STORE_ATTR: head's class gains a class-level default for the attribute its instances set,
which keeps `m.last = x` from specializing (STORE_ATTR_INSTANCE_VALUE in base). On 3.12 and
3.13 the loads of that attribute lose LOAD_ATTR_INSTANCE_VALUE too; none is in the loop."""

from _harness import HEAD, timed


class Meter:
    def __init__(self):
        self.last = 0


class MeterWithDefault:
    last = 0  # the default head adds

    def __init__(self):
        self.last = 0


METER = MeterWithDefault() if HEAD else Meter()
VALUES = list(range(1000))


def hot():
    m = METER
    for _ in range(60000):
        for x in VALUES:
            m.last = x
    return m.last


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

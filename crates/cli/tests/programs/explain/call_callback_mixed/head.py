"""Readings converted by a callback; every other run of ten batches now shifts instead.

The same call site now sees a function and an object with `__call__` in turn: the callers
disagree, so no single callee explains the site.
"""


def to_celsius(f):
    return (f - 32.0) * 5.0 / 9.0


class Offset:
    def __init__(self, delta):
        self.delta = delta

    def __call__(self, value):
        return value + self.delta


def convert(readings, conv):
    total = 0.0
    for r in readings:
        total += conv(r)
    return total


READINGS = [float(i % 120) for i in range(300)]
SHIFT = Offset(1.5)
for batch in range(1000):
    if batch // 10 % 2:
        convert(READINGS, SHIFT)
    else:
        convert(READINGS, to_celsius)

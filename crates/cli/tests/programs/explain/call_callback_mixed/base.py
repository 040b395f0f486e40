"""Readings converted by a callback; every batch uses the same converter."""


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
    convert(READINGS, to_celsius)

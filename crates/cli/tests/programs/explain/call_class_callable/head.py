"""The closure became a small class with `__call__` (easier to inspect and to pickle)."""


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, v):
        return v * self.factor


def hot(values, scale):
    total = 0
    for v in values:
        total += scale(v)
    return total


SCALE = Scaler(3)
VALUES = list(range(300))
for _ in range(200):
    hot(VALUES, SCALE)

"""A bound method kept in a local now leaves the offset to its default."""


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def apply(self, value, offset=0):
        return value * self.factor + offset


def hot(values):
    apply = Scaler(3).apply
    total = 0
    for v in values:
        total += apply(v)
    return total


VALUES = list(range(300))
for _ in range(200):
    hot(VALUES)

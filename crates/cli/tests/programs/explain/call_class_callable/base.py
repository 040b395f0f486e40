"""A scaling function passed to and called in a hot loop."""


def make_scaler(factor):
    def scale(v):
        return v * factor
    return scale


def hot(values, scale):
    total = 0
    for v in values:
        total += scale(v)
    return total


SCALE = make_scaler(3)
VALUES = list(range(300))
for _ in range(200):
    hot(VALUES, SCALE)

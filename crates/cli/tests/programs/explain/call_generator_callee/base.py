"""A helper that builds a list, iterated by the caller."""


def positives(values):
    out = []
    for v in values:
        if v > 0:
            out.append(v)
    return out


def hot(values):
    total = 0
    for v in positives(values):
        total += v
    return total


VALUES = list(range(-100, 200))
for _ in range(200):
    hot(VALUES)

"""The helper became a generator function (lazy, no list built)."""


def positives(values):
    for v in values:
        if v > 0:
            yield v


def hot(values):
    total = 0
    for v in positives(values):
        total += v
    return total


VALUES = list(range(-100, 200))
for _ in range(200):
    hot(VALUES)

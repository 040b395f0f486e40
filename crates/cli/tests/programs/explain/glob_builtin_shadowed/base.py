"""A hot function calling the builtin `abs`."""


def hot(values):
    total = 0
    for v in values:
        total += abs(v)
    return total


def checked_abs(v):
    if not isinstance(v, int):
        raise TypeError(v)
    return v if v >= 0 else -v


VALUES = list(range(-150, 150))
for i in range(200):
    hot(VALUES)

"""After warm-up a strict mode shadows the builtin `abs` with a module global."""


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
    if i == 100:
        abs = checked_abs
    hot(VALUES)

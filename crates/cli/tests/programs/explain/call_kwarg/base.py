"""A small helper called positionally in a hot loop."""


def scale(value, factor):
    return value * factor


def hot(values):
    total = 0
    for v in values:
        total += scale(v, 3)
    return total


VALUES = list(range(300))
for _ in range(200):
    hot(VALUES)

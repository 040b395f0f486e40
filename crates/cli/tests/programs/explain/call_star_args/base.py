"""A helper called with its two arguments spelled out."""


def clamp(value, low, high):
    return low if value < low else high if value > high else value


def hot(values, bounds):
    total = 0
    for v in values:
        total += clamp(v, bounds[0], bounds[1])
    return total


VALUES = list(range(-100, 200))
BOUNDS = (0, 150)
for _ in range(200):
    hot(VALUES, BOUNDS)

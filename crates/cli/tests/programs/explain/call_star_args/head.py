"""The same helper, now called by unpacking the bounds tuple: `clamp(v, *bounds)`."""


def clamp(value, low, high):
    return low if value < low else high if value > high else value


def hot(values, bounds):
    total = 0
    for v in values:
        total += clamp(v, *bounds)
    return total


VALUES = list(range(-100, 200))
BOUNDS = (0, 150)
for _ in range(200):
    hot(VALUES, BOUNDS)

"""Totalling the valid readings, filtered into a list first."""


def valid(readings):
    return [r for r in readings if r >= 0]


def hot(readings):
    total = 0
    for r in valid(readings):
        total += r
    return total


READINGS = [(i * 37) % 101 - 10 for i in range(400)]
for _ in range(100):
    hot(READINGS)

"""A plain helper called in a hot loop."""
import functools


def norm(x, y):
    return abs(x) + abs(y)


def hot(points):
    total = 0
    for x, y in points:
        total += norm(x, y)
    return total


POINTS = [(i, -i) for i in range(300)]
for _ in range(200):
    hot(POINTS)

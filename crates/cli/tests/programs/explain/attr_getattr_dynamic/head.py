"""The same read, now by a field name chosen at run time: `getattr(p, field)`."""


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def hot(points, field="x"):
    total = 0
    for p in points:
        total += getattr(p, field)
    return total


POINTS = [Point(i, i + 1) for i in range(500)]
for _ in range(100):
    hot(POINTS)

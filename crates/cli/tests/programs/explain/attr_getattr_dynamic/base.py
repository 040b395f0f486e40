"""An attribute read in a hot loop."""


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def hot(points):
    total = 0
    for p in points:
        total += p.x
    return total


POINTS = [Point(i, i + 1) for i in range(500)]
for _ in range(100):
    hot(POINTS)

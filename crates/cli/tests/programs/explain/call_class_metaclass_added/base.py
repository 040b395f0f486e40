"""Points made in a hot loop from a plain class."""


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def hot(n):
    total = 0
    for i in range(n):
        p = Point(i, i + 1)
        total += p.x
    return total


for _ in range(100):
    hot(100)

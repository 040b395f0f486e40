class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm1(self):
        return abs(self.x) + abs(self.y)


def scale(v, k):
    return v * k


def total(points):
    t = 0
    for p in points:
        t += scale(p.norm1(), 2)
    return t


def main():
    points = [Point(i, -i) for i in range(1000)]
    for _ in range(300):
        total(points)


main()

"""specdiff demo, head version: the same workload after three "harmless" refactors.

Run it twice, before and after a change, and let specdiff show what the change did:
    specdiff dump -o base.json examples/demo/base.py
    specdiff dump -o head.json examples/demo/head.py
    specdiff diff base.json head.json
"""

import sys


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Square:
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


class Circle:
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3 * self.r * self.r


class Triangle:
    def __init__(self, b, h):
        self.b = b
        self.h = h

    def area(self):
        return self.b * self.h // 2


def make_points(n):
    return [Point(i, n - i) for i in range(n)]


def dot_sum(points, key):
    # Refactor: the attribute name became a parameter, so `getattr(p, key)` is a call with a
    # dynamic name and the slot load specialization is gone.
    total = 0
    for p in points:
        total += getattr(p, key) * p.y
    return total


def make_shapes(n):
    kinds = (lambda i: Square(i % 7), lambda i: Circle(i % 5), lambda i: Triangle(i % 3, 4))
    return [kinds[i % 3](i) for i in range(n)]


def total_area(shapes):
    # Refactor: shapes are now mixed, so `shape.area` sees three classes (megamorphic).
    total = 0
    for shape in shapes:
        total += shape.area()
    return total


def scale(values, factor):
    # Refactor: the accumulator starts as a float, so the int specializations are lost.
    out = 0.0
    for v in values:
        out = out + v * factor
    return out


def main(rounds):
    points = make_points(2000)
    shapes = make_shapes(2000)
    values = list(range(2000))
    checksum = 0
    for _ in range(rounds):
        checksum += dot_sum(points, "x")
        checksum += total_area(shapes)
        checksum += scale(values, 3)
    print(f"checksum {checksum}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)

"""specdiff demo, base version: a tiny geometry workload whose hot paths specialize well.

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
    # Hot loop: `p.x` and `p.y` are slot loads (LOAD_ATTR_SLOT).
    total = 0
    for p in points:
        total += p.x * p.y
    return total


def make_shapes(n):
    return [Square(i % 7) for i in range(n)]


def total_area(shapes):
    # Hot loop: every shape is a Square, so `shape.area` stays monomorphic.
    total = 0
    for shape in shapes:
        total += shape.area()
    return total


def scale(values, factor):
    # Integer arithmetic throughout: BINARY_OP_MULTIPLY_INT / BINARY_OP_ADD_INT.
    out = 0
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

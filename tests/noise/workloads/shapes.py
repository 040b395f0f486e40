"""Object-oriented simulation: properties, __slots__, polymorphic calls, generators, sorting."""
import math


class Shape:
    def area(self):
        raise NotImplementedError

    def scaled(self, k):
        raise NotImplementedError


class Circle(Shape):
    __slots__ = ("r",)

    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r * self.r

    def scaled(self, k):
        return Circle(self.r * k)


class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    @property
    def ratio(self):
        return self.w / self.h

    def area(self):
        return self.w * self.h

    def scaled(self, k):
        return Rect(self.w * k, self.h * k)


class Square(Rect):
    def __init__(self, s):
        super().__init__(s, s)


def shapes(n):
    for i in range(n):
        m = i % 3
        yield Circle(i % 7 + 1) if m == 0 else Rect(i % 5 + 1, i % 3 + 1) if m == 1 else Square(i % 4 + 1)


def main():
    total, ratios = 0.0, 0.0
    for step in range(120):
        items = sorted(shapes(400), key=lambda s: s.area())
        total += sum(s.scaled(1.0 + step / 100).area() for s in items)
        ratios += sum(s.ratio for s in items if isinstance(s, Rect))
        lookup = {id(s): s for s in items[:50]}
        total += sum(1 for k in lookup if k & 1)
    print(round(total, 2), round(ratios, 2))


main()

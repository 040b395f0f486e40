"""Shapes: a __slots__ class read in a hot loop, methods, __getattr__, a megamorphic call site."""
import math


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x * self.x + self.y * self.y


def centroid(points):
    # Hot loop: `p.x` / `p.y` on a __slots__ class -> LOAD_ATTR_SLOT on every version.
    sx = 0.0
    sy = 0.0
    for p in points:
        sx += p.x
        sy += p.y
    n = len(points)
    return sx / n, sy / n


class Shape:
    def area(self):
        raise NotImplementedError

    def describe(self):
        return "%s(%.2f)" % (type(self).__name__, self.area())


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r * self.r


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h


class Tri(Shape):
    def __init__(self, b, h):
        self.b, self.h = b, h

    def area(self):
        return 0.5 * self.b * self.h


class Blob(Shape):
    area = staticmethod(lambda: 1.0)


def total_area(shapes):
    # Megamorphic call site: five receiver classes at one `s.area()`.
    return sum(s.area() for s in shapes)


class Settings:
    """Attribute access falls back to __getattr__ for unknown names."""

    def __init__(self, **values):
        self._values = values

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            return None


def settings_checksum(settings, rounds):
    total = 0
    for i in range(rounds):
        total += settings.width or 0
        total += 1 if settings.missing is None else 0
    return total


def int_float_mix(n):
    # BINARY_OP on ints and on floats.
    i_acc = 0
    f_acc = 0.0
    for i in range(n):
        i_acc = (i_acc + i * 3) % 1000003
        f_acc = f_acc * 0.5 + i / 7.0
    return i_acc, f_acc

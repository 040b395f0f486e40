"""The method now counts its calls in a class attribute: `Shape.calls += 1`."""


class Shape:
    calls = 0

    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        Shape.calls += 1
        return self.w * self.h


def hot(shapes):
    s = 0
    for sh in shapes:
        s += sh.area()
    return s


SHAPES = [Shape(i, i % 4 + 1) for i in range(300)]
for _ in range(4560):
    hot(SHAPES)

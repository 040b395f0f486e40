"""A method called in a hot loop reads instance attributes."""


class Shape:
    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h


def hot(shapes):
    s = 0
    for sh in shapes:
        s += sh.area()
    return s


SHAPES = [Shape(i, i % 4 + 1) for i in range(300)]
for _ in range(4560):
    hot(SHAPES)

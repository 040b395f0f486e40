"""Reading the coordinates of many small vector objects in a hot loop."""


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def hot(vecs):
    s = 0
    for v in vecs:
        s += v.x * v.y
    return s


VECS = [Vec(i, i % 9) for i in range(300)]
for _ in range(150):
    hot(VECS)

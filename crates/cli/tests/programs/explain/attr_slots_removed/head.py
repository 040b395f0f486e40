"""`__slots__` was removed from the class (instances get a `__dict__` again)."""


class Pixel:
    def __init__(self, r, g, b):
        self.r = r
        self.g = g
        self.b = b


def hot(pixels):
    s = 0
    for p in pixels:
        s += p.r + p.g + p.b
    return s


PIXELS = [Pixel(i % 256, (i * 3) % 256, (i * 7) % 256) for i in range(300)]
for _ in range(150):
    hot(PIXELS)

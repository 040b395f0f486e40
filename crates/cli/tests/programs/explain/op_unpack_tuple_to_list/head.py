"""The sizes now come as [width, height] lists (as decoded from JSON)."""


def hot(sizes):
    area = 0
    for size in sizes:
        w, h = size
        area += w * h
    return area


SIZES = [[i % 9 + 1, i % 5 + 1] for i in range(400)]
for _ in range(100):
    hot(SIZES)

"""The same helper and loop, the two function definitions swapped (top-down order)."""


class Shot:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def hot(shots):
    total = 0
    for s in shots:
        total += score(s)
    return total


def score(s):
    return s.x * s.x + s.y * s.y


SHOTS = [Shot(i % 9, i % 7) for i in range(300)]
for _ in range(100):
    hot(SHOTS)

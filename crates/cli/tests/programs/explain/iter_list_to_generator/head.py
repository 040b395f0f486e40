"""The filter became a generator (lazy, saves the intermediate list)."""


def valid(readings):
    for r in readings:
        if r >= 0:
            yield r


def hot(readings):
    total = 0
    for r in valid(readings):
        total += r
    return total


READINGS = [(i * 37) % 101 - 10 for i in range(400)]
for _ in range(100):
    hot(READINGS)

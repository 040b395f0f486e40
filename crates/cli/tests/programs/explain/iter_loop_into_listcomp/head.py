"""The loop was rewritten as a list comprehension."""


def hot(readings, scale):
    return [min(r * scale, 1000) for r in readings]


READINGS = [(i * 37) % 101 for i in range(400)]
for _ in range(100):
    hot(READINGS, 12)

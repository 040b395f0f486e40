"""Scaling and clamping readings into a new list with an explicit loop."""


def hot(readings, scale):
    out = []
    for r in readings:
        out.append(min(r * scale, 1000))
    return out


READINGS = [(i * 37) % 101 for i in range(400)]
for _ in range(100):
    hot(READINGS, 12)

"""Averaging readings per sensor in a hot loop."""


def hot(readings, counts):
    avg = {}
    for name, value in readings:
        avg[name] = value / counts[name]
    return avg


NAMES = ["s%d" % i for i in range(20)]
READINGS = [(NAMES[i % 20], float(i)) for i in range(300)]
COUNTS = {n: 15 for n in NAMES}
for _ in range(100):
    hot(READINGS, COUNTS)

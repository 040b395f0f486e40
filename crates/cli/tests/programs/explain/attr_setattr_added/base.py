"""Updating a counter object's fields in a hot loop."""


class Stats:
    def __init__(self):
        self.count = 0
        self.last = None


def hot(stats, values):
    for v in values:
        stats.count = stats.count + 1
        stats.last = v


STATS = Stats()
VALUES = list(range(300))
for _ in range(150):
    hot(STATS, VALUES)

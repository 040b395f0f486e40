"""The counter object now rejects unknown fields with a `__setattr__` override."""


class Stats:
    def __init__(self):
        self.count = 0
        self.last = None

    def __setattr__(self, name, value):
        if name not in ("count", "last"):
            raise AttributeError(name)
        object.__setattr__(self, name, value)


def hot(stats, values):
    for v in values:
        stats.count = stats.count + 1
        stats.last = v


STATS = Stats()
VALUES = list(range(300))
for _ in range(150):
    hot(STATS, VALUES)

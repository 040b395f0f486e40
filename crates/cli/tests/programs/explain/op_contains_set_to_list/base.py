"""Checking ids against a set of allowed ids."""


def hot(ids, allowed):
    hits = 0
    for i in ids:
        if i in allowed:
            hits += 1
    return hits


ALLOWED = set(range(0, 40, 3))
IDS = [i % 50 for i in range(300)]
for _ in range(100):
    hot(IDS, ALLOWED)

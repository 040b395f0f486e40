"""The index list is no longer materialized: the loop iterates a `range` directly."""


def hot(indices, weights):
    total = 0
    for i in indices:
        total += weights[i] * i
    return total


WEIGHTS = [i % 11 for i in range(400)]
INDICES = range(400)
for _ in range(100):
    hot(INDICES, WEIGHTS)

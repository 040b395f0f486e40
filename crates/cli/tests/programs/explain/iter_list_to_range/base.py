"""Weighting values over a precomputed list of indices."""


def hot(indices, weights):
    total = 0
    for i in indices:
        total += weights[i] * i
    return total


WEIGHTS = [i % 11 for i in range(400)]
INDICES = list(range(400))
for _ in range(100):
    hot(INDICES, WEIGHTS)

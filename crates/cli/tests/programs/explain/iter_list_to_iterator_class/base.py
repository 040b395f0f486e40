"""Summing the values of a batch held in a plain list."""


def hot(batch):
    total = 0
    for v in batch:
        total += v
    return total


BATCH = [i % 23 for i in range(400)]
for _ in range(100):
    hot(BATCH)

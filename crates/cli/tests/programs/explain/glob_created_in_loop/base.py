"""A hot function reading module constants, passing the current item to a helper."""

RATE = 3
OFFSET = 7


def hot(values):
    total = 0
    for v in values:
        current = v
        total += current * RATE + OFFSET
    return total


VALUES = list(range(300))
for _ in range(200):
    hot(VALUES)

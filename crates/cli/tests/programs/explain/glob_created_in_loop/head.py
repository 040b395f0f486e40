"""The item being processed is now published as a module global (for error reports), then deleted."""

RATE = 3
OFFSET = 7


def hot(values):
    global current
    total = 0
    for v in values:
        current = v
        total += current * RATE + OFFSET
        del current
    return total


VALUES = list(range(300))
for _ in range(200):
    hot(VALUES)

"""Summing integer quantities in a hot loop."""


def hot(quantities):
    total = 0
    for q in quantities:
        total += q
    return total


QUANTITIES = list(range(300))
for _ in range(200):
    hot(QUANTITIES)

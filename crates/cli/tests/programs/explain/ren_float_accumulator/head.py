"""Renamed `total_quantity`, and the accumulator now starts at 0.0 (to allow fractions)."""


def total_quantity(quantities):
    total = 0.0
    for q in quantities:
        total += q
    return total


QUANTITIES = list(range(300))
for _ in range(200):
    total_quantity(QUANTITIES)

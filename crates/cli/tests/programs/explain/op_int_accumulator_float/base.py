"""Summing integer quantities in a hot loop."""


def hot(orders):
    total = 0
    for qty in orders:
        total += qty
    return total


ORDERS = [i % 17 for i in range(500)]
for _ in range(100):
    hot(ORDERS)

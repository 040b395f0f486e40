"""Applying a tax rate to prices in a hot loop."""


def hot(prices):
    total = 0.0
    for p in prices:
        total += p * 1.2 + 0.5
    return total


PRICES = [1.25 * (i % 40) for i in range(400)]
for _ in range(100):
    hot(PRICES)

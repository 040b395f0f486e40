"""Applying a tax rate to prices, the magic numbers extracted into named locals."""


def hot(prices):
    tax_rate = 1.2
    handling = 0.5
    total = 0.0
    for p in prices:
        total += p * tax_rate + handling
    return total


PRICES = [1.25 * (i % 40) for i in range(400)]
for _ in range(100):
    hot(PRICES)

"""Prices are rounded by a helper, the caller passing the number of digits."""


def rounded(value, digits=2):
    return round(value, digits)


def hot(prices):
    total = 0.0
    for p in prices:
        total += rounded(p, 2)
    return total


PRICES = [i * 1.005 for i in range(300)]
for _ in range(200):
    hot(PRICES)

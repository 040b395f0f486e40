"""Prices looked up by subscript now that every item is known to be priced."""


def hot(prices, basket):
    total = 0
    for item in basket:
        total += prices[item]
    return total


PRICES = {f"sku{i}": i % 17 for i in range(200)}
BASKET = [f"sku{i % 200}" for i in range(400)]
for _ in range(150):
    hot(PRICES, BASKET)

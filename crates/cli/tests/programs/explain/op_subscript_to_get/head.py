"""Prices looked up with `.get()` so that a missing item counts as free."""


def hot(prices, basket):
    total = 0
    for item in basket:
        total += prices.get(item, 0)
    return total


PRICES = {f"sku{i}": i % 17 for i in range(200)}
BASKET = [f"sku{i % 200}" for i in range(400)]
for _ in range(150):
    hot(PRICES, BASKET)

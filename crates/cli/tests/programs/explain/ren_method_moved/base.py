"""A shopping-cart total computed by a method calling a helper method."""


def load_prices(n):
    prices = []
    for i in range(n):
        prices.append(i % 50 + 1)
    return prices


def check_total(total, count):
    if total < 0 or count == 0:
        raise ValueError(f"bad total {total} for {count} prices")
    return total // count


class Cart:
    def __init__(self, prices, discount):
        self.prices = prices
        self.discount = discount

    def line(self, price, discount):
        return price - discount

    def total(self):
        t = 0
        for p in self.prices:
            t += self.line(p, self.discount)
        return t


CART = Cart(load_prices(300), 1)
for _ in range(200):
    check_total(CART.total(), len(CART.prices))

"""A pricing step applied to every order line, chosen once per batch."""


def make_discount(rate):
    def discount(price):
        return price - price * rate
    return discount


def apply_all(prices, step):
    out = []
    for p in prices:
        out.append(step(p))
    return out


PRICES = [float(i) for i in range(400)]
for batch in range(150):
    apply_all(PRICES, make_discount(0.1))

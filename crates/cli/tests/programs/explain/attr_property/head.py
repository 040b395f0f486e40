"""`total` is now a computed `@property` instead of a stored attribute."""


class Order:
    def __init__(self, price, qty):
        self.price = price
        self.qty = qty

    @property
    def total(self):
        return self.price * self.qty


def hot(orders):
    s = 0
    for o in orders:
        s += o.total
    return s


ORDERS = [Order(i, i % 5) for i in range(300)]
for _ in range(150):
    hot(ORDERS)

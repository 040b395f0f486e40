"""Summing a plain attribute of many orders in a hot loop."""


class Order:
    def __init__(self, price, qty):
        self.price = price
        self.qty = qty
        self.total = price * qty


def hot(orders):
    s = 0
    for o in orders:
        s += o.total
    return s


ORDERS = [Order(i, i % 5) for i in range(300)]
for _ in range(150):
    hot(ORDERS)

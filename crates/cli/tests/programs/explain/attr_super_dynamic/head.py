"""The subclass now keeps the `super()` proxy in a local before calling the parent's method."""


class Item:
    def __init__(self, price):
        self.price = price

    def cost(self):
        return self.price


class TaxedItem(Item):
    def cost(self):
        parent = super()
        return parent.cost() * 2


def hot(items):
    s = 0
    for it in items:
        s += it.cost()
    return s


ITEMS = [TaxedItem(i) for i in range(300)]
for _ in range(150):
    hot(ITEMS)

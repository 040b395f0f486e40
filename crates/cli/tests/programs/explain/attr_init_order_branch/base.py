"""Products whose `__init__` always sets fields in the same order, read in a hot loop."""


class Product:
    def __init__(self, name, price, sale=None):
        self.name = name
        self.price = price if sale is None else price * sale
        self.stock = 10


def hot(products):
    s = 0
    for p in products:
        s += p.price * p.stock
    return s


PRODUCTS = [Product(str(i), i, None if i % 2 else 0.5) for i in range(300)]
for _ in range(150):
    hot(PRODUCTS)

"""`__init__` now sets the fields in a different order on the sale branch."""


class Product:
    def __init__(self, name, price, sale=None):
        if sale is None:
            self.name = name
            self.price = price
            self.stock = 10
        else:
            self.price = price * sale
            self.stock = 10
            self.name = name


def hot(products):
    s = 0
    for p in products:
        s += p.price * p.stock
    return s


PRODUCTS = [Product(str(i), i, None if i % 2 else 0.5) for i in range(300)]
for _ in range(150):
    hot(PRODUCTS)

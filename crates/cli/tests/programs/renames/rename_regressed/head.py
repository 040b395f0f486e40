"""compute_total renamed order_total; the price is now read with getattr() and a field name
(a loss on every version: 3.14+ specialize the int/float mixing this pair used before)."""
import sys


class Item:
    __slots__ = ("price", "qty", "name")

    def __init__(self, price, qty, name):
        self.price = price
        self.qty = qty
        self.name = name


def order_total(items, discount, field="price"):
    total = 0
    count = 0
    for it in items:
        if it.qty > 0:
            total += getattr(it, field) * it.qty
            count += 1
    if count > 10:
        total -= discount
    return total


def main(rounds):
    items = [Item(i % 13 + 1, i % 5, f"item{i}") for i in range(200)]
    grand = 0
    for _ in range(rounds):
        grand += order_total(items, 3)
    print(grand)


main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

"""A loop over dataclass instances."""
import dataclasses


@dataclasses.dataclass
class Item:
    price: float
    qty: int


def hot(items):
    total = 0.0
    for it in items:
        total += it.price * it.qty
    return total


ITEMS = [Item(1.5 * i, i) for i in range(500)]
for _ in range(100):
    hot(ITEMS)

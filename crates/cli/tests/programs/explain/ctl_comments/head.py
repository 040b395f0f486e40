"""A loop over dataclass instances (comments and names tidied; same bytecode shape)."""
import dataclasses


@dataclasses.dataclass
class Item:
    price: float  # unit price
    qty: int  # how many


def hot(items):
    # Sum of price × quantity.
    subtotal = 0.0
    for item in items:
        subtotal += item.price * item.qty
    return subtotal


ITEMS = [Item(1.5 * i, i) for i in range(500)]
for _ in range(100):
    hot(ITEMS)

"""Cart.total sums line prices with a comprehension."""
import sys


class Line:
    def __init__(self, price, qty):
        self.price = price
        self.qty = qty


class Cart:
    def __init__(self, lines):
        self.lines = lines

    def total(self, minimum):
        amounts = [ln.price * ln.qty for ln in self.lines if ln.qty >= minimum]
        best = 0
        for a in amounts:
            if a > best:
                best = a
        return sum(amounts) + best


def main(rounds):
    cart = Cart([Line(i % 11, i % 4) for i in range(100)])
    s = 0
    for _ in range(rounds):
        s += cart.total(1)
    print(s)


main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

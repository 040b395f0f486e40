"""A method calling a helper method with its options spelled out."""


class Pricer:
    def __init__(self, prices, discount):
        self.prices = prices
        self.discount = discount

    def line(self, price, discount):
        return price - discount

    def total(self):
        t = 0
        for p in self.prices:
            t += self.line(p, self.discount)
        return t


PRICER = Pricer([i % 50 + 1 for i in range(300)], 1)
for _ in range(200):
    PRICER.total()

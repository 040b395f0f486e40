"""Order lines priced in a hot loop."""


class Record:
    def describe(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(sorted(vars(self))))


class OrderLine(Record):
    def __init__(self, qty, price):
        self.qty = qty
        self.price = price


def total(lines):
    s = 0.0
    for line in lines:
        s += line.qty * line.price
    return s


LINES = [OrderLine(i % 7 + 1, 2.5 + i % 3) for i in range(250)]
grand = 0.0
for _ in range(1500):
    grand += total(LINES)
print(round(grand), LINES[0].describe())

"""Order lines priced in a hot loop.

Records now mix in a helper that answers unknown fields with audit defaults: a `__getattr__`
two classes up from `OrderLine`, which the hot loop never calls.
"""


class AuditDefaults:
    audit = {"created_by": "system", "revision": 0}

    def __getattr__(self, name):
        try:
            return self.audit[name]
        except KeyError:
            raise AttributeError(name) from None


class Record(AuditDefaults):
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
print(round(grand), LINES[0].describe(), LINES[0].revision)

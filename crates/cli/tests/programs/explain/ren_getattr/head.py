"""The function renamed to `sum_field` and generalized to any field via getattr()."""


class Record:
    def __init__(self, size, cost):
        self.size = size
        self.cost = cost


def sum_field(records, field="size"):
    total = 0
    for r in records:
        total += getattr(r, field)
    return total


RECORDS = [Record(i, i * 2) for i in range(300)]
for _ in range(200):
    sum_field(RECORDS)

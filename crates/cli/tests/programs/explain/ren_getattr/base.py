"""Summing one attribute of many records."""


class Record:
    def __init__(self, size, cost):
        self.size = size
        self.cost = cost


def hot(records):
    total = 0
    for r in records:
        total += r.size
    return total


RECORDS = [Record(i, i * 2) for i in range(300)]
for _ in range(200):
    hot(RECORDS)

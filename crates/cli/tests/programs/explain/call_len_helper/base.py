"""Summing the lengths of records with the builtin `len`."""


def hot(records):
    total = 0
    for r in records:
        total += len(r)
    return total


RECORDS = [[0] * (i % 10) for i in range(300)]
for _ in range(200):
    hot(RECORDS)

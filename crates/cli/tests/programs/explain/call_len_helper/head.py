"""The builtin `len` replaced by a Python helper that also accepts None."""


def size(r):
    return 0 if r is None else len(r)


def hot(records):
    total = 0
    for r in records:
        total += size(r)
    return total


RECORDS = [[0] * (i % 10) for i in range(300)]
for _ in range(200):
    hot(RECORDS)

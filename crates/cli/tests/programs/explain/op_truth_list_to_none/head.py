"""The mutable default was fixed (linter B006): `exclude=None`, still truth-tested."""


def hot(rows, exclude=None):
    total = 0
    for r in rows:
        if exclude and r in exclude:
            continue
        total += r
    return total


ROWS = [i % 29 for i in range(400)]
for _ in range(100):
    hot(ROWS)

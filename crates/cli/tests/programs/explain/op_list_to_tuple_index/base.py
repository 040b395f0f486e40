"""Indexing a list of rows in a hot loop."""


def hot(rows):
    total = 0
    for i in range(len(rows)):
        total += rows[i]
    return total


ROWS = list(range(500))
for _ in range(100):
    hot(ROWS)

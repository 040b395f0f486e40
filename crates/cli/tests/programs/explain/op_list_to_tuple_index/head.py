"""The rows are now a tuple (made immutable): the subscript specializes for tuples."""


def hot(rows):
    total = 0
    for i in range(len(rows)):
        total += rows[i]
    return total


ROWS = tuple(range(500))
for _ in range(100):
    hot(ROWS)

"""The rows are now plain lists (to save memory) and the column is read by position."""


def hot(rows):
    total = 0
    for row in rows:
        total += row[1]
    return total


ROWS = [[i, i % 13] for i in range(400)]
for _ in range(100):
    hot(ROWS)

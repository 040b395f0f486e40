"""Summing one column of rows that are dicts keyed by column name."""


def hot(rows):
    total = 0
    for row in rows:
        total += row["qty"]
    return total


ROWS = [{"sku": i, "qty": i % 13} for i in range(400)]
for _ in range(100):
    hot(ROWS)

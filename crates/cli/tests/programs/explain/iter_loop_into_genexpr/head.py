"""The loop was rewritten as `sum()` over a generator expression."""


def hot(values, mean):
    return sum(abs(v - mean) for v in values) / len(values)


VALUES = [(i * 37) % 101 for i in range(400)]
for _ in range(100):
    hot(VALUES, 50)

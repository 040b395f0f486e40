"""Mean absolute deviation, written as an explicit loop."""


def hot(values, mean):
    total = 0
    for v in values:
        total += abs(v - mean)
    return total / len(values)


VALUES = [(i * 37) % 101 for i in range(400)]
for _ in range(100):
    hot(VALUES, 50)

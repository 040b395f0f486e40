"""The delegate is now a list's iterator, built up front, instead of a generator."""


def numbers(n):
    return iter([i % 17 for i in range(n)])


def chained(n):
    yield from numbers(n)


def hot():
    total = 0
    for v in chained(50):
        total += v
    return total


for _ in range(200):
    hot()

"""A generator that delegates to another generator with `yield from`."""


def numbers(n):
    for i in range(n):
        yield i % 17


def chained(n):
    yield from numbers(n)


def hot():
    total = 0
    for v in chained(50):
        total += v
    return total


for _ in range(200):
    hot()

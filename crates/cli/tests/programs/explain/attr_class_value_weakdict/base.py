"""A registry class keeps its entries in a plain dict class attribute, read through the class."""


class Registry:
    entries = {}


def hot(n):
    total = 0
    for i in range(n):
        total += Registry.entries.get(i % 8, 1)
    return total


for _ in range(100):
    hot(100)

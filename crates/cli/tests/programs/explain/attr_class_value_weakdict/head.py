"""The registry now holds its entries weakly: the class attribute is a WeakValueDictionary,
an instance of a Python class, which CPython will not cache for an attribute load."""

import weakref


class Registry:
    entries = weakref.WeakValueDictionary()


def hot(n):
    total = 0
    for i in range(n):
        total += Registry.entries.get(i % 8, 1)
    return total


for _ in range(100):
    hot(100)

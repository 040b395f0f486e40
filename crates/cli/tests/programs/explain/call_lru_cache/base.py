"""A small pure helper called in a hot loop."""
import functools


def weight(n):
    return n % 7 + 1


def hot(items):
    total = 0
    for n in items:
        total += weight(n)
    return total


ITEMS = [i % 50 for i in range(300)]
for _ in range(200):
    hot(ITEMS)

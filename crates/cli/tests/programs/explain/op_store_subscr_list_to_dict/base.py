"""Counting items per bucket into a preallocated list of counters."""


def hot(items, nbuckets):
    counts = [0] * nbuckets
    for it in items:
        b = it % nbuckets
        counts[b] = counts[b] + 1
    return counts


ITEMS = [(i * 7) % 101 for i in range(400)]
for _ in range(100):
    hot(ITEMS, 16)

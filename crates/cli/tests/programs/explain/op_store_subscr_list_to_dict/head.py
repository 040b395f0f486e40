"""The counters are now a dict keyed by bucket number (`dict.fromkeys`)."""


def hot(items, nbuckets):
    counts = dict.fromkeys(range(nbuckets), 0)
    for it in items:
        b = it % nbuckets
        counts[b] = counts[b] + 1
    return counts


ITEMS = [(i * 7) % 101 for i in range(400)]
for _ in range(100):
    hot(ITEMS, 16)

"""The batch is now a small class with its own `__iter__`/`__next__` (a cursor)."""


class Batch:
    def __init__(self, values):
        self.values = values
        self.pos = 0

    def __iter__(self):
        self.pos = 0
        return self

    def __next__(self):
        pos = self.pos
        if pos >= len(self.values):
            raise StopIteration
        self.pos = pos + 1
        return self.values[pos]


def hot(batch):
    total = 0
    for v in batch:
        total += v
    return total


BATCH = Batch([i % 23 for i in range(400)])
for _ in range(100):
    hot(BATCH)

"""LOAD_ATTR, a *missing* site: base's records are all of one class, head's of four
subclasses that add nothing, so `r.size` sees four type versions in turn and keeps missing its
LOAD_ATTR_INSTANCE_VALUE guard (same attribute, same dict-free layout)."""

from _harness import HEAD, timed


class Record:
    def __init__(self, size):
        self.size = size


class Small(Record):
    pass


class Medium(Record):
    pass


class Large(Record):
    pass


KINDS = [Record, Small, Medium, Large] if HEAD else [Record]
RECORDS = [KINDS[i % len(KINDS)](i & 1) for i in range(1000)]


def hot():
    total = 0
    for _ in range(30000):
        for r in RECORDS:
            total += r.size
    return total


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

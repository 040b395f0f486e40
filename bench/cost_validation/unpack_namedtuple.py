"""UNPACK_SEQUENCE: head's pairs are namedtuples instead of tuples, so `a, b = pair` unpacks a
tuple subclass and loses UNPACK_SEQUENCE_TWO_TUPLE."""

import collections

from _harness import HEAD, timed

Pair = collections.namedtuple("Pair", "a b")
PAIRS = [Pair(i, i + 1) if HEAD else (i, i + 1) for i in range(1000)]


def hot():
    a = b = 0
    for _ in range(60000):
        for pair in PAIRS:
            a, b = pair
    return a + b


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

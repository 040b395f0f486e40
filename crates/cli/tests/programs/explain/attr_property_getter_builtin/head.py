"""`type` is now `property(operator.itemgetter(0))`: a property whose getter is written in C."""

from __future__ import annotations

import operator


class Token(tuple):
    def __new__(cls, kind, value):
        return tuple.__new__(cls, (kind, value))

    pos: int

    type = property(operator.itemgetter(0))


def hot(tokens):
    n = 0
    for t in tokens:
        if t.type == "S":
            n += 1
    return n


TOKENS = [Token("S" if i % 3 else "X", i) for i in range(1000)]
for _ in range(300):
    hot(TOKENS)

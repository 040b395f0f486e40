"""Tokens whose `type` is an `@property` method (a Python getter), after an annotation
that `from __future__ import annotations` turns into a store into `__annotations__`."""

from __future__ import annotations


class Token(tuple):
    def __new__(cls, kind, value):
        return tuple.__new__(cls, (kind, value))

    pos: int

    @property
    def type(self) -> str:
        return self[0]


def hot(tokens):
    n = 0
    for t in tokens:
        if t.type == "S":
            n += 1
    return n


TOKENS = [Token("S" if i % 3 else "X", i) for i in range(1000)]
for _ in range(300):
    hot(TOKENS)

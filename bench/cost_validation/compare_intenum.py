"""COMPARE_OP: head's threshold is an IntEnum member instead of a plain int, so
`level >= threshold` compares an int with an int subclass and loses COMPARE_OP_INT."""

import enum

from _harness import HEAD, timed


class Level(enum.IntEnum):
    WARNING = 30


THRESHOLD = Level.WARNING if HEAD else 30
LEVELS = [(i * 7) % 50 for i in range(1000)]


def hot():
    threshold = THRESHOLD
    kept = 0
    for _ in range(30000):
        for level in LEVELS:
            if level >= threshold:
                kept = level
    return kept


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

"""BINARY_OP: head's flags are bools instead of 0/1 ints, so `total += flag` adds an int and
a bool (an int subclass) and loses BINARY_OP_ADD_INT; the addition is the same."""

from _harness import HEAD, timed

FLAGS = [bool(i % 3) if HEAD else int(i % 3 != 0) for i in range(1000)]


def hot():
    total = 0
    for _ in range(30000):
        for flag in FLAGS:
            total += flag
    return total


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

"""BINARY_SUBSCR: head's row is a list subclass that adds nothing, so `row[i]` loses
BINARY_SUBSCR_LIST_INT (BINARY_OP_SUBSCR_LIST_INT on 3.14+); the indexing is the same."""

from _harness import HEAD, timed


class Row(list):
    pass


ROW = Row([i & 1 for i in range(1000)]) if HEAD else [i & 1 for i in range(1000)]
INDICES = list(range(1000))


def hot():
    row = ROW
    total = 0
    for _ in range(60000):
        for i in INDICES:
            total = row[i]
    return total


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

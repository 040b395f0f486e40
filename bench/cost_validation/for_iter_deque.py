"""FOR_ITER: head keeps its queue in a deque instead of a list, so `for job in queue` loses
FOR_ITER_LIST; FOR_ITER has no specialized form for deque iterators, and the cost model no
figure for FOR_ITER (the estimate says "not estimated")."""

import collections

from _harness import HEAD, timed

QUEUE = collections.deque(range(1000)) if HEAD else list(range(1000))


def hot():
    last = 0
    for _ in range(60000):
        for job in QUEUE:
            last = job
    return last


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

"""FOR_ITER: head keeps its queue in a deque instead of a list, so `for job in queue` loses
FOR_ITER_LIST; FOR_ITER has no specialized form for deque iterators (the cost model times
exactly that: a list against a deque). The sampler puts nearly all of the loop's samples on
the body's line, where the loop jumps back, not on the `for` line."""

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

"""LOAD_GLOBAL: head stores one non-string key in the module's globals (a registry keyed by
number), which keeps every global load of the module from specializing; `WEIGHT` in the loop
was LOAD_GLOBAL_MODULE."""

from _harness import HEAD, timed

WEIGHT = 1
VALUES = list(range(1000))
if HEAD:
    globals()[0] = "registered"


def hot():
    total = 0
    for _ in range(60000):
        for x in VALUES:
            total = WEIGHT
    return total


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

"""CONTAINS_OP (3.13+): head's set of known names is a set subclass that adds nothing, so
`name in known` loses CONTAINS_OP_SET. On 3.12 `in` does not specialize: nothing is lost."""

from _harness import HEAD, timed


class Names(set):
    pass


KNOWN = Names(range(0, 1000, 2)) if HEAD else set(range(0, 1000, 2))
NAMES = list(range(1000))


def hot():
    known = KNOWN
    found = False
    for _ in range(30000):
        for name in NAMES:
            found = name in known
    return found


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

"""CALL, a *missing* site: base's handlers are one function, head's four functions with the
same body, so `handle(x)` sees four function versions in turn and keeps missing its
CALL_PY_EXACT_ARGS guard."""

from _harness import HEAD, timed


def on_a(x):
    return x


def on_b(x):
    return x


def on_c(x):
    return x


def on_d(x):
    return x


KINDS = [on_a, on_b, on_c, on_d] if HEAD else [on_a]
HANDLERS = [KINDS[i % len(KINDS)] for i in range(1000)]


def hot():
    last = 0
    for _ in range(24000):
        for handle in HANDLERS:
            last = handle(1)
    return last


if __name__ == "__main__":  # the multi_* programs import `hot`
    timed(hot)

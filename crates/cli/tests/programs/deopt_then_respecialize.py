"""specdiff churn check (3.11): a site the sampler first finds deoptimized, then re-specialized.

`read` specializes `o.x` for A, then misses 53 times on B and deoptimizes to
LOAD_ATTR_ADAPTIVE, all in a few microseconds, before the sampler can look. Then `read` spins
for 50 ms before its load, so the sampler's first look at it finds the site adaptive with a
deoptimization's counter; 40 more calls re-specialize it for B, and a last spin lets the
sampler see that. One flip seen (adaptive → specialized), which alone would read as warming up.
"""
import time


class A:
    def __init__(self):
        self.x = 1


class B:
    def __init__(self):
        self.x = 2


def read(o, spin):
    if spin:
        end = time.perf_counter() + spin
        while time.perf_counter() < end:
            pass
    return o.x


def main():
    a, b = A(), B()
    for _ in range(20):
        read(a, 0)
    for _ in range(53):
        read(b, 0)
    read(b, 0.05)
    for _ in range(40):
        read(b, 0)
    read(b, 0.05)


main()

"""packaging 22.0 -> 24.2 (3.12-3.15): `canonicalize_version(v, strip_trailing_zero=True)` now
builds `_TrimmedRelease(str(version))`, a subclass of `Version` that does not override
`__init__`, so about half of the constructions that reach `Version.__init__` are the subclass's.
Each attribute site there (`self._version = ...`, `self._version.epoch`, ...) stays specialized
for one receiver type at a time: the other type's calls miss, and after 53 misses the site
re-specializes for it (the sampler sees these flips in head, never in base). Shows: `Version`'s
own constructions, the work base also did, get slower when the subclass passes through, because
their sites now hold the subclass's type part of the time. Only V's constructions are timed.

    python packaging_trimmed_release.py   # prints the sites' forms and ns per V() by mix
"""
import dis, sys, time


class V:
    def __init__(self, s):
        self._a = s
        self._b = s
        self._c = self._a
        self._d = self._b


class T(V):
    pass


def run(mix, n=200_000):
    spent, clock = 0.0, time.perf_counter
    for i in range(n):
        if mix and i % mix == 0:
            T("x")  # the new work, untimed
        t0 = clock()
        V("x")
        spent += clock() - t0
    return spent / n * 1e9


base = min(run(0) for _ in range(5))
print(sys.version.split()[0], "sites:", sorted({i.opname for i in dis.get_instructions(V.__init__, adaptive=True) if "ATTR" in i.opname}))
for mix in (2, 4, 30):
    head = min(run(mix) for _ in range(5))
    print(f"one T() every {mix} V(): {head:.0f} ns per V() against {base:.0f} alone ({head / base:.2f}x)")

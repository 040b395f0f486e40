"""specdiff gate workload: one realistic, stdlib-heavy program whose code does not change
between runs, for the regression gate's tests (crates/cli/tests/gate.rs).

Run as `python gate_workload.py [ROUNDS] [--mixed-shapes] [--one-miss]`; prints one summary
line.
It parses and re-serializes JSON, tokenizes text with `re`, counts with `collections`, sorts
dataclass records, hashes with integer arithmetic (`%`, `>>`, `&`, `^`), schedules with
`heapq` and formats dates with `datetime`: work whose specialization is stable. With
`--mixed-shapes`, `Inventory.weigh` is handed items of six unrelated classes instead of one,
so its attribute loads and calls see many receiver types: a real regression of the same code.
With `--one-miss`, the hot `Inventory.weigh` is called once more at the end on one item of
another class: one more miss at each of its specialized sites, which is not a regression.
"""
import collections
import dataclasses
import datetime
import heapq
import itertools
import json
import re
import statistics
import sys

WORD = re.compile(r"[a-z]+")
TEXT = """The quick brown fox jumps over the lazy dog. A journey of a thousand miles begins
with a single step. To be or not to be, that is the question. All that glitters is not gold.
"""


@dataclasses.dataclass(order=True)
class Record:
    key: int
    name: str
    weight: float = 0.0
    tags: tuple = ()


class Item:
    __slots__ = ("mass", "count")

    def __init__(self, mass, count):
        self.mass = mass
        self.count = count

    def total(self):
        return self.mass * self.count


def _make_shape(n):
    # Six unrelated classes with the same attributes: a megamorphic receiver for weigh().
    return type("Shape%d" % n, (), {"__init__": Item.__init__, "total": Item.total})


OTHER_KINDS = [_make_shape(n) for n in range(6)]


class Inventory:
    def __init__(self, items):
        self.items = items
        self.seen = {}

    def weigh(self):
        total = 0.0
        for it in self.items:
            total += it.mass * it.count + it.total()
        return total

    def remember(self, key, value):
        self.seen[key] = self.seen.get(key, 0) + value
        return len(self.seen)


def mix(h, x):
    """Integer hashing: the `%`, `>>`, `&`, `^` sites 3.11 cannot specialize."""
    h = (h ^ x) & 0xFFFFFFFF
    h = (h * 16777619) % 4294967296
    h ^= h >> 13
    return h & 0xFFFF


def checksum(values):
    h = 2166136261
    for v in values:
        h = mix(h, v)
    return h


def tokenize(text):
    counts = collections.Counter()
    for word in WORD.findall(text.lower()):
        counts[word] += 1
    return counts


def roundtrip(records):
    doc = json.dumps([dataclasses.asdict(r) for r in records], sort_keys=True)
    back = json.loads(doc)
    return [Record(d["key"], d["name"], d["weight"], tuple(d["tags"])) for d in back]


def schedule(records):
    heap = [(r.weight, r.key) for r in records]
    heapq.heapify(heap)
    order = []
    while heap:
        order.append(heapq.heappop(heap)[1])
    return order


def dates(n):
    start = datetime.date(2024, 1, 1)
    return [(start + datetime.timedelta(days=d)).isoformat() for d in range(0, n, 7)]


def main(argv):
    rounds = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 200
    mixed = "--mixed-shapes" in argv
    if mixed:
        items = [OTHER_KINDS[i % 6](i % 7 + 0.5, i % 3 + 1) for i in range(300)]
    else:
        items = [Item(i % 7 + 0.5, i % 3 + 1) for i in range(300)]
    inv = Inventory(items)
    records = [Record(i * 7 % 101, "r%d" % i, (i * 37 % 17) / 3.0, ("a", "b")[: i % 3]) for i in range(60)]
    acc = 0
    weights = []
    for r in range(rounds):
        weights.append(inv.weigh())
        acc = (acc + checksum(range(r, r + 200))) % 1000003
        counts = tokenize(TEXT)
        inv.remember(counts.most_common(1)[0][0], r % 5)
        if r % 10 == 0:
            records = sorted(roundtrip(records))
            acc ^= sum(schedule(records)) & 0xFF
    if "--one-miss" in argv:
        Inventory([OTHER_KINDS[0](1.0, 1)]).weigh()
    groups = {k: len(list(g)) for k, g in itertools.groupby(sorted(r.name[:2] for r in records))}
    print("acc=%d weight=%.1f groups=%d dates=%d mean=%.2f" % (
        acc, weights[-1], len(groups), len(dates(200)), statistics.mean(weights)))


if __name__ == "__main__":
    main(sys.argv)

"""Readings wrapped in a small dataclass, many per batch."""
from dataclasses import dataclass


@dataclass
class Reading:
    sensor: str
    value: float


def collect(raw):
    out = []
    for i, v in enumerate(raw):
        out.append(Reading("s%d" % (i % 4), v))
    return sum(r.value for r in out)


RAW = [float(i % 50) for i in range(300)]
total = 0.0
for _ in range(400):
    total += collect(RAW)
print(round(total))

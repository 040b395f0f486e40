"""Averaging readings per sensor in a hot loop (documented and type-annotated)."""


def hot(readings: list[tuple[str, float]], counts: dict[str, int]) -> dict[str, float]:
    """Return each sensor's reading divided by its count.

    Later readings of a sensor replace earlier ones.
    """
    avg: dict[str, float] = {}
    for name, value in readings:
        avg[name] = value / counts[name]
    return avg


NAMES = ["s%d" % i for i in range(20)]
READINGS = [(NAMES[i % 20], float(i)) for i in range(300)]
COUNTS = {n: 15 for n in NAMES}
for _ in range(100):
    hot(READINGS, COUNTS)

"""The record class now counts attribute reads through a `__getattribute__` override."""

READS = [0]


class Reading:
    def __init__(self, sensor, value):
        self.sensor = sensor
        self.value = value

    def __getattribute__(self, name):
        READS[0] += 1
        return object.__getattribute__(self, name)


def hot(readings):
    total = 0
    for r in readings:
        if r.sensor % 2:
            total += r.value
    return total


READINGS = [Reading(i % 7, i) for i in range(300)]
for _ in range(150):
    hot(READINGS)

"""Reading instance attributes of a plain record class in a hot loop."""


class Reading:
    def __init__(self, sensor, value):
        self.sensor = sensor
        self.value = value


def hot(readings):
    total = 0
    for r in readings:
        if r.sensor % 2:
            total += r.value
    return total


READINGS = [Reading(i % 7, i) for i in range(300)]
for _ in range(150):
    hot(READINGS)

"""Settings read from class attributes in a hot loop."""


class Settings:
    scale = 3
    offset = 1


def hot(n):
    total = 0
    for i in range(n):
        total += i * Settings.scale + Settings.offset
    return total


for _ in range(100):
    hot(100)

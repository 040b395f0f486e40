"""A settings object whose fields are read in a hot loop."""


class Settings:
    def __init__(self, scale, offset):
        self.scale = scale
        self.offset = offset


def hot(settings, values):
    out = 0
    for v in values:
        out += v * settings.scale + settings.offset
    return out


SETTINGS = Settings(3, 1)
VALUES = list(range(300))
for _ in range(150):
    hot(SETTINGS, VALUES)

"""A converter calls one of its own methods on every value in a hot loop."""


class Converter:
    def __init__(self, factor):
        self.factor = factor

    def clamp(self, v):
        return 0 if v < 0 else v

    def convert(self, values):
        out = 0
        for v in values:
            out += self.clamp(v - 100) * self.factor
        return out


def hot(conv, values):
    return conv.convert(values)


CONV = Converter(3)
VALUES = list(range(300))
for _ in range(150):
    hot(CONV, VALUES)

"""`clamp` uses no instance state, so it became a `@staticmethod` (still called as `self.clamp`)."""


class Converter:
    def __init__(self, factor):
        self.factor = factor

    @staticmethod
    def clamp(v):
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

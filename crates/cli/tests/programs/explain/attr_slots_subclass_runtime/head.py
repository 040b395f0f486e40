"""Each dialect now gets its own parser class, made at run time from the slotted one without
`__slots__`, so its instances have a `__dict__` (and on 3.13 no inline values)."""


class Parser:
    __slots__ = ("pos",)
    FACTOR = {"*": 2, "/": 3}

    def __init__(self):
        self.pos = 0

    def weight(self, op):
        table = self.FACTOR
        return table.get(op, 1)


DialectParser = type("Parser", (Parser,), {})


def make_parser():
    return DialectParser()


def hot(n):
    parser = make_parser()
    total = 0
    for i in range(n):
        total += parser.weight("*" if i % 2 else "/")
    return total


for _ in range(100):
    hot(100)

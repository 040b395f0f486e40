"""A slotted parser class with class-level tables, read through `self` in its methods."""


class Parser:
    __slots__ = ("pos",)
    FACTOR = {"*": 2, "/": 3}

    def __init__(self):
        self.pos = 0

    def weight(self, op):
        table = self.FACTOR
        return table.get(op, 1)


def make_parser():
    return Parser()


def hot(n):
    parser = make_parser()
    total = 0
    for i in range(n):
        total += parser.weight("*" if i % 2 else "/")
    return total


for _ in range(100):
    hot(100)

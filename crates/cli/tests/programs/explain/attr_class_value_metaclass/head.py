"""Parser classes are now registered by a metaclass, so the class attribute that names one
holds a class whose type is a Python class: CPython will not cache it for an attribute load."""

PARSERS = []


class Registered(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        PARSERS.append(cls)


class Parser(metaclass=Registered):
    def __init__(self, text):
        self.text = text


class Reader:
    parser_class = Parser

    def parse(self, text):
        make = self.parser_class
        return make(text)


def hot(n):
    reader = Reader()
    total = 0
    for i in range(n):
        total += len(reader.parse("x" * (i % 5)).text)
    return total


for _ in range(100):
    hot(100)

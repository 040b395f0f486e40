"""Each reader builds its parser from a parser class it names in a class attribute."""


class Parser:
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

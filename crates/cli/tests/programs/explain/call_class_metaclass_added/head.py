"""The class is now made by a metaclass that registers every class it creates."""

REGISTRY = []


class Registered(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        REGISTRY.append(name)


class Point(metaclass=Registered):
    def __init__(self, x, y):
        self.x = x
        self.y = y


def hot(n):
    total = 0
    for i in range(n):
        p = Point(i, i + 1)
        total += p.x
    return total


for _ in range(100):
    hot(100)

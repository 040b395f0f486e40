"""The settings class is now made by a metaclass that keeps a registry of settings classes."""

REGISTRY = {}


class Registered(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        REGISTRY[name] = cls


class Settings(metaclass=Registered):
    scale = 3
    offset = 1


def hot(n):
    total = 0
    for i in range(n):
        total += i * Settings.scale + Settings.offset
    return total


for _ in range(100):
    hot(100)

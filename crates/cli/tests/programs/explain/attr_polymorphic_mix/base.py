"""Summing the `size` of a list of files (one class) in a hot loop."""


class File:
    def __init__(self, name, size):
        self.name = name
        self.size = size


class Folder:
    def __init__(self, name, size):
        self.name = name
        self.size = size


class Link:
    def __init__(self, name, size):
        self.name = name
        self.size = size


def hot(entries):
    s = 0
    for e in entries:
        s += e.size
    return s


ENTRIES = [File(str(i), i) for i in range(300)]
for _ in range(150):
    hot(ENTRIES)

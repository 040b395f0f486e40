"""The listing now mixes files, folders and links (three classes) in one list."""


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


ENTRIES = [(File, Folder, Link)[i % 3](str(i), i) for i in range(300)]
for _ in range(150):
    hot(ENTRIES)

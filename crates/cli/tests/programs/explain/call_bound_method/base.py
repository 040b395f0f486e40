"""A key function passed in and called per item."""


def normalize(word):
    return word.lower()


class Index:
    def __init__(self, prefix):
        self.prefix = prefix


def hot(words, key):
    n = 0
    for w in words:
        n += len(key(w))
    return n


INDEX = Index("x")
WORDS = ["Alpha", "Beta", "Gamma"] * 100
for _ in range(200):
    hot(WORDS, normalize)

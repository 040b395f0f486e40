"""The key function moved onto the class; the caller now passes a bound method."""


class Index:
    def __init__(self, prefix):
        self.prefix = prefix

    def normalize(self, word):
        return word.lower()


def hot(words, key):
    n = 0
    for w in words:
        n += len(key(w))
    return n


INDEX = Index("x")
WORDS = ["Alpha", "Beta", "Gamma"] * 100
for _ in range(200):
    hot(WORDS, INDEX.normalize)

"""Filtering words against a set of stop words."""


def hot(words, stop):
    kept = 0
    for w in words:
        if w not in stop:
            kept += 1
    return kept


VOCAB = ["the", "a", "an", "of", "to", "in", "and", "or", "data", "code", "test", "run"]
STOP = set(VOCAB[:8])
WORDS = [VOCAB[i % len(VOCAB)] for i in range(400)]
for _ in range(100):
    hot(WORDS, STOP)

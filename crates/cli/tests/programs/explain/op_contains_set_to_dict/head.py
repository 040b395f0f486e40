"""The stop words are now a dict (insertion-ordered, `dict.fromkeys`) instead of a set."""


def hot(words, stop):
    kept = 0
    for w in words:
        if w not in stop:
            kept += 1
    return kept


VOCAB = ["the", "a", "an", "of", "to", "in", "and", "or", "data", "code", "test", "run"]
STOP = dict.fromkeys(VOCAB[:8])
WORDS = [VOCAB[i % len(VOCAB)] for i in range(400)]
for _ in range(100):
    hot(WORDS, STOP)

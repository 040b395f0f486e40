"""Normalizing words in a hot loop."""


def hot(words):
    out = []
    for w in words:
        out.append(w.strip().lower())
    return out


WORDS = [" Word%d " % i for i in range(300)]
for _ in range(100):
    hot(WORDS)

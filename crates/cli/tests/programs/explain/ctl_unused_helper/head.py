"""Normalizing words in a hot loop; an unused helper was added for later."""


def normalize_all(words, keep_case=False):
    if keep_case:
        return [w.strip() for w in words]
    return [w.strip().lower() for w in words]


def hot(words):
    out = []
    for w in words:
        out.append(w.strip().lower())
    return out


WORDS = [" Word%d " % i for i in range(300)]
for _ in range(100):
    hot(WORDS)

"""Finding the longest run of equal values."""


def hot(xs):
    best = 0
    n = 0
    prev = None
    for x in xs:
        if x == prev:
            n += 1
        else:
            n = 1
            prev = x
        if n > best:
            best = n
    return best


XS = [(i // 3) % 5 for i in range(400)]
for _ in range(100):
    hot(XS)

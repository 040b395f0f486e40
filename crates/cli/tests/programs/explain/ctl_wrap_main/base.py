"""Summing pairwise products; the driver loop runs at module level."""


def hot(xs, ys):
    total = 0
    for i in range(len(xs)):
        total += xs[i] * ys[i]
    return total


XS = [i % 13 for i in range(400)]
YS = [i % 7 for i in range(400)]
for _ in range(100):
    hot(XS, YS)

"""Summing pairwise products; the driver loop now lives in `main()`."""


def hot(xs, ys):
    total = 0
    for i in range(len(xs)):
        total += xs[i] * ys[i]
    return total


def main():
    xs = [i % 13 for i in range(400)]
    ys = [i % 7 for i in range(400)]
    for _ in range(100):
        hot(xs, ys)


main()

"""area_sum: a loop over squares."""
import sys


class Square:
    def __init__(self, side):
        self.side = side


def area_sum(shapes, scale):
    total = 0
    for s in shapes:
        total += s.side * s.side * scale
    return total


def main(rounds):
    shapes = [Square(i % 7) for i in range(100)]
    t = 0
    for _ in range(rounds):
        t += area_sum(shapes, 2)
    print(t)


main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

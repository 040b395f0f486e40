"""area_sum gone; perimeter_sum, a loop of the same shape over other attributes."""
import sys


class Rect:
    def __init__(self, width, height):
        self.width = width
        self.height = height


def perimeter_sum(rects, factor):
    acc = 0
    for r in rects:
        acc += (r.width + r.height) * factor
    return acc


def main(rounds):
    rects = [Rect(i % 7, i % 5) for i in range(100)]
    t = 0
    for _ in range(rounds):
        t += perimeter_sum(rects, 2)
    print(t)


main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

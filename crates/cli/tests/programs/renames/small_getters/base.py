"""A getter x, called in a loop."""
import sys


class P:
    def __init__(self):
        self._x = 1
        self._y = 2

    def x(self):
        return self._x


def main(rounds):
    p = P()
    print(sum(p.x() for _ in range(rounds)))


main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)

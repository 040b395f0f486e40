"""The getter x removed; a getter y added."""
import sys


class P:
    def __init__(self):
        self._x = 1
        self._y = 2

    def y(self):
        return self._y


def main(rounds):
    p = P()
    print(sum(p.y() for _ in range(rounds)))


main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)

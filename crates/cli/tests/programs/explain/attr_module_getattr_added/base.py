"""The program calls `geometry.area` in a hot loop; the module comes from base_lib/."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "base_lib"))

import geometry  # noqa: E402


def hot(n):
    total = 0
    for i in range(n):
        total += geometry.area(i, 3)
    return total


def main():
    for _ in range(50):
        hot(2000)


main()

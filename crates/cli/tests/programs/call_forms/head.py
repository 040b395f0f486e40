"""The same calls, one with a keyword argument, one unpacking its arguments (crates/cli/tests/call_forms.rs)."""
import sys


def area(w, h):
    return w * h


def combine(a, b):
    return a + b


def total_area(sizes):
    t = 0
    for w, h in sizes:
        t += area(w, h=h)
    return t


def combine_all(pairs):
    t = 0
    for pair in pairs:
        t += combine(*pair)
    return t


def main(rounds):
    sizes = [(i % 7, i % 5) for i in range(200)]
    s = 0
    for _ in range(rounds):
        s += total_area(sizes) + combine_all(sizes)
    print(s)


main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)

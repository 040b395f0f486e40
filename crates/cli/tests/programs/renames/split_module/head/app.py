"""Parses records; parse_record moved to records.py."""
import sys

from records import parse_record


def main(rounds):
    lines = [f"item{i}, {i % 9}, {i * 0.5}, a, b" for i in range(100)]
    total = 0.0
    for _ in range(rounds):
        for line in lines:
            name, qty, price, ntags = parse_record(line)
            total += qty * price + ntags
    print(round(total, 2))


main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)

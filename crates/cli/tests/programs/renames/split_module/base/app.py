"""Parses records; parse_record lives here."""
import sys


def parse_record(line):
    fields = line.split(",")
    name = fields[0].strip()
    qty = int(fields[1])
    price = float(fields[2])
    tags = [t for t in fields[3:] if t]
    return name, qty, price, len(tags)


def main(rounds):
    lines = [f"item{i}, {i % 9}, {i * 0.5}, a, b" for i in range(100)]
    total = 0.0
    for _ in range(rounds):
        for line in lines:
            name, qty, price, ntags = parse_record(line)
            total += qty * price + ntags
    print(round(total, 2))


main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)

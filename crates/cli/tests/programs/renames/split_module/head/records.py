"""Record parsing, split out of app.py."""


def parse_record(line):
    fields = line.split(",")
    name = fields[0].strip()
    qty = int(fields[1])
    price = float(fields[2])
    tags = [t for t in fields[3:] if t]
    return name, qty, price, len(tags)

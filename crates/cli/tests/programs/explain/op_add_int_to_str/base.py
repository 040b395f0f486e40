"""Building lookup keys from a numeric region code and a serial number."""


def hot(records, index):
    found = 0
    for region, serial in records:
        key = region + serial
        if key in index:
            found += 1
    return found


RECORDS = [(i % 7 * 100000, i) for i in range(400)]
INDEX = {r + s for r, s in RECORDS[::3]}
for _ in range(100):
    hot(RECORDS, INDEX)

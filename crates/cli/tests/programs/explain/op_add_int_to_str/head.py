"""The region codes and serials are now strings (read from a file): `+` concatenates them."""


def hot(records, index):
    found = 0
    for region, serial in records:
        key = region + serial
        if key in index:
            found += 1
    return found


RECORDS = [(str(i % 7), str(i)) for i in range(400)]
INDEX = {r + s for r, s in RECORDS[::3]}
for _ in range(100):
    hot(RECORDS, INDEX)

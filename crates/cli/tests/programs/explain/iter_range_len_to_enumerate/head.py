"""Scanning a buffer with `enumerate` (chardet 4 → 5's probers): no index, no subscript."""


def scan(buf):
    high = 0
    for i, byte in enumerate(buf):
        if byte > 127:
            high += i
    return high


BUF = bytes((i * 7) % 256 for i in range(3000))
for _ in range(40):
    scan(BUF)

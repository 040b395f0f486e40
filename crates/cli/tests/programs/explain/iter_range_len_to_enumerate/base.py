"""Scanning a buffer by index: `for i in range(len(buf))` and `buf[i]`."""


def scan(buf):
    high = 0
    for i in range(len(buf)):
        byte = buf[i]
        if byte > 127:
            high += i
    return high


BUF = bytes((i * 7) % 256 for i in range(3000))
for _ in range(40):
    scan(BUF)

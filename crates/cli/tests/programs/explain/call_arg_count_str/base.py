"""Packets are labelled with str(payload): the repr of the bytes."""


def labels(packets):
    out = []
    for p in packets:
        out.append(str(p))
    return out


PACKETS = [bytes([65 + i % 26]) * 8 for i in range(300)]
for _ in range(200):
    labels(PACKETS)

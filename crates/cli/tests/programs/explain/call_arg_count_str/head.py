"""Packets are labelled with their text: str(payload, "ascii") decodes the bytes."""


def labels(packets):
    out = []
    for p in packets:
        out.append(str(p, "ascii"))
    return out


PACKETS = [bytes([65 + i % 26]) * 8 for i in range(300)]
for _ in range(200):
    labels(PACKETS)

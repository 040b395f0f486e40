"""Feeding chunks: an empty chunk is tested with `not len(chunk)`."""


def feed(chunks):
    total = 0
    for chunk in chunks:
        if not len(chunk):
            continue
        total += chunk[0]
    return total


CHUNKS = [bytes([i % 251, 1, 2]) if i % 5 else b"" for i in range(2000)]
for _ in range(60):
    feed(CHUNKS)

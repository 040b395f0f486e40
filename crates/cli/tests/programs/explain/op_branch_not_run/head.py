"""Refunds now go to a separate ledger upstream, so the refund branch never runs."""


def hot(amounts):
    total = 0
    refunds = 0
    for a in amounts:
        if a < 0:
            refunds -= a
        else:
            total += a
    return total, refunds


RAW = [(i * 37) % 101 - 20 for i in range(400)]
AMOUNTS = [a for a in RAW if a >= 0]
for _ in range(100):
    hot(AMOUNTS)

"""The helper gained a keyword-only `strict` option (unused by this caller)."""


def to_cents(amount, fee, *, strict=False):
    if strict and amount < 0:
        raise ValueError(amount)
    return amount * 100 + fee


def hot(amounts):
    total = 0
    for a in amounts:
        total += to_cents(a, 5)
    return total


AMOUNTS = list(range(300))
for _ in range(200):
    hot(AMOUNTS)

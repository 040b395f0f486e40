"""The helper's rate got a default, and the caller now relies on it."""


def tax(amount, rate=20):
    return amount * rate // 100


def hot(amounts):
    total = 0
    for a in amounts:
        total += tax(a)
    return total


AMOUNTS = list(range(100, 400))
for _ in range(200):
    hot(AMOUNTS)

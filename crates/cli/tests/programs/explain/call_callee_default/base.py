"""A helper with two parameters, called with both."""


def tax(amount, rate):
    return amount * rate // 100


def hot(amounts):
    total = 0
    for a in amounts:
        total += tax(a, 20)
    return total


AMOUNTS = list(range(100, 400))
for _ in range(200):
    hot(AMOUNTS)

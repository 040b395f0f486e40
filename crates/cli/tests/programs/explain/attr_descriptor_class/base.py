"""Reading a plain instance attribute in a hot loop."""


class Account:
    def __init__(self, balance):
        self.balance = balance


def hot(accounts):
    s = 0
    for a in accounts:
        s += a.balance
    return s


ACCOUNTS = [Account(i) for i in range(300)]
for _ in range(150):
    hot(ACCOUNTS)

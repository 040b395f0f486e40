"""`balance` is now a validating descriptor (a class with `__get__`/`__set__`)."""


class NonNegative:
    def __set_name__(self, owner, name):
        self.key = "_" + name

    def __get__(self, obj, objtype=None):
        return obj.__dict__[self.key]

    def __set__(self, obj, value):
        if value < 0:
            raise ValueError(value)
        obj.__dict__[self.key] = value


class Account:
    balance = NonNegative()

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

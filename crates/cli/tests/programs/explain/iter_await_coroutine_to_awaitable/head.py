"""The awaited object is now an instance of a class whose `__await__` returns an iterator."""


class Ready:
    def __await__(self):
        return iter(())


def ready():
    return Ready()


async def total(n):
    t = 0
    for i in range(n):
        await ready()
        t += i % 13
    return t


def run(coro):
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value


for _ in range(200):
    run(total(50))

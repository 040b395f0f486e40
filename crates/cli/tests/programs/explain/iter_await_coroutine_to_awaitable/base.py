"""A coroutine that awaits another coroutine, driven by hand (no event loop)."""


async def ready():
    return None


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

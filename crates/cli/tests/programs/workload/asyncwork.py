"""Async: coroutines run by asyncio, and an async generator."""
import asyncio
import sys


async def ticker(n):
    for i in range(n):
        yield i
        await asyncio.sleep(0)


async def worker(name, n):
    total = 0
    async for i in ticker(n):
        total += i
    return name, total


async def gather_all(k, n):
    results = await asyncio.gather(*(worker("w%d" % i, n) for i in range(k)))
    return sorted(results)


def drive(coro):
    """Run a coroutine that only awaits asyncio.sleep(0), without an event loop."""
    try:
        while True:
            coro.send(None)
    except StopIteration as stop:
        return stop.value


def run(k=4, n=50):
    if sys.platform == "emscripten":
        # Pyodide under node cannot block in an event loop (no stack switching): drive by hand.
        return sorted(drive(worker("w%d" % i, n)) for i in range(k))
    return asyncio.run(gather_all(k, n))

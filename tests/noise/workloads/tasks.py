"""An asyncio program: producers and consumers over queues, gather, timeouts, a semaphore."""
import asyncio
import hashlib


async def producer(queue, n, seed):
    for i in range(n):
        await queue.put((seed, i, ("job-%d-%d" % (seed, i)).encode()))
        if i % 50 == 0:
            await asyncio.sleep(0)
    await queue.put(None)


async def consumer(queue, results, sem):
    while True:
        item = await queue.get()
        if item is None:
            queue.task_done()
            return
        seed, i, payload = item
        async with sem:
            digest = hashlib.sha1(payload).hexdigest()
        results[(seed, i)] = digest[:8]
        queue.task_done()


async def main():
    results, sem = {}, asyncio.Semaphore(4)
    for round_ in range(6):
        queues = [asyncio.Queue(maxsize=64) for _ in range(3)]
        tasks = [asyncio.create_task(producer(q, 600, round_ * 10 + k)) for k, q in enumerate(queues)]
        tasks += [asyncio.create_task(consumer(q, results, sem)) for q in queues]
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=60)
    print(len(results))


asyncio.run(main())

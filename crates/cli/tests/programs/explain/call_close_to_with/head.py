"""Each buffer is read in a `with` block, which closes it (docutils 0.21's
`Writer.apply_template`: `with open(…) as fp:`): the block's end calls `__exit__`, another
call than `.close()`, not the same call made less specialized."""
import io

DATA = [bytes(range(i % 50 + 10)) for i in range(200)]


def total(chunks):
    n = 0
    for data in chunks:
        with io.BytesIO(data) as buf:
            n += len(buf.read())
    return n


for _ in range(150):
    total(DATA)

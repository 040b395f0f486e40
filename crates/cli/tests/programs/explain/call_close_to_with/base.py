"""Each buffer is read, then closed with an explicit `.close()` (docutils 0.16's
`Writer.apply_template`: `template_file.close()`)."""
import io

DATA = [bytes(range(i % 50 + 10)) for i in range(200)]


def total(chunks):
    n = 0
    for data in chunks:
        buf = io.BytesIO(data)
        n += len(buf.read())
        buf.close()
    return n


for _ in range(150):
    total(DATA)

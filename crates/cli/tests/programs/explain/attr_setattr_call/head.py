"""The write now goes through `setattr(r, field, ...)` with the field name passed in."""


class Record:
    def __init__(self, key):
        self.key = key
        self.score = 0


def hot(records, bonus, field="score"):
    for r in records:
        setattr(r, field, r.key + bonus)


RECORDS = [Record(i) for i in range(300)]
for n in range(150):
    hot(RECORDS, n)

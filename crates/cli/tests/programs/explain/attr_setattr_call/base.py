"""Writing an attribute of each record in a hot loop."""


class Record:
    def __init__(self, key):
        self.key = key
        self.score = 0


def hot(records, bonus):
    for r in records:
        r.score = r.key + bonus


RECORDS = [Record(i) for i in range(300)]
for n in range(150):
    hot(RECORDS, n)

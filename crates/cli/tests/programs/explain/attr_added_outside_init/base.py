"""Reading fields of tasks, all set in `__init__`, in a hot loop."""


class Task:
    def __init__(self, name, cost):
        self.name = name
        self.cost = cost
        self.owner = None
        self.done = False


def hot(tasks):
    s = 0
    for t in tasks:
        if not t.done:
            s += t.cost
    return s


TASKS = [Task(str(i), i) for i in range(300)]
for i, t in enumerate(TASKS):
    if i % 3 == 0:
        t.done = True
    if i % 2 == 0:
        t.owner = "ops"
for _ in range(150):
    hot(TASKS)

"""The helper is now wrapped by a counting decorator (`functools.wraps`, `*args, **kwargs`)."""
import functools

CALLS = [0]


def counted(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        CALLS[0] += 1
        return func(*args, **kwargs)
    return wrapper


@counted
def norm(x, y):
    return abs(x) + abs(y)


def hot(points):
    total = 0
    for x, y in points:
        total += norm(x, y)
    return total


POINTS = [(i, -i) for i in range(300)]
for _ in range(200):
    hot(POINTS)

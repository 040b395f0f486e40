"""Dataclasses, namedtuples, enums and decorators: code made by exec, many same-named functions."""
import dataclasses
import enum
import functools
import typing


class Kind(enum.Enum):
    BOOK = 1
    FOOD = 2
    TOOL = 3


@dataclasses.dataclass
class Item:
    name: str
    price: float
    qty: int


@dataclasses.dataclass
class Line:          # the same fields as Item: the same generated __init__ code
    name: str
    price: float
    qty: int


@dataclasses.dataclass(frozen=True, order=True)
class Key:
    kind: int
    name: str


@dataclasses.dataclass(frozen=True, order=True)
class Tag:           # the same fields as Key
    kind: int
    name: str


Point = typing.NamedTuple("Point", [("x", float), ("y", float)])
Size = collections_nt = __import__("collections").namedtuple("Size", "x y")


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


def counted(fn):
    calls = [0]

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        calls[0] += 1
        return fn(*args, **kwargs)
    return wrapper


@logged
def total(items):
    return sum(i.price * i.qty for i in items)


@counted
def total_lines(lines):
    return sum(l.price * l.qty for l in lines)


@functools.lru_cache(maxsize=256)
def discount(kind, qty):
    return 0.1 if kind is Kind.BOOK and qty > 3 else 0.0


def main():
    items = [Item("i%d" % n, n * 0.5, n % 7) for n in range(200)]
    lines = [Line("l%d" % n, n * 0.25, n % 5) for n in range(200)]
    keys = sorted({Key(n % 3, "k%d" % (n % 50)) for n in range(400)})
    tags = sorted({Tag(n % 4, "t%d" % (n % 40)) for n in range(400)})
    pts = [Point(n, n + 1) for n in range(300)]
    sizes = [Size(n, 2 * n) for n in range(300)]
    acc = 0.0
    for _ in range(200):
        acc += total(items) + total_lines(lines)
        acc += sum(p.x * p.y for p in pts) + sum(s.x + s.y for s in sizes)
        acc += sum(discount(Kind(1 + n % 3), n % 6) for n in range(100))
        acc += len([dataclasses.replace(i, qty=i.qty + 1) for i in items[:20]])
        acc += sum(1 for k in keys if k < Key(1, "k25")) + sum(1 for t in tags if t < Tag(2, "t20"))
    print(round(acc, 2))


main()

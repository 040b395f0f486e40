"""A program whose imports run library code: `dataclasses`, `enum`, `re`, `typing`,
`argparse`, `json`, `asyncio` build enums, compile patterns and make classes while they are
imported. Then a steady loop of its own, the same in every run and version. For
tests/gate.rs: code that only ran inside imports must not fail the gate across interpreter
upgrades, where the standard library's own code changes."""

import argparse
import asyncio
import dataclasses
import enum
import json
import re
import typing


class Colour(enum.Enum):
    RED = 1
    GREEN = 2


@dataclasses.dataclass
class Point:
    x: int
    y: int


WORD = re.compile(r"\w+")


def step(points: typing.List[Point]) -> int:
    total = 0
    for p in points:
        total += p.x * 3 + p.y
    return total


def main() -> None:
    points = [Point(i, i + 1) for i in range(2000)]
    total = 0
    for _ in range(200):
        total += step(points)
    print(total, Colour.RED.name, len(WORD.findall("a b c")), json.dumps([1]), argparse.SUPPRESS, asyncio.iscoroutinefunction(main))


main()

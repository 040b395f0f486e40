"""specdiff churn check: a site that re-specializes in place, next to one that holds.

`read_mixed` loads `obj.x` from instances of three plain classes in turn: on 3.12+ each 53rd
miss re-specializes LOAD_ATTR_INSTANCE_VALUE for the class at hand, so the site keeps the same
opname while its miss counter cycles (3.11 goes through LOAD_ATTR_ADAPTIVE). `read_one` loads
`obj.x` from one class only: specialized once, it never misses. Both run for SECONDS (0.6).
Usage: python respecialize.py [SECONDS]
"""
import sys
import time


class A:
    def __init__(self):
        self.x = 1


class B:
    def __init__(self):
        self.x = 2


class C:
    def __init__(self):
        self.x = 3


def read_mixed(objs):
    total = 0
    for obj in objs:
        total += obj.x
    return total


def read_one(objs):
    total = 0
    for obj in objs:
        total += obj.x
    return total


def main(seconds):
    mixed = [A(), B(), C()] * 100
    same = [A()] * 300
    total = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        total += read_mixed(mixed) + read_one(same)
    print(total > 0)


main(float(sys.argv[1]) if len(sys.argv) > 1 else 0.6)

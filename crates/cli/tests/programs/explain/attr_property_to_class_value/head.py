"""`set_class` is now a plain class attribute naming a class defined in Python; `collect` still
calls it as `self.set_class(keys)` (marshmallow 3.21: `set_class = OrderedSet`)."""
from collections.abc import MutableSet


class OrderedSet(MutableSet):
    def __init__(self, items=()):
        self._d = dict.fromkeys(items)

    def __contains__(self, x):
        return x in self._d

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def add(self, x):
        self._d[x] = None

    def discard(self, x):
        self._d.pop(x, None)


class Schema:
    ordered = False

    def __init__(self, fields):
        self.fields = fields

    set_class = OrderedSet

    def collect(self):
        return self.set_class(self.fields)


SCHEMAS = [Schema(("a", "b", "c", str(i))) for i in range(50)]


def hot():
    n = 0
    for s in SCHEMAS:
        n += len(s.collect())
    return n


for _ in range(120):
    hot()

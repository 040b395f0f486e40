"""networkx 2.8.8 -> 3.4.2 selfloop_edges (3.12, 3.13): the generator expression iterated
`G.adj.items()` (an AdjacencyView, whose Mapping.items() iterates through a Python generator:
FOR_ITER_GEN) and now iterates `G._adj.items()`, a dict's items iterator, which FOR_ITER does not
specialize. Shows both forms: head's FOR_ITER is generic, yet it does less work (no generator
frame per item): not a regression."""
import dis
from collections.abc import Mapping


class View(Mapping):
    def __init__(self, d):
        self._d = d

    def __getitem__(self, k):
        return self._d[k]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)


adj = {n: {n: 1} if n % 3 == 0 else {} for n in range(50)}


def base():
    return list((n, n) for n, nbrs in View(adj).items() if n in nbrs)


def head():
    return list((n, n) for n, nbrs in adj.items() if n in nbrs)


for _ in range(100):
    base()
    head()
for f in (base, head):
    gen = [c for c in f.__code__.co_consts if hasattr(c, "co_code")][0]
    ops = [i.opname for i in dis.get_instructions(gen, adaptive=True) if i.opname.startswith("FOR_ITER")]
    print(f.__name__, ops)

"""A big application for the browser benchmark's big pair (tests/e2e/bench.mjs --big): writes
MODULES generated modules of FUNCTIONS functions each (classes, loops, attribute loads, calls:
the shapes real code has) into a folder of its own, imports them and runs a little of each, so
that `specdiff dump --include-unrun` keeps tens of thousands of code objects.

    python big_workload.py base|head [MODULES] [FUNCTIONS]

`head` changes one function per module (an int accumulator starts as a float), as a refactor
would.
"""

import importlib
import os
import sys
import tempfile

side = sys.argv[1] if len(sys.argv) > 1 else "base"
modules = int(sys.argv[2]) if len(sys.argv) > 2 else 40
functions = int(sys.argv[3]) if len(sys.argv) > 3 else 500

folder = tempfile.mkdtemp(prefix="specdiff-big-")
sys.path.insert(0, folder)


def module_source(m):
    out = [f'"""Generated module {m}."""', "", "class Item:", "    __slots__ = ('price', 'qty')", "",
           "    def __init__(self, price, qty):", "        self.price = price", "        self.qty = qty", ""]
    for f in range(functions):
        start = "0.0" if (side == "head" and f == 0) else "0"
        out += [
            f"def total_{f}(items, scale):",
            f"    acc = {start}",
            "    for it in items:",
            "        if it.qty > 0:",
            f"            acc += it.price * it.qty + {f}",
            "        else:",
            "            acc -= scale",
            "    return acc",
            "",
            f"class Handler{f}:",
            f"    def run(self, items):",
            f"        return [total_{f}(items, k) for k in range(2)]",
            "",
        ]
    return "\n".join(out)


items = None
grand = 0
for m in range(modules):
    name = f"bigmod_{m}"
    with open(os.path.join(folder, name + ".py"), "w") as fh:
        fh.write(module_source(m))
    mod = importlib.import_module(name)
    if items is None:
        items = [mod.Item(i % 7, i % 3) for i in range(50)]
    for _ in range(20):
        grand += mod.total_0(items, 1) + mod.Handler1().run(items)[0]
print(grand)

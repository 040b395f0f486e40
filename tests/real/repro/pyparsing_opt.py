"""pyparsing Opt.parseImpl (3.12): `self_expr._parse(...)` LOAD_ATTR_METHOD_WITH_VALUES (base) -> generic (head).
Records which receiver types reach the site, and whether 3.12 can specialize a method load on them
(inline values vs a materialized __dict__, probed by a fresh `LOAD_ATTR` site per type).
usage: python3.12 pyparsing_opt.py .tools/real/site/pyparsing-VERSION"""
from pathlib import Path
import sys, runpy, io, contextlib, collections, dis
sys.path.insert(0, sys.argv[1])
import pyparsing.core as core
seen = collections.Counter(); objs = {}
orig = core.Opt.parseImpl
def wrapped(self, instring, loc, do_actions=True):
    seen[type(self.expr).__name__] += 1; objs.setdefault(type(self.expr).__name__, []).append(self.expr)
    return orig(self, instring, loc, do_actions)
core.Opt.parseImpl = wrapped
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(str(Path(__file__).resolve().parents[1] / "workloads" / "pyparsing_work.py"), run_name="__main__")
def probe(o):
    def f(x):
        try: x._parse("", 0)
        except Exception: pass
    for _ in range(4): f(o)
    return [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("LOAD_ATTR")][0]
print(sys.argv[1].rsplit("/",1)[-1], dict(seen))
for t, os_ in objs.items():
    print("  ", t, collections.Counter(probe(o) for o in set(map(id, os_)) and {id(o): o for o in os_}.values()))
o = next(iter(objs["Regex"]))
print("  '_parse' in instance dict:", "_parse" in vars(o), "| class attr _parse:", [k for k in type(o).__mro__ if "_parse" in vars(k)][:2])
# does a brand-new element (fresh instance, inline values) specialize?
fresh = core.Regex(r"x")
def g(x):
    try: x._parse("", 0)
    except Exception: pass
for _ in range(4): g(fresh)
print("  fresh Regex:", [i.opname for i in dis.get_instructions(g, adaptive=True) if i.opname.startswith("LOAD_ATTR")])
print("  attributes per instance (3.12 shared-keys limit is 30):", len(vars(o)), "| DelimitedList:", len(vars(next(iter(objs["DelimitedList"])))))

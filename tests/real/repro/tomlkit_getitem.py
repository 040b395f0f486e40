"""tomlkit Container.__getitem__ (3.12): head's `self.item(key)` method load is generic.
Shows: Container instances have a materialized __dict__ (attribute loads are LOAD_ATTR_WITH_HINT
in both versions), and 3.12 refuses method loads on such instances (SPEC_FAIL ... HAS_MANAGED_DICT):
every `self.<method>` load in Container is generic in BOTH base and head.  Base's __getitem__
inlined the lookup (`self._map.get(key)`), head calls `self.item(key)`: different code, mispaired.
usage: python3.12 tomlkit_getitem.py .tools/real/site/tomlkit-0.11.8|0.13.2"""
from pathlib import Path
import sys, runpy, dis, io, contextlib
sys.path.insert(0, sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(str(Path(__file__).resolve().parents[1] / "workloads" / "tomlkit_work.py"), run_name="__main__")
from tomlkit.container import Container
import collections
c = collections.Counter()
for name, f in vars(Container).items():
    if not callable(f) or not hasattr(f, "__code__"): continue
    ins = list(dis.get_instructions(f, adaptive=True))
    for i, x in enumerate(ins):
        if x.opname.startswith("LOAD_ATTR") and x.argrepr.startswith("NULL|self") and ins[i-1].argrepr == "self":
            c[x.opname] += 1
        if x.opname.startswith("LOAD_ATTR") and x.argrepr == "_map" and ins[i-1].argrepr == "self":
            c["self._map:" + x.opname] += 1
print(sys.argv[1].rsplit("/",1)[-1], dict(c))

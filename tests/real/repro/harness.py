"""Generic helper: run a corpus workload in-process, then print the adaptive
instructions of the named function on the given lines.
usage: python harness.py SITE WORKLOAD module:qualname line[,line...]"""
import sys, runpy, dis, importlib, io, contextlib
site, work, target, lines = sys.argv[1:5]
sys.path.insert(0, site)
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(work, run_name="__main__")
mod, qn = target.split(":")
obj = importlib.import_module(mod)
for p in qn.split("."):
    obj = getattr(obj, p)
obj = getattr(obj, "__func__", obj); obj = getattr(obj, "fget", obj)
want = {int(x) for x in lines.split(",")}
for ins in dis.get_instructions(obj, adaptive=True):
    ln = ins.positions.lineno if ins.positions else None
    if ln in want and not ins.opname.startswith(("CACHE",)):
        print(ln, ins.opname, ins.argrepr)

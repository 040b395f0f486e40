"""lark 1.1.7 -> 1.2.2 (3.12): `set()` became `self.Set()` with Set = OrderedSet (a Python class).
Shows: set() specializes as CALL_BUILTIN_CLASS, calling a Python class stays generic CALL on 3.12
(no CALL_ALLOC_AND_ENTER_INIT before 3.13); on 3.14 it becomes CALL_ALLOC_AND_ENTER_INIT."""
import dis
class OrderedSet:
    def __init__(self, items=()):
        self.d = dict.fromkeys(items)
class P:
    Set = OrderedSet
    def base(self): return set()
    def head(self): return self.Set()
p = P()
for _ in range(200): p.base(); p.head()
for f in (P.base, P.head):
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith(("CALL", "LOAD_ATTR", "LOAD_GLOBAL"))])

"""markdown-it-py 2.2 -> 3.0 and lark 1.1.7 -> 1.2.2 (3.13+, shown on 3.14/3.15): membership tests.
markdown-it-py: `code in {0x09, 0x20}` / `ch not in {0x7C, 0x2D, 0x3A}` (constant frozenset) became
`code in (0x09, 0x20)` / `ch not in ("|", "-", ":")` (constant tuple). lark: `x not in column` where
column was a set became an OrderedSet (a Python class with __contains__).
Shows: CONTAINS_OP specializes only for set/frozenset and dict containers (CONTAINS_OP_SET /
CONTAINS_OP_DICT); a tuple or a Python object with __contains__ leaves it generic CONTAINS_OP."""
import dis
class OrderedSet:
    def __init__(self, items=()): self.d = dict.fromkeys(items)
    def __contains__(self, item): return item in self.d
def base_space(code): return code in {0x09, 0x20}
def head_space(code): return code in (0x09, 0x20)
def base_table(ch): return ch not in {0x7C, 0x2D, 0x3A}
def head_table(ch): return ch not in ("|", "-", ":")
def lark_member(item, column): return item not in column
for i in range(200):
    base_space(i % 40); head_space(i % 40); base_table(i % 128); head_table(chr(i % 128))
s, o = set(range(10)), OrderedSet(range(10))
def lark_base(i): return lark_member(i, s)
for f in (base_space, head_space, base_table, head_table):
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("CONTAINS")])
import types
lark_head = types.FunctionType(lark_member.__code__.replace(), globals(), "lark_head")
lark_base_f = types.FunctionType(lark_member.__code__.replace(co_name="lark_base"), globals(), "lark_base")
for i in range(200): lark_base_f(i, s); lark_head(i, o)
for f in (lark_base_f, lark_head):
    print(f.__name__, "(set)" if f is lark_base_f else "(OrderedSet)", [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("CONTAINS")])

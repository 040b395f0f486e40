"""markdown-it-py 2.2 -> 3.0 (3.13, 3.14): `ch not in {0x7C, 0x2D, 0x3A}` (a set display of ints,
compiled to a frozenset constant) became `ch not in ("|", "-", ":")` (a tuple constant), and
isSpace's `code in {0x09, 0x20}` became `code in (0x09, 0x20)`.
Shows: the set form specializes to CONTAINS_OP_SET; CONTAINS_OP on a tuple has no specialized form
(3.13/3.14 have only CONTAINS_OP_SET and CONTAINS_OP_DICT), so the same membership test stays generic."""
import dis, sys
def base(ch): return ch not in {0x7C, 0x2D, 0x3A}
def head(ch): return ch not in ("|", "-", ":")
for _ in range(200): base(0x2D); head("-")
for f in (base, head):
    print(sys.version.split()[0], f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("CONTAINS_OP")])

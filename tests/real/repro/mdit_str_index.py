"""markdown-it-py 2.2 -> 3.0: `state.srcCharCode[pos]` (tuple of ints) became `state.src[pos]` (str).
Shows: 3.12 specializes tuple[int] (BINARY_SUBSCR_TUPLE_INT) but has no form for str[int] (generic BINARY_SUBSCR);
3.14 specializes both (BINARY_OP_SUBSCR_TUPLE_INT / BINARY_OP_SUBSCR_STR_INT)."""
import dis
src = "hello [world](x)" * 10
codes = tuple(ord(c) for c in src)
def base(pos): return codes[pos]
def head(pos): return src[pos]
for i in range(200): base(i % 100); head(i % 100)
for f in (base, head):
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if "SUBSCR" in i.opname or i.opname.startswith("BINARY_OP")])

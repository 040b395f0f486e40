"""idna 3.4 -> 3.10 decode (3.12): `s.decode('ascii')` became `str(s, "ascii")`.
Shows: on 3.12 the bytes.decode method call specializes (CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS),
str(b, 'ascii') stays generic CALL (only 1-arg str() has CALL_NO_KW_STR_1; str has no vectorcall in 3.12)."""
import dis
def base(s): return s.decode('ascii')
def head(s): return str(s, "ascii")
for _ in range(200): base(b"xn--abc"); head(b"xn--abc")
for f in (base, head):
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith(("CALL", "LOAD_ATTR", "LOAD_GLOBAL"))])

"""pyparsing 3.1.4 -> 3.2.3: ParseResults.as_list gained a keyword-only parameter (`*, flatten=False`).
Shows: on 3.12 `t.as_list()` is CALL_PY_EXACT_ARGS for the base signature and stays generic CALL for the
head one (kw-only params = 'complex parameters', no specialization); 3.14 uses CALL_PY_GENERAL."""
import dis
class B:
    def as_list(self): return []
class H:
    def as_list(self, *, flatten=False): return []
def call(t): return t.as_list()
def callh(t): return t.as_list()
for _ in range(200): call(B()); callh(H())
for f in (call, callh):
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith(("CALL", "LOAD_ATTR"))])

"""packaging 22.0 -> 24.2 (3.12): `canonicalize_name(name)` became `canonicalize_name(name, *,
validate=False)`. The call sites (`canonicalize_name(v)`) are unchanged. Shows: on 3.12 a call of
a Python function with a keyword-only parameter is never specialized (CALL_PY_EXACT_ARGS /
CALL_PY_WITH_DEFAULTS refuse code with kw-only args), so the same call stays generic CALL."""
import dis, re
_re = re.compile(r"[-_.]+")
def base_canonicalize_name(name):
    return _re.sub("-", name).lower()
def head_canonicalize_name(name, *, validate=False):
    return _re.sub("-", name).lower()
def call_base(v): return base_canonicalize_name(v)
def call_head(v): return head_canonicalize_name(v)
for _ in range(200): call_base("Foo_Bar"); call_head("Foo_Bar")
for f in (call_base, call_head):
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("CALL")])

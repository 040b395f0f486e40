"""tomlkit Integer.__new__ (3.12): `super().__new__(cls, v)` became `int.__new__(cls, v)`.
Shows: LOAD_SUPER_ATTR_METHOD in base; in head the load is `int.__new__` on a class object (no super()
proxy at all), generic because `__new__` is also found on the metaclass `type`
(3.12 specialize_class_load_attr: SPEC_FAIL_ATTR_METACLASS_ATTRIBUTE)."""
import dis
class IB(int):
    def __new__(cls, value, raw): return super().__new__(cls, value)
class IH(int):
    def __new__(cls, value, raw): return int.__new__(cls, value)
for _ in range(200): IB(1, "1"); IH(1, "1")
for f in (IB.__new__, IH.__new__):
    print(f.__qualname__, [i.opname + " " + i.argrepr for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith(("CALL", "LOAD_ATTR", "LOAD_SUPER", "LOAD_GLOBAL"))])

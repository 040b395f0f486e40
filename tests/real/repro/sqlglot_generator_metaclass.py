"""sqlglot 20.11 -> 25.34 (3.14, 3.15): `Generator` gained a Python metaclass (`class
Generator(metaclass=_Generator)`). Loads whose *value* is such a class - `self.generator_class`
(Dialect.generator), `Hive.Generator` (Spark2.Generator.cast_sql), `klass.generator_class`
(_Dialect.__new__) - are class attributes holding an instance of a mutable (Python) class, which
CPython classifies as MUTABLE and will not cache. Shows: the same load specializes
(LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES / LOAD_ATTR_CLASS_WITH_METACLASS_CHECK) when the value is a
plain class and stays generic LOAD_ATTR when the value's class has a Python metaclass."""
import dis

def run(value_metaclass):
    class _Dialect(type): pass
    G = value_metaclass("Generator", (), {})
    class Dialect(metaclass=_Dialect):
        generator_class = G
        Generator = G
        def generator(self): return self.generator_class
    class Hive(Dialect): pass
    def cast_sql(): return Hive.Generator
    d = Hive()
    for _ in range(100): d.generator(); cast_sql()
    ops = lambda f: [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("LOAD_ATTR")]
    return ops(Dialect.generator), ops(cast_sql)

class _Generator(type): pass
print("base, Generator is a plain class:        ", run(type))
print("head, Generator(metaclass=_Generator):    ", run(_Generator))

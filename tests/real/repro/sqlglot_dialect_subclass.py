"""sqlglot 20.11 -> 25.34 (3.13 only): `self.FACTOR`-style class-attribute loads in Parser/Tokenizer/
Generator methods go from LOAD_ATTR_NONDESCRIPTOR_NO_DICT to generic LOAD_ATTR.
Cause: sqlglot 25's _Dialect metaclass now gives every dialect, the default one included, its own
`type("Parser", (Parser,), {})` subclass (likewise Tokenizer, Generator); the base classes have
__slots__, the subclasses do not, so their instances have a managed __dict__.  In 20.11 the default
dialect used the slotted base class itself (no dict -> NONDESCRIPTOR_NO_DICT).
Shows: 3.12 never specializes a plain (non-method) class-attribute load (generic both);
3.13 gives a subclass of a slotted class a managed dict but no inline values, and its
specialize_attr_loadclassattr refuses non-method class-attribute loads on such instances
(SPEC_FAIL_ATTR_CLASS_ATTR_SIMPLE) -> LOAD_ATTR; 3.14 gives such subclasses inline values
-> LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES (a `changed` site, not a loss)."""
import dis, sys
class Parser:                       # like sqlglot.parser.Parser: __slots__, class-level tables
    __slots__ = ("_index",)
    FACTOR = {1: "Mul", 2: "Div"}
    def parse_factor(self):
        return self.FACTOR
DialectParser = type("Parser", (Parser,), {})   # what sqlglot 25's _Dialect.__new__ builds

def base(p): return p.FACTOR     # 20.11: default dialect parses with Parser itself
def head(p): return p.FACTOR     # 25.34: it parses with the generated subclass
b, h = Parser(), DialectParser()
for _ in range(200): base(b); head(h)
f = type(h).__flags__
print(sys.version.split()[0], "subclass managed_dict", bool(f & 1 << 4),
      "inline_values", bool(f & 1 << 2) if sys.version_info >= (3, 13) else "n/a")
for fn in (base, head):
    print("  ", fn.__name__, [i.opname for i in dis.get_instructions(fn, adaptive=True) if i.opname.startswith("LOAD_ATTR")])

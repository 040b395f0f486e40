"""sqlglot 20.11 -> 25.34 on the real library (3.13): why the Parser/Tokenizer/Generator class-attribute
loads (`self.FACTOR`, `self.KEYWORDS`, `self.SENTINEL_LINE_BREAK`, ...) and `Dialect.generator`'s
`self.generator_class` are generic in head.
usage: python3.13 sqlglot_default_dialect.py /work/main/.tools/real/site/sqlglot-VERSION [WORKLOAD]
Prints (1) the layout of the default dialect's parser/tokenizer/generator classes: in 20.11 they are
the slotted base classes themselves (no __dict__), in 25.34 per-dialect subclasses made by
`type("Parser", (Parser,), {})` in _Dialect.__new__ (managed __dict__, no inline values on 3.13);
(2) type(Dialect.generator_class): `type` in 20.11, the Python metaclass `_Generator` in 25.34
(not Py_TPFLAGS_IMMUTABLETYPE -> analyze_descriptor says MUTABLE);
(3) the sites after the workload and after 300 more default-dialect parses: in 20.11 even the
backed-off sites (NO_PAREN_FUNCTION_PARSERS, _scan_var KEYWORDS, _advance WHITE_SPACE; generic at
dump time because MySQL/DuckDB... dialect parsers with a __dict__ also reach them) re-specialize to
LOAD_ATTR_NONDESCRIPTOR_NO_DICT on default-dialect receivers; in 25.34 nothing can specialize."""
import sys, dis, runpy, io, contextlib
site = sys.argv[1]
work = sys.argv[2] if len(sys.argv) > 2 else "/work/main/tests/real/workloads/sqlglot_work.py"
sys.path.insert(0, site)
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(work, run_name="__main__")
import sqlglot
from sqlglot.parser import Parser
from sqlglot.tokens import Tokenizer
from sqlglot.generator import Generator
from sqlglot.dialects.dialect import Dialect
d = Dialect.get_or_raise(None)
for c in (d.parser_class, d.tokenizer_class, d.generator_class):
    f = c.__flags__
    print(f"{c.__qualname__} is base class: {c in (Parser, Tokenizer, Generator)}, has __dict__: {c.__dictoffset__ != 0},"
          f" inline values: {bool(f & 1 << 2)}")
mc = type(d.generator_class)
print("type(generator_class):", mc.__name__, "immutable:", bool(mc.__flags__ & 1 << 8))
SITES = ((Parser._parse_function_call, "NO_PAREN_FUNCTION_PARSERS"), (Parser._parse_function_call, "FUNCTIONS"),
         (Parser._parse_factor, "FACTOR"), (Tokenizer._scan_var, "KEYWORDS"), (Tokenizer._advance, "WHITE_SPACE"),
         (Generator.generate, "SENTINEL_LINE_BREAK"), (Dialect.generator, "generator_class"))
def show(tag):
    print(tag)
    for f, name in SITES:
        print("   ", f.__qualname__, name, [i.opname for i in dis.get_instructions(f, adaptive=True)
                                         if i.opname.startswith("LOAD_ATTR") and i.argval == name])
show("after the workload:")
for _ in range(300):
    sqlglot.transpile("SELECT COALESCE(UPPER(a), CURRENT_DATE) * 2 FROM t WHERE b = 'x'")
show("after 300 more default-dialect transpiles:")

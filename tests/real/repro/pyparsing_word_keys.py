"""pyparsing 3.1.4 -> 3.2.3 (3.12, 3.13): Word.__init__'s `self.asKeyword = asKeyword` and
QuotedString.__init__'s `self.esc_quote = ...` lose STORE_ATTR_INSTANCE_VALUE.
Cause: pyparsing 3.2's ParserElement.__init__ sets one more instance attribute, so these attributes
move from the 29th to the 30th key of the instance (index 28 -> 29); CPython 3.12/3.13 shared-keys
tables hold at most 29 keys here (the synthetic class below shows the 30th store is generic), so the
store falls out of the inline values and cannot be specialized.
usage: python3.13 pyparsing_word_keys.py /work/main/.tools/real/site/pyparsing-VERSION"""
import sys, dis
sys.path.insert(0, sys.argv[1])
import pyparsing.core as core
w = core.Word("abc", "def"); q = core.QuotedString('"', esc_char="\\")
print(sys.argv[1].rsplit("/", 1)[-1], "Word: asKeyword is key", list(vars(w)).index("asKeyword"),
      "| QuotedString: esc_quote is key", list(vars(q)).index("esc_quote"))
for _ in range(50): core.Word("abc", "def"); core.QuotedString('"', esc_char="\\")
for f, n in ((core.Word.__init__, "asKeyword"), (core.QuotedString.__init__, "esc_quote")):
    print("  ", f.__qualname__, n, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("STORE_ATTR") and i.argval == n])
src = "class C:\n    def __init__(self):\n" + "".join(f"        self.a{i} = {i}\n" for i in range(31))
ns = {}; exec(src, ns)
for _ in range(50): ns["C"]()
ops = [i.opname for i in dis.get_instructions(ns["C"].__init__, adaptive=True) if i.opname.startswith("STORE_ATTR")]
print("   synthetic class, stores at key index 28/29/30:", ops[28:31])

"""markdown 3.3.7 -> 3.7 (3.15): InlineProcessor.__init__'s four `self.x = ...` stores.
The workload's calls are the same in both versions for the first 33 constructions (16
processor classes built once each, HtmlInlineProcessor twice, 16 smarty SubstituteTextPattern);
base then builds 48 AbbrInlineProcessor (the 3.3 abbr extension made one inline pattern per
abbreviation), head's abbr extension no longer does. Shows on 3.15: after the 33 shared calls
the stores are still generic STORE_ATTR (first instances of new subclasses: the attribute is
not yet in the class's shared keys, attempts fail and back off); only the run of Abbr
instances that head no longer makes specializes them to STORE_ATTR_INSTANCE_VALUE.
So head does less work at an init-time site, not the same work less specialized."""
import dis, re

class Pattern: pass
class InlineProcessor(Pattern):
    def __init__(self, pattern, md=None):
        self.pattern = pattern
        self.compiled_re = re.compile(pattern)
        self.safe_mode = False
        self.md = md

def stores():
    return [i.opname for i in dis.get_instructions(InlineProcessor.__init__, adaptive=True)
            if i.opname.startswith("STORE_ATTR")][0]

one_each = [type(f"P{i}", (InlineProcessor,), {}) for i in range(17)]
Smarty = type("SubstituteTextPattern", (InlineProcessor,), {})
Abbr = type("AbbrInlineProcessor", (InlineProcessor,), {})
head_calls = one_each + [Smarty] * 16
for c in head_calls: c("x")
print(f"after the {len(head_calls)} calls both versions make (end of head): {stores()}")
for k in range(48):
    Abbr("x")
    if k in (3, 4, 47):
        print(f"after base-only AbbrInlineProcessor #{k + 1}: {stores()}")

"""A program that names its code hostilely, for tests/hostile_text.rs: a module, file, qualname
and source line carrying escape sequences, CR/LF, BEL and a right-to-left override.

`mono`: an attribute-load site in the hostile function sees one class with slots; `poly`: it
sees nine classes, so its specialization changes. `raise`: the program fails with the hostile
text as its exception message. The hostile module is written to the folder given second. A
third argument `markup` puts HTML that would run script if a page inserted it as markup in
front of the text (for the page's hostile-link check in tests/e2e/links.mjs).
"""

import importlib.util
import os
import sys
import tempfile

EVIL = "\x1b[2J\x1b]0;pwned\x07\rFAKE\nspecdiff: regression gate passed\x07\u202etxt.exe"
mode = sys.argv[1]
if sys.argv[3:4] == ["markup"]:
    # No "/": the text is part of a file name too.
    EVIL = '<img src=x onerror="window.__pwned=1"><svg onload="window.__pwned=2">' + EVIL
if mode == "raise":
    raise ValueError(EVIL)

# The file name keeps everything but the line break (and `/`), the source line everything but
# CR and LF (Python would end the line there).
folder = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
path = os.path.join(folder, "evil" + EVIL.replace("\n", "_") + ".py")
with open(path, "w") as f:
    f.write(
        "class P:\n"
        "    __slots__ = ('x',)\n"
        "    def __init__(self, x): self.x = x\n"
        "def total(ps):\n"
        "    s = 0\n"
        "    for p in ps:\n"
        "        s += p.x  # " + EVIL.replace("\n", " ").replace("\r", " ") + "\n"
        "    return s\n"
    )
spec = importlib.util.spec_from_file_location("evil" + EVIL, path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
mod.total.__code__ = mod.total.__code__.replace(co_qualname="total" + EVIL)

classes = [mod.P]
if mode == "poly":
    classes += [type("C%d" % i, (), {"__init__": mod.P.__init__}) for i in range(8)]
ps = [classes[i % len(classes)](i) for i in range(400)]
for _ in range(300):
    mod.total(ps)

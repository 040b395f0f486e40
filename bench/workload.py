"""A whole-program workload for specdiff's benchmarks: imports a large slice of the standard
library (thousands of code objects, like a real application's dependencies) and runs a small
mixed workload so that many of them warm up and specialize.

Usage: python workload.py [ROUNDS] [--variant head]
The "head" variant makes the same calls with a few specialization-hostile changes, so two dumps
of this program make a realistic whole-program diff.
"""

import importlib
import sys

MODULES = """
abc argparse ast asyncio base64 bisect calendar collections colorsys configparser contextlib
copy csv dataclasses datetime decimal difflib dis email email.mime.text email.parser enum
fnmatch fractions functools getopt gettext glob gzip hashlib heapq hmac html html.parser
http.client http.cookies http.server inspect io ipaddress itertools json locale logging
lzma mimetypes numbers operator optparse os pathlib pickle pkgutil platform plistlib pprint
queue quopri random re reprlib sched secrets selectors shlex shutil signal socket
socketserver statistics string stringprep struct subprocess tarfile tempfile textwrap
threading timeit tokenize tomllib trace traceback types typing unittest unittest.mock
urllib.parse urllib.request uuid warnings weakref xml.dom.minidom xml.etree.ElementTree
zipfile zoneinfo
""".split()


def load_modules():
    loaded = []
    for name in MODULES:
        try:
            loaded.append(importlib.import_module(name))
        except ImportError:
            pass  # e.g. a module missing from a minimal build; the rest still count
    return loaded


class Record:
    __slots__ = ("name", "score", "tags")

    def __init__(self, name, score, tags):
        self.name = name
        self.score = score
        self.tags = tags


def workload(rounds, variant):
    import dataclasses
    import decimal
    import fractions
    import json
    import re
    import statistics
    import textwrap

    @dataclasses.dataclass
    class Item:
        key: str
        value: float

    pattern = re.compile(r"(\w+)=(\d+)")
    total = 0
    for r in range(rounds):
        records = [Record(f"r{i}", i % 17, ("a", "b")) for i in range(300)]
        if variant == "head":
            scores = [getattr(rec, "score") for rec in records]
        else:
            scores = [rec.score for rec in records]
        total += sum(scores)
        doc = json.dumps({"items": [dataclasses.asdict(Item(f"k{i}", i * 0.5)) for i in range(100)]})
        total += len(json.loads(doc)["items"])
        total += sum(int(m.group(2)) for m in pattern.finditer("a=1 b=22 c=333 " * 20))
        total += int(statistics.mean(scores))
        total += len(textwrap.wrap("specdiff " * 50, 30))
        d = decimal.Decimal(r) / decimal.Decimal(7)
        f = fractions.Fraction(r + 1, 3)
        total += int(d) + int(f)
    return total


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 20
    variant = "head" if "--variant" in sys.argv and sys.argv[-1] == "head" else "base"
    modules = load_modules()
    result = workload(rounds, variant)
    print(f"{len(modules)} modules, result {result}")


if __name__ == "__main__":
    main()

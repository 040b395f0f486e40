"""Benchmark workload for the viewer: imports a large part of the standard library and runs a
little of it, so a whole-program dump has several thousand code objects.

    python bench_workload.py [variant]     variant "head" changes a few hot paths
"""

import importlib
import sys

MODULES = """
abc argparse ast base64 bisect calendar collections colorsys configparser contextlib copy csv
dataclasses datetime decimal difflib dis enum fnmatch fractions functools getopt gettext glob gzip
hashlib heapq hmac html html.parser http.client inspect io ipaddress itertools json logging lzma
mimetypes numbers operator optparse pathlib pickle pkgutil platform pprint queue quopri random re
reprlib sched secrets selectors shlex shutil socket statistics string struct subprocess sysconfig
tarfile tempfile textwrap threading timeit tokenize traceback typing urllib.parse uuid warnings
weakref zipfile zoneinfo tomllib graphlib email email.parser unittest
unittest.mock xml.etree.ElementTree
""".split()


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


def norm1(vs, key):
    total = 0
    for v in vs:
        if VARIANT == "head":
            total += getattr(v, key) + v.y
        else:
            total += v.x + v.y
    return total


def exercise():
    import json, re, textwrap, statistics, fractions, decimal, difflib, ipaddress, pathlib
    data = {"k%d" % i: [i, str(i), {"n": i * 1.5}] for i in range(300)}
    for _ in range(20):
        json.loads(json.dumps(data))
    text = " ".join("word%d" % i for i in range(2000))
    for _ in range(10):
        textwrap.wrap(text, 60)
        re.findall(r"word(\d+)", text)
    statistics.mean([fractions.Fraction(i, 7) for i in range(200)])
    sum(decimal.Decimal(i) / 3 for i in range(500))
    list(difflib.unified_diff(text.split()[:300], text.split()[50:350]))
    [ipaddress.ip_address("10.0.%d.%d" % (i // 256, i % 256)) for i in range(500)]
    [pathlib.PurePosixPath("/a/b/%d/c.txt" % i).suffix for i in range(1000)]
    vs = [Vec(i, -i) for i in range(3000)]
    for _ in range(60):
        norm1(vs, "x")


VARIANT = sys.argv[1] if len(sys.argv) > 1 else "base"
for name in MODULES:
    try:
        importlib.import_module(name)
    except Exception:
        pass
exercise()

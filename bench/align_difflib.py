"""Benchmark baseline: the core of `specdiff diff` written the obvious way in Python.

    python3 bench/align_difflib.py [--timings] BASE.json HEAD.json [-o OUT.json]

Reads two specdiff dumps (plain or gzip JSON), matches code objects by (module, qualname) —
same-named ones in order —, aligns each pair's instructions with difflib.SequenceMatcher on a
normalized key (instruction family + argrepr, so LOAD_ATTR_SLOT and LOAD_ATTR compare equal),
and classifies every aligned pair of specialization sites as lost (specialized in base,
generic in head) or gained (the reverse). It writes a JSON summary (stdout, or -o OUT).

--timings prints how long loading and comparing took to stderr.

It does less than specdiff (no counters, churn, explanations, ranking or rows), so timing it
against `specdiff diff --format json` (bench/diff_bench.sh) flatters Python, if anything.
"""

import difflib
import gzip
import json
import sys
import time


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


def by_identity(dump):
    """(module, qualname) -> [code objects], in dump order."""
    strings = dump["strings"]
    groups = {}
    for code in dump["code"]:
        module = strings[code["module"]] or dump["files"][code["file"]]["path"]
        groups.setdefault((module, strings[code["qualname"]]), []).append(code)
    return groups


def keys(dump, code):
    """The normalized key of every instruction: (family, argrepr)."""
    strings, ops = dump["strings"], dump["ops"]
    return [(ops[ins[1]][1], strings[ins[3]]) for ins in code["instructions"]]


def is_site(dump, ins):
    """A specialization site: its op has an adaptive counter."""
    return dump["ops"][ins[1]][3] == "adaptive"


def compare(base, bcode, head, hcode):
    """(lost, gained) sites of one matched pair, as (family, base op, head op, line) tuples."""
    bkeys, hkeys = keys(base, bcode), keys(head, hcode)
    matcher = difflib.SequenceMatcher(None, bkeys, hkeys, autojunk=False)
    lost, gained = [], []
    bins, hins = bcode["instructions"], hcode["instructions"]
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal" and not (tag == "replace" and i2 - i1 == j2 - j1):
            continue
        for a, b in zip(range(i1, i2), range(j1, j2)):
            ib, ih = bins[a], hins[b]
            if bkeys[a][0] != hkeys[b][0] or not (is_site(base, ib) and is_site(head, ih)):
                continue
            sb, sh = base["ops"][ib[1]][2], head["ops"][ih[1]][2]
            if sb != sh:
                entry = (bkeys[a][0], base["ops"][ib[1]][0], head["ops"][ih[1]][0], ih[4])
                (lost if sb else gained).append(entry)
    return lost, gained


def main(argv):
    timings = "--timings" in argv
    args = [a for a in argv if a not in ("-o", "--timings")]
    out = argv[argv.index("-o") + 1] if "-o" in argv else None
    if out:
        args.remove(out)
    if len(args) != 2:
        sys.exit(__doc__)
    t0 = time.perf_counter()
    base, head = load(args[0]), load(args[1])
    t1 = time.perf_counter()
    bgroups, hgroups = by_identity(base), by_identity(head)
    functions, matched, total_lost, total_gained = [], 0, 0, 0
    for ident, bcodes in bgroups.items():
        for bcode, hcode in zip(bcodes, hgroups.get(ident, [])):
            matched += 1
            lost, gained = compare(base, bcode, head, hcode)
            if lost or gained:
                total_lost += len(lost)
                total_gained += len(gained)
                functions.append({"module": ident[0], "qualname": ident[1], "lost": lost, "gained": gained})
    functions.sort(key=lambda f: (-len(f["lost"]), f["module"], f["qualname"]))
    t2 = time.perf_counter()
    report = {"matched": matched, "lost": total_lost, "gained": total_gained, "functions": functions}
    text = json.dumps(report, indent=2)
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        print(text)
    print(f"{matched} matched code objects, {total_lost} lost, {total_gained} gained sites", file=sys.stderr)
    if timings:
        print(f"timings: load {(t1 - t0) * 1000:.0f} ms, match + align + classify {(t2 - t1) * 1000:.0f} ms", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])

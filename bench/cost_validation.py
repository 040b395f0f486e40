#!/usr/bin/env python3
"""Issue 36: `specdiff diff --cost` against measured time, on bench/cost_validation's pairs.

    bench/cost_validation.py --python 3.14=PATH [--python 3.12=PATH ...] [--specdiff BIN]
        [--runs 7] [--only NAME ...] [--out FILE.json] [--dumps DIR]
    bench/cost_validation.py --python 3.14=PATH --measured EARLIER.json   (estimate again only)
    bench/cost_validation.py --report EARLIER.json                       (print its tables again)

Each program there is one pair: `PROGRAM.py base` and `PROGRAM.py head` run the same code on
data (or a class) that differs by one change losing one specialization in the hot loop
(`control_*`: no change at all; `multi_*`: one change per function, of different weight).
For each pair and interpreter:

- estimate: dump both sides once with `specdiff dump` (sampled, the default), then
  `specdiff diff --cost --json` with the cost model committed for the version
  (crates/core/cost-models/3.X.json, so a calibration cached on the machine does not change
  the figures) and read `view.cost`: the total, and each function's share for `multi_*`;
- measure: `--runs` interleaved rounds (which side goes first alternates), after one warm-up
  round; each program prints its hot phases' CPU times (`_harness.py`), the runner takes the
  child's whole CPU time (start-up included) from `getrusage`. A round's difference is
  (head's phases − base's) / head's whole CPU time, in %: the share of head's run the change
  costs, which is what the estimate estimates. Reported: the median over rounds, the p10–p90
  of the rounds, and a bootstrap 95 % interval of the median.

Agreement, per single-change pair: the estimate is within ±50 % of the measured median, or
both are below the noise floor (on that interpreter, the largest of the controls' |median| +
2 × the bootstrap standard deviation of their median: the machine is shared, and single rounds
of a control differ by up to ±20 %). Ranking, per multi-change pair: the functions in the order of their
estimates against the order of their measured differences (pairs of functions in the same
order, out of all pairs). Standard library only; prints a table, writes everything to --out.
"""

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIRS_DIR = os.path.join(ROOT, "bench", "cost_validation")
MODELS_DIR = os.path.join(ROOT, "crates", "core", "cost-models")


def pair_names(only):
    names = sorted(f[:-3] for f in os.listdir(PAIRS_DIR) if f.endswith(".py") and not f.startswith("_"))
    return [n for n in names if not only or n in only]


def kind(name):
    return "control" if name.startswith("control_") else "multi" if name.startswith("multi_") else "single"


def version_of(python):
    out = subprocess.run([python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def estimate(specdiff, python, version, name, workdir, models=MODELS_DIR):
    """`view.cost` of `specdiff diff --cost --json` on one dump of each side, cut down."""
    program = os.path.join(PAIRS_DIR, name + ".py")
    dumps = []
    for side in ("base", "head"):
        out = os.path.join(workdir, f"{name}-{version}-{side}.json")
        subprocess.run([specdiff, "dump", "--python", python, "--force", "-o", out, program, side],
                       check=True, capture_output=True, cwd=PAIRS_DIR)
        dumps.append(out)
    cmd = [specdiff, "diff", *dumps, "--cost", "--json"]
    model = os.path.join(models, ".".join(version.split(".")[:2]) + ".json")
    if os.path.exists(model):
        cmd += ["--cost-model", model]
    report = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    cost = report["view"]["cost"]
    sites = [
        {"function": f"{f['module']}.{f['qualname']}", "kind": s.get("kind"), "base": s["base"], "head": s["head"], "line": s["line"],
         "cost": s["cost"].get("share") or s["cost"].get("why")}
        for f in cost["functions"] if not f["import_time"] for s in f["sites"]
    ]
    functions = {f"{f['module']}.{f['qualname']}": f["share"] for f in cost["functions"] if not f["import_time"] and f["sites"]}
    return {"total": cost["total"], "not_estimated": cost["not_estimated"], "functions": functions,
            "sites": sites, "samples": report["head"].get("samples")}


def run_once(python, name, side):
    """The program's phases (CPU s) and the child's whole CPU time (s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([python, "-E", "-s", "-B", name + ".py", side], check=True, capture_output=True,
                         text=True, cwd=PAIRS_DIR).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = next(l for l in out.splitlines() if l.startswith("phases "))
    return json.loads(line[len("phases "):]), cpu


def summary(values, seed=36):
    """Median, p10, p90 and a bootstrap 95 % interval of the median."""
    ordered = sorted(values)
    deciles = statistics.quantiles(ordered, n=10, method="inclusive")
    rng = random.Random(seed)
    boot = sorted(statistics.median(rng.choices(ordered, k=len(ordered))) for _ in range(2000))
    return {"median": statistics.median(ordered), "p10": deciles[0], "p90": deciles[-1],
            "ci_low": boot[49], "ci_high": boot[1949], "boot_sd": statistics.stdev(boot), "rounds": values}


def measure(python, name, runs):
    run_once(python, name, "base"), run_once(python, name, "head")  # warm-up, not counted
    total, phases, head_cpu = [], {}, []
    for i in range(runs):
        order = ("base", "head") if i % 2 == 0 else ("head", "base")
        got = {side: run_once(python, name, side) for side in order}
        (b_phases, _), (h_phases, h_cpu) = got["base"], got["head"]
        head_cpu.append(h_cpu)
        total.append(100.0 * (sum(h_phases.values()) - sum(b_phases.values())) / h_cpu)
        for p in b_phases:
            phases.setdefault(p, []).append(100.0 * (h_phases[p] - b_phases[p]) / h_cpu)
    return {"total": summary(total), "phases": {p: summary(v) for p, v in phases.items()},
            "head_cpu_s": statistics.median(head_cpu)}


def agrees(est, meas, noise):
    if abs(est) < noise and abs(meas) < noise:
        return "both below noise"
    return "yes" if abs(est - meas) <= 0.5 * abs(meas) else "no"


def concordance(estimated, measured):
    """Pairs of functions the two orders agree on, out of all pairs."""
    names = [n for n in measured if n in estimated]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    same = sum((estimated[a] - estimated[b]) * (measured[a] - measured[b]) > 0 for a, b in pairs)
    return same, len(pairs)


def fmt(share):
    return f"{share['percent']:.1f} ({share['low']:.1f}–{share['high']:.1f})"


def fmt_meas(s):
    return f"{s['median']:+.1f} ({s['ci_low']:+.1f}…{s['ci_high']:+.1f}) | {s['p10']:+.1f}…{s['p90']:+.1f}"


def lost(sites, function=None):
    """The forms the estimate priced, `UNPACK_SEQUENCE_TWO_TUPLE`, `… (missing)` or `… (churning)`."""
    def form(s):
        kind = s.get("kind") or ("missing" if s["base"] == s["head"] else "lost")
        return s["base"] + ("" if kind == "lost" else f" ({kind})")
    forms = sorted({form(s) for s in sites
                    if function in (None, s["function"]) and s["base"]})
    return ", ".join(forms) or "none reported"


def report(label, results):
    """Prints the table (markdown), fills each pair's `agree` and `ranking`; returns the figures."""
    controls = [r for r in results if r["kind"] == "control"]
    noise = max((abs(r["measured"]["total"]["median"]) + 2 * r["measured"]["total"]["boot_sd"] for r in controls),
                default=0.0)
    print(f"\n### {label}: noise floor {noise:.1f} % (controls' |median| + 2 bootstrap SD)\n")
    print("| pair | lost in head | estimate % (interval) | measured % (95 % CI) | p10…p90 | in interval | agrees |")
    print("|---|---|---:|---:|---:|---|---|")
    singles = agree = inside = 0
    for r in results:
        est, meas = r["estimate"]["total"], r["measured"]["total"]
        verdict = agrees(est["percent"], meas["median"], noise)
        if r["estimate"]["not_estimated"]:
            verdict += f" ({r['estimate']['not_estimated']} not estimated)"
        r["agree"] = verdict
        if r["kind"] == "single":
            singles += 1
            agree += verdict.startswith(("yes", "both"))
        within = "–" if r["kind"] == "control" else "yes" if est["low"] <= meas["median"] <= est["high"] else "no"
        inside += r["kind"] == "single" and within == "yes"
        print(f"| {r['pair']} | {lost(r['estimate']['sites'])} | {fmt(est)} | {fmt_meas(meas)} | {within} | {verdict} |")
        if r["kind"] == "multi":
            estimated = {f: s["percent"] for f, s in r["estimate"]["functions"].items()}
            measured = {p: s["median"] for p, s in r["measured"]["phases"].items()}
            for p in measured:
                e = r["estimate"]["functions"].get(p)
                print(f"| ↳ `{p}` | {lost(r['estimate']['sites'], p)} | {fmt(e) if e else '–'} "
                      f"| {fmt_meas(r['measured']['phases'][p])} | | |")
            r["ranking"] = concordance(estimated, measured)
    print(f"\nsingle-change pairs agreeing: {agree} of {singles}; measured inside the estimate's interval: {inside} of {singles}")
    for r in results:
        if "ranking" in r:
            print(f"ranking, {r['pair']}: {r['ranking'][0]} of {r['ranking'][1]} pairs of functions in the measured order")
    return {"noise": noise, "single_agree": agree, "single_inside": inside, "singles": singles}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", action="append", default=[], metavar="LABEL=PATH")
    ap.add_argument("--specdiff", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                                                       "release", "specdiff"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", action="append", default=[], metavar="NAME")
    ap.add_argument("--out", default="cost_validation.json")
    ap.add_argument("--report", metavar="FILE.json", help="print the tables of an --out file again, measuring nothing")
    ap.add_argument("--measured", metavar="FILE.json",
                    help="take the measured side from an --out file (same labels): estimate again, time nothing")
    ap.add_argument("--dumps", metavar="DIR", help="keep the dumps there (default: a temporary directory)")
    ap.add_argument("--models", metavar="DIR", default=MODELS_DIR,
                    help="cost models as DIR/3.X.json (`specdiff calibrate -o`); default: the committed ones")
    args = ap.parse_args()
    if args.report:
        with open(args.report) as f:
            for label, got in json.load(f).items():
                report(f"CPython {got['python']} ({label}), {got['runs']} rounds", got["pairs"])
        return
    earlier = {}
    if args.measured:
        with open(args.measured) as f:
            earlier = {label: {r["pair"]: r["measured"] for r in got["pairs"]} | {"": got["runs"]}
                       for label, got in json.load(f).items()}
    everything = {}
    with tempfile.TemporaryDirectory(prefix="cost-validation-") as tmp:
        workdir = args.dumps or tmp
        os.makedirs(workdir, exist_ok=True)
        for spec in args.python:
            label, python = spec.split("=", 1)
            version = version_of(python)
            runs = earlier[label][""] if args.measured else args.runs
            results = []
            for name in pair_names(args.only):
                print(f"{label}: {name}", file=sys.stderr, flush=True)
                results.append({"pair": name, "kind": kind(name),
                                "estimate": estimate(args.specdiff, python, version, name, workdir, args.models),
                                "measured": earlier[label][name] if args.measured else measure(python, name, runs)})
            figures = report(f"CPython {version} ({label}), {runs} rounds", results)
            everything[label] = {"python": version, "runs": runs, **figures, "pairs": results}
    with open(args.out, "w") as f:
        json.dump(everything, f, indent=1)


if __name__ == "__main__":
    main()

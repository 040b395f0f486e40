"""Stdlib-heavy log processing: re, json, csv, collections, datetime, string formatting."""
import collections
import csv
import datetime
import io
import json
import random
import re

LINE = re.compile(r"(?P<ts>\d+) (?P<level>[A-Z]+) (?P<svc>[a-z]+): (?P<msg>.*) took=(?P<ms>\d+)ms")
LEVELS = ["INFO", "WARN", "ERROR", "DEBUG"]
SERVICES = ["auth", "db", "cache", "api", "queue"]


def make_lines(rng, n):
    base = 1_700_000_000
    for i in range(n):
        yield "%d %s %s: request %d user=%s took=%dms" % (
            base + i, rng.choice(LEVELS), rng.choice(SERVICES), i, rng.randrange(500), rng.randrange(1, 900))


def parse(lines):
    for line in lines:
        m = LINE.match(line)
        if m:
            yield m.groupdict()


def summarize(records):
    by_svc = collections.defaultdict(list)
    levels = collections.Counter()
    for r in records:
        by_svc[r["svc"]].append(int(r["ms"]))
        levels[r["level"]] += 1
    out = {}
    for svc, times in sorted(by_svc.items()):
        times.sort()
        out[svc] = {"n": len(times), "p50": times[len(times) // 2], "p99": times[int(len(times) * 0.99)],
                    "mean": round(sum(times) / len(times), 2)}
    return out, levels


def to_csv(summary):
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["service", "n", "p50", "p99", "mean"])
    for svc, s in summary.items():
        w.writerow([svc, s["n"], s["p50"], s["p99"], s["mean"]])
    return buf.getvalue()


def main():
    rng = random.Random(7)
    for day in range(4):
        summary, levels = summarize(parse(make_lines(rng, 6000)))
        text = json.dumps({"day": str(datetime.date(2026, 1, 1 + day)), "summary": summary,
                           "levels": dict(levels)}, sort_keys=True)
        back = json.loads(text)
        assert back["summary"].keys() == summary.keys()
        to_csv(summary)


main()

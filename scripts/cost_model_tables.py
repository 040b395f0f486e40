#!/usr/bin/env python3
"""Prints the markdown tables of docs/cost-model.md from crates/core/cost-models/*.json."""
import json, pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent
for path in sorted((root / "crates/core/cost-models").glob("*.json")):
    m = json.loads(path.read_text())
    passes = m.get("passes", 1)
    print(f"### CPython {m['python']} ({passes} pass{'es' if passes > 1 else ''} of {m['rounds']} rounds of {m['executions']} executions)\n")
    if "simple" in m:
        sm = m["simple"]
        print(f"Simple instructions: {sm['ns']:.2f} ns each ({sm['low_ns']:.2f}–{sm['high_ns']:.2f}, a body of {sm['instructions']}).\n")
    print("| family | operation | specialized | generic by | specialized ns | generic ns | saved ns (p10–p90) |")
    print("|---|---|---|---|---:|---:|---:|")
    for f in m["forms"]:
        print(f"| {f['family']} | {f['operation']} | `{f['specialized']}` | {f['generic_by']} | "
              f"{f['specialized_ns']:.1f} | {f['generic_ns']:.1f} | {f['saved_ns']:.1f} ({f['saved_low_ns']:.1f}–{f['saved_high_ns']:.1f}) |")
    fams = sorted({u["family"] for u in m["unmeasured"]})
    print("\nNot measured: " + "; ".join(f"{u['family']}: {u['why']}" for u in m["unmeasured"] if not u["why"].startswith("no ")) +
          ("" if all(not u["why"].startswith("no ") for u in m["unmeasured"]) else
           "; absent on this version: " + ", ".join(sorted({u['family'] for u in m['unmeasured'] if u['why'].startswith('no ')}))) + ".\n")

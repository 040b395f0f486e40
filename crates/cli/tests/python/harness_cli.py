"""Run the harness as the Rust CLI does and check its dumps, for each interpreter given.

    SPECDIFF_HARNESS=FILE python3 crates/cli/tests/python/harness_cli.py [PYTHON...]
                                                                  (default: this python)

PYTHON may be any python3-like executable, e.g. scripts/python-pyodide for 3.14. Checks the
dump against docs/dump-format.md (shape and types of every field) and facts about the test
programs: the workload's hot loop specialized to LOAD_ATTR_SLOT, module and class bodies
present, counters decoded (or left to the CLI), samples (when threads exist), churn in churn.py (when threads
exist), exit statuses and exceptions, argv, filters, stdout left to the program, and the
refusal of interpreters older than 3.11. Prints one line per check; exits 1 on a failure.

FILE is the harness as `specdiff dump` runs it: harness_python.rs writes the one the binary
embeds; by hand, `cargo run -q -p specdiff-cli --example harness -- FILE` writes it (build.rs
joins it from crates/cli/src/harness/).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
HARNESS = os.path.abspath(os.environ.get("SPECDIFF_HARNESS") or sys.exit(
    "harness_cli: set SPECDIFF_HARNESS to the harness file "
    "(cargo run -q -p specdiff-cli --example harness -- FILE writes it)"))
PROGRAMS = os.path.join(ROOT, "crates", "cli", "tests", "programs")
FAILURES = []


def check(ok, what):
    print("  %s %s" % ("ok  " if ok else "FAIL", what))
    if not ok:
        FAILURES.append(what)
    return ok


def run(python, args, out, cwd=None, stdin=None):
    cmd = [python, HARNESS, "--out", out] + args
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True)
    doc = None
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        os.remove(out)
        # What the CLI finishes the dump with, written first: there whenever the dump is.
        extra = out + ".extra.json"
        doc["_extra"] = None
        if os.path.exists(extra):
            with open(extra, encoding="utf-8") as f:
                doc["_extra"] = json.load(f)
            os.remove(extra)
    return p, doc


# ---------------------------------------------------------------------------------------------
# Shape of a dump (docs/dump-format.md, version 1)

def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def validate(doc):
    """Returns a list of problems with the dump's shape."""
    bad = []

    def need(cond, path):
        if not cond:
            bad.append(path)

    need(doc.get("format") == "specdiff-dump" and doc.get("version") == 1, "format/version")
    need(isinstance(doc.get("generator"), str), "generator")
    py = doc.get("python", {})
    for key, tp in (("version", str), ("implementation", str), ("executable", str),
                    ("platform", str), ("pystats_build", bool)):
        need(isinstance(py.get(key), tp), "python." + key)
    need(isinstance(py.get("version_info"), list) and len(py["version_info"]) == 5,
         "python.version_info")
    run_ = doc.get("run", {})
    need(all(isinstance(a, str) for a in run_.get("argv", [None])), "run.argv")
    need(run_.get("target", {}).get("kind") in ("script", "module", "code"), "run.target")
    need(isinstance(run_.get("started"), str) and run_["started"].endswith("Z"), "run.started")
    need(isinstance(run_.get("duration_s"), (int, float)), "run.duration_s")
    need(is_int(run_.get("exit_status")), "run.exit_status")
    need(run_.get("exception") is None or isinstance(run_["exception"], str), "run.exception")
    sampler = run_.get("sampler", {})
    need(sampler.get("mode") in ("thread", "signal", "off", "unavailable") and
         is_int(sampler.get("samples")), "run.sampler")
    need(set(run_.get("filters", {})) == {"include", "exclude", "include_unrun"}, "run.filters")
    strings, ops, files, code = (doc.get(k) for k in ("strings", "ops", "files", "code"))
    need(isinstance(strings, list) and strings[:1] == [""], "strings[0]")
    ns, no, nf, nc = len(strings), len(ops), len(files), len(code)
    for i, op in enumerate(ops):
        need(len(op) == 4 and isinstance(op[0], str) and isinstance(op[1], str) and
             isinstance(op[2], bool) and op[3] in (None, "adaptive", "branch", "jit"),
             "ops[%d]" % i)
    for i, f in enumerate(files):
        need(isinstance(f.get("path"), str) and (f.get("module") is None or
                                                  isinstance(f["module"], str)), "files[%d]" % i)
        for run_entry in f.get("source", []):
            need(is_int(run_entry[0]) and all(is_int(s) and 0 <= s < ns
                                              for s in run_entry[1]), "files[%d].source" % i)
    kinds = {"module", "class", "function", "lambda", "generator", "coroutine",
             "async_generator", "comprehension"}
    used_ops = set()
    # Code objects whose positions, cache words and counters the CLI fills in from their raw
    # bytes (crates/core capture.rs; checked against dis by fidelity.py and harness_python.rs).
    need(isinstance(doc.get("_extra"), dict), "OUT.extra.json beside the dump")
    need("raw_code" not in doc, "raw_code only in OUT.extra.json")
    raw_code = (doc.get("_extra") or {}).get("raw_code")
    need(isinstance(raw_code, list) and all(
        len(r) == 3 and is_int(r[0]) and 0 <= r[0] < nc and is_hex(r[1]) and is_hex(r[2])
        for r in raw_code), "raw_code")
    left_to_cli = {r[0]: len(r[2]) // 2 for r in raw_code or ()}
    need(len(left_to_cli) == len(raw_code or ()), "raw_code: one entry per code object")
    for i, c in enumerate(code):
        p = "code[%d]" % i
        need(is_int(c["file"]) and 0 <= c["file"] < nf, p + ".file")
        for key in ("module", "qualname", "name"):
            need(is_int(c[key]) and 0 <= c[key] < ns, p + "." + key)
        need(c["kind"] in kinds and isinstance(c["ran"], bool), p + ".kind/ran")
        need(c["parent"] is None or (is_int(c["parent"]) and 0 <= c["parent"] < nc
                                     and c["parent"] != i), p + ".parent")
        need(len(c["samples"]) == 2 and c["samples"][0] <= c["samples"][1], p + ".samples")
        lines = [ls[0] for ls in c["line_samples"]]
        need(lines == sorted(lines), p + ".line_samples")
        last = -1
        for j, ins in enumerate(c["instructions"]):
            q = "%s.instructions[%d]" % (p, j)
            if not (7 <= len(ins) <= 9 and is_int(ins[0]) and ins[0] > last and
                    is_int(ins[1]) and 0 <= ins[1] < no and
                    (ins[2] is None or is_int(ins[2])) and is_int(ins[3]) and 0 <= ins[3] < ns
                    and (ins[4] is None or is_int(ins[4])) and
                    (ins[5] is None or len(ins[5]) == 3) and isinstance(ins[6], list)):
                bad.append(q)
                break
            last = ins[0]
            used_ops.add(ins[1])
            kind = ops[ins[1]][3]
            counter = ins[7] if len(ins) > 7 else None
            if i in left_to_cli:
                need(ins[4] is None and ins[5] is None and ins[6] == [] and counter is None
                     and ins[0] + 2 <= left_to_cli[i], q + " left to the CLI")
            else:
                want_counter = bool(ins[6]) and kind in ("adaptive", "jit")
                need((counter is not None) == want_counter and (
                    counter is None or counter == [ins[6][0] >> 4, ins[6][0] & 15]), q + "[7]")
                need(bool(ins[6]) == (kind is not None), q + "[6] vs counter kind")
            if len(ins) == 9:
                flips, seen = ins[8]
                need(flips >= 1 and all(0 <= o < no for o in seen), q + "[8]")
                used_ops.update(seen)
            need(len(ins) != 8 or ins[7] is not None, q + " trailing null")
    need(used_ops == set(range(no)), "ops table lists exactly the ops used")
    need(doc.get("pystats", 0) is None, "pystats")
    return bad


def is_hex(s):
    try:
        return isinstance(s, str) and s == bytes.fromhex(s).hex()
    except ValueError:
        return False


def find(doc, module, qualname):
    s = doc["strings"]
    return [c for c in doc["code"] if s[c["module"]] == module and s[c["qualname"]] == qualname]


def opnames(doc, entry):
    return [doc["ops"][ins[1]][0] for ins in entry["instructions"]]


# ---------------------------------------------------------------------------------------------
# Cases

def case_workload(python, tmp):
    out = os.path.join(tmp, "w.json")
    p, doc = run(python, ["--", "script", os.path.join(PROGRAMS, "workload", "main.py"), "300"],
                 out)
    check(p.returncode == 0 and doc is not None, "workload: exit 0 and a dump (%s)"
          % p.stderr.strip()[-300:])
    if doc is None:
        return None
    bad = validate(doc)
    check(not bad, "workload: dump shape %s" % bad[:5])
    check(p.stdout.startswith("centroid=") and p.stdout.count("\n") == 1,
          "workload: stdout is the program's only")
    check(doc["run"]["argv"][1:] == ["300"] and doc["run"]["argv"][0].endswith("main.py"),
          "workload: argv")
    centroid = find(doc, "shapes", "centroid")
    check(centroid and "LOAD_ATTR_SLOT" in opnames(doc, centroid[0]),
          "workload: LOAD_ATTR_SLOT in shapes.centroid")
    kinds = {(doc["strings"][c["module"]], doc["strings"][c["qualname"]]): c["kind"]
             for c in doc["code"]}
    for key, kind in ((("shapes", "<module>"), "module"), (("__main__", "<module>"), "module"),
                      (("shapes", "Point"), "class"), (("__main__", "Config"), "class"),
                      (("__main__", "Config.Defaults"), "class"),
                      (("textproc", "words"), "generator"),
                      (("asyncwork", "ticker"), "async_generator"),
                      (("asyncwork", "worker"), "coroutine"),
                      (("textproc", "make_counter.<locals>.top.<locals>.<lambda>"), "lambda"),
                      (("shapes", "total_area.<locals>.<genexpr>"), "comprehension")):
        check(kinds.get(key) == kind, "workload: %s.%s is a %s" % (key[0], key[1], kind))
    point = find(doc, "shapes", "Point")
    module = find(doc, "shapes", "<module>")
    check(point and module and point[0]["parent"] == doc["code"].index(module[0]),
          "workload: parent of shapes.Point is the shapes module body")
    # Counters of code in raw_code are decoded by the CLI (crates/cli/tests/dump.rs checks them).
    check(any(len(i) > 7 for c in doc["code"] for i in c["instructions"]) or
          len(doc["_extra"]["raw_code"]) > len(doc["code"]) // 2,
          "workload: counters decoded, or left to the CLI")
    files = {f["path"]: f for f in doc["files"]}
    shapes_file = [f for p_, f in files.items() if p_.endswith("shapes.py")]
    check(shapes_file and shapes_file[0]["module"] == "shapes" and shapes_file[0]["source"],
          "workload: shapes.py with its module and source")
    # Pyodide has no threads: scripts/python-pyodide's timer ticks drive the sampler there.
    threads = doc["python"]["platform"].split("-")[0] != "emscripten"
    sampler = doc["run"]["sampler"]
    check(sampler["mode"] == ("thread" if threads else "signal") and sampler["samples"] > 0,
          "workload: sampler ran (%s)" % sampler)
    check(any(c["samples"][0] for c in doc["code"]), "workload: self samples recorded")
    check(all(c["ran"] for c in doc["code"]), "workload: only code that ran, by default")
    return doc


def case_churn(python, tmp, sampled):
    out = os.path.join(tmp, "c.json")
    p, doc = run(python, ["--", "script", os.path.join(PROGRAMS, "churn.py")], out)
    check(p.returncode == 0 and doc is not None and not validate(doc), "churn: runs")
    if doc is None or not sampled:
        return
    read = find(doc, "__main__", "read_size")
    sites = [i[8] for c in read for i in c["instructions"] if len(i) > 8]
    names = [{doc["ops"][o][0] for o in seen} for _, seen in sites]
    check(any(f >= 2 and {"LOAD_ATTR_SLOT", "LOAD_ATTR_INSTANCE_VALUE"} <= n
              for (f, _), n in zip(sites, names)),
          "churn: read_size's LOAD_ATTR flips between SLOT and INSTANCE_VALUE %s" % sites)


def case_exits(python, tmp):
    out = os.path.join(tmp, "e.json")
    p, doc = run(python, ["--", "code", "import sys; print(sys.argv); sys.exit(5)", "a"], out)
    check(p.returncode == 5 and doc and doc["run"]["exit_status"] == 5 and
          doc["run"]["argv"] == ["-c", "a"] and p.stdout == "['-c', 'a']\n",
          "code: SystemExit(5), argv ['-c', 'a']")
    p, doc = run(python, ["--", "code", "def f():\n    raise ValueError('boom\\nmore')\nf()"],
                 out)
    check(p.returncode == 1 and doc and doc["run"]["exception"] == "ValueError: boom" and
          "Traceback" in p.stderr and os.path.basename(HARNESS) not in p.stderr and p.stdout == "",
          "code: uncaught exception -> 1, traceback, 'ValueError: boom'")
    p, doc = run(python, ["--", "code", "raise KeyboardInterrupt"], out)
    check(p.returncode == 130 and doc and doc["run"]["exception"] == "KeyboardInterrupt",
          "code: KeyboardInterrupt -> 130")
    p, doc = run(python, ["--", "code", "import sys; sys.exit('bye')"], out)
    check(p.returncode == 1 and doc and doc["run"]["exit_status"] == 1 and "bye" in p.stderr,
          "code: sys.exit('bye') -> 1, message on stderr")
    p, doc = run(python, ["--", "script", os.path.join(tmp, "missing.py")], out)
    check(p.returncode == 2 and "specdiff: " in p.stderr, "script: missing file -> 2")
    p, doc = run(python, ["--no-sample", "--", "code", "pass"], out)
    check(p.returncode == 0 and doc and doc["run"]["sampler"]["mode"] == "off" and
          p.stdout == "", "--no-sample: mode off, nothing on stdout")


def case_module(python, tmp):
    pkg = os.path.join(tmp, "mpkg", "demo")
    os.makedirs(pkg, exist_ok=True)
    with open(os.path.join(pkg, "__init__.py"), "w") as f:
        f.write("VALUE = 3\n")
    with open(os.path.join(pkg, "__main__.py"), "w") as f:
        f.write("import os, sys\nfrom demo import VALUE\n"
                "print(__name__, sys.argv[1:], sys.path[0] == os.getcwd(), VALUE)\n")
    out = os.path.join(tmp, "m.json")
    p, doc = run(python, ["--", "module", "demo", "x"], out, cwd=os.path.dirname(pkg))
    check(p.returncode == 0 and p.stdout == "__main__ ['x'] True 3\n" and doc and
          doc["run"]["argv"][0].endswith(os.path.join("demo", "__main__.py")),
          "module: runs demo/__main__.py as __main__ (%s)" % p.stderr.strip()[-200:])
    if doc:
        mods = {doc["strings"][c["module"]] for c in doc["code"] if c["kind"] == "module"}
        check({"demo", "__main__"} <= mods, "module: package and __main__ bodies recorded")


def case_filters(python, tmp):
    out = os.path.join(tmp, "f.json")
    main = os.path.join(PROGRAMS, "workload", "main.py")
    p, doc = run(python, ["--include", "shapes", "--include", "*/textproc.py", "--",
                          "script", main], out)
    mods = {doc["strings"][c["module"]] for c in doc["code"]} if doc else set()
    check(mods == {"shapes", "textproc"}, "--include by module and by file: %s" % sorted(mods))
    p, doc = run(python, ["--exclude", "shapes", "--include-unrun", "--", "script", main], out)
    mods = {doc["strings"][c["module"]] for c in doc["code"]} if doc else {"shapes"}
    check("shapes" not in mods and any(not c["ran"] for c in doc["code"]) and
          doc["run"]["filters"]["include_unrun"], "--exclude, --include-unrun")


def case_forked(python, tmp, threads):
    """--pystats-dir (given by the CLI for a pystats build, any folder will do here): where
    os.fork exists the dump is built in a forked child. Output, exit statuses and error
    paths must be those of an unforked harness."""
    out = os.path.join(tmp, "k.json")
    fork = ["--pystats-dir", os.path.join(tmp, "no_py_stats")]
    # stdout is a pipe here (block-buffered): unflushed output must come out exactly once.
    prog = ("import sys\nprint('out', end='')\nsys.stdout.write('x' * 9000)\n"
            "sys.stderr.write('err')\nsys.exit(7)")
    p, doc = run(python, fork + ["--", "code", prog], out)
    check(p.returncode == 7 and doc and not validate(doc) and doc["run"]["exit_status"] == 7
          and p.stdout == "out" + "x" * 9000 and p.stderr == "err",
          "forked: SystemExit(7), output once (%r)" % p.stderr[-200:])
    p, doc = run(python, fork + ["--", "code", "raise ValueError('boom')"], out)
    check(p.returncode == 1 and doc and doc["run"]["exception"] == "ValueError: boom" and
          p.stderr.count("Traceback") == 1, "forked: uncaught exception -> 1, one traceback")
    p, doc = run(python, fork + ["--", "code", "raise KeyboardInterrupt"], out)
    check(p.returncode == 130 and doc and doc["run"]["exception"] == "KeyboardInterrupt",
          "forked: KeyboardInterrupt -> 130")
    bad_out = os.path.join(tmp, "missing-dir", "k.json")
    p, doc = run(python, fork + ["--", "code", "print('hi')"], bad_out)
    check(p.returncode == 3 and doc is None and p.stdout == "hi\n" and
          p.stderr.count("internal error while building the dump") == 1,
          "forked: unwritable output -> 3, said once")
    if threads:
        # A program thread still running at the end: its frames are found (no fork then).
        prog = ("import threading, time\ndef spin():\n    while True:\n        time.sleep(1)\n"
                "threading.Thread(target=spin, daemon=True).start()\ntime.sleep(0.1)")
        p, doc = run(python, fork + ["--no-sample", "--", "code", prog], out)
        spin = find(doc, "__main__", "spin") if doc else []
        check(p.returncode == 0 and spin and spin[0]["ran"],
              "forked: code on a still-running program thread is found and ran")


def case_cpu_clock(python, tmp):
    """The thread sampler counts a thread only when it used CPU since its last look: a thread
    blocked on an event while another spins gets (almost) no samples. On the wall clock it got
    one per look, as many as the spinning one. The spinner runs for 0.5 s of its own CPU time,
    not of the clock on the wall: on a loaded machine (a CI run's parallel tests) a wall-clock
    0.5 s gave it 62-83 samples, with a share of a core."""
    out = os.path.join(tmp, "t.json")
    prog = ("import threading, time\n"
            "done = threading.Event()\n"
            "def waiter():\n    done.wait()\n"
            "def spin():\n    t, n = time.thread_time(), 0\n"
            "    while time.thread_time() - t < 0.5:\n        n += 1\n    return n\n"
            "th = threading.Thread(target=waiter)\nth.start()\nspin()\ndone.set()\nth.join()\n")
    p, doc = run(python, ["--", "code", prog], out)
    sampler = doc["run"]["sampler"] if doc else {}
    if not (sampler.get("note") or "").startswith("CPU clock"):
        check(sys.platform != "linux" and (sampler.get("note") or "").startswith("wall clock"),
              "cpu clock: a per-thread CPU clock on Linux, else the wall clock said (%s)" % sampler)
        return
    waiter, spin = find(doc, "__main__", "waiter"), find(doc, "__main__", "spin")
    spun = spin[0]["samples"][1] if spin else 0
    waited = waiter[0]["samples"][1] if waiter else 0
    check(p.returncode == 0 and spun >= 100 and waited * 20 <= spun,
          "cpu clock: the spinning thread sampled %d times, the waiting one %d" % (spun, waited))


def case_old_python(python, tmp):
    out = os.path.join(tmp, "o.json")
    p, doc = run(python, ["--", "code", "pass"], out)
    check(p.returncode == 3 and doc is None and p.stderr.startswith(
        "specdiff: adaptive bytecode needs CPython 3.11+"), "old interpreter refused with 3")


def main(argv):
    pythons = argv or [sys.executable]
    old = [a[len("--old="):] for a in pythons if a.startswith("--old=")]
    pythons = [a for a in pythons if not a.startswith("--old=")]
    with tempfile.TemporaryDirectory(prefix="specdiff-harness-") as tmp:
        for python in pythons:
            print("== %s" % python)
            doc = case_workload(python, tmp)
            mode = doc["run"]["sampler"]["mode"] if doc is not None else None
            threads = mode == "thread"
            case_churn(python, tmp, mode in ("thread", "signal"))
            case_exits(python, tmp)
            case_module(python, tmp)
            case_filters(python, tmp)
            case_forked(python, tmp, threads)
            if threads:
                case_cpu_clock(python, tmp)
        for python in old:
            print("== %s (too old)" % python)
            case_old_python(python, tmp)
    print("%d failure(s)" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

# ---------------------------------------------------------------------------------------------
# 9. The dump document
#
# Owns: `make_dump`, which assembles the document (docs/dump-format.md) from sections 5 and 6
# plus the interpreter's description, and the raw code the CLI finishes it with; `Timer`
# (SPECDIFF_TIMING=1: each phase's time); timestamps; `write_json`, which writes UTF-8 JSON to
# PATH.tmp and renames it, so a dump on disk is always whole.

class Timer:
    """SPECDIFF_TIMING=1 in the environment: print how long each dump phase took (stderr)."""

    def __init__(self):
        self.on = bool(os.environ.get("SPECDIFF_TIMING"))
        self.t = time.perf_counter()

    def __call__(self, what):
        if self.on:
            now = time.perf_counter()
            log("timing: %-40s %.3f s" % (what, now - self.t))
            self.t = now


IMMUTABLETYPE = 1 << 8   # Py_TPFLAGS_IMMUTABLETYPE


def _type_name(t):
    return "%s:%s" % (type.__dict__["__module__"].__get__(t), type.__dict__["__qualname__"].__get__(t))


def _own_class(cls):
    """A class the harness itself defines (the program's classes share its `__main__`)."""
    for v in type.__dict__["__dict__"].__get__(cls).values():
        code = getattr(v, "__code__", None) if type(v) is FunctionType else None
        if code is not None and code.co_filename in (SELF_FILE, PROBE_FILE):
            return True
    return False


def _dict_without_values(cls):
    """3.13+: its instances have a `__dict__` (managed, or at `__dictoffset__`) but no inline
    values (Py_TPFLAGS_INLINE_VALUES): 3.13 gives none to a subclass of a slotted class or of a
    builtin, and then specializes no class attribute read through its instances."""
    if sys.version_info < (3, 13):
        return False
    flags = type.__dict__["__flags__"].__get__(cls)
    has_dict = flags & (1 << 4) or type.__dict__["__dictoffset__"].__get__(cls)
    return bool(has_dict) and not flags & (1 << 2)


def class_table(found, modules):
    """The `classes` table (docs/dump-format.md): every live class of a module the dump holds
    code of whose attribute lookup finds a value of a mutable type (an instance of a Python
    class, a class made by a Python metaclass), which CPython's specializer refuses to cache
    for any attribute load that finds it (analyze_descriptor: MUTABLE), or whose instances have
    a dict without inline values (_dict_without_values). Read through `type`'s own
    descriptors, so that no metaclass property or `__getattr__` runs."""
    out = []
    mro_of, dict_of = type.__dict__["__mro__"].__get__, type.__dict__["__dict__"].__get__
    for cls in found.class_objs:
        try:
            mod = type.__dict__["__module__"].__get__(cls)
            if type(mod) is not str or mod not in modules or _own_class(cls):
                continue
            mro = mro_of(cls)
            found_at, slotted = {}, None
            for k in mro:
                if k is object:
                    continue
                own = dict_of(k)
                if slotted is None and "__slots__" in own:
                    slotted = k
                for name, v in own.items():
                    if type(name) is str and name not in found_at:
                        found_at[name] = v
            mutable = sorted([n, _type_name(type(v)), isinstance(v, type)]
                             for n, v in found_at.items() if not type(v).__flags__ & IMMUTABLETYPE)
            # Dict without inline values under a slotted class only (a subclass that dropped
            # the `__slots__`): metaclasses, exceptions and the like would fill the table.
            no_values = slotted is not None and _dict_without_values(cls)
            if not mutable and not no_values:
                continue
            meta = [_type_name(k) for k in mro_of(type(cls)) if k is not type and k is not object]
            entry = {"class": _type_name(cls),
                     "mro": [_type_name(k) for k in mro[1:] if k is not object],
                     "meta": meta, "mutable": mutable}
            if no_values:
                entry["dict_without_values"] = True
                entry["slots_in"] = _type_name(slotted)
            out.append(entry)
        except Exception:
            continue
    out.sort(key=lambda e: (e["class"], e["mro"], e["meta"], e["mutable"]))
    return out


def make_dump(opts, run, sampler, main_code, timer):
    """The dump document, and the raw code the CLI finishes it with (finish_entries)."""
    exec_codes = [c for c in _EXEC_CODES if type(c) is CodeType]
    roots = exec_codes + list(sampler.codes.values())
    found = find_codes(roots)
    timer("find %d code objects" % len(found.codes))
    dump = Dump()
    entries = build_code_entries(dump, found, {id(c) for c in exec_codes}, sampler, opts,
                                 main_code)
    timer("decode %d code objects" % len(entries))
    if _T.unknown:
        check_against_dis(dump, entries)
        timer("checked against dis")
    code, files, raw_code = finish_entries(dump, entries, sampler)
    timer("source lines")
    classes = class_table(found, {dump.strings[c["module"]] for c in code})
    timer("%d classes with mutable-typed attributes" % len(classes))
    import platform
    import sysconfig
    python = {"version": platform.python_version(), "version_info": list(sys.version_info),
              "implementation": sys.implementation.name, "executable": sys.executable or "",
              "platform": sysconfig.get_platform(),
              "pystats_build": hasattr(sys, "_stats_clear")
              or "--enable-pystats" in (sysconfig.get_config_var("CONFIG_ARGS") or ""),
              "paths": install_paths(), "counter_backoff_bits": _T.backoff_bits}
    if _T.enter_executor >= 0:
        python["jit"] = jit_info()
    return {"format": "specdiff-dump", "version": 1, "generator": GENERATOR, "python": python,
            "run": run, "strings": dump.strings, "ops": dump.ops, "files": files, "code": code,
            "classes": classes, "pystats": None}, raw_code


def check_against_dis(dump, entries):
    """A CPython newer than NEWEST_KNOWN: compare every decoded instruction's arg and argrepr
    with the interpreter's own dis.get_instructions(adaptive=True), take dis's where they
    differ, and say in one line which rules were assumed. dis is imported only now, after the
    snapshot: what importing it runs cannot change what was decoded. Instructions whose opname
    changed since the snapshot (code dis itself ran) are left as decoded."""
    import dis
    t = _T
    checked = fixed = 0
    example = None
    for e in entries:
        ins = e["instructions"]
        at = {x[0]: n for n, x in enumerate(ins)}
        try:
            theirs = list(dis.get_instructions(e["_code"], adaptive=True))
        except Exception:
            continue
        for d in theirs:
            n = at.get(d.offset)
            if n is None:
                continue
            x = ins[n]
            if dump.ops[x[1]][0] != d.opname:
                continue
            checked += 1
            if x[2] != d.arg or dump.strings[x[3]] != d.argrepr:
                if example is None:
                    example = "%s %r where dis says %r" % (d.opname, dump.strings[x[3]], d.argrepr)
                ins[n] = x[:2] + (d.arg, dump.s(d.argrepr)) + x[4:]
                fixed += 1
    running = "%d.%d" % sys.version_info[:2]
    rules = "%d.%d" % t.v
    note = ("CPython %s is newer than any specdiff knows: its bytecode was decoded with %s's "
            "rules and checked against its own dis (%d instructions: %s); counters are read as "
            "%d-bit backoff fields, measured at start-up"
            % (running, rules, checked,
               "all agreed" if not fixed else "%d differed and were taken from dis, e.g. %s"
               % (fixed, example), t.backoff_bits))
    log(note)
    return note


def rfc3339(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + ".%03dZ" % (ts % 1 * 1000)


def write_json(path, doc):
    import json
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(text.encode("utf-8", "replace"))   # lone surrogates (odd argv/paths) -> "?"
    os.replace(tmp, path)


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException:
        if _OUT[0] is None:
            raise
        own_failure(_OUT[0], "running the harness")
        status = 3
    sys.exit(status)

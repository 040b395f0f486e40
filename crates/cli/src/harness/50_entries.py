# ---------------------------------------------------------------------------------------------
# 7. Building the dump
#
# Owns: choosing the code objects kept (--include/--exclude, --include-unrun), deciding `ran`
# (the rules in this file's docstring), each code entry with its instruction arrays, hotness
# and churn, its identity and stable place in the dump (`identities`), and the source lines
# each entry carries (`finish_entries`, `source_runs`).

def build_code_entries(dump, found, exec_ids, sampler, opts, main_code):
    """Decode the selected code objects, decide `ran`, build their instruction arrays."""
    codes, snapshot = found.codes, found.snapshot
    parent, children = {}, {}
    for key, code in codes.items():
        for c in code.co_consts:
            if type(c) is CodeType and id(c) in codes and id(c) not in parent:
                parent[id(c)] = key
                children.setdefault(key, []).append(id(c))
    fmods = file_modules(main_code)
    main_key = id(main_code) if main_code is not None else None

    roots = [os.path.abspath(p) for p in sys.path if isinstance(p, str) and p]

    def file_module(fn):
        mod = fmods.get(fn)
        if mod is None and fn.startswith("<frozen ") and fn.endswith(">"):
            mod = fn[8:-1]
        if mod is None:
            # Never the default "__main__" for a library file that left sys.modules.
            mod = path_module(fn, roots)
        return mod

    def direct_module(k):
        if k == main_key:
            return "__main__"
        return file_module(codes[k].co_filename) or found.func_module.get(k)

    def module_of(key):
        # The file's module; else (exec'd "<string>" code) the __module__ of a function made
        # from it or from code nested in it; else the enclosing code's module; else, for code
        # exec'd from a pseudo-file ("<template>", "<string>") in globals without __name__
        # (jinja2's templates), that file's name, never "__main__": the code is not the
        # script's; else __main__.
        mod = direct_module(key)
        todo = list(children.get(key, ()))
        while mod is None and todo:
            k = todo.pop(0)
            mod = found.func_module.get(k)
            todo.extend(children.get(k, ()))
        k = key
        while mod is None and k in parent:
            k = parent[k]
            mod = direct_module(k)
        if mod is None:
            fn = codes[key].co_filename
            if fn.startswith("<") and fn.endswith(">"):
                return fn
        return mod or "__main__"

    def selected(mod, fn):
        if not opts.include and not opts.exclude:
            return True
        from fnmatch import fnmatch
        hit = lambda globs: any(fnmatch(mod, g) or fnmatch(fn, g) for g in globs)
        return (not opts.include or hit(opts.include)) and not hit(opts.exclude)

    # Evidence without decoding. A live function object means the code holding its code
    # object in co_consts ran (it executed MAKE_FUNCTION); the same goes up the parent chain.
    ran = set(exec_ids) | set(sampler.total_hits) | found.live_ran
    ran.update(parent[k] for k in found.func_codes if k in parent)
    ident = identities(found, parent)
    # A stable order, never memory order: code objects that tie on every key of their
    # identity (identical exec'd code) are ordered by their adaptive bytecode, so which of
    # them comes first depends on what they did, not on where they were allocated.
    order = sorted(codes, key=lambda k: (codes[k].co_filename, codes[k].co_firstlineno,
                                         codes[k].co_qualname, codes[k].co_name)
                   + ident[k].sort_key() + (snapshot[k],))
    chosen = []
    for key in order:
        code = codes[key]
        mod = module_of(key)
        if not selected(mod, code.co_filename):
            continue
        kind = code_kind(code)
        if key not in ran and (has_evidence(snapshot[key]) or kind == "class"
                               and (mod, code.co_qualname) in found.classes):
            ran.add(key)   # (class bodies run once, often leaving no adaptive evidence)
        chosen.append((key, code, mod, kind))
    for key in list(ran):
        while key in parent and parent[key] not in ran:
            key = parent[key]
            ran.add(key)
    if not opts.include_unrun:
        chosen = [c for c in chosen if c[0] in ran]
    index = {c[0]: n for n, c in enumerate(chosen)}
    entries = []
    # The instructions traces ran in other code objects' frames (section 6): known only once
    # every executor is read.
    callees = Callees(found.funcs, codes.values()) if found.executors else None
    inlined = {}
    for key, code, mod, kind in chosen:
        instructions, left_to_cli = decode_code(code, dump, snapshot[key])
        sites = sampler.churn.get(key)
        if sites:
            add_churn(dump, instructions, sites)
        executors = [x for x in (decode_trace(dump, *ex, callees, inlined)
                                 for ex in found.executors.get(key, ())) if x]
        entries.append({"_key": key, "_code": code, "_module": mod, "kind": kind,
                        "_executors": executors,
                        "_ident": ident[key],
                        "ran": key in ran, "parent": index.get(parent.get(key)),
                        "_file_module": file_module(code.co_filename) or (
                            "__main__" if main_code is not None
                            and code.co_filename == main_code.co_filename else None),
                        "_raw": snapshot[key] if left_to_cli else None,
                        "instructions": instructions})
    for e in entries:
        e["_inlined"] = sorted(inlined.get(e["_key"], ()))
    return entries


class Identity:
    """What tells apart code objects that share a module and qualname (docs/dump-format.md,
    "Identity"): `owner`, the `__qualname__` every live function using the code agrees on when
    it differs from co_qualname (dataclasses, namedtuple and functools.wraps rename their
    functions: `Point.__init__`); `made_at`, the (line, column) of the instruction of the
    enclosing code that loads this code object, i.e. where the `def`, `lambda`, class or
    comprehension is; `body`, a CRC-32 of what the code is (bytecode, names, constants)."""
    __slots__ = ("owner", "made_at", "body")

    def __init__(self, owner, made_at, body):
        self.owner, self.made_at, self.body = owner, made_at, body

    def sort_key(self):
        line, col = self.made_at or (None, None)
        return (self.owner or "", -1 if line is None else line, -1 if col is None else col,
                self.body)


def identities(found, parent):
    """id -> Identity for every code object found."""
    import opcode
    codes = found.codes
    load_const, ext_arg = opcode.opmap["LOAD_CONST"], opcode.opmap["EXTENDED_ARG"]
    made_at = {}
    for key, code in codes.items():
        consts = code.co_consts
        wanted = {i for i, c in enumerate(consts) if type(c) is CodeType and parent.get(id(c)) == key}
        if not wanted:
            continue
        raw, arg_hi = code.co_code, 0
        for unit, pos in enumerate(code.co_positions()):
            op, arg = raw[2 * unit], raw[2 * unit + 1] | arg_hi
            arg_hi = arg << 8 if op == ext_arg else 0
            if op == load_const and arg in wanted:
                made_at.setdefault(id(consts[arg]), (pos[0], pos[2]))
    out, memo = {}, {}
    for key, code in codes.items():
        quals = found.func_qualnames.get(key, ())
        owner = next(iter(quals)) if len(quals) == 1 else None
        if owner == code.co_qualname:
            owner = None
        out[key] = Identity(owner, made_at.get(key), _body(code, memo))
    return out


def _body(code, memo):
    """CRC-32 of what a code object is, from bytes that do not depend on the run: its bytecode,
    names and constants (nested code by its own body, so that `exec`'d module bodies differing
    only in the function they define differ; a frozenset sorted: its order follows string
    hashes)."""
    import zlib
    key = id(code)
    if key in memo:
        return memo[key]

    def const(c):
        tp = type(c)
        if tp is CodeType:
            return "code:%s:%d" % (c.co_qualname, _body(c, memo))
        if tp is tuple:
            return "(" + ",".join(map(const, c)) + ")"
        if tp is frozenset:
            return "{" + ",".join(sorted(map(const, c))) + "}"
        if tp in (str, bytes, int, float, complex, bool) or c is None or c is Ellipsis:
            return repr(c)
        return tp.__name__
    parts = (code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)
    text = "\x00".join([const(c) for c in code.co_consts] + ["|".join(p) for p in parts])
    memo[key] = crc = zlib.crc32(code.co_code + text.encode("utf-8", "surrogatepass"))
    return crc


def add_churn(dump, instructions, sites):
    index = {ins[0]: n for n, ins in enumerate(instructions)}
    for offset, (flips, seen) in sites.items():
        n = index.get(offset)
        if n is not None:
            ins = instructions[n]
            instructions[n] = ins[:7] + (ins[7] if len(ins) > 7 else None,
                                         (flips, [dump.op(o) for o in seen]))


def finish_entries(dump, entries, sampler):
    """Fill strings, files and samples; returns (code list, files list, raw code): the last,
    [code index, co_linetable as hex, adaptive code as hex] for each code object whose
    positions and caches the CLI fills in."""
    import linecache
    files, file_index, need = [], {}, {}
    line_hits = {}
    for (key, line), hits in sampler.line_hits.items():
        line_hits.setdefault(key, []).append([line, hits])
    out, raw_code = [], []
    for e in entries:
        code, key = e["_code"], e["_key"]
        fn = code.co_filename
        if fn not in file_index:
            file_index[fn] = len(files)
            files.append({"path": fn, "module": e["_file_module"], "_globals": None})
            need[fn] = set()
        f = files[file_index[fn]]
        if e["_raw"] is not None:
            raw_code.append([len(out), code.co_linetable.hex(), e["_raw"].hex()])
            lines = {line for _, _, line in code.co_lines() if line is not None and line >= 0}
        else:
            lines = {ins[4] for ins in e["instructions"] if ins[4] is not None}
        if lines and e["kind"] not in WHOLE_SOURCE_EXCEPT:
            # A function's whole text (decorators, docstring, comments). A class body's range
            # would hold every method's text too, run or not: only its own lines, like a module.
            lines = range(code.co_firstlineno, max(lines) + 1)
        need[fn].update(lines)
        if f["_globals"] is None:
            mod = sys.modules.get(e["_module"])
            f["_globals"] = getattr(mod, "__dict__", None)
        out.append({
            "file": file_index[fn], "module": dump.s(e["_module"]),
            "qualname": dump.s(code.co_qualname), "name": dump.s(code.co_name),
            "first_line": code.co_firstlineno, "kind": e["kind"], "parent": e["parent"],
            "ran": e["ran"], **identity_fields(dump, e["_ident"]),
            "samples": [sampler.self_hits.get(key, 0), sampler.total_hits.get(key, 0)],
            **({"import_samples": sampler.import_hits[key]} if key in sampler.import_hits else {}),
            "line_samples": sorted(line_hits.get(key, [])),
            "instructions": e["instructions"],
            **({"executors": e["_executors"]} if e["_executors"] else {}),
            **({"inlined": e["_inlined"]} if e["_inlined"] else {})})
    for f in files:
        src = source_lines(linecache, f["path"], f.pop("_globals"))
        f["source"] = source_runs(dump, src, need[f["path"]])
    return out, files, raw_code


def identity_fields(dump, ident):
    """The optional identity keys of a code entry (left out when unknown)."""
    out = {"body": ident.body}
    if ident.owner is not None:
        out["owner"] = dump.s(ident.owner)
    if ident.made_at is not None and None not in ident.made_at:
        out["made_at"] = [ident.made_at[0], ident.made_at[1]]
    return out


def source_lines(linecache, path, module_globals):
    # The module's loader is asked for source only for the module's own file: code compiled
    # at run time under a made-up file name (networkx's argmap: "<class '...argmap'>
    # compilation 5") would otherwise be shown with the text of the module that ran it.
    own = module_globals is not None and module_globals.get("__file__") == path
    try:
        lines = linecache.getlines(path, module_globals if own else None)
        if not lines and path.startswith("<frozen ") and module_globals:
            real = module_globals.get("__file__")
            lines = linecache.getlines(real) if isinstance(real, str) else []
        return lines
    except Exception:
        return []


def source_runs(dump, src, wanted):
    runs, last = [], None
    get, s_new = dump.string_index.get, dump.s
    for line in sorted(wanted):
        if not 1 <= line <= len(src):
            continue
        text = src[line - 1].rstrip("\r\n")
        text = get(text) or s_new(text)
        if last is not None and line == last + 1:
            runs[-1][1].append(text)
        else:
            runs.append([line, [text]])
        last = line
    return runs



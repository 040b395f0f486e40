# ---------------------------------------------------------------------------------------------
# 5. Finding code objects after the run
#
# Owns: `find_codes`, every code object reachable after the run (exec'd module bodies, gc's
# functions, generators, coroutines and frames, the sampled stacks, co_consts recursively),
# with what gc shows about each (live frames, functions, classes) and the snapshot of its
# adaptive bytecode; `code_kind` (function, class, module, …); `file_modules`, file -> module; `path_module`, the module name of a file from sys.path.

class Found:
    def __init__(self):
        self.codes = {}          # id -> code
        self.live_ran = set()    # ids of code on live frames / suspended generators
        self.func_module = {}    # id -> __module__ of a function using the code
        self.func_codes = set()  # ids of code of live function objects
        self.func_qualnames = {} # id -> {__qualname__ of each live function using the code}
        self.classes = set()     # (module, qualname) of live classes
        self.class_objs = []     # the live classes themselves (class_table)
        self.funcs = []          # live functions, kept only when executors can be read: they
                                 # name the callees of traces (section 6, `Callees`)


def find_codes(roots):
    found = Found()
    stack = list(roots)
    funcs = found.funcs if executors_possible() else None
    me = _thread.get_ident()
    for tid, frame in sys._current_frames().items():
        while tid != me and frame is not None:   # other threads still running
            stack.append(frame.f_code)
            found.live_ran.add(id(frame.f_code))
            frame = frame.f_back
    for obj in gc.get_objects():
        tp = type(obj)
        if tp is FunctionType:
            code = obj.__code__
            stack.append(code)
            found.func_codes.add(id(code))
            if funcs is not None:
                funcs.append(obj)
            mod = obj.__module__
            if isinstance(mod, str):
                found.func_module.setdefault(id(code), mod)
            qual = obj.__qualname__
            if isinstance(qual, str):
                found.func_qualnames.setdefault(id(code), set()).add(qual)
        elif tp in GEN_TYPES:
            prefix = GEN_TYPES[tp]
            code = getattr(obj, prefix + "_code")
            stack.append(code)
            if getattr(obj, prefix + "_suspended", False) or getattr(obj, prefix + "_running", 0):
                found.live_ran.add(id(code))
        elif tp is FrameType:
            stack.append(obj.f_code)
            found.live_ran.add(id(obj.f_code))
        elif isinstance(obj, type):
            try:
                found.classes.add((obj.__module__, obj.__qualname__))
                found.class_objs.append(obj)
            except Exception:
                pass
    codes = found.codes
    while stack:
        code = stack.pop()
        if id(code) in codes or type(code) is not CodeType:
            continue
        if code.co_filename in (SELF_FILE, PROBE_FILE):
            continue
        codes[id(code)] = code
        stack.extend(c for c in code.co_consts if type(c) is CodeType)
    # Snapshot the adaptive bytecode now: whatever library code the harness runs from here on
    # (fnmatch, linecache, json...) must not show up in the dump.
    found.snapshot = {key: code._co_code_adaptive for key, code in codes.items()}
    # The executors attached to it too (section 6): CPython detaches an invalidated one, so
    # later harness code could only lose some.
    found.executors = {key: ex for key, code in codes.items()
                       for ex in (read_executors(code, found.snapshot[key]),) if ex} \
        if executors_possible() else {}
    return found


def code_kind(code):
    name, flags = code.co_name, code.co_flags
    if name == "<module>":
        return "module"
    if not flags & CO_OPTIMIZED:
        return "class"
    if name in COMPREHENSIONS:
        return "comprehension"
    if name == "<lambda>":
        return "lambda"
    if flags & CO_ASYNC_GENERATOR:
        return "async_generator"
    if flags & CO_COROUTINE:
        return "coroutine"
    if flags & CO_GENERATOR:
        return "generator"
    return "function"


def file_modules(main_code):
    """co_filename -> module name, from sys.modules and the target."""
    out = {}
    for name, mod in list(sys.modules.items()):
        try:
            path = mod.__dict__.get("__file__")
        except Exception:
            continue
        if isinstance(path, str):
            out.setdefault(path, name)
    if main_code is not None and not main_code.co_filename.startswith("<"):
        out[main_code.co_filename] = "__main__"   # "<string>" (-c) is no unique file name
    return out


def path_module(fn, roots):
    """The dotted module name of source file `fn` under the deepest of `roots` (sys.path
    folders), or None. For files that ran as a module but are not in sys.modules under their
    own file: 3.13's collections/abc.py replaces itself with _collections_abc there."""
    if not fn.endswith(".py") or fn.startswith("<"):
        return None
    best = None
    for root in roots:
        if isinstance(root, str) and root and fn.startswith(root.rstrip(os.sep) + os.sep):
            if best is None or len(root) > len(best):
                best = root
    if best is None:
        return None
    parts = fn[len(best.rstrip(os.sep)) + 1:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)



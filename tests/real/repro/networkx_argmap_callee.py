"""networkx 2.8.8 -> 3.4.2 (3.14, 3.15): a public algorithm decorated with `@nx._dispatchable`
(`build_residual_network`, `clustering`, `topological_sort`, `bfs_edges`, ...) is, in head, the
Python function that `argmap(_do_nothing)(self)` returns at the end of `_dispatchable.__new__`
(utils/backends.py 899). argmap.__call__ assigns that function's `__defaults__`
(utils/decorators.py 793), and argmap._lazy_compile replaces its `__code__` on the first call
(decorators.py 761). Shows: a call of a plain Python function specializes (CALL_PY_EXACT_ARGS,
CALL_KW_PY), a call of one with keyword-only parameters and **kwargs too (CALL_PY_GENERAL,
CALL_KW_PY: the argmap signature is not the reason), but a call of a function whose `__code__`
or `__defaults__` was assigned stays generic CALL / CALL_KW on 3.14 and 3.15 (assigning them
clears the function's version, and a call is only specialized for a versioned function)."""
import dis


def algorithm(g, s):
    return g + s


def argmap_like(g, s, *, backend=None, **backend_kwargs):  # the signature argmap compiles
    return g + s


def code_replaced(*args, __wrapper=None, **kwargs):  # argmap.__call__'s `func`
    return 0


code_replaced.__kwdefaults__.update(argmap_like.__kwdefaults__)  # as argmap.__call__ does
code_replaced.__code__ = argmap_like.__code__  # argmap._lazy_compile


def defaults_assigned(g, s, *, backend=None, **backend_kwargs):
    return g + s


defaults_assigned.__defaults__ = None  # argmap.__call__: func.__defaults__ = f.__defaults__


def base(g):
    return algorithm(g, 1)


def base_kw(g):
    return algorithm(g, s=1)


def signature_only(g):
    return argmap_like(g, 1)


def signature_only_kw(g):
    return argmap_like(g, s=1)


def head(g):
    return code_replaced(g, 1)


def head_kw(g):
    return code_replaced(g, s=1)


def head_defaults(g):
    return defaults_assigned(g, 1)


fs = (base, base_kw, signature_only, signature_only_kw, head, head_kw, head_defaults)
for i in range(200):
    for f in fs:
        f(i)
for f in fs:
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("CALL")])

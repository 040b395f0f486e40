"""networkx 2.8.8 -> 3.4.2 (3.12, 3.13): public algorithms (`build_residual_network`,
`generic_bfs_edges`, `topological_sort`, `has_path`, ...) became `_dispatchable` objects, instances
of a class with `__call__` made by the `@nx._dispatchable` decorator. Shows: a call of a plain
Python function specializes (CALL_PY_EXACT_ARGS); on 3.12 a call of an instance whose class
defines `__call__` in Python stays generic CALL. On 3.13 this minimal instance gets
CALL_NON_PY_GENERAL, while networkx's real `_dispatchable` sites stay CALL (checked with
`harness.py SITE networkx_work.py networkx.algorithms.flow.preflowpush:preflow_push_impl 37,41`);
what in `_dispatchable` makes 3.13 refuse even the generic form is not pinned down."""
import dis


def algorithm(g, s):
    return g + s


class Dispatchable:
    def __init__(self, func):
        self.func = func

    def __call__(self, *args, **kwargs):
        return self.func(*args, **kwargs)


dispatched = Dispatchable(algorithm)


def base(g):
    return algorithm(g, 1)


def head(g):
    return dispatched(g, 1)


for i in range(200):
    base(i)
    head(i)
for f in (base, head):
    print(f.__name__, [i.opname for i in dis.get_instructions(f, adaptive=True) if i.opname.startswith("CALL")])

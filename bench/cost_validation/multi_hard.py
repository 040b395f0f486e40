"""Three changes the estimate handles least well, each in its own function: the hot loops of
contains_set_subclass (CONTAINS_OP_SET lost; nothing on 3.12), attr_poly (a LOAD_ATTR site
that keeps re-specializing) and for_iter_deque (FOR_ITER, which the cost model has no figure
for)."""

from _harness import timed
from attr_poly import hot as measure
from contains_set_subclass import hot as lookup
from for_iter_deque import hot as drain

timed(lookup, measure, drain)

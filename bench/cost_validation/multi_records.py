"""Three changes of different weight, each in its own function, for the ranking check: the
hot loops of unpack_namedtuple (UNPACK_SEQUENCE_TWO_TUPLE lost), compare_intenum
(COMPARE_OP_INT lost) and binop_bool (BINARY_OP_ADD_INT lost), run one after the other."""

from _harness import timed
from binop_bool import hot as tally
from compare_intenum import hot as score
from unpack_namedtuple import hot as parse

timed(parse, score, tally)

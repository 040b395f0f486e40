"""Three changes of different weight, each in its own function, for the ranking check: the
hot loops of store_class_default (STORE_ATTR_INSTANCE_VALUE lost), subscr_list_subclass
(BINARY_SUBSCR_LIST_INT lost) and global_nonstr_key (LOAD_GLOBAL_MODULE lost, in its own
module's globals only)."""

from _harness import timed
from global_nonstr_key import hot as weigh
from store_class_default import hot as record
from subscr_list_subclass import hot as read

timed(record, read, weigh)

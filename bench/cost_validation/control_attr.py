"""Control: both sides run store_class_default's base side (same code, same data), so a
measured difference is the noise floor."""

import sys

sys.argv[1:] = ["base"]  # read by _harness: head runs base's data too

from _harness import timed  # noqa: E402
from store_class_default import hot  # noqa: E402

timed(hot)

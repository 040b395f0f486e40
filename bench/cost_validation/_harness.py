"""Shared by the cost-validation programs (bench/cost_validation.py runs them).

`python PROGRAM.py base|head`: each program builds its data for the side named, then
`timed()` runs its hot phases one after the other and prints their CPU times on one line,
`phases {"module.function": seconds, ...}`, so the runner can take start-up and set-up out of the
comparison and, for the multi-change programs, price each change apart.
"""

import json
import sys
import time

HEAD = sys.argv[1:2] == ["head"]


def timed(*phases):
    times = {}
    for phase in phases:
        start = time.process_time()
        phase()
        times[f"{phase.__module__}.{phase.__name__}"] = time.process_time() - start
    print("phases " + json.dumps(times))

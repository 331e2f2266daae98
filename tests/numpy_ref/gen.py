"""NumPy's own output for expressions that nbcuda's tests also evaluate.

Reads a JSON list of {"id", "setup", "expr"} on stdin; prints a JSON object mapping each id
to {"repr": repr(value), "str": str(value)} computed by the real NumPy."""
import json
import sys

import numpy as np

cases = json.load(sys.stdin)
out = {}
for case in cases:
    env = {"np": np}
    exec(case.get("setup", ""), env)
    value = eval(case["expr"], env)
    out[case["id"]] = {"repr": repr(value), "str": str(value)}
json.dump(out, sys.stdout)

"""NumPy reference outputs for nbcuda's array tests.

Reads a JSON list of cases from stdin, each {"id": str, "setup": str, "expr": str}: `setup`
is executed with `np` (numpy) in scope, then `expr` is evaluated. Prints a JSON list of
{"id", "repr", "str"} with NumPy's repr() and str() of the value. The vocabulary is plain
Python + numpy, restricted by the test to what nbcuda implements.
"""
import json
import sys

import numpy as np


def main():
    cases = json.load(sys.stdin)
    out = []
    for c in cases:
        ns = {"np": np}
        exec(c.get("setup", ""), ns)
        v = eval(c["expr"], ns)
        out.append({"id": c["id"], "repr": repr(v), "str": str(v), "numpy": np.__version__})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

"""Numba's CUDA tests on a GPU machine, where jupyter_client is missing: the conformance
suite's cells (../shared/conformance/numba-cuda, converted with its convert.py) each run in
their own `nbcuda run` process, several at once, on the device NBCUDA_DEVICE names
(default cuda). Same pass rules and summary line as that suite's run.py.

Usage: NBCUDA_BIN=path/to/nbcuda python3 tests/gpu/conformance.py CONVERTED_DIR VALID_TXT [ID ...]
(JOBS=n processes at once, default 8)."""
import json, os, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor
BIN = os.environ["NBCUDA_BIN"]; DEV = os.environ.get("NBCUDA_DEVICE", "cuda")
TMP = tempfile.mkdtemp()
CELLS = os.path.join(sys.argv[1], "cells")

def run(tid, text, timeout=90):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                     "source": text}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    src, dst = f"{TMP}/{tid}.ipynb", f"{TMP}/{tid}.out.ipynb"
    json.dump(nb, open(src, "w"))
    out = {"stdout": "", "stderr": "", "err": None}
    try:
        p = subprocess.run([BIN, "run", src, "-o", dst, "--allow-errors"], capture_output=True,
                           timeout=timeout, env=dict(os.environ, NBCUDA_DEVICE=DEV))
    except subprocess.TimeoutExpired:
        out["err"] = f"no reply in {timeout} s"; return out
    try:
        cells = json.load(open(dst))["cells"]
    except Exception as e:
        out["err"] = f"runner rc {p.returncode}: {p.stderr.decode()[-300:]}"; return out
    for o in cells[0].get("outputs", []):
        if o["output_type"] == "stream":
            out[o["name"]] += "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
        elif o["output_type"] == "error":
            out["err"] = f"{o['ename']}: {o['evalue']}"
    return out

def host_check(check, out):
    ns = {"_captured_stdout": out["stdout"], "_captured_stderr": out["stderr"]}
    try:
        exec(check + "\n_check()\n", ns); return None
    except Exception as e:
        return f"{type(e).__name__}: {e}"

def one(t):
    tid, kind = t
    text = open(os.path.join(CELLS, tid + ".py")).read().replace("__CUDASIM__", "False", 1)
    check = None
    if tid.startswith("test_print."):
        text, _, chk = text.partition("# --- host-side check")
        check = "\n".join(l[2:] for l in chk.splitlines()[1:])
    out = run(tid, text)
    err = out["err"] or (host_check(check, out) if check else None)
    return tid, kind, err

def main():
    only = set(sys.argv[3:])
    tests = [(a, b.strip()) for a, b in (l.split("\t") for l in open(sys.argv[2])
             if not l.startswith("#")) if not only or a in only]
    passed = {"sim": 0, "hw": 0}; total = {"sim": 0, "hw": 0}
    with ThreadPoolExecutor(int(os.environ.get("JOBS", "8"))) as ex:
        for tid, kind, err in ex.map(one, tests):
            total[kind] += 1
            if err is None: passed[kind] += 1
            else: print(f"FAIL {tid} [{kind}]: {err[:300]}", flush=True)
    print(f"{passed['sim']} of {total['sim']} simulator-valid tests pass; "
          f"{passed['hw']} of {total['hw']} hardware-only tests pass")

main()

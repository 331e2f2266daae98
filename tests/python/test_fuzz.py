"""Fuzzing: thousands of generated hostile cells must never kill the kernel, hang it, or
surface a Rust panic (InternalError).

The cells come from fuzzgen.py (a Python grammar and a typed generator over builtins,
NumPy and the device API), seeded so every run checks the same cells; set
NBCUDA_FUZZ_SEED and NBCUDA_FUZZ_CELLS to explore further. Cells run in batches through
`nbcuda run --allow-errors` (the kernel's execution path without the sockets), each
batch in one session so state carries from cell to cell as in a notebook. A failing
batch is narrowed to the first cell that fails on its own, then shrunk line by line, and
the test prints that minimal cell.
"""

import json
import os
import pathlib
import subprocess
import tempfile

from conftest import NBCUDA_BIN
from fuzzgen import DEVICE_PRELUDE, Gen

SEED = int(os.environ.get("NBCUDA_FUZZ_SEED", "20261126"))
CELLS = int(os.environ.get("NBCUDA_FUZZ_CELLS", "20000"))
BATCH = 100
# A healthy batch takes a few seconds; anything near this is a hang.
BATCH_TIMEOUT = 150
CELL_TIMEOUT = 30


def _run(cells, timeout):
    """Run PRELUDE + cells in one session: None when healthy, else why it failed."""
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": src,
             "outputs": [], "execution_count": None}
            for i, src in enumerate([DEVICE_PRELUDE] + cells)
        ],
    }
    with tempfile.TemporaryDirectory(prefix="nbcuda-fuzz-") as tmp:
        src = pathlib.Path(tmp) / "in.ipynb"
        out = pathlib.Path(tmp) / "out.ipynb"
        src.write_text(json.dumps(nb))
        env = dict(os.environ, NBCUDA_DEVICE="cpu", NBCUDA_CPU_DEVICE_MEMORY="1GiB")
        try:
            r = subprocess.run(
                [str(NBCUDA_BIN), "run", str(src), "-o", str(out), "--allow-errors"],
                capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp,
            )
        except subprocess.TimeoutExpired:
            return f"hang (no result within {timeout} s)"
        if r.returncode != 0 or not out.exists():
            return f"kernel died (exit {r.returncode}): {r.stderr.strip()[-400:]}"
        for cell in json.loads(out.read_text())["cells"]:
            for o in cell.get("outputs", []):
                if o.get("output_type") == "error" and o.get("ename") == "InternalError":
                    return f"InternalError: {o.get('evalue')}"
    return None


def _kind(why):
    return why.split(" ", 1)[0] if why else None


def _shrink(cell, why):
    """Drop lines while the cell still fails on its own in the same way. A hang is not
    shrunk: each try would cost the whole timeout."""
    if _kind(why) == "hang":
        return cell
    lines = cell.split("\n")
    changed = True
    while changed and len(lines) > 1:
        changed = False
        for i in range(len(lines)):
            trial = lines[:i] + lines[i + 1:]
            if trial and _kind(_run(["\n".join(trial)], CELL_TIMEOUT)) == _kind(why):
                lines, changed = trial, True
                break
    return "\n".join(lines)


def _culprit(batch):
    for cell in batch:
        why = _run([cell], CELL_TIMEOUT)
        if why:
            return _shrink(cell, why), why
    return None, None


def _cells():
    g = Gen(SEED)
    return [g.grammar_cell() if g.chance(0.6) else g.typed_cell() for _ in range(CELLS)]


def test_generated_cells_never_kill_hang_or_panic_the_kernel():
    cells = _cells()
    assert len(cells) >= 3000 or "NBCUDA_FUZZ_CELLS" in os.environ
    failures = []
    for start in range(0, len(cells), BATCH):
        batch = cells[start:start + BATCH]
        why = _run(batch, BATCH_TIMEOUT)
        if not why:
            continue
        cell, alone = _culprit(batch)
        if cell is None:
            failures.append(f"batch at cell {start} ({why}); no single cell fails alone")
        else:
            failures.append(f"{alone}\n--- minimal cell ---\n{cell}\n---")
        if len(failures) >= 3:
            break
    assert not failures, f"seed {SEED}:\n\n" + "\n\n".join(failures)

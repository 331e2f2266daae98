"""nbcuda behaves as CPython 3.11 and NumPy 2 on the Python people type (issue 16): one
notebook of everyday cells -- classes, generators, numbers, the stdlib, IPython's shell
escapes and magics, the NumPy people reach for, and CPython's edges -- is executed by
nbclient with the reference `python3` ipykernel and with the `nbcuda` kernel, each in its own
empty working directory, and every cell must print the same text and raise the same error.

The expected outputs are never written down: the reference kernel produces them in the same
run. Cells print what they compute and keep their output deterministic (no addresses, times
or absolute paths), so that any difference is a difference in behaviour. The cells live in
parity_cells_lang.py, parity_cells_edges.py, parity_cells_lib.py, parity_cells_imports.py,
parity_cells_kwargs.py (module functions called by keyword), parity_cells_stdlib2.py (datetime,
collections.abc, typing records), parity_cells_builtins2.py (builtins and modules implemented
in Rust), parity_cells_cupy.py (CuPy
on nbcuda's devices against NumPy), parity_cells_npio.py (np.save/load, savez, savetxt/loadtxt),
parity_cells_stdlib3.py (printf-style %, logging, sys.exc_info and traceback),
parity_cells_npstats.py (statistics and set operations), parity_cells_npshape.py (shape,
joining and calculus functions), parity_cells_pystd.py (hashlib, hmac, uuid) and
parity_cells_npmore.py (searching and counting)."""

import re

import nbclient
import nbformat
import pytest
from parity_cells_builtins2 import BUILTINS2
from parity_cells_cupy import CUPY
from parity_cells_edges import EDGES
from parity_cells_imports import IMPORTS
from parity_cells_kwargs import KEYWORDS
from parity_cells_lang import CLASSES, FUNCTION_BODIES, GENERATORS, NUMBERS
from parity_cells_lib import IPYTHON, NUMPY, STDLIB
from parity_cells_npio import NPIO
from parity_cells_npstats import NPSTATS
from parity_cells_npshape import NPSHAPE
from parity_cells_npmore import NPMORE
from parity_cells_patterns import PATTERNS
from parity_cells_pystd import PYSTD
from parity_cells_rationals import RATIONALS
from parity_cells_stdlib2 import STDLIB2
from parity_cells_stdlib3 import STDLIB3

CELLS = CLASSES + GENERATORS + NUMBERS + FUNCTION_BODIES + STDLIB + IMPORTS + PATTERNS + RATIONALS + STDLIB2 + IPYTHON + NUMPY + KEYWORDS + EDGES + BUILTINS2 + CUPY + NPIO + STDLIB3 + NPSTATS + NPSHAPE + PYSTD + NPMORE

# Cells where nbcuda still differs from CPython/NumPy, each with what differs. The marks are
# strict: a cell that starts to match fails until its entry is removed here.
KNOWN_DIFFERENCES = {
    "np_linalg_inv_solve_det": "np.matmul does not use fused multiply-adds as OpenBLAS does, so a @ inv(a) differs in the last bit (NumPy prints -0. entries)",
    "np_printing_dtypes": "no string arrays",
    "fn_rebinding_through_a_globals_dict": "globals() and a dict passed to exec are copies of the namespace, so writing to them later does not rebind the functions' globals",
    "nan_distinct_objects": "floats are values, not objects: two NaNs computed apart are the same object here (CPython: different objects, so unequal items)",
}


def _param(index):
    name = CELLS[index][0]
    marks = ()
    if name in KNOWN_DIFFERENCES:
        marks = pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[name])
    return pytest.param(index, id=name, marks=marks)


def run(kernel_name, cwd):
    """Executes every cell in one notebook, in `cwd`, and returns the executed notebook."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src.lstrip("\n")) for _, src in CELLS]
    nbclient.NotebookClient(
        nb,
        kernel_name=kernel_name,
        allow_errors=True,
        timeout=60,
        startup_timeout=60,
        resources={"metadata": {"path": str(cwd)}},
    ).execute()
    return nb


# A SyntaxError's str() ends in "(<file>, line N)", and ipykernel's file is a temporary path.
SYNTAX_NAMES = {"SyntaxError", "IndentationError", "TabError"}
FILE_SUFFIX = re.compile(r" \([^()]*, line \d+\)$")


def observed(cell):
    """What a cell showed: its stdout, its result's text, and its error's name and value."""
    stdout, result, error = "", None, None
    for o in cell.outputs:
        if o.output_type == "stream" and o.name == "stdout":
            # IPython runs `!cmd` on a pseudo-terminal, which ends lines in "\r\n".
            stdout += o.text.replace("\r\n", "\n")
        elif o.output_type == "execute_result":
            result = o.data.get("text/plain")
        elif o.output_type == "error":
            value = o.evalue
            if o.ename in SYNTAX_NAMES:
                value = FILE_SUFFIX.sub("", value)
            error = (o.ename, value)
    return {"stdout": stdout, "result": result, "error": error}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    ref = run("python3", tmp_path_factory.mktemp("cpython"))
    ours = run("nbcuda", tmp_path_factory.mktemp("nbcuda"))
    return [observed(c) for c in ref.cells], [observed(c) for c in ours.cells]


def test_the_reference_kernel_ran_the_cells(outputs):
    """Guards the comparison: ipykernel really executed the notebook, so an empty or broken
    reference cannot make every cell pass."""
    ref, _ = outputs
    by_name = dict(zip((name for name, _ in CELLS), ref))
    assert by_name["class_methods"]["stdout"] == "9 tally tally\nmine tally tally\n"
    assert by_name["shell_echo"]["stdout"] == "hello from the shell\n"
    assert by_name["math_exp_uncaught"]["error"] == ("OverflowError", "math range error")
    assert by_name["np_uint8_overflow"]["error"][0] == "OverflowError"
    assert by_name["pow_mod_zero"]["error"] == ("ValueError", "pow() 3rd argument cannot be 0")
    assert sum(1 for o in ref if o["stdout"] or o["error"]) == len(CELLS)
    assert set(KNOWN_DIFFERENCES) <= {name for name, _ in CELLS}


@pytest.mark.parametrize("index", [_param(i) for i in range(len(CELLS))])
def test_cell_matches_cpython(outputs, index):
    ref, ours = outputs
    name, src = CELLS[index]
    if ours[index] != ref[index]:
        lines = [f"cell {name!r} differs from CPython:", src.strip("\n"), ""]
        for key in ("stdout", "result", "error"):
            if ours[index][key] != ref[index][key]:
                lines += [f"--- {key}, CPython:", str(ref[index][key]), f"--- {key}, nbcuda:", str(ours[index][key])]
        pytest.fail("\n".join(lines), pytrace=False)

"""Notebooks saved by headless executors hold what ipykernel would have written: the same
notebook is executed by nbclient (the engine under nbconvert --execute and papermill)
with the nbcuda kernel and with ipykernel, and the outputs of every cell must be equal —
in particular no "In [n] finished in X s" progress display on cells longer than 2 s."""

import nbclient
import nbformat
import pytest

from conftest import ROOT

# Each cell runs longer than the progress display's 2 s threshold; the outputs are the
# same under CPython, so ipykernel's notebook is the expected one.
CELLS = [
    "import time\ntime.sleep(2.3)\nprint('slept')\n6 * 7",
    "time.sleep(2.3)",
    "for i in range(3):\n    time.sleep(0.8)\n    print(i)",
    "x = 'quick'\nx",
]


def run(kernel_name, **kw):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nbclient.NotebookClient(
        nb,
        kernel_name=kernel_name,
        timeout=120,
        startup_timeout=60,
        resources={"metadata": {"path": str(ROOT)}},
        **kw,
    ).execute()
    return nb


def outputs(nb):
    """Each cell's outputs, without per-output metadata (ipykernel and nbcuda may differ
    in MIME metadata; the test is about which outputs exist and what they say)."""
    out = []
    for c in nb.cells:
        cell = []
        for o in c.outputs:
            o = dict(o)
            o.pop("metadata", None)
            if "data" in o:
                o["data"] = {"text/plain": o["data"].get("text/plain")}
            cell.append(o)
        out.append(cell)
    return out


@pytest.fixture(scope="module")
def ipykernel_outputs():
    return outputs(run("python3"))


# nbconvert's ExecutePreprocessor and papermill's PapermillNotebookClient are
# NotebookClient subclasses; these are the settings they run it with.
@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"record_timing": True, "raise_on_iopub_timeout": True},
        {"allow_errors": True, "store_widget_state": True},
    ],
    ids=["nbclient", "papermill-style", "nbconvert-style"],
)
def test_long_cells_save_the_outputs_ipykernel_saves(ipykernel_outputs, settings):
    got = outputs(run("nbcuda", **settings))
    assert got == ipykernel_outputs
    # Guard the comparison itself: the reference really has the cells' outputs.
    assert ipykernel_outputs[0][-1]["data"]["text/plain"] == "42"
    assert "".join(o["text"] for o in ipykernel_outputs[2]) == "0\n1\n2\n"

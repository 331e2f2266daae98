"""Notebooks through real Jupyter clients: nbclient executes every lesson in notebooks/
with the nbcuda kernel (papermill-style: raise_on_iopub_timeout), and a small notebook's
outputs from the kernel must equal what `nbcuda run` writes for it."""

import copy
import os
import pathlib
import subprocess

import nbclient
import nbformat
import pytest

from conftest import NBCUDA_BIN, ROOT

NOTEBOOKS = ROOT / "notebooks"
EXPECTED = [
    "01-memory-management",
    "02-writing-kernels",
    "03-streams-and-pinned-memory",
    "04-shared-memory",
]
FOUND = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
# The lessons the course promises, plus any other notebook that lands in the folder.
ALL = EXPECTED + [n for n in FOUND if n not in EXPECTED]


def execute(nb, **kw):
    client = nbclient.NotebookClient(
        nb,
        kernel_name="nbcuda",
        timeout=600,
        startup_timeout=60,
        raise_on_iopub_timeout=True,
        resources={"metadata": {"path": str(ROOT)}},
        **kw,
    )
    client.execute()
    return nb


def test_expected_lessons_exist():
    missing = [n for n in EXPECTED if n not in FOUND]
    assert not missing, f"notebooks/ lacks {missing}"


@pytest.mark.parametrize("name", ALL)
def test_notebook_runs_under_nbclient(name):
    path = NOTEBOOKS / f"{name}.ipynb"
    assert path.exists(), f"{path} is missing"
    nb = execute(nbformat.read(path, as_version=4))
    assert nb.metadata.language_info.name == "python"
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    assert code and all(c.execution_count for c in code)
    for c in code:
        tags = c.metadata.get("tags", [])
        if "raises-exception" not in tags:
            assert not [o for o in c.outputs if o.output_type == "error"], c.source


def sample_notebook():
    cells = [
        "print('hello, world')\nx = 5",
        "x * 2",
        "import sys; print('to stderr', file=sys.stderr)",
        "from IPython.display import display, HTML, clear_output\ndisplay(HTML('<b>x</b>'))",
        "print('gone')\nclear_output()\nprint('kept')",
        "for i in range(3):\n    print(i)",
        "raise ValueError('boom')",
        "x",
        "from IPython.display import update_display\nh = display('first', display_id='d1')",
        "update_display('second', display_id='d1')",
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in cells]
    nb.cells[6].metadata["tags"] = ["raises-exception"]
    nb.metadata["kernelspec"] = {"name": "nbcuda", "display_name": "nbcuda", "language": "python"}
    return nb


def comparable(outputs):
    """Outputs without what differs between runs (timings, tracebacks' colours aside)."""
    out = []
    for o in outputs:
        o = dict(o)
        o.pop("metadata", None)
        if "text" in o:
            o["text"] = "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
        if "data" in o:
            o["data"] = {k: "".join(v) if isinstance(v, list) else v for k, v in o["data"].items()}
        out.append(o)
    return out


def test_headless_run_matches_kernel_outputs(tmp_path):
    nb = sample_notebook()
    src = tmp_path / "sample.ipynb"
    nbformat.write(nb, src)
    via_kernel = execute(copy.deepcopy(nb))

    dst = tmp_path / "out.ipynb"
    proc = subprocess.run(
        [str(NBCUDA_BIN), "run", str(src), "-o", str(dst)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    headless = nbformat.read(dst, as_version=4)
    nbformat.validate(headless)
    for k, h in zip(via_kernel.cells, headless.cells):
        assert h.execution_count == k.execution_count
        assert comparable(h.outputs) == comparable(k.outputs), k.source
    # Spot-check the kernel's outputs against what the cells obviously produce.
    outs = [c.outputs for c in via_kernel.cells]
    assert outs[0][0]["text"] == "hello, world\n"
    assert outs[1][0]["data"]["text/plain"] == "10"
    assert outs[2][0]["name"] == "stderr"
    assert outs[3][0]["data"]["text/html"] == "<b>x</b>"
    assert [o["text"] for o in outs[4]] == ["kept\n"]
    assert [o["text"] for o in outs[5]] == ["0\n1\n2\n"]  # merged like ipykernel's stdout
    assert outs[6][0]["ename"] == "ValueError"
    assert outs[7][0]["data"]["text/plain"] == "5"
    # update_display_data replaced the earlier cell's output and added none of its own.
    assert [o["data"]["text/plain"] for o in outs[8]] == ["'second'"]
    assert outs[9] == []


def test_error_stops_nbclient_with_reply_traceback(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("raise ValueError('boom')"),
        nbformat.v4.new_code_cell("print('never')"),
    ]
    with pytest.raises(nbclient.exceptions.CellExecutionError) as err:
        execute(nb)
    assert err.value.ename == "ValueError"
    assert "boom" in str(err.value)
    assert nb.cells[1].outputs == []

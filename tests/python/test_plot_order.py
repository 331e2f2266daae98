"""Plot cells hold their outputs in the order IPython's inline backend gives them: the
cell's result (or traceback) first, then the figure that the end-of-cell flush draws.
The reference is the same notebook executed by ipykernel with matplotlib; `nbcuda run`
must write the same order as the kernel."""

import re
import subprocess

import nbclient
import nbformat

from conftest import NBCUDA_BIN, ROOT

CELLS = [
    "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])",
    "plt.plot([3, 1]);",
    "plt.plot([1, 2])\nplt.title('t')",
    "plt.plot([1, 2])\nplt.show()\n7",
    "plt.plot([1, 2])\nraise ValueError('x')",
    "x = 1\nx",
]


def notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    return nb


def run(kernel_name):
    nb = notebook()
    nbclient.NotebookClient(
        nb,
        kernel_name=kernel_name,
        allow_errors=True,
        timeout=120,
        startup_timeout=60,
        resources={"metadata": {"path": str(ROOT)}},
    ).execute()
    return nb


def shape(nb):
    """(output_type, text/plain or ename) per output, object addresses blanked."""
    out = []
    for c in nb.cells:
        cell = []
        for o in c.outputs:
            text = o.get("ename") or "".join(o.get("data", {}).get("text/plain", ""))
            cell.append((o.output_type, re.sub(r"0x[0-9a-f]+", "0x…", text)))
        out.append(cell)
    return out


def test_plot_outputs_come_in_ipykernel_order(tmp_path):
    expected = shape(run("python3"))
    # Guard the reference: ipykernel really put the result before the figure.
    assert [t for t, _ in expected[0]] == ["execute_result", "display_data"]
    assert shape(run("nbcuda")) == expected

    src = tmp_path / "plots.ipynb"
    nbformat.write(notebook(), src)
    dst = tmp_path / "out.ipynb"
    proc = subprocess.run(
        [str(NBCUDA_BIN), "run", str(src), "-o", str(dst), "--allow-errors"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert shape(nbformat.read(dst, as_version=4)) == expected

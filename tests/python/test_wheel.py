"""`pip install nbcuda` alone makes Jupyter list and start the kernel: the wheel is built
from this checkout with maturin (pyproject.toml), installed into a fresh virtualenv, and
that environment's Jupyter lists the kernelspec from its own prefix and executes
notebooks/01 with nbclient through it, with the wheel's binary found from the kernelspec
and not from PATH.

The wheel is built with the dev profile into the same target directory as `cargo build`,
so in tests/run.sh it reuses the binary already built and only packs it (a release wheel is
what `pip install .` builds; its contents are the same apart from optimisation)."""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

from conftest import ROOT

NOTEBOOK = ROOT / "notebooks" / "01-memory-management.ipynb"
SPEC = "share/jupyter/kernels/nbcuda"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheels")
    maturin = pathlib.Path(sys.executable).with_name("maturin")
    assert maturin.exists(), "maturin is missing: tests/requirements.txt pins it"
    subprocess.run(
        [str(maturin), "build", "--profile", "dev", "--out", str(out), "--quiet"],
        cwd=ROOT,
        check=True,
    )
    wheels = list(out.glob("nbcuda-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    """A fresh virtualenv with only the wheel installed, then given this test
    environment's Jupyter packages (read through a .pth, so nothing is downloaded)."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    py = env_dir / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet",
         "--no-index", "--no-deps", "--disable-pip-version-check", str(wheel)],
        check=True,
    )
    # Only now add the Jupyter packages: pip must see an environment without them.
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    pathlib.Path(site, "_test_jupyter_packages.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n"
    )
    return env_dir


def clean_env(tmp_path):
    """The environment a user's Jupyter would see: no JUPYTER_PATH (tests/run.sh points it
    at the dev kernelspec), an empty per-user data dir (a `nbcuda install --user` there
    would win over the venv's), and no nbcuda on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env["JUPYTER_DATA_DIR"] = str(tmp_path / "data")
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "config")
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", os.defpath).split(os.pathsep)
        if d and not (pathlib.Path(d) / "nbcuda").exists()
    )
    return env


def test_wheel_holds_the_binary_and_the_kernelspec(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    data = [n for n in names if ".data/" in n]
    version = wheel.name.split("-")[1]
    prefix = f"nbcuda-{version}.data"
    assert f"{prefix}/scripts/nbcuda" in data
    for f in ["kernel.json", "logo-32x32.png", "logo-64x64.png"]:
        assert f"{prefix}/data/{SPEC}/{f}" in data, data
    spec = json.loads(zipfile.ZipFile(wheel).read(f"{prefix}/data/{SPEC}/kernel.json"))
    assert spec["argv"][1:] == ["kernel", "-f", "{connection_file}"]
    assert spec["interrupt_mode"] == "message"


# `jupyter kernelspec ARGS` run by the venv's Python: the `jupyter-kernelspec` entry point
# (the venv reads jupyter_client through a .pth, so pip wrote no console scripts for it).
KERNELSPEC = "import sys; from jupyter_client.kernelspecapp import KernelSpecApp; " \
    "sys.argv[0] = 'jupyter-kernelspec'; KernelSpecApp.launch_instance()"


def test_pip_install_makes_jupyter_list_the_kernel(venv, tmp_path):
    py = venv / "bin" / "python"
    assert (venv / "bin" / "nbcuda").exists()
    assert (venv / SPEC / "kernel.json").exists()
    listed = subprocess.run(
        [str(py), "-c", KERNELSPEC, "list", "--json"],
        env=clean_env(tmp_path), capture_output=True, text=True, check=True,
    ).stdout
    specs = json.loads(listed)["kernelspecs"]
    assert "nbcuda" in specs, listed
    assert pathlib.Path(specs["nbcuda"]["resource_dir"]).resolve() == (venv / SPEC).resolve()
    assert specs["nbcuda"]["spec"]["display_name"] == "nbcuda (Numba CUDA, Rust)"
    # The plain command a user types lists it too.
    text = subprocess.run(
        [str(py), "-c", KERNELSPEC, "list"],
        env=clean_env(tmp_path), capture_output=True, text=True, check=True,
    ).stdout
    assert any(line.split()[:1] == ["nbcuda"] for line in text.splitlines()), text


# Run inside the fresh venv: the command Jupyter would launch, then notebook 01 through
# nbclient; prints the command and the executed notebook's summary as JSON.
RUN_NOTEBOOK = r"""
import json, os, sys
import jupyter_client, nbclient, nbformat
km = jupyter_client.KernelManager(kernel_name="nbcuda")
cmd = km.format_kernel_cmd()
nb = nbformat.read(sys.argv[1], as_version=4)
nbclient.NotebookClient(nb, kernel_name="nbcuda", timeout=600, startup_timeout=60,
    raise_on_iopub_timeout=True,
    resources={"metadata": {"path": os.path.dirname(sys.argv[1])}}).execute()
code = [c for c in nb.cells if c.cell_type == "code"]
print(json.dumps({
    "cmd": cmd,
    "language": nb.metadata.language_info.name,
    "unexecuted": [c.source for c in code if not c.execution_count],
    "errors": [c.source for c in code for o in c.outputs if o.output_type == "error"],
    "images": sum("image/png" in o.get("data", {}) for c in code for o in c.outputs),
}))
"""


def test_installed_kernel_executes_notebook_01(venv, tmp_path):
    py = venv / "bin" / "python"
    nb = tmp_path / NOTEBOOK.name
    shutil.copy(NOTEBOOK, nb)
    got = subprocess.run(
        [str(py), "-c", RUN_NOTEBOOK, str(nb)],
        env=clean_env(tmp_path), capture_output=True, text=True, cwd=tmp_path,
    )
    assert got.returncode == 0, got.stderr[-4000:]
    summary = json.loads(got.stdout.strip().splitlines()[-1])
    # Jupyter launched the wheel's script, found through the kernelspec's own directory.
    assert pathlib.Path(summary["cmd"][0]).resolve() == (venv / "bin" / "nbcuda").resolve()
    assert summary["language"] == "python"
    assert summary["unexecuted"] == []
    assert summary["errors"] == []
    # The waveform plot, the %timeit chart and the two timelines.
    assert summary["images"] >= 4

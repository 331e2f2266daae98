"""Make the nbcuda kernelspec findable for every test.

tests/run.sh installs it into a temporary JUPYTER_PATH and sets NBCUDA_BIN. When pytest is
run directly, this installs the freshly built target/debug/nbcuda into a temporary prefix
the same way, so the suite never picks up a stale, user-wide kernelspec by accident."""

import atexit
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _binary() -> pathlib.Path:
    env = os.environ.get("NBCUDA_BIN")
    if env:
        return pathlib.Path(env)
    return ROOT / "target" / "debug" / "nbcuda"


NBCUDA_BIN = _binary()


def _ensure_kernelspec() -> None:
    for d in os.environ.get("JUPYTER_PATH", "").split(os.pathsep):
        if d and (pathlib.Path(d) / "kernels" / "nbcuda" / "kernel.json").exists():
            return
    if not NBCUDA_BIN.exists():
        raise RuntimeError(f"{NBCUDA_BIN} does not exist: run `cargo build` first")
    prefix = tempfile.mkdtemp(prefix="nbcuda-jupyter-")
    atexit.register(shutil.rmtree, prefix, True)
    subprocess.run([str(NBCUDA_BIN), "install", "--prefix", prefix], check=True)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", os.path.join(prefix, "runtime"))


_ensure_kernelspec()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Expose each phase's report as item.rep_<phase>, so a fixture's teardown can tell
    that its test failed (tests/python/test_browser.py keeps a screenshot then)."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)

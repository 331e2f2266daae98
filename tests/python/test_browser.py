"""nbcuda in JupyterLab, in a real browser: JupyterLab (pinned in tests/requirements.txt)
driven by Playwright for Python with Debian's chromium, launched by path and headless
(Playwright downloads no browser; tests/run.sh installs chromium with apt when missing).

One JupyterLab session, as a user would go: open notebooks/01 (a copy without outputs and
without a kernel choice), pick the nbcuda kernel in the dialog, Run All and wait for idle,
then completion, interrupt and restart in new cells. A failing step leaves a screenshot and
the JupyterLab log under test-artifacts/browser/ (the path is in the failure message)."""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import nbformat
import pytest
from playwright import sync_api

from conftest import ROOT

CHROMIUM = os.environ.get("NBCUDA_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "browser"
NOTEBOOK = ROOT / "notebooks" / "01-memory-management.ipynb"
KERNEL_LABEL = "nbcuda (Numba CUDA, Rust)"
# Per-user JupyterLab settings for the test's own settings dir: no news or update checks
# (nothing may be fetched, and their toasts would cover the notebook).
SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 serving a folder with a bare copy of notebook 01."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: tests/run.sh installs it (apt-get install chromium)")
    home = tmp_path_factory.mktemp("lab")
    root = home / "root"
    root.mkdir()
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # Without a kernelspec in its metadata JupyterLab asks which kernel to start; without
    # outputs every rendered image comes from this run.
    nb.metadata.pop("kernelspec", None)
    nb.metadata.pop("language_info", None)
    for c in nb.cells:
        if c.cell_type == "code":
            c.outputs, c.execution_count = [], None
    nbformat.write(nb, root / NOTEBOOK.name)
    for name, value in SETTINGS.items():
        path = home / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    env = dict(os.environ)
    env.update(
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
    )
    port = free_port()
    log_path = home / "lab.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
             "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
             "--IdentityProvider.token=", "--ServerApp.password=",
             f"--ServerApp.root_dir={root}", "--LabApp.extension_manager=readonly"],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(url + "/api", timeout=5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not start:\n{log_path.read_text()[-3000:]}")
                time.sleep(0.3)
        yield {"url": url, "root": root, "log": log_path}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


class Lab:
    """The notebook panel, driven through keyboard, menus and toolbar like a user."""

    def __init__(self, page):
        self.page = page

    def cells(self):
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")

    def status(self):
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook-ExecutionIndicator")

    def wait_idle(self, timeout=60):
        deadline = time.monotonic() + timeout
        while self.status().get_attribute("data-status") != "idle":
            assert time.monotonic() < deadline, "kernel never went idle"
            time.sleep(0.1)

    def menu(self, top, item):
        self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{top}$")).click()
        self.page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()

    def new_cell(self, code):
        """Append a code cell after the last one, type `code` into it; returns its index."""
        index = self.cells().count()
        self.cells().last.locator(".jp-InputPrompt").click()
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("b")
        self.cells().nth(index).wait_for()
        self.page.keyboard.press("Enter")
        self.page.keyboard.type(code)
        return index

    def prompt(self, index):
        return self.cells().nth(index).locator(".jp-InputPrompt").text_content().strip()

    def output_text(self, index):
        return self.cells().nth(index).locator(".jp-OutputArea").inner_text()


@pytest.fixture(scope="module")
def notebook(lab):
    pw = sync_api.sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                 args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)
    page.goto(f"{lab['url']}/lab/tree/{NOTEBOOK.name}")
    yield Lab(page), lab
    browser.close()
    pw.stop()


@pytest.fixture(autouse=True)
def screenshot_on_failure(request):
    yield
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed and "notebook" in request.fixturenames:
        nb, lab = request.getfixturevalue("notebook")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / f"{request.node.name}.png"
        nb.page.screenshot(path=str(shot), full_page=True)
        shutil.copy(lab["log"], ARTIFACTS / "lab.log")
        print(f"\nscreenshot: {shot}\nJupyterLab log: {ARTIFACTS / 'lab.log'}")


def test_pick_kernel_and_run_all(notebook):
    nb, lab = notebook
    page = nb.page
    dialog = page.locator(".jp-Dialog")
    dialog.locator("select").select_option(label=KERNEL_LABEL)
    dialog.locator(".jp-Dialog-button.jp-mod-accept").click()
    page.locator(".jp-NotebookPanel:visible .jp-Toolbar-kernelName",
                 has_text=KERNEL_LABEL).wait_for()
    nb.wait_idle()
    nb.menu("Run", "Run All Cells")
    prompts = page.locator(".jp-NotebookPanel:visible .jp-CodeCell .jp-InputPrompt")
    n_code = prompts.count()
    assert n_code > 10
    deadline = time.monotonic() + 300
    while True:
        texts = [t.strip() for t in prompts.all_text_contents()]
        if all(re.fullmatch(r"\[\d+\]:", t) for t in texts):
            break
        assert time.monotonic() < deadline, texts
        time.sleep(0.5)
    nb.wait_idle()
    # Errors and stderr both render with the stderr MIME type; the lesson writes neither.
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.all_inner_texts()
    images = page.locator(".jp-NotebookPanel:visible .jp-OutputArea-output img")
    assert images.count() >= 4
    for i in range(images.count()):
        assert images.nth(i).get_attribute("src").startswith("data:image/png;base64,")
    # The notebook as JupyterLab saves it agrees.
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 30
    path = lab["root"] / NOTEBOOK.name
    while not nbformat.read(path, as_version=4).metadata.get("kernelspec"):
        assert time.monotonic() < deadline, "the notebook was never saved"
        time.sleep(0.3)
    saved = nbformat.read(path, as_version=4)
    assert saved.metadata.kernelspec.name == "nbcuda"
    code = [c for c in saved.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]


def test_tab_completes_numpy_names(notebook):
    nb, _ = notebook
    nb.new_cell("np.ar")
    nb.page.keyboard.press("Tab")
    items = nb.page.locator(".jp-Completer .jp-Completer-item")
    items.first.wait_for()
    names = {t.strip() for t in nb.page.locator(".jp-Completer .jp-Completer-match").all_inner_texts()}
    assert {"arange", "array"} <= names, names
    nb.page.keyboard.press("Escape")


def test_interrupt_stops_sleep_within_two_seconds(notebook):
    nb, _ = notebook
    nb.wait_idle()
    index = nb.new_cell("import time; time.sleep(30)")
    nb.page.keyboard.press("Shift+Enter")
    deadline = time.monotonic() + 10
    while nb.prompt(index) != "[*]:" or nb.status().get_attribute("data-status") != "busy":
        assert time.monotonic() < deadline, nb.prompt(index)
        time.sleep(0.05)
    time.sleep(0.5)
    t0 = time.monotonic()
    nb.page.locator(".jp-NotebookPanel:visible [data-command='notebook:interrupt-kernel']").click()
    while "KeyboardInterrupt" not in nb.output_text(index) or nb.prompt(index) == "[*]:":
        assert time.monotonic() - t0 < 2, "the cell was not interrupted within 2 s"
        time.sleep(0.05)
    nb.wait_idle(timeout=2)


def test_restart_clears_variables(notebook):
    nb, _ = notebook
    nb.wait_idle()
    index = nb.new_cell("zzq_restart = 7\nprint(zzq_restart * 6)")
    nb.page.keyboard.press("Shift+Enter")
    deadline = time.monotonic() + 30
    while "42" not in nb.output_text(index):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    nb.wait_idle()
    nb.menu("Kernel", "Restart Kernel…")
    nb.page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").click()
    nb.page.locator(".jp-Dialog").wait_for(state="detached")
    # The indicator leaves idle while the kernel restarts, then returns to it.
    time.sleep(1)
    nb.wait_idle()
    index = nb.new_cell("print('zzq_restart' in dir())\nzzq_restart")
    nb.page.keyboard.press("Shift+Enter")
    deadline = time.monotonic() + 30
    while "NameError" not in nb.output_text(index):
        assert time.monotonic() < deadline, nb.output_text(index)
        time.sleep(0.1)
    assert nb.output_text(index).startswith("False")

"""The kernel through jupyter_client's own manager and client: interrupts as the
kernelspec declares them, stdin, forged messages, restart and graceful shutdown."""

import threading
import time

import jupyter_client
import pytest
from jupyter_client.session import Session


@pytest.fixture
def kernel():
    km, kc = jupyter_client.manager.start_new_kernel(kernel_name="nbcuda", startup_timeout=60)
    yield km, kc
    kc.stop_channels()
    if km.is_alive():
        km.shutdown_kernel(now=True)


def run(kc, code, **kw):
    """Execute; return (reply content, stdout text, iopub messages)."""
    msgs = []
    reply = kc.execute_interactive(code, timeout=60, output_hook=msgs.append, **kw)
    out = "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream")
    return reply["content"], out, msgs


def test_interrupt_kernel_stops_a_cell_and_keeps_state(kernel):
    km, kc = kernel
    run(kc, "x = 41")
    timer = threading.Timer(1.0, km.interrupt_kernel)
    timer.start()
    t0 = time.monotonic()
    reply, _, msgs = run(kc, "import time; time.sleep(10)")
    timer.join()
    assert reply["status"] == "error"
    assert reply["ename"] == "KeyboardInterrupt"
    assert time.monotonic() - t0 < 9
    assert [m for m in msgs if m["msg_type"] == "error"]
    reply, out, _ = run(kc, "print(x + 1)")
    assert reply["status"] == "ok" and out == "42\n"


def test_input_goes_through_stdin(kernel):
    _, kc = kernel
    prompts = []

    def answer(msg):
        prompts.append(msg["content"]["prompt"])
        kc.input("Grace")

    reply, out, _ = run(kc, "name = input('name? ')\nprint('hello', name)", allow_stdin=True, stdin_hook=answer)
    assert reply["status"] == "ok"
    assert prompts == ["name? "]
    assert out == "hello Grace\n"


def test_message_signed_with_another_key_is_dropped(kernel):
    _, kc = kernel
    forger = Session(key=b"not-the-key", username="mallory")
    forger.send(kc.shell_channel.socket, "execute_request",
                {"code": "print('forged')", "silent": False, "store_history": True,
                 "user_expressions": {}, "allow_stdin": False})
    reply, out, _ = run(kc, "print('genuine')")
    assert reply["status"] == "ok"
    assert out == "genuine\n"
    # Nothing else arrives later either.
    time.sleep(0.3)
    while True:
        try:
            m = kc.get_iopub_msg(timeout=0.2)
        except Exception:
            break
        assert "forged" not in str(m.get("content"))


def test_restart_clears_the_session(kernel):
    km, kc = kernel
    run(kc, "y = 1")
    km.restart_kernel()
    kc.wait_for_ready(timeout=60)
    reply, _, _ = run(kc, "y")
    assert reply["status"] == "error" and reply["ename"] == "NameError"
    reply, out, _ = run(kc, "print('fresh')")
    assert out == "fresh\n"


def test_graceful_shutdown_exits_by_itself(kernel):
    km, kc = kernel
    proc = km.provisioner.process
    km.shutdown_kernel(now=False)
    # Exit status 0 means it left on shutdown_request, not by SIGTERM/SIGKILL escalation.
    assert proc.wait(timeout=10) == 0


def test_kernelspec_is_listed_by_jupyter():
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "jupyter_client.kernelspecapp", "list", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    specs = json.loads(out)["kernelspecs"]
    assert "nbcuda" in specs
    spec = specs["nbcuda"]["spec"]
    assert spec["language"] == "python"
    assert spec["display_name"] == "nbcuda (Numba CUDA, Rust)"
    assert spec["argv"][1:] == ["kernel", "-f", "{connection_file}"]

"""nbcuda as a remote kernel: Jupyter Kernel Gateway (the engine JupyterLab, Enterprise
Gateway and `jupyter server --gateway-url` clients talk to) serves the nbcuda kernelspec on
127.0.0.1; the test creates a kernel over its REST API, runs cells over its websocket (a
device round trip and a plot), interrupts a long cell, and deletes the kernel.

The commands are the ones README.md's "Running nbcuda remotely" section shows."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid

import pytest
import websocket

TOKEN = "nbcuda-test-token"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    port = free_port()
    home = tmp_path_factory.mktemp("gateway")
    log = home / "gateway.log"
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(home / "runtime"))
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "kernelgateway",
             "--KernelGatewayApp.ip=127.0.0.1", f"--KernelGatewayApp.port={port}",
             "--KernelGatewayApp.port_retries=0",
             f"--KernelGatewayApp.auth_token={TOKEN}",
             "--KernelGatewayApp.default_kernel_name=nbcuda",
             "--JupyterWebsocketPersonality.list_kernels=True"],
            stdout=out, stderr=subprocess.STDOUT, env=env,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                api(base, "GET", "/api")
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"kernel gateway did not start:\n{log.read_text()[-3000:]}")
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def api(base, method, path, body=None):
    """One REST call with the gateway's token; returns (status, parsed JSON or None)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Authorization", f"token {TOKEN}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as r:
        text = r.read()
        return r.status, (json.loads(text) if text else None)


class Channels:
    """The kernel's channels over the gateway's websocket (Jupyter's JSON framing)."""

    def __init__(self, base, kernel_id):
        url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels"
        self.ws = websocket.create_connection(
            url, header=[f"Authorization: token {TOKEN}"], timeout=60
        )
        self.session = uuid.uuid4().hex

    def execute(self, code, timeout=60, on_busy=None):
        """Send execute_request; return (reply content, iopub messages for it)."""
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "test",
                       "session": self.session, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
        }))
        iopub, reply, idle = [], None, False
        deadline = time.monotonic() + timeout
        while reply is None or not idle:
            assert time.monotonic() < deadline, f"no reply to {code!r}"
            msg = json.loads(self.ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if msg["channel"] == "shell":
                reply = msg["content"]
            elif msg["channel"] == "iopub":
                iopub.append(msg)
                state = msg["content"].get("execution_state")
                if state == "busy" and on_busy:
                    on_busy()
                idle = idle or state == "idle"
        return reply, iopub

    def close(self):
        self.ws.close()


def stdout(iopub):
    return "".join(m["content"]["text"] for m in iopub
                   if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")


def test_remote_kernel_over_rest_and_websocket(gateway):
    status, specs = api(gateway, "GET", "/api/kernelspecs")
    assert status == 200 and "nbcuda" in specs["kernelspecs"], specs
    status, kernel = api(gateway, "POST", "/api/kernels", {"name": "nbcuda"})
    assert status == 201 and kernel["name"] == "nbcuda", kernel
    kid = kernel["id"]
    ch = Channels(gateway, kid)
    try:
        # A device round trip: host -> device, a ufunc on the device, device -> host.
        reply, iopub = ch.execute(
            "import numpy as np\n"
            "from numba import cuda, vectorize\n"
            "@vectorize(['float32(float32, float32)'], target='cuda')\n"
            "def add(a, b):\n    return a + b\n"
            "d = cuda.to_device(np.arange(8, dtype=np.float32))\n"
            "out = add(d, d).copy_to_host()\n"
            "print(out.tolist(), out.dtype)"
        )
        assert reply["status"] == "ok", reply
        assert stdout(iopub) == f"{[float(2 * i) for i in range(8)]} float32\n"

        reply, iopub = ch.execute(
            "%matplotlib inline\nimport matplotlib.pyplot as plt\n"
            "plt.plot([1, 4, 9]); plt.show()"
        )
        assert reply["status"] == "ok", reply
        pngs = [m["content"]["data"]["image/png"] for m in iopub
                if m["msg_type"] == "display_data" and "image/png" in m["content"]["data"]]
        assert len(pngs) == 1 and pngs[0].startswith("iVBORw0KGgo"), iopub

        # Interrupt over REST once the long cell is running; state survives it.
        reply, _ = ch.execute("kept = 41")
        asked = []

        def interrupt():
            time.sleep(0.5)
            asked.append(time.monotonic())
            assert api(gateway, "POST", f"/api/kernels/{kid}/interrupt")[0] == 204

        reply, iopub = ch.execute("import time\ntime.sleep(30)", on_busy=interrupt)
        assert reply["status"] == "error" and reply["ename"] == "KeyboardInterrupt", reply
        assert time.monotonic() - asked[0] < 5
        reply, iopub = ch.execute("print(kept + 1)")
        assert stdout(iopub) == "42\n"
    finally:
        ch.close()
        status, _ = api(gateway, "DELETE", f"/api/kernels/{kid}")
    assert status == 204
    _, kernels = api(gateway, "GET", "/api/kernels")
    assert kid not in [k["id"] for k in kernels]

"""Benchmarks, one table: the protocol sections below (nbcuda against ipykernel, started
the same way by jupyter_client in the same run) plus the compute sections of
bench/compute.py. A section is a function returning rows of
(name, nbcuda_seconds, peer_name, peer_seconds, metric, op, target) as compute.main
prints them; add sections to SECTIONS."""

import hashlib
import hmac
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import zmq
from jupyter_client.kernelspec import KernelSpecManager

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compute  # noqa: E402  (the compute sections live beside this file)

STARTS = int(os.environ.get("NBCUDA_BENCH_STARTS", "5"))
ROUND_TRIPS = int(os.environ.get("NBCUDA_BENCH_ROUND_TRIPS", "1000"))
PEER = "python3"  # ipykernel, from the same venv


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class RawKernel:
    """A kernel process started from its kernelspec argv with our own connection file, and
    a lean pyzmq client (signing and parsing only what it needs), so that the numbers are
    dominated by the kernels rather than by client-side Python."""

    def __init__(self, kernel_name):
        spec = KernelSpecManager().get_kernel_spec(kernel_name)
        self.key = uuid.uuid4().hex.encode()
        shell, iopub, stdin, control, hb = free_ports(5)
        self.dir = tempfile.mkdtemp(prefix="nbcuda-bench-")
        cf = os.path.join(self.dir, "kernel.json")
        with open(cf, "w") as f:
            json.dump({"transport": "tcp", "ip": "127.0.0.1", "shell_port": shell,
                       "iopub_port": iopub, "stdin_port": stdin, "control_port": control,
                       "hb_port": hb, "key": self.key.decode(),
                       "signature_scheme": "hmac-sha256", "kernel_name": kernel_name}, f)
        argv = [a.replace("{connection_file}", cf) for a in spec.argv]
        if argv[0] in ("python", "python3"):
            argv[0] = sys.executable
        self.ctx = zmq.Context()
        # Retry connecting every millisecond while the kernel starts (the default 100 ms
        # would be measured as start-up time).
        self.ctx.setsockopt(zmq.RECONNECT_IVL, 1)
        self.shell = self.ctx.socket(zmq.DEALER)
        self.shell.connect(f"tcp://127.0.0.1:{shell}")
        self.iopub = self.ctx.socket(zmq.SUB)
        self.iopub.setsockopt(zmq.SUBSCRIBE, b"")
        self.iopub.connect(f"tcp://127.0.0.1:{iopub}")
        self.control = self.ctx.socket(zmq.DEALER)
        self.control.connect(f"tcp://127.0.0.1:{control}")
        self.session = uuid.uuid4().hex
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=dict(os.environ, **spec.env))

    def send(self, sock, msg_type, content):
        msg_id = uuid.uuid4().hex
        header = json.dumps({"msg_id": msg_id, "session": self.session, "username": "bench",
                             "date": "2026-01-01T00:00:00.000000Z", "msg_type": msg_type,
                             "version": "5.3"}).encode()
        parts = [header, b"{}", b"{}", json.dumps(content).encode()]
        sig = hmac.new(self.key, b"".join(parts), hashlib.sha256).hexdigest().encode()
        sock.send_multipart([b"<IDS|MSG>", sig] + parts)
        return msg_id

    @staticmethod
    def parts(frames):
        i = frames.index(b"<IDS|MSG>")
        return json.loads(frames[i + 2]), json.loads(frames[i + 3]), frames[i + 5]

    def wait_shell_reply(self, msg_id, timeout=60):
        if not self.shell.poll(timeout * 1000):
            raise TimeoutError("no shell reply")
        while True:
            _, parent, _ = self.parts(self.shell.recv_multipart())
            if parent.get("msg_id") == msg_id:
                return

    def wait_idle(self, msg_id, timeout=30):
        while True:
            if not self.iopub.poll(timeout * 1000):
                raise TimeoutError("no idle")
            header, parent, content = self.parts(self.iopub.recv_multipart())
            if (header["msg_type"] == "status" and parent.get("msg_id") == msg_id
                    and b'"idle"' in content):
                return

    def ready(self):
        """Wait until IOPub delivers (the slow-joiner dance wait_for_ready does)."""
        while True:
            msg_id = self.send(self.shell, "kernel_info_request", {})
            self.wait_shell_reply(msg_id)
            try:
                self.wait_idle(msg_id, timeout=0.5)
                return
            except TimeoutError:
                continue

    def close(self):
        self.send(self.control, "shutdown_request", {"restart": False})
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.ctx.destroy(linger=0)
        shutil.rmtree(self.dir, ignore_errors=True)


def startup_times(kernel_name):
    """Median seconds from launching the process to its first kernel_info_reply."""
    times = []
    for _ in range(STARTS):
        k = RawKernel(kernel_name)
        # DEALER queues the request until the kernel binds, so one request measures the
        # real start-up time with no polling granularity.
        msg_id = k.send(k.shell, "kernel_info_request", {})
        k.wait_shell_reply(msg_id)
        times.append(time.perf_counter() - k.t0)
        k.close()
    return statistics.median(times)


def round_trips(kernel_name):
    """Median seconds from sending a trivial execute_request to its idle status."""
    k = RawKernel(kernel_name)
    k.ready()
    times = []
    for i in range(ROUND_TRIPS):
        t0 = time.perf_counter()
        msg_id = k.send(k.shell, "execute_request",
                        {"code": f"x = {i}", "silent": False, "store_history": False,
                         "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        k.wait_idle(msg_id)
        times.append(time.perf_counter() - t0)
        k.wait_shell_reply(msg_id)
    k.close()
    return statistics.median(times)


def protocol_startup():
    return [
        (
            f"kernel start to kernel_info_reply (median of {STARTS})",
            startup_times("nbcuda"),
            "ipykernel",
            startup_times(PEER),
            "time",
            "<=",
            0.1,
        )
    ]


def protocol_round_trip():
    return [
        (
            f"trivial execute, busy to idle (median of {ROUND_TRIPS})",
            round_trips("nbcuda"),
            "ipykernel",
            round_trips(PEER),
            "time",
            "<=",
            0.1,
        )
    ]


SECTIONS = [protocol_startup, protocol_round_trip] + list(compute.SECTIONS)


def main():
    names = KernelSpecManager().find_kernel_specs()
    for k in ("nbcuda", PEER):
        if k not in names:
            sys.exit(f"kernelspec {k!r} not found (have {sorted(names)}); run bench/run.sh")
    compute.SECTIONS = SECTIONS
    compute.main()


if __name__ == "__main__":
    main()

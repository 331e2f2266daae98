"""Benchmarks, one table: the protocol sections below (nbcuda against ipykernel, started
the same way by jupyter_client in the same run) plus the compute sections of
bench/compute.py. A section is a function returning rows of
(name, nbcuda_seconds, peer_name, peer_seconds, target); add sections to SECTIONS."""

import os
import statistics
import sys
import time

import jupyter_client
from jupyter_client.kernelspec import KernelSpecManager

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compute  # noqa: E402  (the compute sections live beside this file)

STARTS = int(os.environ.get("NBCUDA_BENCH_STARTS", "5"))
ROUND_TRIPS = int(os.environ.get("NBCUDA_BENCH_ROUND_TRIPS", "1000"))
PEER = "python3"  # ipykernel, from the same venv


def start(kernel_name):
    """Start a kernel; seconds from launch to the first kernel_info_reply."""
    km = jupyter_client.KernelManager(kernel_name=kernel_name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    # DEALER queues the request until the kernel has bound its socket, so one request
    # measures the real start-up time without polling granularity.
    msg_id = kc.kernel_info()
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    took = time.perf_counter() - t0
    return km, kc, took


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=False)


def startup_times(kernel_name):
    times = []
    for _ in range(STARTS):
        km, kc, took = start(kernel_name)
        times.append(took)
        stop(km, kc)
    return statistics.median(times)


def round_trips(kernel_name):
    """Median seconds from sending a trivial execute_request to its idle status."""
    km, kc, _ = start(kernel_name)
    kc.wait_for_ready(timeout=60)
    times = []
    for i in range(ROUND_TRIPS):
        t0 = time.perf_counter()
        msg_id = kc.execute(f"x = {i}", store_history=False)
        while True:
            m = kc.get_iopub_msg(timeout=30)
            if (
                m["parent_header"].get("msg_id") == msg_id
                and m["msg_type"] == "status"
                and m["content"]["execution_state"] == "idle"
            ):
                break
        times.append(time.perf_counter() - t0)
        kc.get_shell_msg(timeout=30)
    stop(km, kc)
    return statistics.median(times)


def protocol_startup():
    return [
        (
            f"kernel start to kernel_info_reply (median of {STARTS})",
            startup_times("nbcuda"),
            "ipykernel",
            startup_times(PEER),
            "<= 0.1",
        )
    ]


def protocol_round_trip():
    return [
        (
            f"trivial execute, busy to idle (median of {ROUND_TRIPS})",
            round_trips("nbcuda"),
            "ipykernel",
            round_trips(PEER),
            "<= 0.1",
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

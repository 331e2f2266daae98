"""Compute benchmarks: nbcuda (through `nbcuda run`, in-process) against NumPy, Numba and
matplotlib measured in the same run on the same machine. Each function returns rows of
(name, nbcuda_seconds, peer_name, peer_seconds, metric, op, target):

- metric "time": ratio = nbcuda time / peer time (lower is better);
- metric "bandwidth": ratio = nbcuda GB/s / peer GB/s for the same bytes moved, which is
  peer time / nbcuda time (higher is better), as the issue phrases the copy target;
- metric "absolute": ratio = nbcuda time / peer time where the "peer" is a fixed budget.

The target is met when `ratio op target` holds; each row prints its target and whether it
was met."""
import json
import os
import re
import subprocess
import sys
import tempfile
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
UNITS = {"ns": 1e-9, "\u03bcs": 1e-6, "\u00b5s": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def nbcuda_binary():
    return os.environ.get("NBCUDA_BIN", os.path.join(ROOT, "target", "release", "nbcuda"))


def run_cells(cells, env=None, log=None):
    """Run code cells in one nbcuda session; return each cell's stdout text. `env` adds
    environment variables; `log`, a list, receives the session's stderr lines."""
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells],
          "metadata": {"kernelspec": {"name": "nbcuda", "display_name": "nbcuda", "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "b.ipynb"), os.path.join(d, "o.ipynb")
        with open(src, "w") as f:
            json.dump(nb, f)
        full_env = dict(os.environ, **(env or {}))
        done_run = subprocess.run([nbcuda_binary(), "run", src, "-o", out], check=True, env=full_env,
                                  stderr=subprocess.PIPE if log is not None else subprocess.DEVNULL)
        if log is not None:
            log.extend(done_run.stderr.decode(errors="replace").splitlines())
        with open(out) as f:
            done = json.load(f)
    texts = []
    for c in done["cells"]:
        t = ""
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream":
                t += "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
        texts.append(t)
    return texts


def parse_timeit(text):
    """Mean seconds per loop from an IPython-format %timeit line."""
    m = re.search(r"([0-9.e+-]+) (ns|\u03bcs|\u00b5s|us|ms|s) \u00b1", text)
    if not m:
        raise RuntimeError(f"no %timeit line in: {text!r}")
    return float(m.group(1)) * UNITS[m.group(2)]


def best_of(stmt, setup_globals, repeat=7):
    t = timeit.Timer(stmt, globals=setup_globals)
    number, _ = t.autorange()
    return min(t.repeat(repeat=repeat, number=number)) / number, sum(t.repeat(repeat=repeat, number=number)) / (repeat * number)


def mean_of(stmt, g, repeat=7):
    return best_of(stmt, g, repeat)[1]


def host_arrays():
    import numpy as np
    x = np.arange(5_000_000, dtype=np.float32)
    cells = ["import numpy as np\nx = np.arange(5_000_000, dtype=np.float32)", "%timeit y = 2 * x"]
    nb = parse_timeit(run_cells(cells)[1])
    peer = mean_of("y = 2 * x", {"x": x})
    return [("y = 2 * x, 5M float32 (host)", nb, "NumPy", peer, "time", "<=", 1.0)]


def transfers():
    import numpy as np
    x = np.arange(5_000_000, dtype=np.float32)
    h = np.empty_like(x)
    cells = [
        "import numpy as np\nfrom numba import cuda\nx = np.arange(5_000_000, dtype=np.float32)\nh = np.empty_like(x)\nd = cuda.to_device(x)",
        "%timeit d.copy_to_device(x); cuda.synchronize()",
        "%timeit d.copy_to_host(h)",
    ]
    out = run_cells(cells)
    copy = mean_of("np.copyto(h, x)", {"np": np, "h": h, "x": x})
    return [
        ("H->D 5M float32 copy bandwidth", parse_timeit(out[1]), "np.copyto", copy, "bandwidth", ">=", 0.9),
        ("D->H 5M float32 copy bandwidth", parse_timeit(out[2]), "np.copyto", copy, "bandwidth", ">=", 0.9),
    ]


def kernels():
    import numpy as np
    n = 5_000_000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    o = np.empty_like(x)
    period = np.float32(n / 23)
    setup = (
        "import numpy as np, math\nfrom numba import cuda, vectorize\n"
        "@vectorize(['float32(float32, float32)'], target='cuda')\ndef add_ufunc(a, b):\n    return a + b\n"
        "@vectorize(['float32(float32, float32, float32)'], target='cuda')\ndef make_pulses(i, period, amplitude):\n    return max(math.sin(i / period) - 0.3, 0.0) * amplitude\n"
        "@cuda.jit\ndef increment_by_one(a):\n    pos = cuda.grid(1)\n    if pos < a.size:\n        a[pos] += 1\n"
        f"n = {n}\nx = cuda.to_device(np.arange(n, dtype=np.float32))\ny = cuda.to_device(2 * np.arange(n, dtype=np.float32))\no = cuda.device_array(n, dtype=np.float32)\n"
        "period = np.float32(n / 23)\nxs = cuda.to_device(np.arange(1000, dtype=np.float32))\nos_ = cuda.device_array(1000, dtype=np.float32)\n"
        "add_ufunc(x, y, out=o); make_pulses(x, period, np.float32(100.0), out=o); increment_by_one[(n + 255) // 256, 256](o); add_ufunc(xs, xs, out=os_); cuda.synchronize()"
    )
    out = run_cells([
        setup,
        "%timeit add_ufunc(x, y, out=o); cuda.synchronize()",
        "%timeit make_pulses(x, period, np.float32(100.0), out=o); cuda.synchronize()",
        "%timeit increment_by_one[(n + 255) // 256, 256](o); cuda.synchronize()",
        "%timeit add_ufunc(xs, xs, out=os_); cuda.synchronize()",
    ])
    rows = []
    rows.append(("add_ufunc(x, y, out=o) 5M f32, synced", parse_timeit(out[1]), "np.add(x, y, out=o)", mean_of("np.add(x, y, out=o)", {"np": np, "x": x, "y": y, "o": o}), "time", "<=", 1.0))
    pulse = "np.multiply(np.maximum(np.sin(x / period) - np.float32(0.3), np.float32(0.0)), np.float32(100.0), out=o)"
    rows.append(("pulse ufunc 5M f32, synced", parse_timeit(out[2]), "NumPy expression", mean_of(pulse, {"np": np, "x": x, "period": period, "o": o}), "time", "<=", 0.5))
    try:
        import numba

        @numba.njit
        def inc(a):
            for i in range(a.size):
                a[i] += 1

        inc(o)
        rows.append(("increment_by_one @cuda.jit 5M, 256 tpb", parse_timeit(out[3]), "Numba @njit loop", mean_of("inc(o)", {"inc": inc, "o": o}), "time", "<=", 3.0))
    except ImportError:
        pass
    rows.append(("launch overhead: 1,000-element ufunc", parse_timeit(out[4]), "budget of 10 us", 10e-6, "absolute", "<=", 1.0))
    sim = simulator_per_thread()
    if sim is not None:
        nb_per_thread = parse_timeit(out[3]) / n
        rows.append(("@cuda.jit per thread vs CUDA simulator", nb_per_thread, "Numba CUDA simulator", sim, "time", "<=", 1e-4))
    return rows


def simulator_per_thread():
    """Seconds per thread of Numba's CUDA simulator for increment_by_one (small grid)."""
    code = (
        "import numpy as np, time\nfrom numba import cuda\n"
        "@cuda.jit\ndef inc(a):\n    pos = cuda.grid(1)\n    if pos < a.size:\n        a[pos] += 1\n"
        "a = np.zeros(2048, dtype=np.float32)\ninc[8, 256](a)\nt = time.perf_counter()\ninc[8, 256](a)\nprint((time.perf_counter() - t) / 2048)\n"
    )
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    try:
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        return float(r.stdout.strip().splitlines()[-1])
    except Exception:
        return None


def plotting():
    import numpy as np
    cells = [
        "import numpy as np\nfrom matplotlib import pyplot as plt\nwave = np.sin(np.arange(100_000, dtype=np.float64) / 500.0)",
        "%timeit -r 5 plt.plot(wave); plt.savefig('/tmp/nbcuda_bench.png'); plt.close()",
    ]
    nb = parse_timeit(run_cells(cells)[1])
    try:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib import pyplot as plt
        wave = np.sin(np.arange(100_000, dtype=np.float64) / 500.0)

        def mpl():
            plt.plot(wave)
            plt.savefig("/tmp/mpl_bench.png")
            plt.close()

        peer = mean_of("mpl()", {"mpl": mpl}, repeat=5)
    except ImportError:
        return []
    return [("100,000-point line plot to PNG", nb, "matplotlib Agg", peer, "time", "<=", 0.2)]


JIT_SETUP = (
    "import numpy as np\nfrom numba import cuda\n"
    "@cuda.jit\ndef gs_add(x, y, out):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n"
    "    for i in range(start, x.size, stride):\n        out[i] = x[i] + y[i]\n"
    "@cuda.jit\ndef ab2d(a, b, out):\n    x, y = cuda.grid(2)\n"
    "    if x < out.shape[0] and y < out.shape[1]:\n        out[x, y] = a[x, y] * 2 + b[x, y]\n"
    "@cuda.jit\ndef hist(data, bins):\n    start = cuda.grid(1)\n    stride = cuda.gridsize(1)\n"
    "    for i in range(start, data.size, stride):\n        cuda.atomic.add(bins, data[i], 1)\n"
    "n = 5_000_000\nx = cuda.to_device(np.arange(n, dtype=np.float32))\ny = cuda.to_device(np.ones(n, dtype=np.float32))\n"
    "o = cuda.device_array(n, dtype=np.float32)\n"
    "a2 = cuda.to_device(np.arange(5_000_000, dtype=np.float32).reshape(2000, 2500))\nb2 = cuda.to_device(np.ones((2000, 2500), dtype=np.float32))\n"
    "o2 = cuda.device_array((2000, 2500), dtype=np.float32)\n"
    "data = cuda.to_device((np.arange(n) * 7919 % 256).astype(np.int32))\nbins = cuda.to_device(np.zeros(256, dtype=np.int32))\n"
    "gs_add[80, 256](x, y, o); ab2d[(125, 157), (16, 16)](a2, b2, o2); hist[80, 256](data, bins); cuda.synchronize()"
)
JIT_CELLS = [
    "%timeit gs_add[80, 256](x, y, o); cuda.synchronize()",
    "%timeit ab2d[(125, 157), (16, 16)](a2, b2, o2); cuda.synchronize()",
    "%timeit hist[80, 256](data, bins); cuda.synchronize()",
]


def jit_peers():
    """The single-threaded @njit loops issue 18 compares the JIT kernels with, their
    inputs, and one warm-up call each (so compilation is not timed)."""
    import numpy as np
    import numba

    @numba.njit
    def gs_add(x, y, out):
        for i in range(x.size):
            out[i] = x[i] + y[i]

    @numba.njit
    def ab2d(a, b, out):
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                out[i, j] = a[i, j] * 2 + b[i, j]

    @numba.njit
    def hist(data, bins):
        for i in range(data.size):
            bins[data[i]] += 1

    n = 5_000_000
    x, y, o = np.arange(n, dtype=np.float32), np.ones(n, dtype=np.float32), np.empty(n, dtype=np.float32)
    a2 = np.arange(n, dtype=np.float32).reshape(2000, 2500)
    b2, o2 = np.ones((2000, 2500), dtype=np.float32), np.empty((2000, 2500), dtype=np.float32)
    data, bins = (np.arange(n) * 7919 % 256).astype(np.int32), np.zeros(256, dtype=np.int32)
    gs_add(x, y, o), ab2d(a2, b2, o2), hist(data, bins)
    return dict(gs_add=gs_add, ab2d=ab2d, hist=hist, x=x, y=y, o=o, a2=a2, b2=b2, o2=o2, data=data, bins=bins)


def jit_kernels():
    """Issue 18's rows: kernels beyond the element-wise stream path, on the JIT tier and
    on the interpreter (NBCUDA_EXECUTOR=interp), against single-threaded @njit loops."""
    g = jit_peers()
    gs_add, ab2d, hist = g["gs_add"], g["ab2d"], g["hist"]
    x, y, o, a2, b2, o2, data, bins = (g[k] for k in ("x", "y", "o", "a2", "b2", "o2", "data", "bins"))
    peers = [
        mean_of("f(x, y, o)", {"f": gs_add, "x": x, "y": y, "o": o}),
        mean_of("f(a, b, o)", {"f": ab2d, "a": a2, "b": b2, "o": o2}),
        mean_of("f(d, b)", {"f": hist, "d": data, "b": bins}),
    ]
    log = []
    jit = run_cells([JIT_SETUP] + JIT_CELLS, env={"NBCUDA_JIT_LOG": "1"}, log=log)
    interp = run_cells([JIT_SETUP] + JIT_CELLS, env={"NBCUDA_EXECUTOR": "interp"})
    for line in log:
        if line.startswith("nbcuda jit:"):
            print(line)
    names = [
        "grid-stride add 5M f32 [80, 256]",
        "2-D a*2+b 2000x2500 f32 [(125,157),(16,16)]",
        "atomic.add histogram 5M int32, 256 bins",
    ]
    targets = [1.5, 1.5, 2.0]
    rows = []
    for k, (name, peer, target) in enumerate(zip(names, peers, targets)):
        rows.append((name + " (JIT)", parse_timeit(jit[k + 1]), "Numba @njit loop", peer, "time", "<=", target))
        rows.append((name + " (interp)", parse_timeit(interp[k + 1]), "Numba @njit loop", peer, "time", "<=", float("inf")))
    return rows


# Issue 18's other rows: a shared-memory tiled matmul (16x16 tiles, two barriers per tile)
# against the naive @njit triple loop, @cuda.reduce against np.sum, and a xoroshiro128p
# Monte-Carlo kernel against an @njit loop drawing the same number of points.
JIT2_SETUP = (
    "import numpy as np\nfrom numba import cuda, float32\n"
    "from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32\n"
    "TILE = 16\n"
    "@cuda.jit\ndef tiled(a, b, c):\n"
    "    ta = cuda.shared.array((TILE, TILE), float32)\n    tb = cuda.shared.array((TILE, TILE), float32)\n"
    "    row, col = cuda.grid(2)\n    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y\n"
    "    acc = float32(0.0)\n"
    "    for t in range((a.shape[1] + TILE - 1) // TILE):\n"
    "        ta[tx, ty] = a[row, t * TILE + ty] if row < a.shape[0] and t * TILE + ty < a.shape[1] else 0\n"
    "        tb[tx, ty] = b[t * TILE + tx, col] if col < b.shape[1] and t * TILE + tx < b.shape[0] else 0\n"
    "        cuda.syncthreads()\n"
    "        for k in range(TILE):\n            acc += ta[tx, k] * tb[k, ty]\n"
    "        cuda.syncthreads()\n"
    "    if row < c.shape[0] and col < c.shape[1]:\n        c[row, col] = acc\n"
    "@cuda.reduce\ndef total(p, q):\n    return p + q\n"
    "@cuda.jit\ndef darts(states, hits):\n    i = cuda.grid(1)\n    if i < hits.size:\n"
    "        x = xoroshiro128p_uniform_float32(states, i)\n        y = xoroshiro128p_uniform_float32(states, i)\n"
    "        hits[i] = 1 if x * x + y * y <= 1.0 else 0\n"
    "def mats(n):\n    r = np.random.default_rng(1)\n"
    "    return (cuda.to_device(r.random((n, n), dtype=np.float32)), cuda.to_device(r.random((n, n), dtype=np.float32)), cuda.device_array((n, n), dtype=np.float32))\n"
    "ma, mb, mc = mats(512)\ng512 = ((512 + TILE - 1) // TILE, (512 + TILE - 1) // TILE)\n"
    "rx = cuda.to_device(np.arange(5_000_000, dtype=np.float32) % 7)\n"
    "m = 1_000_000\nstates = create_xoroshiro128p_states(m, seed=3)\nhits = cuda.device_array(m, dtype=np.int32)\n"
    "tiled[g512, (TILE, TILE)](ma, mb, mc); total(rx); darts[(m + 255) // 256, 256](states, hits); cuda.synchronize()"
)
JIT2_CELLS = [
    "%timeit -r 3 -n 1 tiled[g512, (TILE, TILE)](ma, mb, mc); cuda.synchronize()",
    "%timeit total(rx)",
    "%timeit darts[(m + 255) // 256, 256](states, hits); cuda.synchronize()",
]
# Numba's test_matmul size, run once (about two minutes on the interpreter: JIT only).
JIT2_BIG = (
    "ba, bb, bc = mats(1600)\ng1600 = (100, 100)\n"
    "%timeit -r 1 -n 1 tiled[g1600, (TILE, TILE)](ba, bb, bc); cuda.synchronize()"
)


def jit2_peers():
    """The @njit and NumPy peers of JIT2_SETUP's kernels, warmed up."""
    import numpy as np
    import numba

    @numba.njit
    def naive(a, b, c):
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                acc = np.float32(0.0)
                for k in range(a.shape[1]):
                    acc += a[i, k] * b[k, j]
                c[i, j] = acc

    @numba.njit
    def darts(hits):
        for i in range(hits.size):
            x = np.random.random()
            y = np.random.random()
            hits[i] = 1 if x * x + y * y <= 1.0 else 0

    r = np.random.default_rng(1)
    a, b = r.random((512, 512), dtype=np.float32), r.random((512, 512), dtype=np.float32)
    c = np.empty_like(a)
    rx = np.arange(5_000_000, dtype=np.float32) % 7
    hits = np.empty(1_000_000, dtype=np.int32)
    naive(a, b, c), darts(hits)
    return dict(naive=naive, darts=darts, a=a, b=b, c=c, rx=rx, hits=hits, np=np)


def jit_kernels_more():
    """Tiled matmul (512 and 1600), @cuda.reduce and Monte-Carlo rows (issue 18)."""
    g = jit2_peers()
    peers = [
        mean_of("naive(a, b, c)", g, repeat=3),
        mean_of("np.sum(rx)", g),
        mean_of("darts(hits)", g),
    ]
    log = []
    jit = run_cells([JIT2_SETUP] + JIT2_CELLS + [JIT2_BIG], env={"NBCUDA_JIT_LOG": "1"}, log=log)
    interp = run_cells([JIT2_SETUP] + JIT2_CELLS, env={"NBCUDA_EXECUTOR": "interp"})
    for line in log:
        if line.startswith("nbcuda jit:"):
            print(line)
    rows = []
    names = [
        ("tiled matmul 512 f32, 16x16 tiles", "naive @njit triple loop", 1.0),
        ("@cuda.reduce sum 5M f32", "np.sum", 1.5),
        ("xoroshiro128p Monte-Carlo 1M threads", "@njit np.random loop", 1.5),
    ]
    for k, (name, peer_name, target) in enumerate(names):
        rows.append((name + " (JIT)", parse_timeit(jit[k + 1]), peer_name, peers[k], "time", "<=", target))
        rows.append((name + " (interp)", parse_timeit(interp[k + 1]), peer_name, peers[k], "time", "<=", float("inf")))
    rows.append(("tiled matmul 1600 f32 (JIT)", parse_timeit(jit[4]), "budget of 5 s", 5.0, "absolute", "<=", 1.0))
    return rows


# Plain Python as people type it (issue 16): the same code in nbcuda's interpreter and in
# CPython (this process), each run 3 times, one loop per run.
PYTHON_SETUP = "def f(x):\n    return x + 1"
PYTHON_CODE = [
    ("for-loop sum, 1M iterations", "s = 0\nfor i in range(1_000_000):\n    s += i"),
    ("300k calls of a Python function", "for i in range(300_000):\n    f(i)"),
    ("1M list.append", "l = []\nfor i in range(1_000_000):\n    l.append(i)"),
    ("list comprehension, 1M items", "l = [i * 2 for i in range(1_000_000)]"),
    ("100k dict inserts", "d = {}\nfor i in range(100_000):\n    d[i] = i"),
    ("100k set inserts", "t = set()\nfor i in range(100_000):\n    t.add(i)"),
    ("100k f-string formats", "for i in range(100_000):\n    x = f'{i} {i * 0.5:.2f}'"),
    ("sum of a 1M-item generator", "s = sum(i * i for i in range(1_000_000))"),
]


def python_code():
    cells = [PYTHON_SETUP] + [f"%%timeit -n 1 -r 3\n{code}" for _, code in PYTHON_CODE]
    out = run_cells(cells)
    rows = []
    for (name, code), text in zip(PYTHON_CODE, out[1:]):
        g = {}
        exec(PYTHON_SETUP, g)
        runs = timeit.Timer(code, globals=g).repeat(repeat=3, number=1)
        rows.append((name, parse_timeit(text), "CPython 3", sum(runs) / len(runs), "time", "<=", 1.0))
    return rows


SECTIONS = [host_arrays, transfers, kernels, jit_kernels, jit_kernels_more, plotting, python_code]


COPY_BYTES = 5_000_000 * 4


def ratio_of(metric, nb, peer):
    if not (nb == nb and peer == peer) or nb <= 0 or peer <= 0:
        return float("nan")
    if metric == "bandwidth":
        return (COPY_BYTES / nb) / (COPY_BYTES / peer)
    return nb / peer


def met(ratio, op, target):
    if ratio != ratio:
        return "n/a"
    ok = ratio <= target if op == "<=" else ratio >= target
    return "yes" if ok else "NO"


def main():
    rows = []
    for section in SECTIONS:
        try:
            rows.extend(section())
        except Exception as e:  # a failing section is reported, the others still run
            rows.append((f"{section.__name__}: FAILED {e}", float("nan"), "", float("nan"), "time", "<=", float("nan")))
    print(f"{'benchmark':44} {'nbcuda':>12} {'peer':>22} {'peer time':>12} {'ratio':>10} {'target':>22}  met")
    for name, a, peer, b, metric, op, target in rows:
        r = ratio_of(metric, a, b)
        what = {"bandwidth": "GB/s ratio", "time": "time ratio", "absolute": "of budget"}[metric]
        goal = f"{what} {op} {target:g}"
        print(f"{name:44} {a * 1e3:10.3f}ms {peer:>22} {b * 1e3:10.3f}ms {r:10.4g} {goal:>22}  {met(r, op, target)}")
        if metric == "bandwidth" and r == r:
            print(f"{'':44} {COPY_BYTES / a / 1e9:8.2f} GB/s {'':>22} {COPY_BYTES / b / 1e9:8.2f} GB/s")


if __name__ == "__main__":
    main()

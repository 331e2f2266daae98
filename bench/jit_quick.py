"""Issue 18's three JIT rows alone, for profiling the JIT tier quickly on a noisy machine:
the fastest of 40 single launches of each kernel (bench/compute.py's JIT_SETUP), over
`--runs` sessions, for each nbcuda binary given, next to the fastest single-threaded Numba
@njit loop doing the same work. Usage:

    NBCUDA_JIT_LOG=1 python bench/jit_quick.py [--runs 2] [--threads N] BIN [BIN ...]

`--threads` sets RAYON_NUM_THREADS (1 takes the other engineers' load out of the picture
better than wall-clock means over two shared cores do)."""
import argparse
import os
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute  # noqa: E402

LAUNCHES = [
    ("grid-stride add 5M f32 [80,256]", "gs_add[80, 256](x, y, o)"),
    ("2-D a*2+b 2000x2500 [(125,157),(16,16)]", "ab2d[(125, 157), (16, 16)](a2, b2, o2)"),
    ("atomic.add histogram 5M -> 256", "hist[80, 256](data, bins)"),
]


def peers():
    g = compute.jit_peers()
    x, y, o, a2, b2, o2, data, bins = (g[k] for k in ("x", "y", "o", "a2", "b2", "o2", "data", "bins"))
    gs_add, ab2d, hist = g["gs_add"], g["ab2d"], g["hist"]
    calls = [lambda: gs_add(x, y, o), lambda: ab2d(a2, b2, o2), lambda: hist(data, bins)]
    return [min(timeit.repeat(f, number=1, repeat=40)) for f in calls]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--threads")
    ap.add_argument("bins", nargs="+")
    args = ap.parse_args()
    env = {"RAYON_NUM_THREADS": args.threads} if args.threads else {}
    loop = "ts = []\nfor _ in range(40):\n    t = time.perf_counter()\n    {}\n    cuda.synchronize()\n    ts.append(time.perf_counter() - t)\nprint(min(ts))"
    cells = [compute.JIT_SETUP + "\nimport time"] + [loop.format(call) for _, call in LAUNCHES]
    best = {b: [float("inf")] * len(LAUNCHES) for b in args.bins}
    log = []
    for _ in range(args.runs):
        for b in args.bins:
            os.environ["NBCUDA_BIN"] = b
            out = compute.run_cells(cells, env=env, log=log)
            for k in range(len(LAUNCHES)):
                best[b][k] = min(best[b][k], float(out[k + 1].split()[-1]))
    for line in sorted(set(l for l in log if l.startswith("nbcuda jit:"))):
        print(line)
    peer = peers()
    for k, (name, _) in enumerate(LAUNCHES):
        print(f"{name:42} @njit {peer[k] * 1e3:7.2f} ms")
        for b in args.bins:
            print(f"  {b:60} {best[b][k] * 1e3:7.2f} ms  {best[b][k] / peer[k]:6.2f}x")


if __name__ == "__main__":
    main()

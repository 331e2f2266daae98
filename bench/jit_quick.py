"""Issue 18's JIT rows alone, for profiling the JIT tier quickly on a noisy machine:
the fastest of 40 single launches of each kernel (bench/compute.py's JIT_SETUP and
JIT2_SETUP; 5 launches of the 512 tiled matmul, `--big` adds one of the 1600 one), over
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
MORE = [
    ("tiled matmul 512 f32 (16x16 tiles)", "tiled[g512, (TILE, TILE)](ma, mb, mc)", 5),
    ("@cuda.reduce sum 5M f32", "total(rx)", 40),
    ("xoroshiro128p Monte-Carlo 1M", "darts[(m + 255) // 256, 256](states, hits)", 40),
]
BIG = ("tiled matmul 1600 f32", "tiled[g1600, (TILE, TILE)](ba, bb, bc)", 1)


def peers():
    g = compute.jit_peers()
    x, y, o, a2, b2, o2, data, bins = (g[k] for k in ("x", "y", "o", "a2", "b2", "o2", "data", "bins"))
    gs_add, ab2d, hist = g["gs_add"], g["ab2d"], g["hist"]
    calls = [lambda: gs_add(x, y, o), lambda: ab2d(a2, b2, o2), lambda: hist(data, bins)]
    h = compute.jit2_peers()
    np = h["np"]
    calls += [lambda: h["naive"](h["a"], h["b"], h["c"]), lambda: np.sum(h["rx"]), lambda: h["darts"](h["hits"])]
    return [min(timeit.repeat(f, number=1, repeat=5 if k == 3 else 40)) for k, f in enumerate(calls)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--threads")
    ap.add_argument("--big", action="store_true", help="also time the 1600x1600 tiled matmul once")
    ap.add_argument("bins", nargs="+")
    args = ap.parse_args()
    env = {"RAYON_NUM_THREADS": args.threads} if args.threads else {}
    loop = "ts = []\nfor _ in range({}):\n    t = time.perf_counter()\n    {}\n    cuda.synchronize()\n    ts.append(time.perf_counter() - t)\nprint(min(ts))"
    launches = [(n, c, 40) for n, c in LAUNCHES] + MORE
    setup = compute.JIT_SETUP + "\n" + compute.JIT2_SETUP + "\nimport time"
    if args.big:
        setup += "\nba, bb, bc = mats(1600)\ng1600 = (100, 100)"
        launches.append(BIG)
    cells = [setup] + [loop.format(reps, call) for _, call, reps in launches]
    best = {b: [float("inf")] * len(launches) for b in args.bins}
    log = []
    for _ in range(args.runs):
        for b in args.bins:
            os.environ["NBCUDA_BIN"] = b
            out = compute.run_cells(cells, env=env, log=log)
            for k in range(len(launches)):
                best[b][k] = min(best[b][k], float(out[k + 1].split()[-1]))
    for line in sorted(set(l for l in log if l.startswith("nbcuda jit:"))):
        print(line)
    peer = peers()
    peer.append(5.0)  # the 1600 matmul's budget
    peer_names = ["@njit"] * 3 + ["@njit naive", "np.sum", "@njit"] + ["budget"]
    for k, (name, _, _) in enumerate(launches):
        print(f"{name:42} {peer_names[k]} {peer[k] * 1e3:7.2f} ms")
        for b in args.bins:
            print(f"  {b:60} {best[b][k] * 1e3:7.2f} ms  {best[b][k] / peer[k]:6.2f}x")


if __name__ == "__main__":
    main()

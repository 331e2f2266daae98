#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: run every notebook on the CUDA device and on the
# embedded CPU device, and compare their text outputs. What differs by nature is masked:
# addresses, timings, the device's name, memory sizes and compute capability; numbers are
# compared with a relative tolerance, since the GPU's math library and fused multiply-adds
# round differently in the last digits. Usage: bash tests/gpu/smoke.sh
# NBCUDA_BIN=path uses a binary built elsewhere (GPU machines without a Rust toolchain);
# SMOKE_OUT=dir keeps the executed notebooks there instead of in a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${NBCUDA_BIN:-}" ]; then
  cargo build --release --quiet
fi
BIN="${NBCUDA_BIN:-${CARGO_TARGET_DIR:-target}/release/nbcuda}"
OUT="${SMOKE_OUT:-$(mktemp -d)}"
mkdir -p "$OUT"
status=0
# Behaviour the notebooks do not show: print() from many threads of a kernel, a kernel
# writing a mapped_array in place, pinned_array round trips (all compared with the CPU
# device like the notebooks), and the note for a launch that prints more than its buffer holds.
python3 - "$OUT" <<'PY'
import json, sys
def nb(cells):
    return {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {},
                       "outputs": [], "source": c} for c in cells],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
head = "from numba import cuda\nimport numpy as np\n"
extras = [
    head + "@cuda.jit\ndef show(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        print('thread', i, a[i], a[i] > 1.5)\n        for j in range(2):\n            print(i, j, np.uint64(i) * 3, np.int8(-i))\n"
    "a = cuda.to_device(np.arange(6, dtype=np.float32))\nshow[2, 3](a)\ncuda.synchronize()",
    head + "m = cuda.mapped_array(8, dtype=np.int64)\n@cuda.jit\ndef sq(x):\n    i = cuda.grid(1)\n    if i < x.size:\n        x[i] = i * i\nsq[1, 8](m)\ncuda.synchronize()\nprint(m)",
    head + "p = cuda.pinned_array(1000, dtype=np.float64)\np[:] = np.arange(1000)\nd = cuda.to_device(p)\nq = cuda.pinned_array_like(p)\nd.copy_to_host(q)\nprint(q.sum(), np.array_equal(p, q))\ndel p, q",
]
json.dump(nb(extras), open(sys.argv[1] + "/gpu-extras.ipynb", "w"))
# Copies and launches on a created stream right after allocation, repeated: run in several
# processes at once (below), so that the GPU is busy and any work left unordered with the
# allocation's zeroing shows up as wrong sums.
race = head + (
    "@cuda.jit\ndef axpy(out, a, x, y):\n    i = cuda.grid(1)\n    if i < out.size:\n"
    "        out[i] = a * x[i] + y[i]\n"
    "n = 1 << 16\nx = np.arange(n, dtype=np.float64)\ny = np.ones(n)\ns = cuda.stream()\ntotal = 0.0\n"
    "for k in range(20):\n    dx = cuda.to_device(x, s)\n    dy = cuda.to_device(y, s)\n"
    "    do = cuda.to_device(np.zeros(n), s)\n    axpy[(n + 255) // 256, 256, s](do, 2.0, dx, dy)\n"
    "    out = do.copy_to_host(stream=s)\n    s.synchronize()\n    total += out.sum()\n"
    "print(total)"
)
json.dump(nb([race]), open(sys.argv[1] + "/gpu-race.ipynb", "w"))
flood = head + "@cuda.jit\ndef flood():\n    print(cuda.grid(1))\nflood[512, 512]()\ncuda.synchronize()"
json.dump(nb([flood]), open(sys.argv[1] + "/gpu-flood.ipynb", "w"))
PY
NBCUDA_DEVICE=cuda "$BIN" run "$OUT/gpu-flood.ipynb" -o "$OUT/gpu-flood.cuda.ipynb" --allow-errors
if python3 - "$OUT/gpu-flood.cuda.ipynb" <<'PY'
import json, sys
text = "".join("".join(o.get("text", "")) for c in json.load(open(sys.argv[1]))["cells"]
               for o in c.get("outputs", []))
lines = text.splitlines()
# 262144 one-value prints, 4 records words each, in a 4 MiB record area: 131072 kept.
ok = len(lines) == 131073 and "131072 more print() lines of kernel flood" in lines[-1]
print("print buffer overflow note:", "ok" if ok else f"unexpected ({len(lines)} lines, last {lines[-1:]!r})")
sys.exit(0 if ok else 1)
PY
then echo "same: print buffer overflow"; else echo "MISMATCH: print buffer overflow"; status=1; fi
for i in 1 2 3 4 5 6 7 8; do
  NBCUDA_DEVICE=cuda "$BIN" run "$OUT/gpu-race.ipynb" -o "$OUT/gpu-race-$i.cuda.ipynb" --allow-errors >/dev/null 2>&1 &
done
wait
# sum(2i + 1) for i < 2**16 is 2**32, twenty times.
if python3 - "$OUT"/gpu-race-*.cuda.ipynb <<'PY'
import json, sys
got = ["".join("".join(o.get("text", "")) or o.get("evalue", "") for c in json.load(open(p))["cells"]
               for o in c.get("outputs", [])).strip() for p in sys.argv[1:]]
bad = [g for g in got if g != "85899345920.0"]
print("concurrent stream work:", "ok" if not bad and len(got) == 8 else f"{len(bad)} of {len(got)} wrong: {bad[:3]}")
sys.exit(1 if bad or len(got) != 8 else 0)
PY
then echo "same: concurrent stream work"; else echo "MISMATCH: concurrent stream work"; status=1; fi
for nb in notebooks/*.ipynb "$OUT/gpu-extras.ipynb"; do
  name=$(basename "$nb" .ipynb)
  NBCUDA_DEVICE=cuda "$BIN" run "$nb" -o "$OUT/$name.cuda.ipynb" --allow-errors
  NBCUDA_DEVICE=cpu "$BIN" run "$nb" -o "$OUT/$name.cpu.ipynb" --allow-errors
  if ! python3 - "$OUT/$name.cuda.ipynb" "$OUT/$name.cpu.ipynb" <<'PY'
import json, math, re, sys

DEVICE = re.compile(
    r"<CUDA device 0 '[^']*'>|nbcuda CPU device|the embedded CPU device"
    r"|NVIDIA [A-Za-z0-9][A-Za-z0-9 .-]*[A-Za-z0-9]"
    r"|(Tesla|Quadro|GeForce|RTX|TITAN) [A-Za-z0-9 .-]*[A-Za-z0-9]"
)
NUMBER = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?")

def mask(t):
    t = re.sub(r"0x[0-9a-fA-F]+", "0x?", t)
    t = re.sub(r"[0-9.]+ (ns|\u03bcs|us|ms|s) \u00b1 .*", "<timing>", t)
    t = re.sub(r"(Wall|CPU) time.*", "<timing>", t)
    t = DEVICE.sub("<device>", t)
    t = re.sub(r"[0-9.]+ (ns|us|\u03bcs|ms|s|GB/s|MB/s|GiB/s)\b", "<time>", t)
    t = re.sub(r"MemoryInfo\(free=\d+, total=\d+\)", "MemoryInfo(<mem>)", t)
    # __cuda_array_interface__ shows the data pointer in decimal.
    t = re.sub(r"'data': \(\d+,", "'data': (<ptr>,", t)
    t = re.sub(r"[0-9.]+ (GiB|MiB|KiB|GB|MB)\b", "<size>", t)
    t = re.sub(r"(Compute Capability: |compute_capability=?)\(?[0-9., ]+\)?", r"\1<cc>", t)
    # Names of different lengths shift the padding of detect()'s table.
    return re.sub(r"[ \t]+", " ", t)

def texts(path):
    cells = json.load(open(path))["cells"]
    out = []
    for i, c in enumerate(cells):
        for o in c.get("outputs", []):
            t = o.get("text") or o.get("data", {}).get("text/plain") or ""
            if o.get("output_type") == "error":
                t = o.get("ename", "") + ": " + o.get("evalue", "")
            t = "".join(t) if isinstance(t, list) else t
            out.append((i, mask(t)))
    return out

def close(x, y):
    if x == y:
        return True
    # The ledger lists operations by start time; work on different streams overlaps
    # differently on each device, so its rows are compared as a set.
    if x.startswith("kind what stream") and y.startswith("kind what stream"):
        x, y = "\n".join(sorted(x.splitlines())), "\n".join(sorted(y.splitlines()))
        if x == y:
            return True
    if NUMBER.sub("#", x) != NUMBER.sub("#", y):
        return False
    for a, b in zip(NUMBER.finditer(x), NUMBER.finditer(y)):
        fa, fb = float(a.group(0)), float(b.group(0))
        if not math.isclose(fa, fb, rel_tol=1e-5, abs_tol=1e-6):
            return False
    return True

cuda, cpu = texts(sys.argv[1]), texts(sys.argv[2])
if any("CudaSupportError" in t for _, t in cuda):
    print("the CUDA run did not get a GPU (CudaSupportError); is the driver installed?")
    sys.exit(1)
bad = [(x, y) for x, y in zip(cuda, cpu) if x[0] != y[0] or not close(x[1], y[1])]
for (i, x), (_, y) in bad:
    print(f"cell {i}: cuda {x!r} != cpu {y!r}")
if len(cuda) != len(cpu):
    print(f"{len(cuda)} outputs on cuda, {len(cpu)} on cpu")
sys.exit(1 if bad or len(cuda) != len(cpu) else 0)
PY
  then
    echo "MISMATCH: $nb"; status=1
  else
    echo "same: $nb"
  fi
done
exit $status

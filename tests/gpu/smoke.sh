#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: run every notebook on the CUDA device and on the
# embedded CPU device, and compare their text outputs (timings, addresses and images
# differ by nature and are ignored). Usage: bash tests/gpu/smoke.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
BIN=target/release/nbcuda
OUT=$(mktemp -d)
status=0
for nb in notebooks/*.ipynb; do
  name=$(basename "$nb" .ipynb)
  NBCUDA_DEVICE=cuda "$BIN" run "$nb" -o "$OUT/$name.cuda.ipynb" --allow-errors
  NBCUDA_DEVICE=cpu "$BIN" run "$nb" -o "$OUT/$name.cpu.ipynb" --allow-errors
  if ! python3 - "$OUT/$name.cuda.ipynb" "$OUT/$name.cpu.ipynb" <<'PY'
import json, re, sys

def texts(path):
    cells = json.load(open(path))["cells"]
    out = []
    for i, c in enumerate(cells):
        for o in c.get("outputs", []):
            t = o.get("text") or o.get("data", {}).get("text/plain") or o.get("evalue") or ""
            t = "".join(t) if isinstance(t, list) else t
            t = re.sub(r"0x[0-9a-f]+", "0x?", t)
            t = re.sub(r"[0-9.]+ (ns|\u03bcs|us|ms|s) \u00b1 .*", "<timing>", t)
            t = re.sub(r"(Wall|CPU) time.*", "<timing>", t)
            t = re.sub(r"<CUDA device 0 '[^']*'>|nbcuda CPU device|[A-Z][A-Za-z0-9 ]*(H100|A100|RTX|Tesla|GeForce)[^'\n]*", "<device>", t)
            t = re.sub(r"[0-9.]+ (ms|GB/s|MB/s)", "<time>", t)
            out.append((i, t))
    return out

a, b = texts(sys.argv[1]), texts(sys.argv[2])
bad = [(x, y) for x, y in zip(a, b) if x != y]
for (i, x), (_, y) in bad:
    print(f"cell {i}: cuda {x!r} != cpu {y!r}")
sys.exit(1 if bad or len(a) != len(b) else 0)
PY
  then
    echo "MISMATCH: $nb"; status=1
  else
    echo "same: $nb"
  fi
done
exit $status

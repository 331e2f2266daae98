#!/usr/bin/env bash
# Pack what a GPU machine with no Rust toolchain and no package index needs into DIR (default
# .gpu, which .git/info/exclude should ignore): the release binary stripped and compressed,
# NVRTC 12 from the project's .venv, Numba's converted tests when CONVERTED names them (see
# conformance.py), and DIR/go.sh, which on that machine unpacks them and runs smoke.sh and,
# if packed, the conformance suite on the CUDA device. Compressed, all of it is about 40 MB.
# Usage: bash tests/gpu/pack.sh [DIR]   then on the GPU machine: bash DIR/go.sh (OUT=dir for logs)
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR="${1:-.gpu}"
mkdir -p "$DIR"
cargo build --release --quiet
strip -o "$DIR/nbcuda" target/release/nbcuda
xz -T2 -5 -f "$DIR/nbcuda"
LIB=$(ls -d .venv/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib)
xz -T2 -5 -c "$LIB/libnvrtc.so.12" > "$DIR/libnvrtc.so.12.xz"
B=$(cd "$LIB" && ls libnvrtc-builtins.so.12.* | grep -v alt | head -1)
xz -T2 -5 -c "$LIB/$B" > "$DIR/$B.xz"
if [ -n "${CONVERTED:-}" ]; then
  rm -rf "$DIR/conf" && mkdir -p "$DIR/conf" && cp -r "$CONVERTED/cells" "$DIR/conf/"
  cp ../shared/conformance/numba-cuda/valid.txt "$DIR/conf/"
fi
cat > "$DIR/go.sh" <<GO
#!/usr/bin/env bash
# Run from the repository root on the GPU machine.
set -u
OUT="\${OUT:-/tmp/gpu-out}"; mkdir -p /tmp/nb/lib "\$OUT"
python3 - <<'PY'
import lzma, os, shutil
for src, dst in [("$DIR/nbcuda.xz", "/tmp/nb/nbcuda"), ("$DIR/libnvrtc.so.12.xz", "/tmp/nb/lib/libnvrtc.so.12"),
                 ("$DIR/$B.xz", "/tmp/nb/lib/$B")]:
    with lzma.open(src) as f, open(dst, "wb") as g:
        shutil.copyfileobj(f, g)
os.chmod("/tmp/nb/nbcuda", 0o755)
if not os.path.exists("/tmp/nb/lib/libnvrtc.so"):
    os.symlink("libnvrtc.so.12", "/tmp/nb/lib/libnvrtc.so")
PY
export LD_LIBRARY_PATH=/tmp/nb/lib:\${LD_LIBRARY_PATH:-} NBCUDA_BIN=/tmp/nb/nbcuda
nvidia-smi -L
SMOKE_OUT=/tmp/smoke bash tests/gpu/smoke.sh 2>&1 | tee "\$OUT/smoke.log" | grep -E "same|MISMATCH|ok|unexpected"
echo "smoke rc \${PIPESTATUS[0]}"
if [ -d "$DIR/conf" ]; then
  python3 tests/gpu/conformance.py "$DIR/conf" "$DIR/conf/valid.txt" > "\$OUT/conformance.txt" 2>&1
  grep -v "^FAIL" "\$OUT/conformance.txt"; grep "^FAIL" "\$OUT/conformance.txt" | cut -c1-200
fi
GO
chmod +x "$DIR/go.sh"
du -sh "$DIR"

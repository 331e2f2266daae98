#!/usr/bin/env bash
# THE test command: sets up everything on a clean clone and runs every test.
#   bash tests/run.sh
# 1. a local .venv with the pinned Python packages (tests/requirements.txt),
# 2. NVRTC from that venv on LD_LIBRARY_PATH (the compiler tests compile CUDA C with it),
# 3. cargo build + cargo test (all Rust tests),
# 4. the nbcuda kernelspec installed into a temporary Jupyter prefix,
# 5. Debian's chromium (apt) when missing, for the JupyterLab browser test,
# 6. pytest tests/python (jupyter_kernel_test, nbclient over notebooks/, abuse cases, the
#    pip wheel in a fresh venv, JupyterLab in headless chromium, Kernel Gateway).
# Exits non-zero if any step failed; later steps still run so one report shows everything.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
failed=()

step() { printf '\n=== %s ===\n' "$*"; }

step "Python environment (.venv)"
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    # The pinned NumPy 2.3 needs Python 3.11 or newer.
    "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        echo "tests/run.sh needs Python >= 3.11 (found $("$PY" --version 2>&1)); set PYTHON=/path/to/python3.11+"
        exit 1
    }
    "$PY" -m venv .venv || { echo "cannot create .venv with $PY"; exit 1; }
fi
# Reinstall only when the requirements changed (keeps repeated runs fast).
STAMP=.venv/.nbcuda-requirements
if ! cmp -s tests/requirements.txt "$STAMP"; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check \
        -r tests/requirements.txt || { echo "pip install failed"; exit 1; }
    cp tests/requirements.txt "$STAMP"
fi
export NBCUDA_PYTHON="$ROOT/.venv/bin/python"

# cudarc dlopens "libnvrtc.so"; the wheel ships only libnvrtc.so.12, so add the plain name.
NVRTC_DIR=$(ls -d "$ROOT"/.venv/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib 2>/dev/null | head -n1)
if [ -n "$NVRTC_DIR" ]; then
    LINK_DIR="$ROOT/.venv/nbcuda-nvrtc"
    mkdir -p "$LINK_DIR"
    if [ ! -e "$NVRTC_DIR/libnvrtc.so" ]; then
        ln -sf "$NVRTC_DIR/libnvrtc.so.12" "$LINK_DIR/libnvrtc.so"
    fi
    export LD_LIBRARY_PATH="$LINK_DIR:$NVRTC_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

# A clean clone gains nothing from incremental compilation, and its cache costs ~1.5 GB.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

step "chromium (for tests/python/test_browser.py)"
# Playwright drives the system's chromium by path and downloads no browser of its own.
CHROMIUM=$(command -v chromium || true)
if [ -z "$CHROMIUM" ]; then
    SUDO=
    [ "$(id -u)" = 0 ] || SUDO="sudo -n"
    if command -v apt-get >/dev/null; then
        { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            $SUDO apt-get install -y -qq chromium >/dev/null; } ||
            echo "apt-get install chromium failed: the browser test will fail"
    else
        echo "no chromium and no apt-get: the browser test will fail (set NBCUDA_CHROMIUM)"
    fi
    CHROMIUM=$(command -v chromium || true)
fi
[ -n "$CHROMIUM" ] && export NBCUDA_CHROMIUM="${NBCUDA_CHROMIUM:-$CHROMIUM}"

step "cargo build"
cargo build || { echo "cargo build failed"; exit 1; }

step "cargo test"
# --no-fail-fast: one failing test binary must not hide the results of the others.
cargo test --no-fail-fast || failed+=("cargo test")

step "kernelspec into a temporary Jupyter prefix"
JUP=$(mktemp -d "${TMPDIR:-/tmp}/nbcuda-jupyter.XXXXXX")
trap 'rm -rf "$JUP"' EXIT
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
"$TARGET_DIR/debug/nbcuda" install --prefix "$JUP" || { echo "nbcuda install failed"; exit 1; }
export JUPYTER_PATH="$JUP/share/jupyter"
export JUPYTER_DATA_DIR="$JUP/data"
export JUPYTER_RUNTIME_DIR="$JUP/runtime"
export JUPYTER_CONFIG_DIR="$JUP/config"
export JUPYTER_PLATFORM_DIRS=1
export NBCUDA_BIN="$TARGET_DIR/debug/nbcuda"

step "pytest tests/python"
.venv/bin/python -m pytest -q tests/python "$@" || failed+=("pytest")

if [ ${#failed[@]} -gt 0 ]; then
    printf '\nFAILED: %s\n' "${failed[*]}"
    exit 1
fi
printf '\nAll tests passed.\n'

#!/usr/bin/env bash
# The benchmark command: bash bench/run.sh
# Installs the pinned peers (ipykernel, NumPy, numexpr, Numba, Matplotlib) into .venv,
# builds nbcuda in release mode, installs both kernelspecs into a temporary Jupyter prefix,
# and prints one table of nbcuda against its peers, measured in this one run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
STAMP=.venv/.nbcuda-bench-requirements
if ! cat tests/requirements.txt bench/requirements.txt | cmp -s - "$STAMP"; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check \
        -r tests/requirements.txt -r bench/requirements.txt
    cat tests/requirements.txt bench/requirements.txt > "$STAMP"
fi

cargo build --release
export NBCUDA_BIN="$ROOT/target/release/nbcuda"

JUP=$(mktemp -d "${TMPDIR:-/tmp}/nbcuda-bench.XXXXXX")
trap 'rm -rf "$JUP"' EXIT
"$NBCUDA_BIN" install --prefix "$JUP" >/dev/null
export JUPYTER_PATH="$JUP/share/jupyter"
export JUPYTER_DATA_DIR="$JUP/data"
export JUPYTER_RUNTIME_DIR="$JUP/runtime"
export JUPYTER_CONFIG_DIR="$JUP/config"
export MPLBACKEND=Agg

.venv/bin/python bench/bench.py "$@"

#!/usr/bin/env bash
# Othello on an OpenCL device, end to end: builds with the gpu feature,
# checks the kernels against the CPU (gpu-info --check), solves FFO #40-#44
# with the batch solver (each score checked against the known one), and
# writes the throughput tables (scripts/gpu_tables.py: the batch solver
# beside the CPU solver at 1 and 2 threads, by empties, with a plot) under
# OUTDIR. Made for a lent machine with an NVIDIA GPU (its driver ships an
# OpenCL ICD): the whole run stays within 10 minutes there, the tables
# within a time budget. --reduced is the form CI runs on PoCL (about a
# minute on two cores): small sets, no FFO positions.
#
# Usage: scripts/gpu_device.sh OUTDIR [--reduced] [--gpu-device N]
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/gpu_device.sh OUTDIR [--reduced] [--gpu-device N]" >&2; exit 2; }
[ $# -ge 1 ] || usage
OUT=$1
shift
REDUCED=""
DEVICE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --reduced) REDUCED="--reduced" ;;
    --gpu-device) DEVICE=${2:?--gpu-device needs a number}; shift ;;
    *) usage ;;
  esac
  shift
done
mkdir -p "$OUT"
step() { echo "== $1 [${SECONDS}s]"; }

step "build (--features gpu)"
if ! command -v clinfo >/dev/null 2>&1 || ! ldconfig -p | grep -q libOpenCL.so; then
  echo "note: no clinfo or libOpenCL.so found; on Debian: apt-get install ocl-icd-opencl-dev clinfo" >&2
fi
cargo build --release --locked -p splitpoint-cli --features gpu
BIN=target/release/splitpoint
"$BIN" --version | tee "$OUT/version.txt"
git rev-parse --short HEAD 2>/dev/null | tee -a "$OUT/version.txt" || true

step "the device and its kernels against the CPU"
"$BIN" gpu-info --check --gpu-device "$DEVICE" | tee "$OUT/gpu-info.txt"

if [ -z "$REDUCED" ]; then
  # One position a run is a narrow batch (a few subtrees a launch): the
  # full form only.
  step "FFO #40-#44 by the batch solver, checked against their known scores"
  "$BIN" solve othello --ffo 40,41,42,43,44 --algorithm gpu --gpu-device "$DEVICE" | tee "$OUT/ffo.txt"
fi

step "throughput tables"
python3 scripts/gpu_tables.py "$OUT" --bin "$BIN" $REDUCED --gpu-device "$DEVICE"

step "done: $OUT"
ls "$OUT"

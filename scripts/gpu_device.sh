#!/usr/bin/env bash
# Othello on an OpenCL device, end to end: builds with the gpu feature,
# checks the kernels against the CPU (gpu-info --check), solves FFO #40-#44
# with the batch solver (each score checked against the known one), runs
# the midgame suite with each split of pv-split's pieces (bench), and
# writes the throughput tables (scripts/gpu_tables.py: the batch solver
# beside the CPU solver at 1 and 2 threads, by empties, with a plot) under
# OUTDIR. Made for a lent machine with an NVIDIA GPU (its driver ships an
# OpenCL ICD): the whole run stays within 10 minutes there (the build,
# 90 s of FFO positions, the tables within 5 minutes). --reduced is the form CI runs on PoCL (about a
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
  # One position is a narrow batch (a subtree or two a launch, thousands of
  # launches): FFO #40 to #44 one at a time, each checked against its known
  # score, until 90 seconds are spent; the full form only.
  step "FFO #40-#44 by the batch solver (90 s at most)"
  : >"$OUT/ffo.txt"
  deadline=$((SECONDS + 90))
  for n in 40 41 42 43 44; do
    left=$((deadline - SECONDS))
    if [ "$left" -le 0 ]; then
      echo "FFO #$n and after: not run (90 s spent)" | tee -a "$OUT/ffo.txt"
      break
    fi
    status=0
    timeout "$left" "$BIN" solve othello --ffo "$n" --algorithm gpu --gpu-device "$DEVICE" \
      | tee -a "$OUT/ffo.txt" || status=$?
    if [ "$status" -eq 124 ]; then
      echo "FFO #$n and after: not finished (90 s spent)" | tee -a "$OUT/ffo.txt"
      break
    elif [ "$status" -ne 0 ]; then
      echo "FAIL: FFO #$n: the score differs from the known one (status $status)" >&2
      exit 1
    fi
  done
fi

# Inside one search: the midgame suite by pv-split with the device as its
# slaves, each piece split three ways (narrow: a work-item a piece; gpu:
# two plies on the host; wide: down to four plies from the leaves), beside
# serial; every answer checked against serial's.
step "the midgame suite, each split of the pieces (bench)"
MIDGAME_DEPTH=$([ -n "$REDUCED" ] && echo 8 || echo 10)
"$BIN" bench --game othello --depth "$MIDGAME_DEPTH" --algos serial,gpu-narrow,gpu,gpu-wide \
  --threads 1 --runs 1 --no-ceiling --gpu-device "$DEVICE" --out "$OUT/midgame" \
  | tee "$OUT/midgame.md"

step "throughput tables"
python3 scripts/gpu_tables.py "$OUT" --bin "$BIN" $REDUCED --gpu-device "$DEVICE"

step "done: $OUT"
ls "$OUT"

#!/usr/bin/env bash
# Fuzzes every position and move parser, the suite reader and the UCI, UCCI
# and Hub line readers (the targets in fuzz/fuzz_targets/, cargo-fuzz on
# nightly): SECONDS_PER_TARGET each (default 10), as many targets at once as
# there are cores, and fails at the first crash, printing the input and how
# to reproduce it.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]
#
# CI runs it briefly. Run it long by hand, say overnight:
#   scripts/fuzz.sh 3600
# Each run starts from the seed corpus kept in the repository
# (fuzz/corpus/<target>/) and from what earlier runs found (fuzz/generated/,
# not committed); a crash's input lands in fuzz/artifacts/<target>/. A crash
# found is a bug: fix it, add the input to fuzz/corpus/<target>/ under a name
# saying what it found, and a test that reproduces it. Environment:
#   FUZZ_JOBS=N               targets run at once (default: the cores)
#   FUZZ_SANITIZER=address    build with AddressSanitizer, for the unsafe code
#                             (tt.rs, pool.rs): 3-6x slower (default: none)
#   FUZZ_TARGETS="a b"        only these targets (default: all of them)
#   FUZZ_TARGET_DIR=DIR       where to build (default: fuzz/target)
# Without a nightly toolchain it says so and exits 0, so CI machines without
# nightly skip it.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-10}
if ! [[ "$SECONDS_PER_TARGET" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET]" >&2
  exit 2
fi
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz: skipped: no nightly toolchain (cargo-fuzz needs -Zsanitizer and coverage instrumentation)"
  exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install cargo-fuzz --locked --quiet
fi

SANITIZER=${FUZZ_SANITIZER:-none}
TARGET_DIR=$(realpath -m "${FUZZ_TARGET_DIR:-fuzz/target}")
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
HOST=$(rustc +nightly -vV | sed -n 's/^host: //p')
BIN="$TARGET_DIR/$HOST/release"
LOGS="$TARGET_DIR/fuzz-logs"

echo "fuzz: building the targets (sanitizer: $SANITIZER)"
(cd fuzz && cargo +nightly fuzz build --sanitizer "$SANITIZER" --target-dir "$TARGET_DIR")
read -r -a TARGETS <<< "${FUZZ_TARGETS:-$(cd fuzz && cargo +nightly fuzz list | tr '\n' ' ')}"
mkdir -p "$LOGS"

# One target: its seed corpus read, what it finds kept in fuzz/generated/.
# Inputs are short (a position or move: 512 bytes; a session or a suite:
# 4 KiB); one that takes over 20 s is reported as a hang.
run_target() {
  local target=$1 max_len=512
  case $target in protocol_* | suite) max_len=4096 ;; esac
  mkdir -p "fuzz/generated/$target" "fuzz/artifacts/$target"
  exec "$BIN/$target" -max_total_time="$SECONDS_PER_TARGET" -max_len="$max_len" -timeout=20 \
    -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$target/" \
    "fuzz/generated/$target" "fuzz/corpus/$target" > "$LOGS/$target.log" 2>&1
}

report() {
  local target=$1 status=$2 log="$LOGS/$1.log"
  # A target we killed after another failed: SIGTERM (143), or libFuzzer's
  # "run interrupted" exit code (72).
  if [ "$failed" -ne 0 ] && { [ "$status" -eq 143 ] || [ "$status" -eq 72 ]; }; then
    echo "fuzz: $target: stopped"
    return
  fi
  if [ "$status" -eq 0 ]; then
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $target: ${runs:-?} inputs, no crash"
    return
  fi
  echo "fuzz: $target: FAILED (status $status); the end of its log ($log):"
  tail -n 40 "$log"
  local artifact
  artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
  if [ -n "$artifact" ]; then
    echo "fuzz: reproduce with: (cd fuzz && cargo +nightly fuzz run -s $SANITIZER $target ../$artifact)"
  fi
}

# Up to JOBS targets at once; the first failure stops the rest (each target
# runs as its own process: `exec` in run_target).
declare -A RUNNING=()
failed=0
finish_one() {
  local pid status=0
  wait -n -p pid "${!RUNNING[@]}" || status=$?
  report "${RUNNING[$pid]}" "$status"
  unset "RUNNING[$pid]"
  if [ "$status" -ne 0 ]; then failed=1; fi
}
echo "fuzz: ${#TARGETS[@]} targets, $SECONDS_PER_TARGET s each, $JOBS at once"
for target in "${TARGETS[@]}"; do
  while [ "${#RUNNING[@]}" -ge "$JOBS" ] && [ "$failed" -eq 0 ]; do finish_one; done
  if [ "$failed" -ne 0 ]; then break; fi
  run_target "$target" &
  RUNNING[$!]=$target
done
while [ "${#RUNNING[@]}" -gt 0 ]; do
  if [ "$failed" -ne 0 ]; then
    for pid in "${!RUNNING[@]}"; do kill "$pid" 2>/dev/null || true; done
  fi
  finish_one
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a target crashed (see above)"
  exit 1
fi
echo "fuzz: every target ran $SECONDS_PER_TARGET s without a crash"

#!/usr/bin/env bash
# The exactness tests under ThreadSanitizer: every algorithm at 1, 2, 3, 4 and
# 8 threads on synthetic trees, the repeated searches and the planted panics,
# with every memory access of the search checked for data races.
#
# Needs the nightly toolchain with rust-src (the standard library is rebuilt
# with the sanitizer: -Zbuild-std). Without them it says so and exits 0, so CI
# machines without nightly skip it. Run by hand:
#   scripts/tsan.sh                      the CI subset (a minute or two)
#   scripts/tsan.sh --all                every test in splitpoint-games/tests/parallel.rs
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "tsan: skipped: no nightly toolchain (ThreadSanitizer needs -Zsanitizer and -Zbuild-std)"
  exit 0
fi
if ! rustup +nightly component list --installed 2>/dev/null | grep -q '^rust-src'; then
  if ! rustup component add rust-src --toolchain nightly >/dev/null 2>&1; then
    echo "tsan: skipped: rust-src for nightly cannot be installed here"
    exit 0
  fi
fi

FILTER=(every_algorithm_is_exact_on_synthetic_trees deeper_trees a_thousand a_panic)
if [ "${1:-}" = "--all" ]; then FILTER=(); fi

# TSan reports any race as an error; halt at the first so the report is short.
export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/tsan} \
  cargo +nightly test -Zbuild-std --target x86_64-unknown-linux-gnu --locked \
  -p splitpoint-games --test parallel -- "${FILTER[@]}"

#!/usr/bin/env bash
# Runs one fuzz target at the lowest priority: ./run.sh TARGET SECONDS [RUNS] [extra libFuzzer flags]
# Builds release with overflow checks and debug assertions, no sanitizer (the crates forbid unsafe).
set -euo pipefail
cd "$(dirname "$0")"
target=$1; secs=$2; runs=${3:--1}; shift 3 || shift $#
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
nice -n 19 cargo +nightly fuzz build -O -a -s none "$target" >/dev/null
mkdir -p "corpus/$target" "artifacts/$target"
exec nice -n 19 "$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release/$target" \
  -dict=dict/cute.dict -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -max_total_time="$secs" -runs="$runs" -artifact_prefix="artifacts/$target/" "$@" "corpus/$target"

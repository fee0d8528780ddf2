#!/usr/bin/env bash
# The algebra benchmark, everything in one run (about three minutes on 2 cores):
#   ours: ns/op (min and median of 9 repeats in 3 passes, cute-bench --stats --rounds 3) and instructions/op
#         (callgrind, scripts/bench-ir.sh; skipped without valgrind);
#   pycute: µs/op in the same run (scripts/bench-pycute.py; its venv is created on first use);
#   CuTe C++: the numbers of results-baseline.md beside the cases file, and (when g++ is
#   installed) our own host-only build of CuTe on the same cases in the same run
#   (scripts/bench-cute-cpp.py, a second table; CUTE_CPP=0 skips it).
# Prints the machine, its load, and the table as Markdown (the "Algebra benchmarks" section of
# BENCHMARKS.md).
#
# Usage: scripts/bench.sh [CASES_FILE]     (default ../shared/bench/cases.txt)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cases="${1:-../shared/bench/cases.txt}"
baseline="${BASELINE:-$(dirname "$cases")/results-baseline.md}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
cargo build --profile bench-release --quiet -p cute-bench
bin="$CARGO_TARGET_DIR/bench-release/cute-bench"

echo "- cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- rustc: $(rustc --version)"
echo "- cases: $cases"
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
args=(--cases "$cases" --bench "$bin" --markdown --json "$tmp/ours.json")
if command -v valgrind >/dev/null; then
    scripts/bench-ir.sh "$cases" "$bin" >"$tmp/ir"
    args+=(--ir "$tmp/ir")
else
    echo "(valgrind not installed: no instruction counts)" >&2
fi
[ -f "$baseline" ] && args+=(--baseline "$baseline")
python3 scripts/bench-pycute.py "${args[@]}" 2> >(grep -v ' done$' >&2)
if [ "${CUTE_CPP:-1}" != 0 ] && command -v "${CXX:-g++}" >/dev/null; then
    echo
    echo "CuTe C++ built here (host-only, headers from the nvidia-cutlass wheel):"
    echo
    cpp_args=(--cases "$cases" --markdown --ours "$tmp/ours.json")
    command -v valgrind >/dev/null && cpp_args+=(--ir)
    python3 scripts/bench-cute-cpp.py "${cpp_args[@]}" 2> >(grep -v '^case ' >&2)
fi
echo
echo "- load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"

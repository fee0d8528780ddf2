#!/usr/bin/env bash
# Instructions per operation of every case of a cases file, from valgrind callgrind:
# each case runs N1 and N2 times under callgrind and Ir/op = (Ir(N2) - Ir(N1)) / (N2 - N1),
# which cancels start-up and parsing (sweep: per element). Deterministic, unaffected by load.
#
# Usage: scripts/bench-ir.sh [CASES_FILE] [BENCH_BINARY]    (prints `ID Ir_per_op` per case)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cases="${1:-$root/../shared/bench/cases.txt}"
bin="${2:-${CARGO_TARGET_DIR:-$root/target}/bench-release/cute-bench}"
command -v valgrind >/dev/null || { echo "bench-ir: valgrind is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench-ir: no $bin (cargo build --profile bench-release -p cute-bench)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n="$(grep -cvE '^[[:space:]]*(#|$)' "$cases")"
ir() { # case iters -> total instructions
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bin" \
        --callgrind-case "$1" --iters "$2" "$cases" 2>"$tmp/err" >/dev/null \
        || { cat "$tmp/err" >&2; exit 1; }
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err"
}
for ((id = 0; id < n; id++)); do
    op="$(grep -vE '^[[:space:]]*(#|$)' "$cases" | sed -n "$((id + 1))p" | awk '{print $1}')"
    if [ "$op" = sweep ]; then n1=10 n2=30; else n1=1000 n2=3000; fi
    a="$(ir "$id" "$n1")"
    b="$(ir "$id" "$n2")"
    elems=1
    if [ "$op" = sweep ]; then
        elems="$("$bin" --results "$cases" | sed -n "$((id + 1))p" | tr ',' '\n' | wc -l)"
    fi
    awk -v a="$a" -v b="$b" -v d="$((n2 - n1))" -v e="$elems" -v id="$id" \
        'BEGIN { printf "%d %.1f\n", id, (b - a) / d / e }'
done

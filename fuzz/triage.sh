#!/usr/bin/env bash
# Replays every artifact of TARGET and prints each distinct panic location with one example.
cd "$(dirname "$0")"
t=$1; B=${CARGO_TARGET_DIR:-$PWD/target}/x86_64-unknown-linux-gnu/release/$t
for f in artifacts/$t/*; do
  RUST_BACKTRACE=0 "$B" "$f" 2>&1 | grep -A1 "panicked at" | tr '\n' ' ' | sed "s|^|$f |"; echo
done | awk 'NF' | awk '{loc=$5; if (!(loc in seen)) {seen[loc]=1; print} ; n[loc]++} END {for (l in n) print n[l], l}'

#!/usr/bin/env bash
# The publishable crates package one by one (manifests, licences, readme, versions on path
# dependencies; .cargo/config.toml lets each find its unpublished siblings), and the API docs
# build without a broken link.
set -euo pipefail
cd "$(dirname "$0")/../.."
for crate in cute-layout cute-ops cute-cli; do
  rm -f "target/package/$crate-"*.crate
  cargo package --quiet --no-verify --allow-dirty -p "$crate" 2>&1 | grep -v 'was not used in the crate graph' || true
  test -f "target/package/$crate-0.1.0.crate"
done
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --workspace --no-deps

#!/usr/bin/env bash
# The optional `serde` feature of cute-layout (the plain `cargo test --workspace` leaves it off).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo test --quiet -p cute-layout --features serde --lib literal

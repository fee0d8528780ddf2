#!/usr/bin/env bash
# The publishable crates package (manifests, licences, readme, versions on path dependencies).
# Packaged together so that each finds its siblings before they are on crates.io.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo package --quiet --no-verify --allow-dirty -p cute-layout -p cute-ops -p cute-cli

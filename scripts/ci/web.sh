#!/usr/bin/env bash
# The web playground's part of the gate (.ci/run calls this once): format and lint crates/cute-wasm
# (a workspace of its own, built for wasm32), its unit tests on the host, the page built by
# scripts/build-web.sh, then web/tests/ in Debian's Chromium through playwright-core (installed from
# npm by `npm ci`; it never downloads a browser). Installs what is missing: chromium (apt), node and
# npm (apt), the wasm32 target and wasm-bindgen-cli (scripts/build-web.sh, cached).
set -euo pipefail
cd "$(dirname "$0")/../.."

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# Not --locked: the wasm crate has a lock file of its own, which a new dependency of the library
# (locked in the root Cargo.lock) must be able to join.
WASM=(--manifest-path crates/cute-wasm/Cargo.toml --target-dir target)
cargo fmt --manifest-path crates/cute-wasm/Cargo.toml -- --check
cargo clippy "${WASM[@]}" --target wasm32-unknown-unknown --all-targets -- -D warnings
cargo test "${WASM[@]}" -q

bash scripts/build-web.sh
# The `cute` of $CUTE (.ci/run: the binary of its test step), else target/debug/cute built here.
if [[ -z ${CUTE:-} ]]; then
  cargo build -q -p cute-cli
  CUTE="$PWD/target/debug/cute"
fi
export CUTE_BIN="$CUTE"
cd web
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
node --test tests/

#!/usr/bin/env bash
# Builds the web playground into web/dist/, a static folder any file server can serve (entry
# index.html): crates/cute-wasm compiled to wasm32-unknown-unknown, its JavaScript bindings made by
# wasm-bindgen, and the page (web/index.html, style.css and its modules: app.js, the page; worker.js,
# the worker that runs the module; core.js, what a view requests; raster.js, big pictures as pixels).
#
# Installs what it needs on first use: the wasm32-unknown-unknown target (rustup) and
# wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in crates/cute-wasm/Cargo.toml,
# built once into $CUTE_WEB_TOOLS (default ~/.cache/cute-web-tools; a few minutes), then reused.
#
#   bash scripts/build-web.sh && python3 -m http.server -d web/dist 8000
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS="${CUTE_WEB_TOOLS:-$HOME/.cache/cute-web-tools}"
WB_VERSION=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"$/\1/p' crates/cute-wasm/Cargo.toml)
[ -n "$WB_VERSION" ] || { echo "build-web: no exact wasm-bindgen version in crates/cute-wasm/Cargo.toml" >&2; exit 1; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
if ! "$TOOLS/bin/wasm-bindgen" --version 2>/dev/null | grep -qx "wasm-bindgen $WB_VERSION"; then
  echo "build-web: building wasm-bindgen-cli $WB_VERSION into $TOOLS (once)" >&2
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --no-default-features \
    --bin wasm-bindgen --root "$TOOLS" --force
fi

cargo build --release --target wasm32-unknown-unknown \
  --manifest-path crates/cute-wasm/Cargo.toml --target-dir target

rm -rf web/dist
mkdir -p web/dist/pkg
"$TOOLS/bin/wasm-bindgen" --target web --no-typescript --out-dir web/dist/pkg \
  target/wasm32-unknown-unknown/release/cute_wasm.wasm
cp web/index.html web/style.css web/app.js web/worker.js web/core.js web/raster.js web/dist/
echo "build-web: web/dist/ ($(du -sh web/dist | cut -f1)); serve it with: python3 -m http.server -d web/dist 8000"

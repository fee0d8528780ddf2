#!/usr/bin/env bash
# The Python package (crates/cute-py): `pip install ./crates/cute-py` into a fresh virtual
# environment (maturin builds the abi3 wheel), then its pytest suite: the API, the docstring
# examples, pycute's test calls through the drop-in `cute_layout.pycute`, and every vendored
# conformance case through the Python API against the operation table.
# (fmt and clippy cover the crate with the rest of the workspace in .ci/run.)
#
# Alone, pip builds the release wheel that a user gets. In .ci/run (CUTE_GATE=1) the module is
# built as the gate's test step built the library (the dev profile, whose settings the test
# profile shares, and cute-layout's `serde` on), so that the compiled crates are reused instead
# of built again in release.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -n ${CUTE_GATE:-} ]]; then
  export MATURIN_PEP517_ARGS="--profile dev --features cute-layout/serde"
fi

venv="$(realpath -m "${CUTE_PY_VENV:-target/py-venv}")"
rm -rf "$venv"
python3 -m venv "$venv"
py="$venv/bin/python"
"$py" -m pip install --quiet --disable-pip-version-check pytest numpy
"$py" -m pip install --quiet --disable-pip-version-check ./crates/cute-py
# From outside the source tree, so that the installed package is the one imported.
cd crates/cute-py/tests
"$py" -m pytest -q -p no:cacheprovider .

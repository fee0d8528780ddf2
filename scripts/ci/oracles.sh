#!/usr/bin/env bash
# Rosetta against the real peers (scripts/rosetta/test_rosetta.py): held-out Gluon layouts of
# every kind against Triton's own to_linear_layout, held-out CuTe layouts through cute_to_gluon
# and back through Triton (equal, or refused exactly where no linear layout exists), and
# held-out layouts through `cute codegen --lang cute-dsl` run in the CuTe DSL and through
# `--lang cpp` compiled host-only with CuTe's headers (g++). No GPU needed.
#
#   scripts/ci/oracles.sh [CUTE]     # default: $CUTE, else target/debug/cute (built here if missing)
#
# The peers live in a cached venv, ~/.cache/cute-layout/oracles (ORACLES to move it): created
# and filled once per machine (triton==3.9.0 and nvidia-cutlass-dsl==4.8.1, about 1.3 GB; and
# nvidia-cutlass for pycute and CuTe's headers, nvidia-cuda-cccl-cu12 for libcu++'s), reused
# afterwards. ROSETTA_SEED fixes the seed (printed on every
# run), ROSETTA_CASES the cases per kind (default 20: about 30 s with the venv present, under a
# minute on a loaded 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=${ORACLES:-$HOME/.cache/cute-layout/oracles}
py=$venv/bin/python
if ! "$py" -c 'import triton, cutlass.cute, pycute' 2>/dev/null; then
  echo "oracles: creating $venv (triton==3.9.0, nvidia-cutlass-dsl==4.8.1, nvidia-cutlass)"
  python3 -m venv "$venv"
  "$py" -m pip install -q triton==3.9.0 nvidia-cutlass-dsl==4.8.1 nvidia-cutlass
fi
# libcu++'s headers, for compiling `codegen --lang cpp` output with CuTe's (host only).
if ! "$py" -m pip show -q nvidia-cuda-cccl-cu12 >/dev/null 2>&1; then
  "$py" -m pip install -q nvidia-cuda-cccl-cu12
fi
[[ "$("$py" -c 'import triton; print(triton.__version__)')" == 3.9.0 ]] || {
  echo "oracles: $venv has triton $("$py" -c 'import triton; print(triton.__version__)'), not 3.9.0"
  exit 1
}
cute=${1:-${CUTE:-target/debug/cute}}
if [[ ! -x $cute ]]; then
  cargo build -q -p cute-cli
  cute=target/debug/cute
fi
CUTE=$cute "$py" scripts/rosetta/test_rosetta.py 2>&1 | grep -v -e '^nanobind: leaked' -e '^ - leaked' -e '^ - \.\.\. skipped' -e '^nanobind: this is likely' -e '^See https://nanobind'
echo "oracles: ok"

#!/usr/bin/env bash
# CPU checks of code generation (issue #28), run by .ci/run; CI has no GPU.
#  1. `cute codegen --check` for a corpus of layouts (plain, hierarchical, swizzled, negative and
#     zero strides, offsets, composed and TV layouts): the header and its test program compiled
#     with g++ (-Wall -Wextra -Werror) and run, comparing every point with the library's table.
#     (The Rust test crates/cute-layout/tests/codegen_gpp.rs does the same for 300 random layouts.)
#  2. gpu/gen/ is what gpu/gen.sh writes now (the GPU suite's emitted headers are up to date), and
#     the wgmma GEMM's emitted shared-memory tiles are the hardware's 128-byte swizzle
#     (gpu/wgmma_layouts.hpp's compile-time checks, compiled with g++).
# Without g++ the compiled checks are skipped with a message (CUTE_REQUIRE_GPP=1, which .ci/run
# sets, makes that a failure). Uses $CUTE (.ci/run: the binary of its test step), else builds
# target/debug/cute.
set -euo pipefail
cd "$(dirname "$0")/../.."
cute=${CUTE:-}
if [[ -z $cute ]]; then
  cargo build -q -p cute-cli
  cute=$PWD/target/debug/cute
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if command -v g++ >/dev/null; then
  n=0
  while IFS= read -r layout; do
    [[ -z $layout || $layout == \#* ]] && continue
    n=$((n + 1))
    "$cute" codegen "$layout" --name "l$n" --namespace cg >"$tmp/l$n.hpp"
    "$cute" codegen "$layout" --name "l$n" --namespace cg --check >"$tmp/t$n.cpp"
    g++ -std=c++17 -O1 -Wall -Wextra -Werror -I"$tmp" -o "$tmp/t$n" "$tmp/t$n.cpp"
    "$tmp/t$n" >/dev/null || { echo "codegen.sh: $layout: emitted code differs from the library" >&2; exit 1; }
  done <<EOF_CORPUS
8:1
(4,8):(8,1)
(2,(2,2)):(4,(2,1))
((2,4),(3,5)):((1,2),(8,24))
(3,(2,5)):(-1,(7,-20))
(4,(3,2)):(0,(0,5))
(6,7,5):(35,5,-1)
((8,32),4):((128,1),32)
Sw<3,4,3> o 0 o (8,64):(64,1)
Sw<3,2,6> o 0 o (64,64):(64,1)
Sw<2,1,-3> o 16 o (8,16):(16,1)
Sw<1,0,2> o 4 o Sw<2,0,3> o 0 o (8,8):(1,8)
$("$cute" composition 'Sw<3,2,6> o 0 o (64,64):(64,1)' '((8,32),(4,2,2)):((4,64),(1,32,2048))')
$("$cute" composition '(12,(4,8)):(59,(13,1))' '((2,2),4):((1,24),2)')
$("$cute" logical_product '(3,4):(4,1)' '(2,3)')
$("$cute" zipped_divide '(24,40):(40,1)' '(8,8)')
EOF_CORPUS
  echo "codegen.sh: $n layouts: g++-compiled code matches the library at every point"
else
  [[ -n ${CUTE_REQUIRE_GPP:-} ]] && { echo "codegen.sh: g++ not found" >&2; exit 1; }
  echo "codegen.sh: g++ not found, skipping the compiled checks"
fi

CUTE="$cute" bash gpu/gen.sh "$tmp/gen" 2>/dev/null
if ! diff -r -q gpu/gen "$tmp/gen" >/dev/null; then
  diff -r gpu/gen "$tmp/gen" | head -20 >&2
  echo "codegen.sh: gpu/gen/ is stale: run CUTE=$cute bash gpu/gen.sh" >&2
  exit 1
fi
echo "codegen.sh: gpu/gen/ is up to date"
if command -v g++ >/dev/null; then
  echo '#include "wgmma_layouts.hpp"' | g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ -Igpu - ||
    { echo "codegen.sh: gpu/wgmma_layouts.hpp: the emitted tiles are not the 128-byte swizzle" >&2; exit 1; }
  echo "codegen.sh: gpu/gen/wgmma.hpp: the shared-memory tiles are the 128-byte swizzle (g++ static checks)"
fi

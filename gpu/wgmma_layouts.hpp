// The wgmma GEMM's layouts (gpu/gen/wgmma.hpp, emitted by gpu/gen.sh) checked at compile time
// against the hardware's: included by gpu/wgmma.cu, and compiled by scripts/ci/codegen.sh with
// g++ (CI has no GPU).
#pragma once
#include <cstdint>

#include "gen/wgmma.hpp"

namespace wg {
// The hardware's 128-byte swizzle, in bf16 offsets of a K-major tile with 64-element (128-byte)
// rows: 16-byte chunk c of row r goes to chunk c ^ (r mod 8), rows 128 bytes apart.
constexpr int64_t hw_sw128(int64_t r, int64_t k) { return r * 64 + ((((k >> 3) ^ (r & 7)) << 3) | (k & 7)); }
template <int64_t (*F)(int64_t, int64_t)>
constexpr bool is_hw_sw128(int64_t rows) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < 64; ++k)
      if (F(r, k) != hw_sw128(r, k)) return false;
  return true;
}
static_assert(is_hw_sw128<gen::sw128_a>(gen::sw128_a_size0) && is_hw_sw128<gen::sw128_b>(gen::sw128_b_size0),
              "the library's shared-memory tiles are the 128-byte swizzle that TMA writes and wgmma reads");
// Descriptor fields read off the library's layout: 8-row core-matrix groups 1024 bytes apart (the
// stride byte offset), a k step of 16 at +32 bytes of row 0, warpgroup w's rows at 64 w.
constexpr uint32_t SBO = (uint32_t)(2 * gen::sw128_a(8, 0));
static_assert(SBO == 1024 && 2 * gen::sw128_b(8, 0) == SBO, "8 rows of 128 bytes");
static_assert(2 * gen::sw128_a(0, 16) == 32 && 2 * gen::sw128_b(0, 16) == 32, "k step of 16 bf16 = 32 bytes");
static_assert(gen::sw128_a_size1 == 64 && gen::sw128_b_size1 == 64, "rows of 64 bf16 = 128 bytes");
static_assert(gen::box_a_size0 == gen::sw128_a_size0 && gen::box_a_size1 == gen::sw128_a_size1 &&
                  gen::box_b_size0 == gen::sw128_b_size0 && gen::box_b_size1 == gen::sw128_b_size1,
              "the TMA box is the shared-memory tile");
}  // namespace wg

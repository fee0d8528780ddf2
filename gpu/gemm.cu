// A bf16 tensor-core GEMM (mma.sync m16n8k16, f32 accumulate) whose every index is code emitted
// by `cute codegen` from the library's TiledMMA, tiled copy and searched shared-memory layouts
// (gpu/gen/gemm.hpp, written by gpu/gen.sh): C (M x N, bf16) = A (M x K) B^T, A and B K-major.
// Built as a shared library; gpu/gemm.py checks it against torch.matmul and times it against
// cuBLAS (torch.matmul).
#include <cuda_bf16.h>
#include <cstdint>

#include "gen/gemm.hpp"

namespace {
constexpr int THREADS = (int)gen::g_a_size0;  // 256
constexpr int STAGES = 4;
constexpr int BM = 128, BN = 128, BK = 32;
constexpr int64_t TILE = BM * BK;  // elements of one A (or B) stage
constexpr int KT = (int)(gen::gemm_k / BK);
static_assert(gen::sw_a_vector >= 8 && gen::sw_b_vector >= 8 && gen::g_a_vector >= 8 && gen::g_b_vector >= 8,
              "16-byte cp.async needs 8 consecutive bf16 on both sides");
static_assert(gen::ld_a_vector >= 8 && gen::ld_b_vector >= 8, "ldmatrix reads 16-byte rows");
static_assert(gen::g_c_vector >= 2, "C is written as bf16 pairs");
static_assert(gen::g_c_size1 == 4, "m16n8k16 accumulators");
constexpr int MI = (int)gen::ld_a_size2, NI = (int)gen::ld_b_size2, KI = (int)gen::ld_a_size3;

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// ldmatrix: each thread gives one 16-byte row address (the LDSM tiled copy's source TV layout);
// the registers come out in the MMA's fragment order (its destination TV layout).
__device__ __forceinline__ void ldsm_x4(uint32_t* r, const void* p) {
  const uint32_t s = (uint32_t)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(s));
}
__device__ __forceinline__ void ldsm_x2(uint32_t* r, const void* p) {
  const uint32_t s = (uint32_t)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}

__device__ __forceinline__ void mma(float* d, const uint32_t* a, const uint32_t* b) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// MINB: blocks per SM asked of the register allocator (1 or 2). GROUP > 1: blocks run in groups of
// GROUP row-blocks sweeping the column-blocks, so that blocks running together share A and B in L2.
template <int MINB, int GROUP>
__global__ void __launch_bounds__(THREADS, MINB) gemm_kernel(const __nv_bfloat16* __restrict__ A,
                                                       const __nv_bfloat16* __restrict__ B,
                                                       __nv_bfloat16* __restrict__ C) {
  extern __shared__ __align__(128) __nv_bfloat16 smem[];
  __nv_bfloat16* sA = smem;
  __nv_bfloat16* sB = smem + STAGES * TILE;
  const int64_t t = threadIdx.x;
  const int64_t mblocks = gen::gemm_m / BM;
  int64_t bm = blockIdx.x, bn = blockIdx.y;
  if constexpr (GROUP > 1) {
    static_assert((gen::gemm_m / BM) % GROUP == 0, "groups of row-blocks");
    const int64_t id = blockIdx.x + (int64_t)gridDim.x * blockIdx.y, per = GROUP * (gen::gemm_n / BN);
    bm = (id / per) * GROUP + id % GROUP;
    bn = (id % per) / GROUP;
  }
  float acc[MI][NI][4];
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.0f;

  auto load = [&](int stage, int64_t kt) {
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      cp_async16(sA + stage * TILE + gen::sw_a(t, 0, r), A + gen::g_a(t, 0, r, bm + mblocks * kt));
      cp_async16(sB + stage * TILE + gen::sw_b(t, 0, r), B + gen::g_b(t, 0, r, bn + mblocks * kt));
    }
    cp_commit();
  };
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) load(s, s);

  for (int kt = 0; kt < KT; ++kt) {
    cp_wait<STAGES - 2>();
    __syncthreads();
    const int next = kt + STAGES - 1;
    if (next < KT) {
      load(next % STAGES, next);
    } else {
      cp_commit();
    }
    const __nv_bfloat16* a_s = sA + (kt % STAGES) * TILE;
    const __nv_bfloat16* b_s = sB + (kt % STAGES) * TILE;
#pragma unroll
    for (int ki = 0; ki < KI; ++ki) {
      uint32_t af[MI][4], bf[NI][2];
#pragma unroll
      for (int i = 0; i < MI; ++i) ldsm_x4(af[i], a_s + (int)gen::ld_a(t, 0, i, ki));
#pragma unroll
      for (int j = 0; j < NI; ++j) ldsm_x2(bf[j], b_s + (int)gen::ld_b(t, 0, j, ki));
#pragma unroll
      for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) mma(acc[i][j], af[i], bf[j]);
    }
  }
  cp_wait<0>();
  const int64_t blk = bm + mblocks * bn;
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int r = 0; r < 2; ++r)
        *reinterpret_cast<__nv_bfloat162*>(C + gen::g_c(t, 2 * r, i, j, blk)) =
            __floats2bfloat162_rn(acc[i][j][2 * r], acc[i][j][2 * r + 1]);
}
}  // namespace

template <int MINB, int GROUP>
static int launch(const void* a, const void* b, void* c, void* stream) {
  const int bytes = (int)(2 * STAGES * TILE * sizeof(__nv_bfloat16));
  cudaError_t e = cudaFuncSetAttribute(gemm_kernel<MINB, GROUP>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (e != cudaSuccess) return (int)e;
  const dim3 grid((unsigned)(gen::gemm_m / BM), (unsigned)(gen::gemm_n / BN));
  gemm_kernel<MINB, GROUP><<<grid, THREADS, bytes, (cudaStream_t)stream>>>(
      (const __nv_bfloat16*)a, (const __nv_bfloat16*)b, (__nv_bfloat16*)c);
  return (int)cudaGetLastError();
}

// variant 1: one block per SM (no register cap); 2: two blocks per SM (at most 128 registers);
// 3: as 2, blocks in groups of 8 row-blocks.
extern "C" int gemm_launch(const void* a, const void* b, void* c, void* stream, int variant) {
  if (variant == 3) return launch<2, 8>(a, b, c, stream);
  return variant == 2 ? launch<2, 1>(a, b, c, stream) : launch<1, 1>(a, b, c, stream);
}
extern "C" long long gemm_size() { return (long long)gen::gemm_m; }

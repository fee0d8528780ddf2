// A bf16 GEMM on Hopper's warpgroup MMA (wgmma m64n256k16, f32 accumulate), its tiles loaded by
// the tensor memory accelerator (TMA) with the 128-byte swizzle: C (M x N, bf16) = A (M x K) B^T,
// A and B K-major (row-major as torch stores them). The library's part is code emitted by
// `cute codegen` (gpu/gen/wgmma.hpp, written by gpu/gen.sh):
//  - sw128_a / sw128_b: the shared-memory tiles, CuTe's 128-byte K-major GMMA swizzle atom tiled
//    to 128 x 64 and 256 x 64. They give each wgmma's descriptor start address (warpgroup row
//    block and k step) and its stride byte offset; the compile-time checks of gpu/wgmma_layouts.hpp
//    and the probe kernel (TMA's writes read back through sw128_a/b) prove that they are the
//    hardware's swizzle.
//  - box_a / box_b and tile_a / tile_b: the TMA box (mode 0 of the operand's zipped_divide into
//    tiles: its shape and row pitch) and each tile's origin (mode 1).
//  - wg_c: the accumulators' (thread, register) -> C offset, the TiledMMA's C TV layout composed
//    with the tiled C.
// The hardware's part: the descriptor bit fields, the tensor map, the mbarrier protocol.
// Built as a shared library for sm_90a; gpu/gemm.py checks it against torch.matmul and times it
// against cuBLAS.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include "wgmma_layouts.hpp"

namespace {
constexpr int BM = (int)gen::box_a_size0, BN = (int)gen::box_b_size0, BK = (int)gen::box_a_size1;
constexpr int STAGES = 4;
constexpr int CONSUMERS = 2;  // warpgroups issuing wgmma; one more loads
constexpr int THREADS = 128 * (CONSUMERS + 1);
constexpr int A_BYTES = BM * BK * 2, B_BYTES = BN * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;
constexpr int KT = (int)(gen::wg_k / BK);
constexpr int SMEM_BYTES = STAGES * STAGE_BYTES + 1024 + 2 * STAGES * 8;
static_assert(BM == 64 * CONSUMERS && BN == 256 && BK == 64 && gen::box_b_size1 == BK, "tile 128 x 256 x 64");
static_assert(gen::wg_c_size0 == 128 * CONSUMERS && gen::wg_c_size1 == 128 && gen::wg_c_vector >= 2,
              "C: 2 warpgroups x 128 f32 registers, written as bf16 pairs");


__device__ __forceinline__ uint32_t smem_addr(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
// TMA: the box at element coordinates (k0, r0) of the tensor map into shared memory at dst,
// completing on the mbarrier.
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap* map, uint32_t bar, int k0, int r0) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(k0), "r"(r0)
      : "memory");
}
// The wgmma shared-memory matrix descriptor: start address, leading byte offset (unused by the
// swizzled K-major layout; 1), stride byte offset, swizzle mode 1 = 128 bytes (bits 62-63).
__device__ __forceinline__ uint64_t desc_sw128(uint32_t saddr) {
  return (uint64_t)((saddr & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)(wg::SBO >> 4) << 32) |
         ((uint64_t)1 << 62);
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// D (64 x 256, f32, 128 registers a thread in the atom's C TV order) += A (64 x 16) B (256 x 16)^T.
__device__ __forceinline__ void wgmma_64x256x16(float* d, uint64_t da, uint64_t db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
      "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
      "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
      "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
      "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
      "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"
      "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}, "
      "%128, %129, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(da), "l"(db), "r"(1));
}

// One CTA computes a 128 x 256 tile of C: warpgroup 2 loads (one thread issues the TMA copies),
// warpgroups 0 and 1 each multiply 64 rows. STAGES shared-memory stages, each with a "full"
// mbarrier (TMA bytes arrived) and an "empty" one (both consumers done reading).
// GROUP: tiles run in groups of GROUP row-blocks sweeping the column-blocks (L2 reuse).
template <int GROUP>
__global__ void __launch_bounds__(THREADS, 1) wgmma_kernel(const __grid_constant__ CUtensorMap mapA,
                                                          const __grid_constant__ CUtensorMap mapB,
                                                          __nv_bfloat16* __restrict__ C) {
  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (smem_addr(smem_raw) + 1023) & ~1023u;
  const uint32_t bars = base + STAGES * STAGE_BYTES;
  auto sa = [&](int s) { return base + s * STAGE_BYTES; };
  auto sb = [&](int s) { return base + s * STAGE_BYTES + A_BYTES; };
  auto full = [&](int s) { return bars + 8 * s; };
  auto empty = [&](int s) { return bars + 8 * (STAGES + s); };
  const int t = threadIdx.x, wg = t / 128;
  constexpr int64_t mblocks = gen::wg_m / BM, nblocks = gen::wg_n / BN;
  static_assert(mblocks % GROUP == 0, "groups of row-blocks");
  const int64_t id = blockIdx.x, per = GROUP * nblocks;
  const int64_t bm = (id / per) * GROUP + id % GROUP, bn = (id % per) / GROUP;

  if (t == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(full(s), 1);
      mbar_init(empty(s), CONSUMERS);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (wg == CONSUMERS) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (t == 128 * CONSUMERS) {
      for (int kt = 0; kt < KT; ++kt) {
        const int s = kt % STAGES;
        if (kt >= STAGES) mbar_wait(empty(s), ((kt / STAGES) - 1) & 1);
        mbar_expect_tx(full(s), STAGE_BYTES);
        const int64_t oa = gen::tile_a(bm, kt), ob = gen::tile_b(bn, kt);
        tma_load(sa(s), &mapA, full(s), (int)(oa % gen::wg_k), (int)(oa / gen::wg_k));
        tma_load(sb(s), &mapB, full(s), (int)(ob % gen::wg_k), (int)(ob / gen::wg_k));
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    float acc[128];
#pragma unroll
    for (int v = 0; v < 128; ++v) acc[v] = 0.0f;
    const uint32_t rows = (uint32_t)(2 * gen::sw128_a(64 * wg, 0));
    for (int kt = 0; kt < KT; ++kt) {
      const int s = kt % STAGES;
      mbar_wait(full(s), (kt / STAGES) & 1);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk) {
        const uint32_t ka = (uint32_t)(2 * gen::sw128_a(0, 16 * kk)), kb = (uint32_t)(2 * gen::sw128_b(0, 16 * kk));
        wgmma_64x256x16(acc, desc_sw128(sa(s) + rows + ka), desc_sw128(sb(s) + kb));
      }
      wgmma_commit();
      wgmma_wait<1>();
      if (kt > 0 && t % 128 == 0) mbar_arrive(empty((kt - 1) % STAGES));
    }
    wgmma_wait<0>();
    const int64_t blk = bm + mblocks * bn;
#pragma unroll
    for (int v = 0; v < 128; v += 2)
      *reinterpret_cast<__nv_bfloat162*>(C + gen::wg_c(t, v, blk)) = __floats2bfloat162_rn(acc[v], acc[v + 1]);
  }
}

// The probe: one CTA loads A's tile (row-block 1, k-block 2) and B's tile (column-block 1, k-block
// 3) by TMA, then reads every element back through sw128_a / sw128_b and compares it with the
// operand in global memory. bad[0], bad[2]: mismatches of A and B through the library's layouts
// (must be 0); bad[1], bad[3]: through the unswizzled row-major tiles (nonzero: the check can fail).
__global__ void __launch_bounds__(128, 1) probe_kernel(const __grid_constant__ CUtensorMap mapA,
                                                      const __grid_constant__ CUtensorMap mapB,
                                                      const uint16_t* __restrict__ A, const uint16_t* __restrict__ B,
                                                      int* bad) {
  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (smem_addr(smem_raw) + 1023) & ~1023u;
  const uint16_t* gsa = reinterpret_cast<const uint16_t*>(smem_raw + (base - smem_addr(smem_raw)));
  const uint16_t* gsb = gsa + A_BYTES / 2;
  const uint32_t bar = base + STAGE_BYTES;
  const int t = threadIdx.x;
  const int64_t oa = gen::tile_a(1, 2), ob = gen::tile_b(1, 3);
  if (t == 0) {
    mbar_init(bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (t == 0) {
    mbar_expect_tx(bar, STAGE_BYTES);
    tma_load(base, &mapA, bar, (int)(oa % gen::wg_k), (int)(oa / gen::wg_k));
    tma_load(base + A_BYTES, &mapB, bar, (int)(ob % gen::wg_k), (int)(ob / gen::wg_k));
  }
  mbar_wait(bar, 0);
  int n[4] = {0, 0, 0, 0};
  for (int i = t; i < BM * BK; i += 128) {
    const int r = i / BK, k = i % BK;
    const uint16_t g = A[oa + gen::box_a(r, k)];
    n[0] += gsa[gen::sw128_a(r, k)] != g;
    n[1] += gsa[r * BK + k] != g;
  }
  for (int i = t; i < BN * BK; i += 128) {
    const int r = i / BK, k = i % BK;
    const uint16_t g = B[ob + gen::box_b(r, k)];
    n[2] += gsb[gen::sw128_b(r, k)] != g;
    n[3] += gsb[r * BK + k] != g;
  }
  for (int j = 0; j < 4; ++j) atomicAdd(bad + j, n[j]);
}

// cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda).
typedef CUresult (*EncodeTiled)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeTiled encoder() {
  static EncodeTiled fn = nullptr;
  if (!fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess)
      fn = (EncodeTiled)p;
  }
  return fn;
}
// The tensor map of a row-major (rows x K) bf16 operand: box = the library's tile (box_rows x BK),
// row pitch = the tile's row stride (box(1, 0)), 128-byte swizzle.
int make_map(CUtensorMap* map, const void* ptr, int64_t rows, int64_t box_rows, int64_t pitch) {
  EncodeTiled enc = encoder();
  if (!enc) return -1;
  const cuuint64_t dims[2] = {(cuuint64_t)gen::wg_k, (cuuint64_t)rows};
  const cuuint64_t strides[1] = {(cuuint64_t)(pitch * 2)};
  const cuuint32_t box[2] = {(cuuint32_t)BK, (cuuint32_t)box_rows};
  const cuuint32_t estr[2] = {1, 1};
  CUresult r = enc(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(ptr), dims, strides, box, estr,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? 0 : -2 - (int)r;
}
int make_maps(CUtensorMap* ma, CUtensorMap* mb, const void* a, const void* b) {
  int e = make_map(ma, a, gen::wg_m, BM, gen::box_a(1, 0));
  return e ? e : make_map(mb, b, gen::wg_n, BN, gen::box_b(1, 0));
}
}  // namespace

template <int GROUP>
static int launch(const void* a, const void* b, void* c, void* stream) {
  CUtensorMap ma, mb;
  int e = make_maps(&ma, &mb, a, b);
  if (e) return e;
  cudaError_t ce = cudaFuncSetAttribute(wgmma_kernel<GROUP>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
  if (ce != cudaSuccess) return (int)ce;
  const unsigned grid = (unsigned)((gen::wg_m / BM) * (gen::wg_n / BN));
  wgmma_kernel<GROUP><<<grid, THREADS, SMEM_BYTES, (cudaStream_t)stream>>>(ma, mb, (__nv_bfloat16*)c);
  return (int)cudaGetLastError();
}

// variant 1: tiles in groups of 8 row-blocks; 2: of 16; 3: of 4.
extern "C" int wgmma_launch(const void* a, const void* b, void* c, void* stream, int variant) {
  if (variant == 2) return launch<16>(a, b, c, stream);
  if (variant == 3) return launch<4>(a, b, c, stream);
  return launch<8>(a, b, c, stream);
}
// bad: 4 ints on the device (see probe_kernel).
extern "C" int wgmma_probe(const void* a, const void* b, void* bad, void* stream) {
  CUtensorMap ma, mb;
  int e = make_maps(&ma, &mb, a, b);
  if (e) return e;
  const int bytes = STAGE_BYTES + 1024 + 8;
  cudaError_t ce = cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (ce != cudaSuccess) return (int)ce;
  probe_kernel<<<1, 128, bytes, (cudaStream_t)stream>>>(ma, mb, (const uint16_t*)a, (const uint16_t*)b, (int*)bad);
  return (int)cudaGetLastError();
}
extern "C" long long wgmma_size() { return (long long)gen::wg_m; }

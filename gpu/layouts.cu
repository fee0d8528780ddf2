// Kernels whose every index comes from code emitted by `cute codegen` (gpu/gen/, written by
// gpu/gen.sh): a copy through a TV partition and a transpose through shared memory with three
// tile layouts (row-major, padded, the one `cute smem-search` found). Each is checked against a
// host reference and timed with CUDA events (median of repeats, two rotating buffer pairs).
//
//   layouts            check and time everything, print RESULT lines
//   layouts --profile  run each kernel once (for ncu's bank-conflict counters)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gen/global.hpp"
#include "gen/params.hpp"
#include "gen/smem_pad.hpp"
#include "gen/smem_pad32.hpp"
#include "gen/smem_rm.hpp"
#include "gen/smem_rm32.hpp"
#include "gen/smem_srch.hpp"
#include "gen/smem_srch32.hpp"

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

// Floats per access: the emitted vector width, capped at 16 bytes.
constexpr int cap(int64_t w) { return w >= 4 ? 4 : (w >= 2 ? 2 : 1); }

template <int W>
__device__ __forceinline__ void load(float* r, const float* p) {
  if constexpr (W == 4) {
    float4 x = *reinterpret_cast<const float4*>(p);
    r[0] = x.x; r[1] = x.y; r[2] = x.z; r[3] = x.w;
  } else if constexpr (W == 2) {
    float2 x = *reinterpret_cast<const float2*>(p);
    r[0] = x.x; r[1] = x.y;
  } else {
    r[0] = *p;
  }
}

template <int W>
__device__ __forceinline__ void store(float* p, const float* r) {
  if constexpr (W == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(r[0], r[1], r[2], r[3]);
  } else if constexpr (W == 2) {
    *reinterpret_cast<float2*>(p) = make_float2(r[0], r[1]);
  } else {
    *p = r[0];
  }
}

// ---- copy: thread t of tile b copies its 16 values, copy_part(t, v, b) -------------------------
constexpr int COPY_THREADS = (int)gen::copy_part_size0;
constexpr int COPY_VALUES = (int)gen::copy_part_size1;
constexpr int COPY_VEC = cap(gen::copy_part_vector);

__global__ void __launch_bounds__(COPY_THREADS) copy_kernel(const float* __restrict__ in,
                                                            float* __restrict__ out) {
  const int64_t t = threadIdx.x, b = blockIdx.x;
  float r[COPY_VALUES];
#pragma unroll
  for (int v = 0; v < COPY_VALUES; v += COPY_VEC) load<COPY_VEC>(r + v, in + gen::copy_part(t, v, b));
#pragma unroll
  for (int v = 0; v < COPY_VALUES; v += COPY_VEC) store<COPY_VEC>(out + gen::copy_part(t, v, b), r + v);
}

// ---- transpose: global --gin--> registers --sw--> shared --sr--> registers --gout--> global ----
// A variant: the tile layout V (sw_V, sr_V, footprint_V) of problem P (gin_P, gout_P).
#define TILE_VARIANT(V, P)                                                                  \
  struct V {                                                                                \
    static constexpr const char* name = #V;                                                 \
    static constexpr int threads = (int)gen::gin##P##_size0, values = (int)gen::gin##P##_size1; \
    static constexpr int64_t tiles = gen::gin##P##_size2;                                   \
    static_assert(gen::gout##P##_size0 == threads && gen::gout##P##_size1 == values, "TV");  \
    static_assert(tiles * threads * values == gen::R * gen::R, "tiles");                    \
    static constexpr int64_t footprint = gen::footprint_##V;                                \
    static constexpr int wvec = cap(gen::sw_##V##_vector), rvec = cap(gen::sr_##V##_vector); \
    static constexpr int givec = cap(gen::gin##P##_vector), govec = cap(gen::gout##P##_vector); \
    __device__ static int64_t w(int64_t t, int64_t v) { return gen::sw_##V(t, v); }        \
    __device__ static int64_t r(int64_t t, int64_t v) { return gen::sr_##V(t, v); }        \
    __device__ static int64_t gi(int64_t t, int64_t v, int64_t b) { return gen::gin##P(t, v, b); } \
    __device__ static int64_t go(int64_t t, int64_t v, int64_t b) { return gen::gout##P(t, v, b); } \
  };
TILE_VARIANT(rm, )
TILE_VARIANT(pad, )
TILE_VARIANT(srch, )
TILE_VARIANT(rm32, 32)
TILE_VARIANT(pad32, 32)
TILE_VARIANT(srch32, 32)
template <class... S>
struct List {};
using Variants = List<rm, pad, srch, rm32, pad32, srch32>;
template <class F, class... S>
void each(List<S...>, F f) { (f(S{}), ...); }

// CG: global loads cached in L2 only (ld.global.cg), which keeps them out of L1's data banks.
template <class S, bool CG>
__global__ void __launch_bounds__(S::threads) transpose_kernel(const float* __restrict__ in,
                                                               float* __restrict__ out) {
  __shared__ __align__(16) float tile[S::footprint];
  const int64_t t = threadIdx.x, b = blockIdx.x;
  float r[S::values];
#pragma unroll
  for (int v = 0; v < S::values; v += S::givec) {
    if constexpr (CG && S::givec == 4) {
      const float4 x = __ldcg(reinterpret_cast<const float4*>(in + S::gi(t, v, b)));
      r[v] = x.x; r[v + 1] = x.y; r[v + 2] = x.z; r[v + 3] = x.w;
    } else if constexpr (CG) {
      for (int j = 0; j < S::givec; ++j) r[v + j] = __ldcg(in + S::gi(t, v + j, b));
    } else {
      load<S::givec>(r + v, in + S::gi(t, v, b));
    }
  }
#pragma unroll
  for (int v = 0; v < S::values; v += S::wvec) store<S::wvec>(tile + S::w(t, v), r + v);
  __syncthreads();
#pragma unroll
  for (int v = 0; v < S::values; v += S::rvec) load<S::rvec>(r + v, tile + S::r(t, v));
#pragma unroll
  for (int v = 0; v < S::values; v += S::govec) store<S::govec>(out + S::go(t, v, b), r + v);
}

// The shared-memory half of a transpose tile alone (no global traffic beside it): what ncu counts
// here is the tile layout's own bank behaviour. Values are the writer's (t, v); the sum keeps the
// reads alive and is never stored. ALONE = 1: launched with enough dynamic shared memory that one
// block runs per SM, so that no other block's stores share the data banks with these loads.
template <class S, int ALONE>
__global__ void __launch_bounds__(S::threads) probe_kernel(float* __restrict__ sink) {
  __shared__ __align__(16) float tile[S::footprint];
  const int64_t t = threadIdx.x;
  float r[S::values];
#pragma unroll
  for (int v = 0; v < S::values; ++v) r[v] = (float)(t * S::values + v);
#pragma unroll
  for (int v = 0; v < S::values; v += S::wvec) store<S::wvec>(tile + S::w(t, v), r + v);
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int v = 0; v < S::values; v += S::rvec) load<S::rvec>(r + v, tile + S::r(t, v));
#pragma unroll
  for (int v = 0; v < S::values; ++v) acc += r[v];
  if (acc == -1.0f) sink[blockIdx.x * S::threads + t] = acc;
}

// ---- host ---------------------------------------------------------------------------------------
static void fill(std::vector<float>& h, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& x : h) {
    s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
    x = (float)((s * 0x2545F4914F6CDD1Dull) >> 40) * (1.0f / (1 << 24)) - 0.5f;  // never all zero
  }
}

struct Timer {
  cudaEvent_t a, b;
  Timer() { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
  template <class F>
  double median_ms(int reps, F f) {
    std::vector<float> ms;
    for (int i = 0; i < 3; ++i) f(i);  // warm-up
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < reps; ++i) {
      CK(cudaEventRecord(a));
      f(i);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float x;
      CK(cudaEventElapsedTime(&x, a, b));
      ms.push_back(x);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::strcmp(argv[1], "--profile") == 0;
  const int64_t n = gen::copy_n;
  static_assert(gen::copy_n == gen::R * gen::R, "one size for the copy and the transpose");
  static_assert(gen::copy_tiles * gen::copy_part_size0 * gen::copy_part_size1 == gen::copy_n, "copy tiles");
  const size_t bytes = (size_t)n * sizeof(float);
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int rt = 0;
  CK(cudaRuntimeGetVersion(&rt));
  std::printf("DEVICE %s | CUDA runtime %d.%d | %d SMs\n", prop.name, rt / 1000, (rt % 1000) / 10,
              prop.multiProcessorCount);

  float *in[2], *out[2];
  for (int k = 0; k < 2; ++k) {
    CK(cudaMalloc(&in[k], bytes));
    CK(cudaMalloc(&out[k], bytes));
  }
  std::vector<float> h(n), g(n);
  fill(h, 1);
  CK(cudaMemcpy(in[0], h.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(in[1], h.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 copy_grid((unsigned)gen::copy_tiles);
  auto launch_copy = [&](int k) { copy_kernel<<<copy_grid, COPY_THREADS>>>(in[k & 1], out[k & 1]); };
  auto launch_tr = [&](auto s, int k) {
    using S = decltype(s);
    transpose_kernel<S, false><<<(unsigned)S::tiles, S::threads>>>(in[k & 1], out[k & 1]);
  };
  auto launch_cg = [&](auto s, int k) {
    using S = decltype(s);
    transpose_kernel<S, true><<<(unsigned)S::tiles, S::threads>>>(in[k & 1], out[k & 1]);
  };
  auto launch_probe = [&](auto s) {
    using S = decltype(s);
    probe_kernel<S, 0><<<(unsigned)S::tiles, S::threads>>>(out[1]);
    const int big = (int)(prop.sharedMemPerMultiprocessor / 2 + 1024);
    CK(cudaFuncSetAttribute(probe_kernel<S, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
    probe_kernel<S, 1><<<(unsigned)S::tiles, S::threads, big>>>(out[1]);
  };
  if (profile) {
    launch_copy(0);
    each(Variants{}, [&](auto s) { launch_tr(s, 0); });
    each(Variants{}, [&](auto s) { launch_cg(s, 0); });
    each(Variants{}, launch_probe);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::printf("profile run done\n");
    return 0;
  }

  int failures = 0;
  auto check = [&](const char* what, bool transposed) {
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(g.data(), out[0], bytes, cudaMemcpyDeviceToHost));
    int64_t bad = 0, first = -1;
    const int64_t R = gen::R;
    for (int64_t i = 0; i < n; ++i) {
      const float want = transposed ? h[(i % R) * R + i / R] : h[i];
      if (!(g[i] == want)) { if (first < 0) first = i; ++bad; }
    }
    std::printf("CHECK %-14s %s (%lld of %lld wrong, first at %lld)\n", what, bad ? "FAIL" : "ok",
                (long long)bad, (long long)n, (long long)first);
    failures += bad != 0;
  };
  // Correctness: poison the output (NaN bytes), run once, compare every element.
  CK(cudaMemset(out[0], 0xff, bytes));
  launch_copy(0);
  check("copy", false);
  auto check_tr = [&](auto s) {
    CK(cudaMemset(out[0], 0xff, bytes));
    launch_tr(s, 0);
    check(decltype(s)::name, true);
  };
  each(Variants{}, check_tr);
  auto check_cg = [&](auto s) {
    CK(cudaMemset(out[0], 0xff, bytes));
    launch_cg(s, 0);
    check((std::string(decltype(s)::name) + "_cg").c_str(), true);
  };
  each(Variants{}, check_cg);

  Timer tm;
  const int reps = 30;
  const double moved = 2.0 * (double)bytes;  // each element read once and written once
  auto report = [&](const char* what, double ms) {
    std::printf("RESULT %-14s bytes=%.0f ms=%.4f GBps=%.1f\n", what, moved, ms, moved / ms / 1e6);
  };
  report("memcpy", tm.median_ms(reps, [&](int k) {
    CK(cudaMemcpyAsync(out[k & 1], in[k & 1], bytes, cudaMemcpyDeviceToDevice));
  }));
  report("copy", tm.median_ms(reps, launch_copy));
  each(Variants{}, [&](auto s) {
    report((std::string("transpose_") + decltype(s)::name).c_str(),
           tm.median_ms(reps, [&](int k) { launch_tr(s, k); }));
  });
  each(Variants{}, [&](auto s) {
    report((std::string("transpose_") + decltype(s)::name + "_cg").c_str(),
           tm.median_ms(reps, [&](int k) { launch_cg(s, k); }));
  });
  // The same again: the spread between two timings of one kernel.
  report("memcpy#2", tm.median_ms(reps, [&](int k) {
    CK(cudaMemcpyAsync(out[k & 1], in[k & 1], bytes, cudaMemcpyDeviceToDevice));
  }));
  report("copy#2", tm.median_ms(reps, launch_copy));
  report("transpose_srch#2", tm.median_ms(reps, [&](int k) { launch_tr(srch{}, k); }));
  CK(cudaGetLastError());
  for (int k = 0; k < 2; ++k) {
    CK(cudaFree(in[k]));
    CK(cudaFree(out[k]));
  }
  return failures ? 1 : 0;
}

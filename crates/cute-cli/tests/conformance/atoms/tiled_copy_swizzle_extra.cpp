#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cstdio>
using namespace cute;

template <class TC, class L>
void run(const char* atom, const char* ty, const char* thr, const char* val, const char* tname, TC tc, L layout) {
  auto tensor = make_tensor(counting_iterator<int>(0), layout);
  int n = size(tc);
  int ts[3] = {0, n/2+1 < n ? n/2+1 : n-1, n-1};
  for (int k = 0; k < 3; ++k) {
    int t = ts[k];
    auto sl = tc.get_slice(t);
    auto ps = sl.partition_S(tensor);
    auto pd = sl.partition_D(tensor);
    printf("{\"atom\":\"%s\",\"ty\":\"%s\",\"thr\":\"%s\",\"val\":\"%s\",\"tensor\":\"%s\",\"t\":%d,\"partition_s\":\"", atom, ty, thr, val, tname, t);
    print(ps.layout()); printf("\",\"offset_s\":%d,\"partition_d\":\"", int(*ps.data()));
    print(pd.layout()); printf("\",\"offset_d\":%d}\n", int(*pd.data()));
  }
}

template <class A, class T, class THR, class VAL> auto TCf() { return make_tiled_copy(Copy_Atom<A, T>{}, THR{}, VAL{}); }
int main() {
  using R32x128 = Layout<Shape<_32,_128>, Stride<_128,_1>>;
  using R64x64 = Layout<Shape<_64,_64>, Stride<_64,_1>>;
  using C64x64 = Layout<Shape<_64,_64>, Stride<_1,_64>>;
  using R64x16 = Layout<Shape<_64,_16>, Stride<_16,_1>>;
  using T16x8 = Layout<Shape<_16,_8>, Stride<_8,_1>>;
  using V1x8 = Layout<Shape<_1,_8>>;
  run("UniversalCopy<uint128_t>", "half_t", "(16,8):(8,1)", "(1,8):(0,1)", "Sw<2,3,3> o 0 o (32,128):(128,1)", TCf<UniversalCopy<uint128_t>,half_t,T16x8,V1x8>(), composition(Swizzle<2,3,3>{}, R32x128{}));
  run("UniversalCopy<uint128_t>", "half_t", "(16,8):(8,1)", "(1,8):(0,1)", "Sw<3,4,3> o 0 o (32,128):(128,1)", TCf<UniversalCopy<uint128_t>,half_t,T16x8,V1x8>(), composition(Swizzle<3,4,3>{}, R32x128{}));
  run("UniversalCopy<uint128_t>", "half_t", "(16,8):(8,1)", "(1,8):(0,1)", "Sw<1,3,3> o 0 o (32,128):(128,1)", TCf<UniversalCopy<uint128_t>,half_t,T16x8,V1x8>(), composition(Swizzle<1,3,3>{}, R32x128{}));
  run("UniversalCopy<uint128_t>", "half_t", "(16,8):(8,1)", "(1,8):(0,1)", "Sw<3,3,4> o 0 o (32,128):(128,1)", TCf<UniversalCopy<uint128_t>,half_t,T16x8,V1x8>(), composition(Swizzle<3,3,4>{}, R32x128{}));
  run("UniversalCopy<uint32_t>", "float", "(4,4):(4,1)", "_", "Sw<3,3,3> o 0 o (64,64):(64,1)", TCf<UniversalCopy<uint32_t>,float,Layout<Shape<_4,_4>,Stride<_4,_1>>,Layout<_1>>(), composition(Swizzle<3,3,3>{}, R64x64{}));
  run("UniversalCopy<uint32_t>", "float", "(8,8):(8,1)", "_", "Sw<3,3,3> o 0 o (64,64):(64,1)", TCf<UniversalCopy<uint32_t>,float,Layout<Shape<_8,_8>,Stride<_8,_1>>,Layout<_1>>(), composition(Swizzle<3,3,3>{}, R64x64{}));
  run("UniversalCopy<uint64_t>", "float", "(16,8):(1,16)", "(2,1):(1,0)", "Sw<3,3,3> o 0 o (64,64):(1,64)", TCf<UniversalCopy<uint64_t>,float,Layout<Shape<_16,_8>>,Layout<Shape<_2,_1>>>(), composition(Swizzle<3,3,3>{}, C64x64{}));
  run("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t", "(8,8):(8,1)", "(1,8):(0,1)", "Sw<3,3,3> o 0 o (64,128):(128,1)", TCf<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,half_t,Layout<Shape<_8,_8>,Stride<_8,_1>>,V1x8>(), composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_128>,Stride<_128,_1>>{}));
  run("SM75_U32x4_LDSM_N", "half_t", "(32,1):(1,0)", "(1,8):(0,1)", "Sw<3,3,3> o 0 o (64,16):(16,1)", TCf<SM75_U32x4_LDSM_N,half_t,Layout<Shape<_32,_1>>,V1x8>(), composition(Swizzle<3,3,3>{}, R64x16{}));
  run("SM75_U16x8_LDSM_T", "half_t", "(32,1):(1,0)", "(8,1):(1,0)", "Sw<2,3,3> o 0 o (64,64):(1,64)", TCf<SM75_U16x8_LDSM_T,half_t,Layout<Shape<_32,_1>>,Layout<Shape<_8,_1>>>(), composition(Swizzle<2,3,3>{}, C64x64{}));
  run("SM90_U32x4_STSM_N", "half_t", "(32,1):(1,0)", "(1,8):(0,1)", "Sw<3,4,3> o 0 o (64,64):(64,1)", TCf<SM90_U32x4_STSM_N,half_t,Layout<Shape<_32,_1>>,V1x8>(), composition(Swizzle<3,4,3>{}, R64x64{}));
  run("UniversalCopy<uint32_t>", "half_t", "(32,4):(4,1)", "(1,2):(0,1)", "Sw<3,2,3> o 0 o (64,32):(32,1)", TCf<UniversalCopy<uint32_t>,half_t,Layout<Shape<_32,_4>,Stride<_4,_1>>,Layout<Shape<_1,_2>>>(), composition(Swizzle<3,2,3>{}, Layout<Shape<_64,_32>,Stride<_32,_1>>{}));
  return 0;
}

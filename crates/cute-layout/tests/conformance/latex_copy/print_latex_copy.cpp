#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/util/print_latex.hpp>
#include <cstdlib>
using namespace cute;
int main(int argc, char** argv) {
  int k = argc > 1 ? atoi(argv[1]) : 0;
  auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{});
  auto mma32 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{});
  switch (k) {
  case 0: print_latex(make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_2,_2>>{}, Layout<Shape<_1,_2>>{})); break;
  case 1: print_latex(make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})); break;
  case 2: print_latex(make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)); break;
  case 3: print_latex(make_tiled_copy_B(Copy_Atom<SM75_U16x4_LDSM_T, half_t>{}, mma)); break;
  case 4: print_latex(make_tiled_copy_C(Copy_Atom<SM90_U16x8_STSM_T, half_t>{}, mma32)); break;
  case 5: print_latex(make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma32)); break;
  case 6: print_latex(make_tiled_copy(Copy_Atom<SM50_Shuffle_U32_2x2Trans_XOR1, float>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_2>>{})); break;
  case 7: print_latex(make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_4,_2>,Stride<_2,_1>>{}, Layout<Shape<_1,_4>>{})); break;
  }
  return 0;
}

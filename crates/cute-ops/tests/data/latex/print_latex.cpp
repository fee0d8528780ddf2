// CuTe's print_latex / print_latex_tv / print_latex(TiledMMA) / print_svg(TiledMMA), one case
// per argument, for
// crates/cute-ops/tests/latex_conformance.rs (scripts/gen-conformance-latex.py builds and runs
// it host-only against the nvidia-cutlass 4.2 headers and writes cute_latex.jsonl).
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/util/print_latex.hpp>
#include <cute/util/print_svg.hpp>
#include <cstdlib>
using namespace cute;

// A palette as CuTe's colour function: colour of value (or thread) k is P[k mod N].
static char const* RGB3[3] = {"{rgb,255:red,255;green,0;blue,0}",
                              "{rgb,255:red,0;green,255;blue,0}",
                              "{rgb,255:red,0;green,0;blue,255}"};
struct ByValue3 { char const* operator()(int idx) const { return RGB3[idx % 3]; } };
struct ByThread3 { char const* operator()(int t, int) const { return RGB3[t % 3]; } };

// print_latex_tv takes (thread, value) -> (m, n): the TV layout (thread, value) -> tile index
// composed with the tile's coordinates (static: print_latex_tv makes a static tensor).
template <class TV, class Tile, class... C>
void tv(TV const& layout_tv, Tile const& tile, C... color) {
  print_latex_tv(composition(make_identity_layout(tile), layout_tv), tile, color...);
}

int main(int argc, char** argv) {
  int k = argc > 1 ? atoi(argv[1]) : 0;
  switch (k) {
  case 0: print_latex(make_layout(make_shape(2, 3), make_stride(3, 1))); break;
  case 1: print_latex(make_layout(make_shape(4, 8), make_stride(8, 1))); break;
  case 2: print_latex(make_layout(7, 2)); break;
  case 3: print_latex(make_layout(make_shape(make_shape(2, 2), make_shape(2, 4)),
                                  make_stride(make_stride(1, 8), make_stride(2, 16)))); break;
  case 4: print_latex(make_layout(make_shape(4, 4), make_stride(1, 4)), ByValue3{}); break;
  case 5: tv(Layout<Shape<Shape<_4,_8>,Shape<_2,_2>>, Stride<Stride<_16,_1>,Stride<_8,_64>>>{},
             Shape<_16,_8>{}); break;
  case 6: tv(Layout<Shape<_8,_4>, Stride<_4,_1>>{}, Shape<_4,_8>{}); break;
  case 7: tv(Layout<Shape<Shape<_4,_8>,Shape<_2,_2>>, Stride<Stride<_16,_1>,Stride<_8,_64>>>{},
             Shape<_16,_8>{}, ByThread3{}); break;
  case 8: print_latex(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})); break;
  case 9: print_latex(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_1,_2,_1>>{})); break;
  case 10: print_latex(composition(Swizzle<2,0,2>{}, Int<0>{}, Layout<Shape<_4,_4>,Stride<_4,_1>>{})); break;
  case 11: print_latex(composition(Swizzle<1,1,2>{}, Int<0>{}, Layout<Shape<_4,_8>,Stride<_8,_1>>{})); break;
  case 12: print_svg(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})); break;
  case 13: print_svg(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_1,_2,_1>>{})); break;
  }
  return 0;
}

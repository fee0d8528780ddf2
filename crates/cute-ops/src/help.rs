//! Per-operation help: for every operation of the table, a law in one line and a CuTe example
//! whose output is checked by the tests ([`help`], [`render`]), and the nearest name to a
//! misspelt one ([`suggest`]).
//!
//! A family of operations with a file of its own adds its help table to [`HELP_GROUPS`] beside
//! its [`crate::GROUPS`] line; a test fails for any operation of [`crate::all`] without help, or
//! whose example does not print what its help says.
//!
//! ```
//! let spec = cute_ops::find("coalesce").unwrap();
//! let text = cute_ops::help::render(spec);
//! assert!(text.starts_with("Usage: cute coalesce "));
//! assert!(text.contains("$ cute coalesce '(2,(1,6)):(1,(6,2))'\n  12:1\n"));
//! assert_eq!(cute_ops::help::suggest("compositon", cute_ops::all().map(|s| s.name)), Some("composition"));
//! ```

use crate::OpSpec;

/// The help of one operation: its law and one example (arguments and the exact output).
#[derive(Clone, Copy, Debug)]
pub struct OpHelp {
    /// The operation's name, as in its [`OpSpec`].
    pub name: &'static str,
    /// The law the result obeys, in one line.
    pub law: &'static str,
    /// The example's arguments, as typed on the command line (unquoted).
    pub example: &'static [&'static str],
    /// What `cute NAME ARGS...` prints for the example, without the final newline.
    pub output: &'static str,
}

pub(crate) const fn h(
    name: &'static str,
    law: &'static str,
    example: &'static [&'static str],
    output: &'static str,
) -> OpHelp {
    OpHelp {
        name,
        law,
        example,
        output,
    }
}

/// The help tables, one per group of operations (see the [module docs](self)).
pub static HELP_GROUPS: &[&[OpHelp]] = &[
    ALGEBRA_HELP,
    ATOM_HELP,
    COPY_HELP,
    crate::tuple_ops::TUPLE_HELP,
    crate::construct_ops::CONSTRUCT_HELP,
    CODEGEN_HELP,
    crate::analysis_ops::ANALYSIS_HELP,
    crate::pycute_ops::PYCUTE_HELP,
    crate::basis_ops::BASIS_HELP,
    crate::tensor_ops::TENSOR_HELP,
    crate::tensor_restructure_ops::TENSOR_RESTRUCTURE_HELP,
    crate::picture_ops::PICTURE_HELP,
    crate::smem_atom_ops::SMEM_ATOM_HELP,
    crate::equality_ops::EQUALITY_HELP,
    crate::tma_ops::TMA_HELP,
    crate::tuple_fn_ops::TUPLE_FN_HELP,
    crate::f2_ops::F2_HELP,
    crate::symbolic_ops::SYMBOLIC_HELP,
    crate::pointer_ops::POINTER_HELP,
];

/// The help of [`crate::OPS`]: name, law, example arguments, example output.
#[rustfmt::skip]
pub static ALGEBRA_HELP: &[OpHelp] = &[
    h("make_layout", "L(c) = sum of c_i * d_i over the leaves; LayoutLeft strides are the shape's prefix products (column-major), LayoutRight its suffix products", &["(2,4)", "LayoutRight"], "(2,4):(4,1)"),
    h("make_ordered_layout", "compact (a bijection onto [0, size)) with the stride of mode i ranked ORDER[i] from the smallest", &["(2,3,4)", "(1,0,2)"], "(2,3,4):(3,1,6)"),
    h("make_identity_layout", "L(c) = c for every coordinate c of SHAPE (strides are unit basis vectors)", &["(4,8)"], "(4,8):(1@0,1@1)"),
    h("concat", "mode i of the result is argument i, so R(c_0, c_1, ...) = A_0(c_0) + A_1(c_1) + ...", &["4:1", "8:4"], "(4,8):(1,4)"),
    h("append", "rank(R) = rank(A) + 1, mode i of R is mode i of A, and its last mode is B", &["(2,3):(1,2)", "4:6"], "(2,3,4):(1,2,6)"),
    h("prepend", "rank(R) = rank(A) + 1, mode 0 of R is B, and mode i + 1 of R is mode i of A", &["(2,3):(1,2)", "4:6"], "(4,2,3):(6,1,2)"),
    h("replace", "R is A with mode I replaced by B; every other mode is unchanged", &["(2,3,4):(1,2,6)", "1", "5:10"], "(2,5,4):(1,10,6)"),
    h("insert", "rank(R) = rank(T) + 1, get<I>(R) = X, the other elements T's in order", &["(2,3,4)", "1", "7"], "(2,7,3,4)"),
    h("remove", "rank(R) = rank(T) - 1: T's elements in order, element I left out", &["(2,3,4)", "1"], "(2,4)"),
    h("group", "R(c) = A(c) for the same 1-D index, with modes [BEGIN, END) of A as one mode of R", &["(2,3,4):(1,2,6)", "0", "2"], "((2,3),4):((1,2),6)"),
    h("take", "mode i of R is mode BEGIN + i of A, for BEGIN <= BEGIN + i < END", &["(2,3,4):(1,2,6)", "1", "3"], "(3,4):(2,6)"),
    h("select", "mode k of R is mode I_k of A", &["(2,3,4):(1,2,6)", "2", "0"], "(4,2):(6,1)"),
    h("mode", "R is the sub-layout of A at the hierarchical index I...: shape and stride of that node", &["(4,(3,6)):(1,(4,12))", "1", "0"], "3:4"),
    h("flatten", "the same function of the 1-D index, with one mode per leaf", &["((2,3),(4,5)):((1,2),(6,24))"], "(2,3,4,5):(1,2,6,24)"),
    h("size", "size = product of the extents; the domain is [0, size)", &["(2,(2,2)):(4,(2,1))"], "8"),
    h("cosize", "cosize = 1 + sum of (s_i - 1) * |d_i| over the leaves; for non-negative strides, L(size - 1) + 1", &["(2,(2,2)):(4,(2,1))"], "8"),
    h("rank", "number of top-level modes (1 for an integer)", &["(2,(2,2)):(4,(2,1))"], "2"),
    h("depth", "0 for an integer, else 1 + the largest depth of a mode", &["(2,(2,2)):(4,(2,1))"], "2"),
    h("shape", "the shape of SHAPE:STRIDE", &["(2,(2,2)):(4,(2,1))"], "(2,(2,2))"),
    h("stride", "the stride of SHAPE:STRIDE", &["(2,(2,2)):(4,(2,1))"], "(4,(2,1))"),
    h("crd2idx", "crd2idx(c, L) = L(c) = sum of c_i * d_i, with a 1-D or R-D c first unfolded to the natural coordinate of L's shape", &["(1,5)", "(3,(2,3)):(3,(12,1))"], "17"),
    h("idx2crd", "crd2idx(idx2crd(i, S), S) = i for 0 <= i < size(S): the colexicographic coordinate of i", &["16", "(3,(2,3))"], "(1,(1,2))"),
    h("get_hier_coord", "R = idx2crd(INDEX, shape, stride): each leaf (INDEX / d) % s; for a compact injective layout L(R) = INDEX", &["(8,12,2):(1,8,96)", "143"], "(7,5,1)"),
    h("get_flat_coord", "R_m = crd2idx(get<m>(get_hier_coord(INDEX)), shape<m>) for each top-level mode m", &["((2,2),3):((1,6),2)", "9"], "(3,1)"),
    h("get_1d_coord", "R = crd2idx(get_hier_coord(INDEX), shape); for a compact injective layout L(R) = INDEX", &["(4,8):(8,1)", "13"], "21"),
    h("crd2crd", "crd2idx(crd2crd(c, S1, S2), S2) = crd2idx(c, S1) (both colexicographic)", &["(1,5)", "(3,6)", "(3,(2,3))"], "(1,(1,2))"),
    h("congruent", "1 exactly when both have the same tree: the same nesting and the same number of leaves", &["(2,(3,4))", "(5,(6,7))"], "1"),
    h("weakly_congruent", "1 exactly when every integer of the first is matched by an integer or a tuple of the second, position for position", &["(2,3)", "((2,2),(3,1))"], "1"),
    h("compatible", "1 exactly when size(A) = size(B) and every coordinate of A's shape is a coordinate of B's", &["24", "(4,6)"], "1"),
    h("slice", "R is the sub-layout of the modes where COORD has _: L(c with _ replaced by d) = offset + R(d)", &["(_,1,_)", "(2,3,4):(1,2,6)"], "(2,4):(1,6)"),
    h("slice_and_offset", "L(c with _ replaced by d) = OFFSET + R(d); for a composed layout the offset moves into its innermost offset and 0 is returned", &["(_,1,_)", "(2,3,4):(1,2,6)"], "((2,4):(1,6),2)"),
    h("coalesce", "R(i) = A(i) for every i in [0, size(A)), with the fewest modes (by profile: mode by mode)", &["(2,(1,6)):(1,(6,2))"], "12:1"),
    h("filter", "R is coalesce(filter_zeros(A)): the distinct offsets of A in A's order", &["(2,(3,4)):(0,(1,3))"], "12:1"),
    h("filter_zeros", "every stride-0 mode gets extent 1; the image is unchanged", &["(4,2):(0,1)"], "(1,2):(0,1)"),
    h("complement", "(A, R) is injective, R's strides increase, and cosize((A, R)) >= size(COTARGET); of a composed layout, the inner layout's (CuTe)", &["4:2", "24"], "(2,3):(1,8)"),
    h("composition", "R(c) = A(B(c)) for every coordinate c of B, and shape(R) is compatible with shape(B)", &["(6,2):(8,2)", "(4,3):(3,1)"], "((2,2),3):((24,2),8)"),
    h("with_shape", "R = A o make_layout(SHAPE): R(c) = A(crd2idx(c, SHAPE))", &["12:1", "(3,4)"], "(3,4):(1,3)"),
    h("right_inverse", "A(R(i)) = i for 0 <= i < size(R), with size(R) the largest such; composed A o O o B: CuTe's right_inverse(B) o -O o right_inverse(A), refused where it breaks the law", &["(4,8):(8,1)"], "(8,4):(4,1)"),
    h("left_inverse", "R(A(i)) = i for 0 <= i < size(A) when A is injective (A(R(A(i))) = A(i) always); composed: CuTe's left_inverse(B) o -O o left_inverse(A); basis strides: slot by slot, R takes a coordinate", &["(4,8):(8,1)"], "(8,4):(4,1)"),
    h("nullspace", "A(R(i)) = 0 for every i, and R covers every coordinate A maps to 0 (the plain-0 strides; 1:0 for a composed layout, as CuTe)", &["(2,4):(0,1)"], "2:1"),
    h("max_common_vector", "the largest n with A(i) = B(i) = i for every i < n (A and B contiguous alike there)", &["(4,8):(1,4)", "32:1"], "32"),
    h("max_common_layout", "R = A o right_inverse(B) restricted to the points both map alike: A(R(i)) = B(R(i))", &["(4,8):(1,4)", "32:1"], "32:1"),
    h("upcast", "the layout of the same memory viewed as elements N times wider: strides divided by N, stride-1 extents shrunk by N", &["2", "(4,8):(8,1)"], "(4,4):(4,1)"),
    h("downcast", "the layout of the same memory viewed as elements N times narrower: strides times N, a stride-1 mode N times longer", &["2", "(4,8):(8,1)"], "(4,16):(16,1)"),
    h("recast", "upcast or downcast by the ratio NEW_BITS / OLD_BITS", &["16", "32", "(4,8):(8,1)"], "(4,4):(4,1)"),
    h("recast_layout", "the same as recast: upcast or downcast by the ratio NEW_BITS / OLD_BITS", &["16", "32", "(4,8):(8,1)"], "(4,4):(4,1)"),
    h("logical_divide", "R = A o (T, complement(T, size(A))): mode i holds tile i of T and its repetitions", &["(4,2,3):(2,1,8)", "4:2"], "((2,2),(2,3)):((4,1),(2,8))"),
    h("zipped_divide", "the modes of logical_divide regrouped as ((tile), (rest)); the same function", &["(8,8):(8,1)", "(2,4)"], "((2,4),(4,2)):((8,1),(16,4))"),
    h("tiled_divide", "the modes of logical_divide regrouped as ((tile), rest_0, rest_1, ...); the same function", &["(8,8):(8,1)", "(2,4)"], "((2,4),4,2):((8,1),16,4)"),
    h("flat_divide", "the modes of logical_divide regrouped as (tile_0, ..., rest_0, ...); the same function", &["(8,8):(8,1)", "(2,4)"], "(2,4,4,2):(8,1,16,4)"),
    h("logical_product", "R = (A, complement(A, size(A) * cosize(B)) o B): A repeated as B says", &["(2,2):(4,1)", "6:1"], "((2,2),(2,3)):((4,1),(2,8))"),
    h("zipped_product", "the modes of logical_product regrouped as ((block), (rest)); the same function", &["(2,2):(4,1)", "(2,3)"], "((2,2),(2,3)):((4,1),(1,2))"),
    h("tiled_product", "the modes of logical_product regrouped as ((block), rest_0, rest_1, ...); the same function", &["(2,2):(4,1)", "(2,3)"], "((2,2),2,3):((4,1),1,2)"),
    h("flat_product", "the modes of logical_product regrouped as (block_0, ..., rest_0, ...); the same function", &["(2,2):(4,1)", "(2,3)"], "(2,2,2,3):(4,1,1,2)"),
    h("blocked_product", "mode i of R is (mode i of A, mode i of the repetition): copies of A placed block by block as B orders them", &["(2,5):(5,1)", "(3,4):(1,3)"], "((2,3),(5,4)):((5,10),(1,30))"),
    h("raked_product", "mode i of R is (mode i of the repetition, mode i of A): copies of A interleaved element by element as B orders them", &["(2,5):(5,1)", "(3,4):(1,3)"], "((3,2),(4,5)):((10,5),(30,1))"),
    h("tile_to_shape", "R repeats A (blocked_product) until shape(R) = SHAPE; mode i of SHAPE must be a multiple of mode i of A", &["(2,2):(1,2)", "(4,6)"], "((2,2),(2,3)):((1,4),(2,8))"),
    h("evenly_divides", "1 exactly when every mode of SHAPE is a multiple of the matching tile size of TILER", &["(8,12)", "(4,3)"], "1"),
    h("show", "the table's cell (r, c) is L(r, c); a shape is shown as its compact column-major layout", &["(2,2)"], "layout: (2,2):(1,2)\nsize:   4\ncosize: 4\nrank:   2\ndepth:  1\n(2,2):(1,2)\n      0   1 \n    +---+---+\n 0  | 0 | 2 |\n    +---+---+\n 1  | 1 | 3 |\n    +---+---+"),
    h("explain", "each step is one rule of the operation's definition; the last line is the operation's result (or the condition that failed)", &["complement", "4:2", "24"], "complement(4:2, 24)\n1. filter A (drop stride-0 and extent-1 modes, coalesce): filter(4:2) = 4:2\n2. sort the modes by stride: 4:2\n   - gap below 4:2: the modes below span 1, and 2/1 = 2, so the gap is 2:1\n   - repeat the whole span 8 to cover the cotarget 24: ceil(24/8) = 3 copies: 3:8\n3. collect the gaps and the repeat, and coalesce: (2,3):(1,8) = (2,3):(1,8)\n=> (2,3):(1,8)"),
    h("find_layout", "R(i) = v_i for every i: the canonical layout of the values (coalesced, strides by first appearance)", &["0,2,4,7,9,11"], "(3,2):(2,7)"),
    h("equal", "1 exactly when size(A) = size(B) and A(i) = B(i) for every i in [0, size)", &["(4,2):(1,4)", "8:1"], "1"),
    h("injective", "1 exactly when A(i) != A(j) for all i != j in [0, size)", &["(4,2):(2,8)"], "1"),
    h("surjective", "1 exactly when every integer from the smallest to the largest offset is some A(i) (with N: the offsets are exactly 0..N-1)", &["(4,2):(2,1)"], "1"),
    h("bijective", "1 exactly when A is injective and surjective", &["(4,2):(2,1)"], "1"),
    h("compact", "1 exactly when A is a bijection onto [0, size(A))", &["(4,2):(2,1)"], "1"),
    h("image", "the offsets of R, plus OFFSET, are the set {A(i)}: each once, in increasing order", &["(4,2):(2,16)"], "(4,2):(2,16)"),
    h("swizzle", "Sw<B,M,S>(x) = x ^ ((x & yyy) >> S), yyy the B bits starting at bit M + S; an involution", &["3", "4", "3"], "Sw<3,4,3>"),
    h("table", "value i of the output is A(i), for i in [0, N) (N = size(A) by default)", &["(2,2):(2,1)"], "0,2,1,3"),
    h("print_layout", "cell (r, c) of the table is A(r, c), with modes 1.. grouped as the columns", &["(2,2):(2,1)"], "(2,2):(2,1)\n      0   1 \n    +---+---+\n 0  | 0 | 1 |\n    +---+---+\n 1  | 2 | 3 |\n    +---+---+"),
];

/// The help of the MMA atom operations (`crate::atoms`).
#[rustfmt::skip]
pub static ATOM_HELP: &[OpHelp] = &[
    h("mma_atom", "each field is CuTe's MMA_Traits member: layout_{a,b,c}_tv map (thread, value) to the index of the element in the atom's (M,K), (N,K), (M,N) tile", &["SM80_16x8x16_F16F16F16F16_TN", "layout_c_tv"], "((4,8),(2,2)):((32,1),(16,8))"),
    h("tiled_mma", "each field is the accessor of CuTe's make_tiled_mma(ATOM, ATOM_LAYOUT, PERMUTATION) of the same name; the atom is repeated over ATOM_LAYOUT", &["SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tile_size_mnk"], "(32,16,16)"),
    h("list_atoms", "one line per atom family: kind, architecture, name pattern, and what it computes", &["SM61"], "mma SM61 SM61_{DP4A|DP2A}  -- single-thread dot products (1x1x4 int8, 1x1x2 int16)"),
];

/// The help of the copy atom operations (`crate::copy_atoms`).
#[rustfmt::skip]
pub static COPY_HELP: &[OpHelp] = &[
    h("copy_atom", "src, dst and ref are the atom's (thread, value) -> bit layouts recast to TYPE's width, as CuTe's Copy_Atom<ATOM,TYPE> holds them", &["SM75_U32x4_LDSM_N", "half_t", "src"], "(32,8):(8,1)"),
    h("make_tiled_copy", "tiled_layout_tv maps (thread, value) to the index in the tiler_mn tile, from the raked product of THR_LAYOUT and VAL_LAYOUT, as CuTe's make_tiled_copy", &["UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(1,8):(0,1)", "tiled_layout_tv"], "((8,32),8):((256,1),32)"),
    h("make_tiled_copy_A", "the tiled copy whose threads and values partition the tile as the tiled MMA's A operand does", &["SM75_U32x4_LDSM_N", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "(32,16)"),
    h("make_tiled_copy_B", "the tiled copy whose threads and values partition the tile as the tiled MMA's B operand does", &["UniversalCopy<uint32_t>", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "(16,16)"),
    h("make_tiled_copy_C", "the tiled copy whose threads and values partition the tile as the tiled MMA's C operand does", &["UniversalCopy<uint32_t>", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "(32,16)"),
    h("make_tiled_copy_C_atom", "the smallest tiled copy retiling the MMA's C: each thread copies only the values of its own MMA atom", &["UniversalCopy<uint32_t>", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "((8,2):(1,16),(8,2):(2,1))"),
    h("make_cotiled_copy", "the tiled copy whose thread t's value v reaches data address ATOM_TV_LAYOUT(t, v) of the tensor DATA_LAYOUT; the tiler keeps only the coordinates it reaches", &["UniversalCopy<uint128_t>", "half_t", "((8,16),8):((8,64),1)", "(32,64):(64,1)", "tiler_mn"], "(16:1,(8,8):(8,1))"),
    h("make_layout_tv", "layout_mn = raked_product(THR_LAYOUT, VAL_LAYOUT); layout_tv = its right inverse shaped (size(THR), size(VAL)): thread t's value v is at layout_tv(t, v)", &["(4,8):(8,1)", "(2,2):(2,1)", "layout_tv"], "((8,4),(2,2)):((16,2),(8,1))"),
];

/// The help of the code generation and shared-memory search operations (`crate::codegen`).
#[rustfmt::skip]
pub static CODEGEN_HELP: &[OpHelp] = &[
    h("codegen", "the emitted NAME(i) and NAME(c0, c1, ...) equal the layout at every point of its domain (codegen_check's program tests it)", &["8:1"], "// Generated by cute-layout codegen from: 8:1\n// Defined for 0 <= i < f_size (each c_k in [0, size of mode k)); no overflow there.\n#pragma once\n#include <cstdint>\n#ifndef CUTE_GEN_FN\n#if defined(__CUDACC__)\n#define CUTE_GEN_FN __host__ __device__ __forceinline__ constexpr\n#else\n#define CUTE_GEN_FN inline constexpr\n#endif\n#endif\nconstexpr int64_t f_size = 8;\nconstexpr int64_t f_cosize = 8;\nconstexpr int64_t f_vector = 8;  // consecutive offsets along mode 1\n// 1-D: 8:1 coalesced to 8:1\nCUTE_GEN_FN int64_t f(int64_t i) {\n  int64_t o = 0;\n  o += i;\n  return o;\n}"),
    h("codegen_check", "the emitted program compares NAME with the library's values at every point and exits 0 exactly when all agree", &["8:1"], "// Checks f (from 8:1) at every point against the library's table.\n#include <cstdio>\n#include \"f.hpp\"\nstatic const int64_t expected[] = {\n  0, 1, 2, 3, 4, 5, 6, 7\n};\nint main() {\n  const int64_t n = 8;\n  for (int64_t i = 0; i < n; ++i) {\n    if (f(i) != expected[i]) { std::printf(\"MISMATCH f(%lld) = %lld, expected %lld\\n\", (long long)i, (long long)f(i), (long long)expected[i]); return 1; }\n  }\n  std::printf(\"ok f %lld points\\n\", (long long)n);\n  return 0;\n}"),
    h("smem_search", "the reported layout stores TILE with the fewest wavefronts for both TV layouts among the candidates searched, then the widest vector accesses", &["(8,8)", "(8,8):(8,1)", "(8,8):(1,8)"], "Sw<1,2,3> o 0 o (8,8):(8,1) (swizzled, 64 elements)\n  write: 4-byte accesses (1 x 4 B), 8 requests, 8 wavefronts (1.00 per request, ideal 8), 0 bank conflicts\n  read:  16-byte accesses (4 x 4 B), 2 requests, 2 wavefronts (1.00 per request, ideal 2), 0 bank conflicts\nkind=swizzled footprint=64 write_vector_bytes=4 write_requests=8 write_wavefronts=8 write_conflicts=0 read_vector_bytes=16 read_requests=2 read_wavefronts=2 read_conflicts=0 layout=Sw<1,2,3> o 0 o (8,8):(8,1)"),
    h("smem_evaluate", "each count is the bank model's for every request of both TV layouts with the tile stored as SMEM", &["(8,8)", "(8,8):(8,1)", "(8,8):(1,8)", "4", "(8,8):(8,1)"], "(8,8):(8,1) (given, 64 elements)\n  write: 4-byte accesses (1 x 4 B), 8 requests, 8 wavefronts (1.00 per request, ideal 8), 0 bank conflicts\n  read:  16-byte accesses (4 x 4 B), 2 requests, 4 wavefronts (2.00 per request, ideal 2), 2 bank conflicts\nkind=given footprint=64 write_vector_bytes=4 write_requests=8 write_wavefronts=8 write_conflicts=0 read_vector_bytes=16 read_requests=2 read_wavefronts=4 read_conflicts=2 layout=(8,8):(8,1)"),
];

/// The help of the operation called `name`.
pub fn help(name: &str) -> Option<&'static OpHelp> {
    HELP_GROUPS
        .iter()
        .flat_map(|g| g.iter())
        .find(|h| h.name == name)
}

/// `cute NAME USAGE`.
pub fn usage_line(spec: &OpSpec) -> String {
    if spec.usage.is_empty() {
        format!("cute {}", spec.name)
    } else {
        format!("cute {} {}", spec.name, spec.usage)
    }
}

/// `arg` quoted for a POSIX shell where it needs it (`'(2,4)'`, but `16`, `8:1`).
pub fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-+.,:/@=".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// The example's command line: `cute NAME ARGS...`, quoted for a shell.
pub fn example_line(h: &OpHelp) -> String {
    let mut line = format!("cute {}", h.name);
    for a in h.example {
        line.push(' ');
        line.push_str(&shell_quote(a));
    }
    line
}

/// The help text of an operation: usage, what it computes, its law, its example (with the
/// output), and the same call as a `cute batch` request.
pub fn render(spec: &OpSpec) -> String {
    let mut out = format!("Usage: {}\n\n{}\n", usage_line(spec), spec.about);
    if crate::f2_ops::F2_TAKERS.contains(&spec.name) && spec.name != "f2_swizzle" {
        out += "Also takes layouts with F2 (XOR) strides, NVlabs PyCuTe's (not CuTe C++'s): `(8,8):(F2(1),F2(9))`.\n";
    }
    if let Some(h) = help(spec.name) {
        out += "\n";
        out += &render_law_and_example(h);
    }
    out
}

/// The law, the example with its output, and the same call as a `cute batch` request.
pub fn render_law_and_example(h: &OpHelp) -> String {
    let mut out = String::new();
    {
        out += &format!("Law: {}\n\nExample:\n  $ {}\n", h.law, example_line(h));
        for line in h.output.lines() {
            out += &format!("  {line}\n");
        }
        let args: Vec<String> = h
            .example
            .iter()
            .map(|a| crate::request::json_string(a))
            .collect();
        out += &format!(
            "\nIn `cute batch`: {{\"op\": \"{}\", \"args\": [{}]}}\n",
            h.name,
            args.join(", ")
        );
    }
    out
}

/// The candidate nearest to `word` (edit distance, adjacent swaps counting one), if it is near
/// enough to be a misspelling: at most a third of the word's length, and at least one edit.
///
/// The cost is bounded whatever the word's length: a candidate whose length differs from the
/// word's by more than the limit cannot be within it and is skipped unmeasured, so only words at
/// most half again as long as a candidate are ever compared, in time proportional to the two
/// lengths' product.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    let mut lower: Option<String> = None;
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if len.abs_diff(c.chars().count()) > limit {
            continue;
        }
        let lower = lower.get_or_insert_with(|| word.to_ascii_lowercase());
        let d = distance(lower, &c.to_ascii_lowercase());
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
/// adjacent characters each cost one.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{all, run_op, Arg};

    #[test]
    fn every_operation_has_help_whose_example_prints_what_it_says() {
        let mut missing = Vec::new();
        for spec in all() {
            let Some(h) = help(spec.name) else {
                missing.push(spec.name);
                continue;
            };
            assert!(
                !h.law.is_empty() && !h.law.contains('\n'),
                "{}: law",
                h.name
            );
            let args: Vec<Arg> = h.example.iter().map(|a| Arg::Text((*a).into())).collect();
            match run_op(h.name, &args) {
                Ok(out) => assert_eq!(out, h.output, "{}", example_line(h)),
                Err(e) => panic!("{}: {e}", example_line(h)),
            }
        }
        assert!(missing.is_empty(), "operations without help: {missing:?}");
        for h in HELP_GROUPS.iter().flat_map(|g| g.iter()) {
            assert!(
                crate::find(h.name).is_some(),
                "help for unknown operation {}",
                h.name
            );
        }
    }

    #[test]
    fn suggestions() {
        let names = || all().map(|s| s.name);
        assert_eq!(suggest("compositon", names()), Some("composition"));
        assert_eq!(suggest("coalsece", names()), Some("coalesce"));
        assert_eq!(suggest("Size", names()), Some("size"));
        assert_eq!(suggest("xyzzy", names()), None);
        assert_eq!(
            suggest("LayoutRigth", ["LayoutLeft", "LayoutRight"]),
            Some("LayoutRight")
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("8:1"), "8:1");
        assert_eq!(shell_quote("(2,4)"), "'(2,4)'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}

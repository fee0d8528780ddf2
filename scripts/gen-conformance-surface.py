#!/usr/bin/env python3
"""Generate CuTe C++ conformance vectors for the layout surface of issue #29: the IntTuple
toolkit (shape_div, ceil_div, round_up, elem_scale, inner_product, product_each, product_like,
max/min, unflatten, compact_col/row_major with a start, lex/colex/elem orders), layout
construction (make_layout_like, make_fragment_like, coshape, dice, slice, slice_and_offset,
domain_distribute), general composed layouts (`A o OFFSET o B` with a layout `A`: size, rank,
depth, cosize, evaluation, divides and products, the inverses, complement, nullspace, a swizzle
on the right), basis (`v@i`) strides (coshape, coprofile, cosize, nullspace), and the
construction and restructuring ops of `crates/cute-ops/src/construct_ops.rs` (domain_offset,
max_alignment, zip, tile_unzip, transform_layout, bw_coalesce (CuTe's `detail::bw_coalesce`),
compact_order, make_coord_iterator) with the tilers CuTe promotes (an integer, a shape, `_`,
per mode); the basis helpers make_basis_like, basis_get and basis_value; `tuple_cat`, `make_swizzle<Y,Z>` and `contiguity` (`max_common_vector(L,
make_layout(size(L)))`); the GMMA / UMMA shared-memory layout atoms (`smem_atom`, alone and
tiled to a shape), `make_ordered_layout`, the structural `==` (`structural_equal`), and the TMA
gmem basis, box and tensor-map dims/strides of `make_tma_copy` (`tma_gbasis`); the tuple
algorithms (`repeat` ... `find_if`, a function being one op of the table); `filter(layout,
profile)` and the `filter`, `append` and `recast_layout` overloads of composed layouts.

Every case is compiled into one host-only C++ program against CuTe's headers (static `Int<N>`
values), run, and its printed answer normalized (`_3` -> `3`, spaces dropped). The output,
`crates/cute-cli/tests/conformance/surface/cute_cpp.jsonl`, holds `{"id", "op", "args", "cute"}` lines;
`crates/cute-cli/tests/surface.rs` runs them through `cute batch`.

    python3 scripts/gen-conformance-surface.py [--out PATH]

Include directories: $CUTE_INCLUDE (colon-separated: CuTe's `include/` and CUDA's runtime,
cccl and nvcc include directories), else those of scripts/bench-cute-cpp.py's venv (the
nvidia-cutlass and CUDA header wheels, installed on first use).
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

# The namespace of each shared-memory atom's swizzle width.
ATOM_NS = {"INTER": "SM90::GMMA::", "SW32": "SM90::GMMA::", "SW64": "SM90::GMMA::", "SW128": "SM90::GMMA::",
           "SW128_32B": "UMMA::"}

# (gmem layout, smem layout) pairs for the TMA cases.
TMA_CASES = [
    ("(256,512):(512,1)", "(8,64):(64,1)"), ("(256,512):(512,1)", "((8,16),(64,1)):((64,512),(1,0))"),
    ("(256,512):(1,256)", "((64,2),(8,8)):((1,512),(64,1024))"), ("(64,64,4):(64,1,4096)", "(64,64):(64,1)"),
    ("(32,32):(32,1)", "(32,32):(32,1)"), ("(16,16,16,16,16,16):(1,16,256,4096,65536,1048576)", "(16,16):(1,16)"),
    ("(512,64):(1,512)", "(128,32):(1,128)"), ("(1024,8,8):(1,1024,8192)", "(512,2):(1,512)"),
    ("(8,8,8,8,8):(1,8,64,512,4096)", "(8,8,8):(1,8,64)"), ("(64,64):(64,1)", "(64,64):(1,64)"),
]

# A CuTe value type of each width, for recast_layout<Old,New>.
T = {"8": "uint8_t", "16": "uint16_t", "32": "uint32_t", "64": "uint64_t"}

# (op, args, C++ expression printing the answer)
CASES = [
    # IntTuple toolkit
    *[("shape_div", [a, b], "p(shape_div({0},{1}))") for a, b in [
        ("(4,5,6)", "40"), ("(3,4)", "6"), ("(3,4)", "12"), ("(6,2)", "2"),
        ("(6,2)", "12"), ("(2,(3,4))", "6"), ("8", "2"), ("2", "8"), ("(4,6)", "(2,3)"),
        ("((2,4),8)", "16"), ("12", "(2,3)")]],
    *[("ceil_div", [a, b], "p(ceil_div({0},{1}))") for a, b in [
        ("(10,7)", "(4,2)"), ("(10,7)", "(4)"), ("(4,5,6)", "40"), ("7", "2"), ("(8,8)", "3")]],
    *[("round_up", [a, b], "p(round_up({0},{1}))") for a, b in [
        ("(10,7)", "(4,2)"), ("1", "4"), ("8", "8"), ("(5,9,3)", "(4,4)")]],
    *[("elem_scale", [a, b], "p(elem_scale({0},{1}))") for a, b in [
        ("(2,3)", "(4,5)"), ("2", "(3,4)"), ("((1,2),3)", "((4,5),6)")]],
    *[("inner_product", [a, b], "p(inner_product({0},{1}))") for a, b in [
        ("(1,(2,3))", "(4,(5,6))"), ("3", "7"), ("(2,3,4)", "(1,2,6)")]],
    *[("product_each", [a], "p(product_each({0}))") for a in [
        "((2,3),(4,5))", "(4,8)", "(3,(2,4))", "16"]],
    *[("product_like", [a, g], "p(product_like({0},{1}))") for a, g in [
        ("((2,3),(4,(5,6)))", "(0,(0,0))"), ("((2,3),4)", "(0,0)"), ("((2,3),4)", "0")]],
    *[("tuple_max", [a], "p(cute::max({0}))") for a in ["(3,7,2)", "((1,9),(4,2))", "5"]],
    *[("tuple_min", [a], "p(cute::min({0}))") for a in ["(3,7,2)", "((1,9),(4,2))"]],
    *[("unflatten", [a, g], "p(unflatten({0},{1}))") for a, g in [
        ("(1,2,3,4,5)", "((0,0),(0,0,0))"), ("(1,2,3,4)", "(((0,0),0),0)"), ("(1,2,3)", "(0,0,0)")]],
    *[("compact_col_major", [s, k], "p(compact_col_major({0},{1}))") for s, k in [
        ("(2,(3,4))", "2"), ("(4,1,2)", "1"), ("(2,3,4)", "3"), ("8", "4")]],
    *[("compact_row_major", [s, k], "p(compact_row_major({0},{1}))") for s, k in [
        ("(2,(3,4))", "2"), ("(2,3,4)", "1"), ("(4,1,2)", "5")]],
    *[(op, [a, b], "b(" + op + "({0},{1}))") for op in ["lex_less", "colex_less", "elem_less",
                                                       "lex_leq", "colex_geq", "elem_leq"]
      for a, b in [("(1,5)", "(2,0)"), ("(2,0)", "(1,5)"), ("(1,5)", "(1,5)"), ("(1,0)", "(2,1)"),
                   ("(1,(2,3))", "(1,(3,0))")]],
    # layout construction and restructuring
    *[("make_layout_like", [l], "p(make_layout_like({0}))") for l in [
        "(4,(2,3)):(6,(0,1))", "(2,4):(4,1)", "(2,3,4):(12,1,3)", "((2,2),4):((8,0),1)", "8:3"]],
    *[("make_fragment_like", [l], "p(make_fragment_like({0}))") for l in [
        "((2,2),4,2):((1,0),16,64)", "(4,8):(8,1)", "(2,3,4):(12,1,3)", "(8,(2,2)):(2,(16,1))"]],
    *[("coshape", [l], "p(coshape({0}))") for l in [
        "(4,(2,3)):(2,(1,8))", "(2,4):(4,1)", "8:3"]],
    *[("dice", [c, l], "p(dice({0},{1}))") for c, l in [
        ("(0,_)", "(3,4):(1,4)"), ("(_,0)", "(3,4):(1,4)"), ("((0,_),_)", "((2,3),4):((1,2),6)")]],
    *[("dice", [c, t], "p(dice({0},{1}))") for c, t in [
        ("(0,_)", "(3,4)"), ("((_,0),0)", "((2,3),4)")]],
    *[("slice", [c, l], "p(slice({0},{1}))") for c, l in [
        ("(_,1,_)", "(2,3,4):(1,2,6)"), ("(_,1)", "(4,8):(8,1)"), ("((1,_),_)", "((2,3),4):((1,2),6)")]],
    *[("slice", [c, t], "p(slice({0},{1}))") for c, t in [
        ("(_,0)", "(3,4)"), ("((_,0),_)", "((2,3),4)")]],
    *[("slice_and_offset", [c, l], "p(slice_and_offset({0},{1}))") for c, l in [
        ("(_,1,_)", "(2,3,4):(1,2,6)"), ("(2,_)", "(4,8):(8,1)"),
        ("((1,_),(_,3))", "((2,3),(4,5)):((1,2),(6,24))")]],
    *[("domain_distribute", [s, n], "p(domain_distribute({0},{1}))") for s, n in [
        ("(4,8)", "16"), ("(2,3,4)", "8"), ("(4,8)", "2"), ("((2,2),8)", "8")]],
    # general composed layouts
    *[(op, [c], "p(" + op + "({0}))") for op in ["size", "rank", "depth", "cosize"] for c in [
        "32:2 o 3 o (2,4):(1,2)", "16:2 o 0 o (4,4):(4,1)"]],
    *[("crd2idx", [x, c], "p({1}({0}))") for c in [
        "32:2 o 3 o (2,4):(1,2)", "(4,4):(4,1) o 1 o (2,8):(8,1)", "(8,8):(1,8) o 5 o (4,(2,2)):(2,(1,8))"]
      for x in ["0", "3", "(1,2)", "7"]],
    *[("composition", [l, c], "p(composition({0},{1}))") for l, c in [
        ("(4,4):(4,1)", "16:1 o 0 o (4,4):(1,4)"), ("8:2", "(2,4):(4,1) o 0 o 8:1"),
        ("(4,8):(8,1)", "32:1 o 0 o (8,4):(4,1)")]],
    *[("crd2idx", [x, c], "p({1}({0}))") for c in [
        "16:2 o 0 o Sw<2,0,2> o 0 o 16:1", "(4,4):(4,1) o 0 o Sw<2,0,2> o 0 o (4,4):(4,1)"]
      for x in ["0", "5", "11", "15"]],
    *[("slice", [c, l], "p(slice({0},{1}))") for c, l in [
        ("((1,_),((_,0),_))", "((3,2),((2,3),2)):((4,1),((2,15),100))"), ("(_,(1,_))", "(4,(2,3)):(1,(4,8))")]],
    *[("dice", [c, l], "p(dice({0},{1}))") for c, l in [
        ("((1,_),((_,0),_))", "((3,2),((2,3),2)):((4,1),((2,15),100))"), ("(_,(1,_))", "(4,(2,3)):(1,(4,8))")]],
    *[("make_layout_like", [l], "p(make_layout_like({0}))") for l in [
        "(2,3):(-1,2)", "(2,2,2):(4,4,1)", "(4,(2,2)):(0,(0,1))"]],
    *[(op, [c, t], "p(" + op + "({0},{1}))") for op in ["logical_divide", "zipped_divide",
                                                        "logical_product", "tiled_product"]
      for c, t in [("32:2 o 3 o (4,4):(1,4)", "2:1"), ("(8,8):(8,1) o 0 o (8,8):(1,8)", "4:2")]],
    # the algebra of general composed layouts: inverses (CuTe's inv(B) o -O o inv(A)),
    # complement and nullspace (of / despite the inner layout), a swizzle on the right
    *[(op, [c], "p(" + op + "({0}))") for op in ["right_inverse", "left_inverse"] for c in [
        "32:2 o 3 o (2,4):(1,2)", "(4,4):(4,1) o 0 o (2,8):(8,1)", "16:2 o 0 o Sw<2,0,2> o 0 o 16:1",
        "(8,4):(4,1) o 0 o (4,8):(8,1)", "64:1 o 0 o (4,(2,2)):(2,(1,8))"]],
    *[("right_inverse", [c], "p(right_inverse({0}))") for c in [
        "Sw<2,0,2> o 0 o 16:2 o 0 o 16:1", "Sw<2,0,2> o 0 o 16:1 o 0 o Sw<1,0,1> o 0 o 16:1"]],
    *[("complement", [c], "p(complement({0}))") for c in [
        "32:2 o 3 o (2,4):(2,4)", "(4,4):(4,1) o 0 o (2,4):(1,8)", "Sw<1,0,2> o 0 o 4:2"]],
    *[("complement", [c, m], "p(complement({0},{1}))") for c, m in [
        ("32:2 o 3 o (2,4):(2,4)", "64"), ("Sw<1,0,2> o 0 o 4:2", "16"), ("16:1 o 1 o 4:4", "(4,8)")]],
    *[("nullspace", [c], "p(nullspace({0}))") for c in [
        "32:2 o 3 o (2,4):(0,4)", "Sw<1,0,2> o 0 o (4,2):(0,1)"]],
    *[("composition", [c, w], "p(composition({0},{1}))") for c, w in [
        ("32:2 o 3 o (8,8):(8,1)", "Sw<3,0,3>"), ("(4,8):(8,1) o 0 o (4,8):(8,1)", "Sw<2,0,3>")]],
    # basis (ScaledBasis) strides
    *[(op, [l], "p(" + op + "({0}))") for op in ["coshape", "coprofile", "cosize"] for l in [
        "(2,5,3):(4@1,5@0,16@1)", "(2,3,5):(4@1,0,7@1@2)", "(4,(2,3)):(1@0,(1@0@1,1@1@1))",
        "(4,5):(-1@1,1@0)"]],
    *[(op, ["(1,3):(5,1@1)"], "p(" + op + "({0}))") for op in ["coshape", "cosize"]],
    *[("nullspace", [l], "p(nullspace({0}))") for l in [
        "(4,5):(0,1@0)", "(4,5):(0@1,1@0)", "((2,2,2),(2,2,2)):((1@0,0,5@0),(1@1,2@0,4@1))",
        "(4,5):(1@0,1@1)", "(2,(3,4)):(0,(1@0,0))"]],
    # construction and restructuring (crates/cute-ops/src/construct_ops.rs)
    *[("domain_offset", [c, l], "p(domain_offset({0},{1}))") for c, l in [
        ("(1,2)", "(4,4):(4,1)"), ("5", "(2,(3,4)):(1,(2,6))"), ("(1,(2,3))", "(2,(3,4)):(12,(1,3))"),
        ("(1,2)", "32:2 o 3 o (2,4):(1,2)"), ("3", "Sw<2,0,2> o 1 o (4,4):(4,1)")]],
    *[("max_alignment", [l], "p(max_alignment({0}))") for l in [
        "(2,4):(4,1)", "(4,2):(1,8)", "(2,2,2):(1,4,16)", "(2,3):(1,6)", "(4,3):(3,1)", "(8,4):(2,16)",
        "1:0", "(4,2):(0,1)", "((2,4),(2,4)):((1,8),(2,64))", "(4,(2,2)):(2,(1,16))", "(3,5):(5,1)"]],
    *[("max_alignment", [l], "p(max_alignment({0}))") for l in [
        "(1,4,3):(12,-2,12)", "(2):(-2)", "(4,2):(-1,4)", "(2,4,2):(1,-2,16)", "(3,4):(0,1)"]],
    *[("compact_order", [s_, o], "p(compact_order({0},{1}))") for s_, o in [
        ("(2,3,4,2)", "(0,2,3,0)"), ("(3,(2,4))", "(1,1)"), ("((2,3),4)", "(0,0)")]],
    *[("bw_coalesce", [l, n], "p(bwc({0},{1}))") for l, n in [
        ("(2,4):(-1,-2)", "3:-8"), ("(4,2):(2,8)", "(2,2):(1,16)")]],
    *[("max_alignment", [c], "p(max_alignment({0}))") for c in [
        "Sw<3,3,3> o 0 o (8,64):(64,1)", "Sw<3,3,3> o 6 o (8,64):(64,1)", "Sw<2,0,2> o 0 o (8,64):(64,1)",
        "Sw<3,4,3>", "Sw<2,1,3> o 16 o Sw<3,3,3> o 0 o (8,64):(64,1)", "(8,64):(64,1) o 0 o (8,64):(64,1)"]],
    *[("zip", [c], "p(zip({0}))") for c in ["Sw<3,3,3> o 0 o ((2,3),(4,5)):((1,2),(6,24))"]],
    *[("tile_unzip", [c, t], "p(tile_unzip({0},{1}))") for c, t in [
        ("Sw<3,3,3> o 0 o ((2,4),(3,5)):((1,2),(8,24))", "(2,3)")]],
    *[("zip", [l], "p(zip({0}))") for l in [
        "((2,3),(4,5)):((1,2),(6,24))", "(2,4):(4,1)", "8:2", "((2,3,4),(5,6,7)):((1,2,6),(24,120,720))"]],
    *[("zip", [a, b], "p(zip({0},{1}))") for a, b in [
        ("(2,3):(1,2)", "(4,5):(6,24)"), ("2:4", "3:1"), ("((2,2),3):((1,2),4)", "((5,6),7):((8,40),240)")]],
    *[("zip", [t], "p(zip({0}))") for t in ["((1,2,3),(4,5,6))", "(1,2)", "7", "((1,(2,3)),(4,(5,6)))"]],
    *[("zip", [a, b], "p(zip({0},{1}))") for a, b in [("(1,2)", "(3,4)"), ("((1,2),3)", "((4,5),6)")]],
    *[("tile_unzip", [l, t], "p(tile_unzip({0},{1}))") for l, t in [
        ("((2,4),(3,5)):((1,2),(8,24))", "(2,3)"), ("((2,4),(3,5),7):((1,2),(8,24),120)", "(2,3)"),
        ("(2,4):(1,2)", "2:1"), ("((2,4),((2,3),(2,2))):((1,2),((8,32),(16,96)))", "(2,(2,2))")]],
    *[("transform_layout", [f, l], "p(transform_layout({1},[](auto const& x){{ return " + f + "(x); }}))") for f, l in [
        ("coalesce", "((2,4),(3,1)):((1,2),(8,0))"), ("filter", "((2,1),(3,4)):((0,1),(1,3))"),
        ("flatten", "((2,(2,2)),(3,(1,4))):((1,(2,4)),(8,(0,24)))")]],
    *[("transform_layout", [f, l, t], "p(transform_layout({1},{2},[](auto const& x, auto const& y){{ return " + f + "(x,y); }}))") for f, l, t in [
        ("logical_divide", "(8,6):(1,8)", "(2:1,3:2)"), ("composition", "(8,6):(1,8)", "(2:2,3:2)"),
        ("logical_product", "(2,4):(1,2)", "(3:1)"), ("logical_divide", "(8,6,5):(1,8,48)", "(4:2,3:1)"),
        ("composition", "(8,6):(1,8)", "(4:2,3:2,5:1)")]],
    *[("bw_coalesce", [l, n], "p(bwc({0},{1}))") for l, n in [
        ("(2,4):(1,2)", "3:8"), ("(2,4):(1,2)", "3:7"), ("(2,4):(1,2)", "1:5"), ("(2,4):(1,2)", "(3,5):(7,1)"),
        ("(2,(1,4)):(1,(9,2))", "(2,3):(8,40)"), ("((2,2),2):((1,4),2)", "(4):(8)"), ("(1,1):(3,4)", "1:0"),
        ("(3,1,2):(1,5,3)", "(1,4):(0,6)")]],
    *[("bw_coalesce", [l], "p(coalesce({0}))") for l in ["(2,(1,4)):(1,(9,2))", "((2,2),2):((1,4),2)"]],
    *[("compact_order", [s, o], "p(compact_order({0},{1}))") for s, o in [
        ("(2,3,4)", "(1,2,0)"), ("(2,(3,4))", "(1,0)"), ("(4,8)", "(5,5)"), ("((2,2),(2,2))", "((0,1),(2,3))"),
        ("(4,1,2)", "(2,0,1)"), ("(2,2,2,2)", "(0,2,3,1)"), ("(2,3,4)", "LayoutLeft"), ("(2,3,4)", "LayoutRight")]],
    *[("make_coord_iterator", [s], "coords({0})") for s in ["(2,3)", "4", "(2,(2,2))", "((2,1),3)"]],
    *[("make_coord_iterator", [s, c], "coords_from({1},{0})") for s, c in [("(2,3)", "(1,1)"), ("(3,(2,2))", "(2,(0,1))")]],
    *[("make_coord_iterator", [s, "_", o], "coords_ordered<decltype({2})>({0})") for s, o in [
        ("(2,3)", "(1,0)"), ("(2,3,2)", "(2,0,1)")]],
    # tilers: an integer, a shape and `_` where a layout is expected, per mode
    *[(op, [l, t], "p(" + op + "({0},{1}))") for op in ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]
      for l, t in [("(6,4):(4,1)", "2"), ("(6,4):(4,1)", "_"), ("(12,8):(1,12)", "(3,2)"), ("((2,3),4):((1,2),6)", "(_,2)"),
                   ("(8,6,4):(1,8,48)", "(2:1,3,2)")]],
    *[("logical_divide", [l, t], "p(logical_divide({0},{1}))") for l, t in [
        ("(6,4):(4,1)", "(_,2)"), ("((3,8),5):((1,3),24)", "((_,4:2),_)"), ("(8,6,4):(1,8,48)", "(2:1,_,2)")]],
    *[(op, [l, t], "p(" + op + "({0},{1}))") for op in ["logical_product", "zipped_product", "tiled_product", "flat_product"]
      for l, t in [("(2,2):(1,2)", "3"), ("(2,2):(1,2)", "(3,2)"), ("(2,4):(4,1)", "_")]],
    *[("logical_product", [l, t], "p(logical_product({0},{1}))") for l, t in [("(2,4):(1,2)", "(_,2:1)"), ("(2,4):(1,2)", "(3,_)")]],
    *[("composition", [l, t], "p(composition({0},{1}))") for l, t in [
        ("(4,6):(1,4)", "(_,3:2)"), ("(12,(4,8)):(59,(13,1))", "(3,8)"), ("(12,(4,8)):(59,(13,1))", "(_,(2,_))"),
        ("(6,4):(4,1)", "_"), ("(6,4):(4,1)", "3")]],
    *[("coalesce", [l, t], "p(coalesce({0},{1}))") for l, t in [
        ("(2,(2,2)):(1,(2,4))", "(_,_)"), ("((2,2),(2,2)):((1,2),(8,4))", "(_,(_,_))")]],
    *[("composition", [s, l], "p(composition(make_identity_layout({0}),{1}))") for s, l in [
        ("(8,4)", "((4,2),4):((8,4),1)"), ("(16,8)", "((4,8),(2,2)):((32,1),(16,8))"),
        ("(8,8)", "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))")]],
    # tuple_cat, make_swizzle<Y,Z>, and contiguity as max_common_vector(L, size(L):1)
    *[("tuple_cat", [a, b], "p(tuple_cat({0},{1}))") for a, b in [
        ("(3,128)", "(1,(3,4),(6))"), ("(2,3)", "(4,5)"), ("((1,2),3)", "(4)")]],
    *[("make_swizzle", [y, z], "p(make_swizzle<decltype({0})::value,decltype({1})::value>())")
      for y, z in [("24", "3"), ("8", "4"), ("192", "6"), ("0", "0"), ("896", "112")]],
    *[("contiguity", [l], "p(max_common_vector({0},make_layout(size({0}))))") for l in [
        "(4,8):(1,8)", "(4,8):(8,1)", "(2,(2,4)):(1,(2,8))", "(4,8):(1,4)", "8:0",
        "Sw<3,0,3> o 0 o (8,8):(1,8)", "Sw<2,1,3> o 0 o 32:1", "Sw<3,4,3> o 0 o (8,64):(64,1)"]],
    # the GMMA / UMMA shared-memory layout atoms (cute/atom/mma_traits_sm90_gmma.hpp,
    # mma_traits_sm100.hpp), alone and tiled to a shape
    *[("smem_atom", [f"Layout_{m}_{w}_Atom", t], f"p({ATOM_NS[w]}Layout_{m}_{w}_Atom<{t}>{{{{}}}})")
      for m in ["K", "MN"] for w in ["INTER", "SW32", "SW64", "SW128"]
      for t in ["half_t", "float", "uint8_t", "double"]],
    *[("smem_atom", [f"Layout_{m}_{w}_Atom", t], f"p({ATOM_NS[w]}Layout_{m}_{w}_Atom<{t}>{{{{}}}})")
      for m, w, t in [("K", "SW128", "int4b_t"), ("MN", "SW128", "uint1b_t"), ("K", "SW64", "int2b_t"),
                      ("K", "INTER", "uint128_t"), ("MN", "INTER", "uint128_t"), ("K", "SW128", "bfloat16_t"),
                      ("K", "SW128", "float_e4m3_t"), ("MN", "SW128", "tfloat32_t"),
                      ("MN", "SW128_32B", "half_t"), ("MN", "SW128_32B", "float"), ("MN", "SW128_32B", "uint8_t")]],
    *[("smem_atom", [f"Layout_{m}_{w}_Atom", t, s], f"p(tile_to_shape({ATOM_NS[w]}Layout_{m}_{w}_Atom<{t}>{{{{}}}},{{2}}))")
      for m, w, t, s in [("K", "SW128", "half_t", "(128,64)"), ("K", "SW128", "half_t", "(256,64)"),
                         ("MN", "SW128", "half_t", "(128,64)"), ("K", "SW64", "float", "(64,32)"),
                         ("MN", "SW32", "uint8_t", "(64,16)"), ("MN", "SW128_32B", "half_t", "(128,8)")]],
    *[("smem_atom", [f"Layout_{m}_{w}_Atom", t, s, o], f"p(tile_to_shape({ATOM_NS[w]}Layout_{m}_{w}_Atom<{t}>{{{{}}}},{{2}},{{3}}))")
      for m, w, t, s, o in [("K", "SW128", "half_t", "(64,128)", "(1,0)"), ("MN", "SW64", "float", "(32,16,2)", "(0,1,2)"),
                            ("K", "SW32", "half_t", "(16,32,3)", "(1,0,2)")]],
    # make_ordered_layout with distinct ranks (tied ranks: CuTe C++ gives them one stride, which
    # is not compact; cute breaks the tie by position, as NVlabs PyCuTe: see the README) and the
    # structural == of layouts and tuples
    *[("make_ordered_layout", [s, o], "p(make_ordered_layout({0},{1}))") for s, o in [
        ("(2,3,4)", "(1,2,0)"),
        ("(2,3,4,5)", "(2,67,42,50)"), ("((2,2),(2,2))", "((0,1),(2,3))"), ("(2,(3,4))", "(2,(1,0))"),
        ("(1,4)", "(0,1)"), ("(4,1,8)", "(0,1,2)"), ("(2,(3,4))", "(1,0)")]],
    *[("structural_equal", [x, y], "b({0}=={1})") for x, y in [
        ("(4,8):(1,4)", "(4,8):(1,4)"), ("((2,2),2):((1,4),2)", "(2,2,2):(1,4,2)"), ("(4):(1)", "4:1"),
        ("(4,1):(1,0)", "(4,1):(1,4)"), ("(2,(3,4)):(1,(2,6))", "(2,(3,4)):(1,(2,6))"), ("4:1", "8:1"),
        ("(2,3)", "(2,3)"), ("(2,3)", "(2,(3))"), ("(2,3)", "(2,3,1)"), ("(1,(2,3))", "(1,(2,3))"),
        ("Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"),
        ("Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<3,3,3> o 0 o (8,64):(64,1)"),
        ("(2,3):(1@0,1@1)", "(2,3):(1@0,1@1)"), ("(2,3):(1@0,1@1)", "(2,3):(1@1,1@0)")]],
    # TMA: construct_tma_gbasis<half_t>(gmem, smem, identity o tile), the box, and
    # fill_tma_gmem_shape_stride (the tensor map's dims / strides in elements)
    *[("tma_gbasis", [g, s_], "p(tgb({0},{1}))") for g, s_ in TMA_CASES],
    *[("tma_gbasis", [g, s_, t], "p(tgb({0},{1},{2}))") for g, s_, t in [
        ("(256,512):(512,1)", "(64,64):(64,1)", "(64,64)"), ("(256,512):(512,1)", "(32,64):(64,1)", "(32,64)"),
        ("(128,128,8):(1,128,16384)", "(64,4,2):(1,64,256)", "(64,4,2)")]],
    *[("tma_gbasis", [g, s_, "_", "box"], "p(product_each(shape(tgb({0},{1}))))") for g, s_ in TMA_CASES[:4]],
    *[("tma_gbasis", [g, s_, f], "tgm({0},tgb({0},{1})," + str(w) + ")") for g, s_ in TMA_CASES
      for f, w in [("gmem_shape", 0), ("gmem_stride", 1)]],
    *[("tma_gbasis", [g, s_], "p(tgb({0},tile_to_shape(SM90::GMMA::Layout_" + m + "_SW128_Atom<half_t>{{}}," + t + ")))")
      for g, s_, m, t in [
          ("(256,512):(512,1)", "Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))", "K", "Shape<_128,_64>{{}}"),
          ("(256,512):(1,256)", "Sw<3,3,3> o 0 o ((64,2),(8,8)):((1,512),(64,1024))", "MN", "Shape<_128,_64>{{}}")]],
    # tuple algorithms (algorithm/tuple_algorithms.hpp); a function is one op of the table
    *[("repeat", [n, x], "p(repeat<" + n + ">({1}))") for n, x in [("3", "(2,4)"), ("1", "(2,4)"), ("2", "5"), ("4", "((1,2),3)")]],
    *[("repeat_like", [t, v], "p(repeat_like({0},{1}))") for t, v in [("((2,3),4)", "0"), ("(1,(2,(3,4)))", "7"), ("5", "1")]],
    *[(op, [t], "p(" + op + "({0}))") for op in ["wrap", "unwrap", "reverse", "front", "back"]
      for t in ["7", "(7)", "((7))", "((1,2),3,(4,(5,6)))", "(1,2)"]],
    *[("transform", [f, t], "p(transform({1},[](auto const& x){{ return " + f + "(x); }}))") for f, t in [
        ("product", "((2,3),4,(5,6))"), ("size", "((2,3),4)"), ("rank", "((2,3),4,(1,2,3))"), ("depth", "(1,(2,(3)),4)"),
        ("product", "12"), ("flatten", "((1,(2,3)),(4))")]],
    *[("transform", [f, t, y], "p(transform({1},[](auto const& x){{ return " + f + "(x,{2}); }}))") for f, t, y in [
        ("shape_div", "(8,(4,16),6)", "2"), ("ceil_div", "(7,9,(3,5))", "2")]],
    *[(alg, [f, t, v], "p(" + alg + "({1},{2},[](auto const& a, auto const& x){{ return " + f + "(a,x); }}))") for alg in ["fold", "iscan", "escan"]
      for f, t, v in [("shape_div", "(2,4)", "64"), ("elem_scale", "(2,3,4)", "1"), ("ceil_div", "(2,3)", "20"),
                      ("elem_scale", "(2,(3,4))", "2")]],
    *[(alg, [f, t, y], "b(" + alg + "({1},[](auto const& x){{ return " + f + "(x,{2}); }}))") for alg in ["any_of", "all_of", "none_of"]
      for f, t, y in [("congruent", "((1,2),3)", "0"), ("congruent", "((1,2),(3,4))", "0"), ("congruent", "(1,2)", "0"),
                      ("evenly_divides", "(8,6,4)", "2"), ("evenly_divides", "(8,12)", "4")]],
    *[("tuple_find", [t, x], "p(find({0},{1}))") for t, x in [("(2,(3,4),5)", "5"), ("(2,3)", "7"), ("(2,2,3)", "2"), ("4", "4")]],
    *[("find_if", [f, t, y], "p(find_if({1},[](auto const& x){{ return " + f + "(x,{2}); }}))") for f, t, y in [
        ("congruent", "((1,2),3,4)", "0"), ("congruent", "((1,2),(3,4))", "0"), ("evenly_divides", "(3,5,8,4)", "4")]],
    # filter(layout, profile), and the filter / append / recast_layout overloads of ComposedLayout
    *[("filter", [l, t], "p(filter({0},{1}))") for l, t in [
        ("((2,1),(3,4)):((0,1),(1,3))", "(_,_)"), ("((2,1),(3,4),5):((0,1),(1,3),0)", "(0,0)"),
        ("(2,(1,4),3):(1,(0,2),0)", "(0,(0,0))"), ("((2,2),(3,1)):((1,0),(4,7))", "0"),
        ("Sw<2,0,2> o 4 o ((2,1),4):((0,1),2)", "(_,_)"), ("Sw<3,3,3> o 0 o ((8,1),(2,4)):((8,0),(0,1))", "(_,_)")]],
    *[("append", [c, x], "p(append<" + n + ">({0},{1}))") for c, x, n in [
        ("Sw<3,4,3> o 0 o (8,64):(64,1)", "4:512", "3"), ("Sw<2,0,2> o 4 o (4,4):(4,1)", "2:16", "3"),
        ("Sw<1,2,3> o 0 o 8:1", "(2,2):(8,16)", "2")]],
    *[("recast", [o, n, c], "p(recast_layout<" + T[o] + "," + T[n] + ">({2}))") for o, n, c in [
        ("16", "32", "Sw<3,4,3> o 0 o (8,64):(64,1)"), ("16", "8", "Sw<3,4,3> o 0 o (8,64):(64,1)"),
        ("32", "16", "Sw<2,1,3> o 2 o (4,8):(8,1)"), ("8", "8", "Sw<2,1,3> o 2 o (4,8):(8,1)"),
        ("8", "64", "Sw<3,4,3> o 0 o (8,128):(128,1)")]],
    # basis (ScaledBasis / ArithmeticTuple) helpers and a stride-0 leaf composed with a basis layout
    *[("make_basis_like", [s], "p(make_basis_like({0}))") for s in ["(4,3)", "(4,(2,3))", "((2,2),3)", "8"]],
    *[("basis_get", [e, t], "p(basis_get({0},{1}))") for e, t in [
        ("1@0@1", "(7,(8,9))"), ("3@1", "(7,(8,9))"), ("1@0", "(4,5)"), ("5", "(7,8)")]],
    *[("basis_value", [e], "p(basis_value({0}))") for e in ["3@1@0", "7@2", "4"]],
    *[("composition", [s, l], "p(composition(make_identity_layout({0}),{1}))") for s, l in [
        ("(8,4)", "((4,2),4):((8,4),0)"), ("(16,8)", "((4,8),(2,2)):((0,1),(16,8))")]],
    # make_fragment_like where modes past the first have equal strides (CuTe's make_ordered_layout
    # gives tied ranks one stride there)
    *[("make_fragment_like", [l], "p(make_fragment_like({0}))") for l in [
        "(2,3,4):(1,2,2)", "((2,2),3,4,5):((1,2),8,8,0)", "(4,2,2):(1,4,4)", "(2,2,3):(1,0,0)"]],
]


def expr(text):
    """CuTe C++ for a value in the text form: an integer, `_`, a tuple, a layout, a swizzle, a
    composed layout."""
    t = text.strip()
    if t in ("LayoutLeft", "LayoutRight"):
        return t + "{}"
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_:]*", t):
        return t
    parts = split_top(t, " o ")
    if len(parts) > 1:
        if len(parts) % 2 == 0:
            raise ValueError(t)
        e = expr(parts[-1])
        for k in range(len(parts) - 3, -1, -2):
            e = f"make_composed_layout({expr(parts[k])},{expr(parts[k + 1])},{e})"
        return e
    m = re.fullmatch(r"(-?\d+)((?:@\d+)+)", t)
    if m:  # a basis stride v@i@j: CuTe's ScaledBasis<Int<v>, j, i> (the path printed reversed)
        return f"ScaledBasis<Int<{m[1]}>,{','.join(reversed(m[2].split('@')[1:]))}>{{}}"
    m = re.fullmatch(r"Sw<(\d+),(\d+),(-?\d+)>", t)
    if m:
        return f"Swizzle<{m[1]},{m[2]},{m[3]}>{{}}"
    colon = split_top(t, ":")
    if len(colon) == 2:
        return f"make_layout({expr(colon[0])},{expr(colon[1])})"
    if t == "_":
        return "_"
    if t.startswith("("):
        items = split_top(t[1:-1], ",") if t[1:-1].strip() else []
        return "cute::make_tuple(" + ",".join(expr(i) for i in items) + ")"
    return f"Int<{int(t)}>{{}}"


def split_top(s, sep):
    out, depth, cur, k = [], 0, "", 0
    while k < len(s):
        c = s[k]
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        if depth == 0 and s.startswith(sep, k):
            out.append(cur)
            cur = ""
            k += len(sep)
            continue
        cur += c
        k += 1
    out.append(cur)
    return out


def program():
    lines = [
        "#include <cute/layout.hpp>",
        "#include <cute/layout_composed.hpp>",
        "#include <cute/swizzle_layout.hpp>",
        "#include <cute/atom/mma_traits_sm90_gmma.hpp>",
        "#include <cute/atom/mma_traits_sm100.hpp>",
        "#include <cute/tensor.hpp>",
        "#include <cute/atom/copy_traits_sm90_tma.hpp>",
        "#include <cstdio>",
        "using namespace cute;",
        "template <class T> void p(T const& x) { print(x); printf(\"\\n\"); }",
        "template <class T> void b(T const& x) { printf(\"%d\\n\", int(bool(x))); }",
        "template <class L, class N> auto bwc(L const& l, N const& n) {",
        "  auto fs = flatten(l.shape()); auto fd = flatten(l.stride());",
        "  constexpr int R = decltype(rank(fs))::value;",
        "  return detail::bw_coalesce<R-1>(fs, fd, n.shape(), n.stride()); }",
        "template <class It> void walk(It it) {",
        "  printf(\"(\"); for (int k = 0; it != ForwardCoordIteratorSentinel{}; ++it, ++k) { if (k) printf(\",\"); print(*it); }",
        "  printf(\")\\n\"); }",
        "template <class S> void coords(S const& s) { walk(make_coord_iterator(s)); }",
        "template <class C, class S> void coords_from(C const& c, S const& s) {",
        "  walk(make_coord_iterator(transform_leaf(c, [](auto v) { return int(v); }), s)); }",
        "template <class O, class S> void coords_ordered(S const& s) { walk(make_coord_iterator<O>(s)); }",
        "template <class G, class S, class C> auto tgb(G const& g, S const& s, C const& c) {",
        "  auto gt = make_tensor(make_gmem_ptr<half_t>(nullptr), g);",
        "  return detail::construct_tma_gbasis<half_t>(gt, get_nonswizzle_portion(s), make_identity_layout(shape(gt)).compose(c)); }",
        "template <class G, class S> auto tgb(G const& g, S const& s) { return tgb(g, s, product_each(shape(s))); }",
        "template <class G, class B> void tgm(G const& g, B const& b, int which) {",
        "  auto gt = make_tensor(make_gmem_ptr<half_t>(nullptr), g);",
        "  cute::array<uint64_t,5> sh = {1,1,1,1,1}; cute::array<uint64_t,5> st = {0,0,0,0,0};",
        "  detail::fill_tma_gmem_shape_stride(gt, stride(b), sh, st);",
        "  int r = rank(b); printf(\"(\");",
        "  for (int i = 0; i < r; ++i) { if (i) printf(\",\"); printf(\"%llu\", (unsigned long long)(which ? st[i] : sh[i])); }",
        "  printf(\")\\n\"); }",
        "int main() {",
    ]
    for op, args, fmt in CASES:
        lines.append("  " + fmt.format(*[expr(a) for a in args]) + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"


def include_dirs():
    env = os.environ.get("CUTE_INCLUDE")
    if env:
        return [pathlib.Path(d) for d in env.split(":") if d]
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench", ROOT / "scripts" / "bench-cute-cpp.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.include_dirs()


def norm(s):
    s = re.sub(r"_(?=-?\d)", "", s)
    return "".join(s.split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "crates/cute-cli/tests/conformance/surface/cute_cpp.jsonl"))
    opt = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        cpp = pathlib.Path(d) / "surface.cpp"
        exe = pathlib.Path(d) / "surface"
        cpp.write_text(program())
        cmd = [os.environ.get("CXX", "g++"), "-std=c++17", "-O0", "-w",
               *[f"-I{i}" for i in include_dirs()], str(cpp), "-o", str(exe)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("gen-conformance-surface: compile failed:\n" + r.stderr[:4000])
        out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(CASES):
        sys.exit(f"gen-conformance-surface: {len(CASES)} cases, {len(out)} answers")
    with open(opt.out, "w") as f:
        for k, ((op, args, _), ans) in enumerate(zip(CASES, out)):
            f.write(json.dumps({"id": f"surface-{k:04d}", "op": op, "args": args,
                                "cute": norm(ans)}) + "\n")
    print(f"gen-conformance-surface: {len(CASES)} vectors -> {opt.out}")


if __name__ == "__main__":
    main()

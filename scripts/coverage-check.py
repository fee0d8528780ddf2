#!/usr/bin/env python3
"""Re-check docs/COVERAGE.md: every row of CuTe C++'s surface in groups 1-6 and 9.

Each row names the CuTe function, our library item, our operation, our status and what is
missing, and (where there is an operation) one example. The example runs through
`cute batch`; its expected answer comes from CuTe, never from our output: either a vendored
conformance vector (`ref`: FILE#ID under crates/cute-cli/tests/conformance, made by CuTe C++)
or an answer quoted from docs/cute-reference.md / CuTe's documentation (`src` says where).

Usage:  python3 scripts/coverage-check.py [PATH/TO/cute]      (default target/debug/cute)
        python3 scripts/coverage-check.py --markdown [cute] > docs/COVERAGE.md   (the whole file)
Exit status 1 if any example disagrees with CuTe.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONF = os.path.join(ROOT, "crates", "cute-cli", "tests", "conformance")

GROUPS = {
    1: "IntTuple toolkit",
    2: "Layout construction / restructuring",
    3: "Algebra",
    4: "Swizzle / composed layouts",
    5: "ScaledBasis / identity layouts",
    6: "Tensor + partitioning",
    9: "Printing / visualisation",
}


HEADER = r"""# Coverage of CuTe C++: groups 1-6 and 9

What of CuTe C++'s layout surface the project has, row by row: the IntTuple toolkit (1),
layout construction and restructuring (2), the algebra (3), swizzles and composed layouts (4),
ScaledBasis and identity layouts (5), tensors and partitioning (6) and printing (9). The rows
are those of `../shared/COVERAGE.md` (the survey against CuTe C++, the CuTe DSL, pycute, PyCuTe,
tensor-layouts, Triton and Mojo) whose CuTe C++ column is Y or P; rows that only other projects
have are left out (they are listed in the README: `layout_add`, `coalesce_z`, ...).

**Status.** **Y**: in the library (`crates/cute-layout`), an operation of the table
(`crates/cute-ops`, so `cute OP`, `cute batch`, Python's `cute_layout.run` and the web page's
`window.cute.run`), and the example below agrees with CuTe. **P**: partly; the column "Missing"
says exactly what is not there. **N**: absent.

**How it is checked.** `scripts/coverage-check.py` holds every row (name, library item, op,
status, what is missing) and one example per row that has an op. It runs all the examples
through one `cute batch` call and compares each answer with CuTe's, read from the vendored
CuTe C++ vectors under `crates/cute-cli/tests/conformance` (`FILE#ID`) or quoted from
`docs/cute-reference.md` and CuTe's sources and documentation (never from our own output).
CuTe's static integers (`_4`) and spaces around ` o ` are normalised away. Where a P row's
example shows the missing part, the check column says "refused (the missing part)".

```sh
nice cargo build -p cute-cli
python3 scripts/coverage-check.py                 # counts; exit 1 if an example disagrees with CuTe
python3 scripts/coverage-check.py --markdown > docs/COVERAGE.md   # this file
```

The script is not a step of `.ci/run`; the operations it exercises are tested there (the
conformance and surface suites, the op table's tests).

"""


def R(group, cute, lib, op, status, missing="", ex=None):
    return dict(group=group, cute=cute, lib=lib, op=op, status=status, missing=missing, ex=ex)


def ref(path, case_id, op=None, args=None):
    """An example whose request and expected answer are a vendored CuTe C++ vector."""
    return dict(ref=path, id=case_id, op=op, args=args)


def ex(op, args, expect, src):
    """An example whose expected answer is quoted from CuTe (src says where)."""
    return dict(op=op, args=args, expect=expect, src=src)


LATEX = os.path.join(ROOT, "crates", "cute-ops", "tests", "data", "latex", "cute_latex.jsonl")


def latex_ref(case_id, op=None, compare=None):
    """A picture example: a CuTe C++ print_latex / print_svg vector of
    crates/cute-ops/tests/data/latex (scripts/gen-conformance-latex.py); `op` asks another
    picture operation with the same arguments, `compare` how to compare (see `same_picture`)."""
    return dict(latex=case_id, op=op, compare=compare)


def tex_ref(path, op, args, skip):
    """A picture example whose expected text is a CuTe C++ output file under
    crates/cute-layout/tests/conformance, compared after its first `skip` lines."""
    return dict(tex=path, op=op, args=args, skip=skip)


REFDOC = "docs/cute-reference.md"
SURF = "surface/cute_cpp.jsonl"
TENS = "surface/tensors_cpp.jsonl"

ROWS = [
    # ---------------------------------------------------------------- 1. IntTuple toolkit
    R(1, "Nested IntTuple value (shape/stride/coord)", "`IntTuple`", "every TUPLE argument", "Y", "",
      ref("depth.jsonl", "depth-00000")),
    R(1, "Parse + print tuples in CuTe text (`_4` accepted)", "`FromStr`/`Display`", "every op", "Y", "",
      ex("flatten", ["(_2,(_3,_4))"], "(2,3,4)", "CuTe prints flatten((_2,(_3,_4))) as (_2,_3,_4)")),
    R(1, "rank / depth / size", "`rank() depth() size()`", "`rank` `depth` `size`", "Y", "",
      ref("rank.jsonl", "rank-00002")),
    R(1, "`get<I...>` hierarchical element", "`IntTuple::get_at`, `Layout::mode_at`", "`get`, `mode`", "Y", "",
      ex("get", ["(1,2,(3,4),5)", "2", "1"], "4", "get<2,1>((1,2,(3,4),5)) = 4 (CuTe int_tuple.hpp)")),
    R(1, "flatten", "`flatten()`", "`flatten`", "Y", "", ref("flatten.jsonl", "flatten-00001")),
    R(1, "unflatten", "`IntTuple::unflatten`", "`unflatten`", "Y", "", ref(SURF, "surface-0038")),
    R(1, "congruent / weakly_congruent", "`congruent`, `weakly_congruent`", "`congruent` `weakly_congruent`", "Y", "",
      ref("cute_unit_weakly_congruent.jsonl", "cute_unit_weakly_congruent-0000")),
    R(1, "compatible", "`compatible`", "`compatible`", "Y", "", ref("compatible.jsonl", "compatible-00000")),
    R(1, "evenly_divides", "`IntTuple::evenly_divides`", "`evenly_divides`", "Y", "",
      ref("evenly_divides.jsonl", "evenly_divides-00000")),
    R(1, "product_each / product_like / sum", "`product_each`, `product_like`, `sum`", "`product_each` `product_like` `sum`", "Y", "",
      ref(SURF, "surface-0030")),
    R(1, "inner_product", "`inner_product`", "`inner_product`", "Y", "", ref(SURF, "surface-0023")),
    R(1, "prefix_product / compact_col_major / compact_row_major / compact_major", "`IntTuple::compact_major`",
      "`compact_col_major` `compact_row_major` `prefix_product`, `compact_order SHAPE LayoutLeft|LayoutRight`", "Y", "",
      ref(SURF, "surface-0045")),
    R(1, "compact_order", "`compact_order`", "`compact_order`", "Y", "", ref(SURF, "surface-0215")),
    R(1, "shape_div / ceil_div / round_up / elem_scale / max, min of a tuple", "`shape_div` ... `tuple_max`",
      "`shape_div` `ceil_div` `round_up` `elem_scale` `safe_div` `tuple_max` `tuple_min`", "Y",
      "`gcd`/`lcm` are integer functions in CuTe (numeric/math.hpp), no op",
      ref(SURF, "surface-0000")),
    R(1, "lex_/colex_/elem_ less, leq, gtr, geq", "`coord_less(CoordOrder)`", "12 ops `lex_less` ... `elem_geq`", "Y", "",
      ref(SURF, "surface-0053")),
    R(1, "Tuple restructuring on IntTuples: append/prepend/insert/remove/replace/take/select/group",
      "`IntTuple::append` ... `group`, `tuple_cat`", "`append` `prepend` `insert` `remove` `replace` `take` `select` `group` `tuple_cat` on tuples",
      "Y", "", ex("group", ["(2,3,4)", "0", "2"], "((2,3),4)", "CuTe group<0,2>((_2,_3,_4)) = ((_2,_3),_4) (tuple_algorithms.hpp)")),
    R(1, "Functional tuple algorithms: transform, fold, iscan/escan, zip/unzip, find, any/all/none_of, repeat(_like), wrap/unwrap, reverse, front/back",
      "`zip`, `IntTuple::repeat` ... `back`", "`zip`, `repeat` `repeat_like` `wrap` `unwrap` `reverse` `front` `back`, `transform` `fold` `iscan` `escan` `any_of` `all_of` `none_of` `tuple_find` (CuTe's `find`) `find_if` (the function: one op of the table), `transform_layout OP` (layouts)", "P",
      "the function of `transform`, `fold`, the scans, `find_if` and the quantifiers is one op of the table applied to each top-level element with fixed extra arguments (CuTe takes any C++ function); no zip-wise `transform(t0, t1, f)`, no `for_each`, `filter_tuple`, `transform_leaf`, `unzip`",
      ref(SURF, "surface-0490")),
    R(1, "crd2idx(coord, shape[, stride])", "`IntTuple::crd2idx`, `Layout::index`", "`crd2idx`", "Y", "",
      ref("crd2idx.jsonl", "crd2idx-00001")),
    R(1, "idx2crd(idx, shape[, stride])", "`IntTuple::idx2crd`, `Layout::coord`", "`idx2crd`", "Y", "",
      ref("idx2crd.jsonl", "idx2crd-00000")),
    R(1, "crd2crd", "`IntTuple::crd2crd`", "`crd2crd`", "Y", "",
      ex("crd2crd", ["(1,2)", "(2,3)", "6"], "5", REFDOC + " 1.10: crd2idx((1,2),(2,3)) = 5, then idx2crd(5, 6)")),
    R(1, "FastDivmod (precomputed divisions; in cutlass/, C++ P)", "`Idx2Crd`", "(none: `idx2crd` answers the same)", "P",
      "library-only (a precomputed divisor has no use in a one-shot call; `idx2crd` gives its answers)", None),
    R(1, "Coordinate iteration (make_coord_iterator)", "`IntTuple::coordinates`", "`make_coord_iterator`", "Y", "",
      ref(SURF, "surface-0271")),
    R(1, "get_hier_coord / get_flat_coord / get_1d_coord (Layout members)", "`Layout::coord`, `flat_coord`, `coord_1d`",
      "`get_hier_coord` `get_flat_coord` `get_1d_coord`", "Y", "",
      ref("idx2crd.jsonl", "idx2crd-00000", op="get_hier_coord", args=["(8,12,2):(1,8,96)", "143"])),
]

ROWS += [
    # ---------------------------------------------------------------- 2. Layout construction
    R(2, "Layout(shape, stride) / make_layout(shape, stride)", "`Layout::new`", "`make_layout SHAPE STRIDE`", "Y", "",
      ex("make_layout", ["(2,(2,3))", "(12,(1,2))"], "(2,(2,3)):(12,(1,2))", REFDOC + " 7.2")),
    R(2, "make_layout(shape) LayoutLeft / LayoutRight", "`col_major`, `row_major`", "`make_layout SHAPE [LayoutLeft|LayoutRight]`", "Y", "",
      ref("make_layout.jsonl", "make_layout-00000")),
    R(2, "make_layout(l0, l1, ...)", "`Layout::from_modes`", "`concat`", "Y", "under the name `concat` (`make_layout` takes a shape first)",
      ex("concat", ["2:1", "3:2"], "(2,3):(1,2)", "make_layout(Layout<_2,_1>{}, Layout<_3,_2>{}) = (_2,_3):(_1,_2)")),
    R(2, "make_ordered_layout", "`Layout::ordered`", "`make_ordered_layout`", "Y",
      "ties of equal order broken by position (PyCuTe's rule; CuTe C++ gives them one stride)",
      ex("make_ordered_layout", ["(4,8)", "(1,0)"], "(4,8):(8,1)", REFDOC + " 1.6")),
    R(2, "make_layout_like", "`Layout::layout_like`", "`make_layout_like`", "Y", "", ref(SURF, "surface-0078")),
    R(2, "make_fragment_like (layout)", "`Layout::fragment_like`", "`make_fragment_like`", "Y", "", ref(SURF, "surface-0083")),
    R(2, "Parse + print layouts in CuTe text (C++ P: prints only)", "`FromStr`/`Display`", "every op", "Y", "",
      ref("flatten.jsonl", "flatten-00001")),
    R(2, "shape / stride / size / cosize / rank / depth", "methods", "`shape` `stride` `size` `cosize` `rank` `depth`", "Y", "",
      ref("cosize.jsonl", "cosize-00000")),
    R(2, "coshape / coprofile", "`coshape`, `coprofile`", "`coshape` `coprofile`", "Y", "", ref(SURF, "surface-0087")),
    R(2, "`layout<I...>` / `get<I>` (sub-layout at a path)", "`mode_at`", "`mode`, `get`", "Y", "",
      ex("mode", ["(2,(3,4)):(1,(2,6))", "1", "0"], "3:2", "layout<1,0>((2,(3,4)):(1,(2,6))) = _3:_2")),
    R(2, "append / prepend / replace", "`append`, `prepend`, `replace`", "`append` `prepend` `replace`", "Y", "",
      ex("append", ["(2,3):(1,2)", "4:6"], "(2,3,4):(1,2,6)", "append((_2,_3):(_1,_2), _4:_6) = (_2,_3,_4):(_1,_2,_6)")),
    R(2, "`group<B,E>`", "`group_modes`", "`group`", "Y", "",
      ex("group", ["(2,3,4):(1,2,6)", "0", "2"], "((2,3),4):((1,2),6)", "group<0,2>((_2,_3,_4):(_1,_2,_6))")),
    R(2, "`take<B,E>` / `select<I...>`", "`take_modes`, `select_modes`", "`take` `select`", "Y", "",
      ex("select", ["(2,3,4):(1,2,6)", "2", "0"], "(4,2):(6,1)", "select<2,0>((_2,_3,_4):(_1,_2,_6))")),
    R(2, "flatten (layout)", "`flatten`", "`flatten`", "Y", "", ref("flatten.jsonl", "flatten-00001")),
    R(2, "unflatten (layout)", "`unflatten`", "`unflatten`", "Y", "",
      ex("unflatten", ["(2,3,4):(1,2,6)", "(0,(0,0))"], "(2,(3,4)):(1,(2,6))", "unflatten(layout, target_profile) (layout.hpp)")),
    R(2, "zip / tile_unzip / hier_unzip", "`zip`, `tile_unzip`, `zipped_divide`/`zipped_product`", "`zip` `tile_unzip` `hier_unzip`", "Y", "", ref(SURF, "surface-0241")),
    R(2, "transform_layout", "`transform_layout`", "`transform_layout OP LAYOUT [TUPLE]`", "P",
      "the function is one op of the table per call (CuTe's takes any callable); a composed layout `A o O o B` gives `A o O o transform_layout(B)` (CuTe C++ has no such overload)",
      ref(SURF, "surface-0245")),
    R(2, "slice with `_` / slice_and_offset", "`Layout::slice`, `slice_and_offset`", "`slice` `slice_and_offset`", "Y", "", ref(SURF, "surface-0100")),
    R(2, "dice", "`dice`", "`dice`", "Y", "", ref(SURF, "surface-0090")),
    R(2, "domain_offset / domain_distribute", "`domain_offset`, `domain_distribute`", "`domain_offset` `domain_distribute`", "Y", "",
      ref(SURF, "surface-0194")),
    R(2, "with_shape", "`with_shape`", "`with_shape`", "Y", "",
      ex("with_shape", ["12:1", "(3,4)"], "(3,4):(1,3)", "with_shape = composition(L, make_layout(shape)) (layout.hpp)")),
    R(2, "coalesce, coalesce(layout, profile)", "`coalesce`, `coalesce_by_mode`", "`coalesce [PROFILE]`", "Y", "",
      ref(SURF, "surface-0321")),
    R(2, "filter / filter_zeros", "`filter`, `filter_zeros`", "`filter` `filter_zeros`", "Y", "", ref("filter.jsonl", "filter-00000")),
    R(2, "Structural equality / hashing (`==`)", "`PartialEq`, `Hash`", "`structural_equal`, `equal` (functional)", "Y",
      "hashing is library-only (`Hash`)", ref(SURF, "surface-0406")),
    # ---------------------------------------------------------------- 3. Algebra
    R(3, "composition(A, B)", "`compose`", "`composition`", "Y", "", ref("composition.jsonl", "composition-00000")),
    R(3, "composition(A, tiler), composition(A, int)", "`compose_tiler`", "`composition`", "Y", "",
      ref("composition_tiler.jsonl", "composition_tiler-00002")),
    R(3, "complement(A[, cotarget])", "`complement_cosize`, `complement_shape`", "`complement`", "Y",
      "refuses a non-injective input where CuTe returns a layout", ref("complement.jsonl", "complement-00001")),
    R(3, "right_inverse", "`right_inverse`", "`right_inverse`", "Y", "", ref("right_inverse.jsonl", "right_inverse-00001")),
    R(3, "left_inverse", "`left_inverse`", "`left_inverse`", "Y", "", ref("left_inverse.jsonl", "left_inverse-00002")),
    R(3, "nullspace", "`nullspace`", "`nullspace`", "Y", "", ref("nullspace.jsonl", "nullspace-00001")),
    R(3, "max_common_vector / max_common_layout", "`max_common_vector`, `max_common_layout`", "`max_common_vector` `max_common_layout`", "Y", "",
      ref("max_common_vector.jsonl", "max_common_vector-00000")),
    R(3, "max_alignment", "`max_alignment`", "`max_alignment`", "Y", "", ref(SURF, "surface-0199")),
    R(3, "logical_divide", "`logical_divide`", "`logical_divide`", "Y", "", ref("logical_divide.jsonl", "logical_divide-00001")),
    R(3, "zipped_divide / tiled_divide / flat_divide", "`zipped_divide` ...", "`zipped_divide` `tiled_divide` `flat_divide`", "Y", "",
      ref("tiled_divide.jsonl", "tiled_divide-00001")),
    R(3, "logical_product", "`logical_product`", "`logical_product`", "Y", "", ref("logical_product.jsonl", "logical_product-00000")),
    R(3, "zipped_product / tiled_product / flat_product", "`zipped_product` ...", "`zipped_product` `tiled_product` `flat_product`", "Y", "",
      ref("zipped_product.jsonl", "zipped_product-00000")),
    R(3, "blocked_product / raked_product", "`blocked_product`, `raked_product`", "`blocked_product` `raked_product`", "Y", "",
      ref("raked_product.jsonl", "raked_product-00000")),
    R(3, "tile_to_shape", "`tile_to_shape`", "`tile_to_shape`", "Y", "",
      ex("tile_to_shape", ["(2,2):(1,2)", "(4,6)"], "((2,2),(2,3)):((1,4),(2,8))", REFDOC + " 6 (tile_to_shape = blocked_product(block, product_each(shape_div(shape, block_shape))))")),
    R(3, "upcast / downcast / recast_layout", "`upcast`, `downcast`, `recast`", "`upcast` `downcast` `recast_layout` (alias of `recast`)", "Y", "",
      ref("downcast.jsonl", "downcast-00001")),
    R(3, "invertAndCompose (C++ P: by hand)", "`compose` + `right_inverse`", "`composition` of a `right_inverse`", "Y",
      "two ops, as in CuTe C++ (no single function there either)", None),
]

ROWS += [
    # ---------------------------------------------------------------- 4. Swizzle / composed
    R(4, "`Swizzle<B,M,S>` functor (apply, masks, inverse)", "`Swizzle`", "`swizzle`, `table`", "Y", "",
      ref("swizzle.jsonl", "swizzle-00172", op="table", args=["Sw<3,4,3>"])),
    R(4, "`make_swizzle<YMask,ZMask>`", "`Swizzle::from_masks`", "`make_swizzle`", "Y", "", ref(SURF, "surface-0329")),
    R(4, "Swizzle o Swizzle, swizzle upcast/downcast", "`Swizzle::compose`, `upcast`, `downcast`", "`composition SW SW`, `upcast N SW`, `downcast N SW`", "Y", "",
      ex("upcast", ["2", "Sw<3,4,3>"], "Sw<3,3,3>", "CuTe upcast<N>(Swizzle<B,M,S>) = Swizzle<B,M-log2(N),S> (swizzle.hpp)")),
    R(4, "MixedBits (run-time swizzle bits)", "(integers)", "`make_swizzle`", "P",
      "no type with static and dynamic bits: every integer is a run-time value (a swizzled pointer's swizzle is a static `Sw<B,M,S>`)", None),
    R(4, "ComposedLayout Sw o offset o L: evaluate, parse, print", "`ComposedLayout`", "`composition`, `table`, `crd2idx`", "Y", "",
      ref("swizzle_composition.jsonl", "swizzle_composition-00000", op="table", args=["Sw<2,2,4> o 0 o (7,5,2,8):(1,56,560,7)"])),
    R(4, "General ComposedLayout<A, Offset, B> (any outer functions)", "`LayoutChain`", "every op taking COMPOSED", "Y", "",
      ref(SURF, "surface-0115")),
    R(4, "composition with swizzles / composed layouts on either side", "`compose_swizzle`, `compose_composed`", "`composition`", "Y", "",
      ref(SURF, "surface-0127")),
    R(4, "Divides and products on composed layouts", "`ComposedLayout` divides/products", "the divides and every product, `tile_to_shape`", "Y", "",
      ref(SURF, "surface-0149")),
    R(4, "complement / coalesce / flatten / group / take / up-downcast / slice of composed", "`ComposedLayout` methods", "`complement` `coalesce` `flatten` `group` `take` `upcast` `downcast` `slice`", "Y", "",
      ref(SURF, "surface-0169")),
    R(4, "right/left inverse of composed layouts", "`LayoutChain` inverses", "`right_inverse` `left_inverse`", "P",
      "refused (`NotRepresentable`) where CuTe's construction breaks its law or would put a swizzle innermost (README)",
      ref(SURF, "surface-0155")),
    R(4, "nullspace / filter / append / domain_offset / recast_layout / max_common_* of composed", "`LayoutChain`, `ComposedLayout::filter` `append` `recast`", "`nullspace` `filter` `append` `recast` `domain_offset` `max_common_vector` `max_common_layout`", "P",
      "`recast` / `recast_layout` / `upcast` / `downcast` of a composed layout whose outer function is a layout (`32:2 o 3 o L`) are `NotImplemented` (swizzled layouts only)", ref(SURF, "surface-0536")),
    R(4, "get_swizzle_portion / get_nonswizzle_portion", "`ComposedLayout::swizzle_portion`, `nonswizzle_portion`", "`get_swizzle_portion` `get_nonswizzle_portion`", "Y", "",
      ex("get_swizzle_portion", ["(8,64):(64,1)"], "Sw<0,4,3>", "CuTe get_swizzle_portion(Layout) = Swizzle<0,4,3>{} (atom/copy_traits_sm90_tma.hpp)")),
    R(4, "Swizzled pointers (make_swizzle_ptr, recast_ptr, smem_ptr_flag)", "`Pointer::with_swizzle`, `Pointer::recast`, `LayoutTensor::from_pointer_flagged`, `LayoutTensor::as_position_independent_swizzle_tensor`",
      "`make_swizzle_ptr`, `make_smem_ptr TYPE ADDR SW`, `recast_ptr`, `make_tensor PTR 'Sw<..> o smem_ptr[Nb](unset) o L'`, `as_position_independent_swizzle_tensor`", "P",
      "an `smem_ptr_flag` layout is taken by `make_tensor PTR`, `upcast` and `downcast` only (no `slice` or other layout operation of it)", ref(TENS, "tensor-0245")),
    R(4, "Canonical smem layout atoms (Layout_K_SW128_Atom, ...)", "`smem_atom::SmemAtom`", "`smem_atom` `smem_atom_layout`", "Y",
      "CuTe's printed form (`smem_ptr[16b](unset)`) is output only: `smem_atom_layout` gives the same function on element offsets for the other ops; the sparse `_SpAtom`s are not there",
      ref(SURF, "surface-0385")),
    # ---------------------------------------------------------------- 5. ScaledBasis / identity
    R(5, "ScaledBasis `E<i...>` strides, `1@0`, `1@0@1`", "`ScaledBasis`, `Layout<ScaledBasis>`", "every op taking a basis layout", "Y", "",
      ref(SURF, "surface-0181")),
    R(5, "make_identity_layout", "`Layout::identity`", "`make_identity_layout`", "Y", "",
      ex("make_identity_layout", ["(4,3)"], "(4,3):(1@0,1@1)", "make_identity_layout((_4,_3)) prints (_4,_3):(_1@0,_1@1)")),
    R(5, "make_basis_like", "`Layout::identity(shape).stride_text()`", "`make_basis_like`", "Y", "",
      ref(SURF, "surface-0343")),
    R(5, "Evaluate a basis layout at a coordinate", "`Layout<ScaledBasis>::value`, `value_1d`", "`crd2idx COORD BASIS_LAYOUT`, `tensor_value`", "Y", "",
      ex("crd2idx", ["(1,2)", "(2,3):(2@1,1@0)"], "(2,2)", "CuTe (_2,_3):(_2@1,_1@0) at (1,2) = 1*(0,2) + 2*(1,0) = (2,2) (" + REFDOC + " 8.4)")),
    R(5, "composition with basis strides on either side", "`Layout<ScaledBasis>::compose`", "`composition`", "Y", "",
      ex("composition", ["(2,2):(1@0,1@1)", "(2,2):(2,1)"], "(2,2):(1@1,1@0)", REFDOC + " 8.4")),
    R(5, "ArithmeticTuple arithmetic, basis_get / basis_value", "`ScaledBasis::get`, `ScaledBasis::value`", "`basis_get` `basis_value`", "Y", "",
      ref(SURF, "surface-0346")),
    R(5, "Algebra on basis layouts (coalesce, divides, products)", "`Layout<ScaledBasis>`, `Layout::divide_basis`, `Layout::<ScaledBasis>::identity_divide`", "`coalesce` `logical_divide` `zipped_divide` ... `nullspace` `coshape` `tiler_to_layout`", "P",
      "products of a basis-strided layout and basis-strided tilers of the products, `tiled_divide`, `flat_divide` are `NotImplemented` (CuTe C++ does not compile them; `logical_divide`/`zipped_divide` take a basis-strided tiler, as NVlabs PyCuTe); a divide that splits the coordinate modes differently is `NotImplemented`",
      ref(SURF, "surface-0193")),
    R(5, "make_identity_tensor, tiled and partitioned", "`IdentityTensor`", "`make_identity_tensor`, `local_tile`, `local_partition`", "Y", "",
      ref(TENS, "tensor-0004")),
    R(5, "Predication (elem_less(coord, shape))", "`IdentityTensor::in_bounds`", "`elem_less`", "Y", "", ref(SURF, "surface-0058")),
    R(5, "make_coord_tensor / counting iterators", "`Tensor` over counting", "`make_tensor LAYOUT [BASE]`", "Y", "", ref(TENS, "tensor-0000")),
    R(5, "TMA basis/coordinate layouts (make_tma_atom gmem basis)", "`tma::gbasis`, `tma::box_shape`, `tma::gmem_shape_stride`", "`tma_gbasis`", "P",
      "a flat gmem layout only; the TMA element type is the tensor's (no `TmaInternalType` recast); no multicast split of the box; no tensor map (descriptor) encoding, no im2col",
      ref(SURF, "surface-0420")),
    # ---------------------------------------------------------------- 6. Tensor + partitioning
    R(6, "Tensor = layout over storage", "`Tensor<Vec<T>|&[T]|&mut [T]>`", "`make_tensor` (counting or pointer), `make_identity_tensor`, `make_zip_tensor`", "P",
      "CLI/batch tensors hold no data: counting, identity, pointer (value = the element's address) and zip tensors; a tensor over given data is library-only", ref(TENS, "tensor-0000")),
    R(6, "Indexing by 1-D / R-D / natural coordinate", "`get`, `get_1d`", "`tensor_value`", "Y", "", ref(TENS, "tensor-0062")),
    R(6, "Slicing with `_`", "`Tensor::slice`", "`slice COORD TENSOR`", "Y", "", ref(TENS, "tensor-0009")),
    R(6, "Tensor flatten / coalesce / group_modes / composition / divides", "`Tensor` and `LayoutTensor` methods",
      "`flatten`, `coalesce [PROFILE]`, `group`, `composition` and the divides of a tensor", "Y", "", ref(TENS, "tensor-0136")),
    R(6, "Tensor filter / take / domain_offset / recast / make_tensor_like / make_fragment_like",
      "`LayoutTensor::filter`, `filter_zeros`, `take_modes`, `domain_offset`, `tensor_like`, `fragment_like`, `recast`",
      "`filter`, `filter_zeros`, `take`, `domain_offset`, `make_tensor_like`, `make_fragment_like` of a counting, coordinate or pointer tensor (the pointer moves by the offset; the fresh tensor of `make_*_like` is written `counting_iter(0) o L`, CuTe printing the new array's address); `recast_tensor TYPE T`", "Y",
      "", ref(TENS, "tensor-0330")),
    R(6, "local_tile(tensor, tiler, coord)", "`Tensor::local_tile`", "`local_tile`", "Y", "", ref(TENS, "tensor-0067")),
    R(6, "local_partition(tensor, thr_layout, idx)", "`Tensor::local_partition`", "`local_partition`", "Y", "", ref(TENS, "tensor-0081")),
    R(6, "Projection Step (`Step<_1,X,_1>`)", "`local_tile`/`local_partition` projections", "`local_tile ... PROJ`", "Y", "", None),
    R(6, "inner_partition / outer_partition", "`LayoutTensor::local_tile`, `LayoutTensor::outer_partition`",
      "`inner_partition` (= `local_tile`), `outer_partition`", "Y", "", ref(TENS, "tensor-0192")),
    R(6, "Partition by a TV layout", "`Tensor::partition_tv`", "`partition_tv`", "Y", "", ref(TENS, "tensor-0091")),
    R(6, "copy / fill / clear", "`copy_from`, `fill`", "-", "P", "library-only (batch tensors hold no data)", None),
    R(6, "copy_if / axpby / gemm / cooperative_copy / reduce", "-", "`batch_reduce`, `logical_reduce`", "P",
      "only the reductions (of counting tensors); no copy_if, axpby, gemm, cooperative copy/gemm", ref(TENS, "tensor-0126")),
    R(6, "Zip tensors (make_zip_tensor)", "`LayoutTensor::zip`, `LayoutTensor::unzip`", "`make_zip_tensor`, `unzip_tensor`; views (`slice`, `local_tile`, ...) of `zip(T1, T2)`", "Y", "",
      ref(TENS, "tensor-0300")),
    R(6, "Vectorize / recast tensor", "`LayoutTensor::recast`", "`recast_tensor TYPE TENSOR`", "Y", "", ref(TENS, "tensor-0284")),
    R(6, "Pointers and memory spaces (gmem/smem/rmem/tmem)", "`Pointer`, `MemSpace`, `LayoutTensor::Pointer`",
      "`make_gmem_ptr`, `make_smem_ptr`, `make_rmem_ptr`, `make_tmem_ptr`, `make_tensor PTR LAYOUT`", "Y", "", ref(TENS, "tensor-0260")),
    # ---------------------------------------------------------------- 9. Printing
    R(9, "print / Display in CuTe's text form", "`Display`", "every result", "Y", "", ref("flatten.jsonl", "flatten-00001")),
    R(9, "print_layout (2-D ASCII table)", "`Layout::table()`", "`print_layout`, `show`", "Y", "",
      ex("print_layout", ["(2,(2,3)):(12,(1,2))"],
         "(2,(2,3)):(12,(1,2))\n       0    1    2    3    4    5 \n    +----+----+----+----+----+----+\n 0  |  0 |  1 |  2 |  3 |  4 |  5 |\n    +----+----+----+----+----+----+\n 1  | 12 | 13 | 14 | 15 | 16 | 17 |\n    +----+----+----+----+----+----+",
         REFDOC + " 7.2")),
    R(9, "print_layout of a swizzled ComposedLayout", "`Table::with_post_map`", "`print_layout`, `show`", "Y", "",
      ex("print_layout", ["Sw<1,0,1> o 0 o (2,2):(2,1)"],
         "Sw<1,0,1> o 0 o (2,2):(2,1)\n      0   1 \n    +---+---+\n 0  | 0 | 1 |\n    +---+---+\n 1  | 3 | 2 |\n    +---+---+",
         REFDOC + " 7.2")),
    R(9, "print_tensor (element values)", "`Tensor` display", "`print_tensor`", "Y", "", ref(TENS, "tensor-0114")),
    R(9, "print_latex(layout)", "`render::latex`", "`latex LAYOUT`", "Y", "", latex_ref("latex-0000")),
    R(9, "print_latex of a swizzled ComposedLayout", "`render::latex` + `Style::post_map`", "`latex 'Sw<B,M,S> o OFF o L'`", "Y", "", latex_ref("latex-0010")),
    R(9, "print_latex_tv(tv, tile)", "`render::latex_tv`", "`latex --tv TV --tile SHAPE`", "Y",
      "the `% Layout TV:` comment prints our (thread, value) -> index layout, CuTe's the (thread, value) -> (m,n) layout it was given", latex_ref("latex-0005")),
    R(9, "print_latex(MMA_Atom / TiledMMA)", "`render::latex_mma`", "`latex mma ATOM [--layout L] [--permutation P]`", "Y",
      "the `% Layout{C,A,B}:` comments print our TV layouts, CuTe's its coordinate tensors", latex_ref("latex-0009")),
    R(9, "print_latex(TiledCopy)", "`render::latex_copy`", "`latex copy ATOM TYPE --thr L --val L` (or `--mma ATOM --operand A|B|C|C_atom`)", "Y",
      "the two `% Layout {S,D} TV:` comments print our TV layouts", tex_ref("latex_copy/lat1.tex", "latex", ["copy", "SM75_U32x4_LDSM_N", "half_t", "--thr", "(32,1):(1,0)", "--val", "(1,8):(0,1)"], 2)),
    R(9, "print_svg(MMA_Atom / TiledMMA)", "`render::svg_mma`", "`svg mma ATOM [--layout L] [--permutation P]`", "Y",
      "our own SVG drawing (cells coloured by thread mod 32); the cells and their T/V match CuTe's print_svg", latex_ref("latex-0012")),
    R(9, "SVG of a TV layout (C++ P)", "`render::svg_tv`", "`svg --tv TV --tile SHAPE`", "Y",
      "checked cell for cell against CuTe's print_latex_tv (CuTe C++ has no SVG of a TV layout)",
      latex_ref("latex-0005", op="svg", compare="tv_cells")),
    R(9, "Custom colour functions / palettes", "`Style::palette`, `render::parse_palette`", "`latex`/`svg` `--palette C,C,...`", "Y",
      "a palette of N colours is the colour function k -> palette[k mod N] (k: the value, or the thread); no arbitrary functions", latex_ref("latex-0004")),
]

for _row in ROWS:
    if _row["cute"].startswith("Projection Step"):
        _row["ex"] = ref(TENS, "tensor-0076")


def load_picture(e):
    if "tex" in e:
        with open(os.path.join(ROOT, "crates", "cute-layout", "tests", "conformance", e["tex"])) as f:
            text = f.read()
        return e["op"], e["args"], text, f"crates/cute-layout/tests/conformance/{e['tex']} (CuTe C++)", ("text", e["skip"])
    with open(LATEX) as f:
        case = next((c for c in map(json.loads, f) if c["id"] == e["latex"]), None)
    if case is None:
        raise SystemExit(f"coverage-check: no case {e['latex']} in {LATEX}")
    compare = e["compare"] or ("text" if case["op"] == "latex" else "mma_cells")
    return (e["op"] or case["op"], case["args"], case["cute"],
            f"cute-ops/tests/data/latex#{case['id']} (CuTe C++)", (compare, case["skip"]))


def tv_cells_of_latex(text):
    """(m, n, t, v) of the nodes of CuTe's print_latex_tv."""
    return sorted((int(m), int(n), int(t), int(v)) for m, n, t, v in
                  re.findall(r"at \((\d+),(\d+)\) \{\\shortstack\{T(\d+) \\\\ V(\d+)\}\}", text))


def tv_cells_of_svg(svg, args):
    """(m, n, t, v) of the cells of our svg --tv picture (labels row-major on the tile)."""
    cols = int(args[args.index("--tile") + 1].strip("()").split(",")[1])
    labels = svg.split('<g class="labels">', 1)[1].split("</g>", 1)[0]
    cells = []
    for k, text in enumerate(re.findall(r"<text [^>]*>([^<]*)</text>", labels)):
        m = re.match(r"T(\d+) V(\d+)", text)
        if m:
            cells.append((k // cols, k % cols, int(m[1]), int(m[2])))
    return sorted(cells)


def mma_cells_of_cute_svg(svg):
    """(operand, row, col, t, v) of CuTe's print_svg(TiledMMA): 20-unit cells, C(m,n) at grid
    (n+K+2, m+K+2), A(m,k) at (k+1, m+K+2), B(n,k) at (n+K+2, k+1), each with texts T and V."""
    k = int(re.search(r"Tile: \(([^)]*)\)", svg)[1].split(",")[2].lstrip("_"))
    cells = []
    for x, y, t, v in re.findall(r'<rect x="(\d+)" y="(\d+)"[^>]*>\s*<text[^>]*>T(\d+)</text>\s*<text[^>]*>V(\d+)</text>', svg):
        gx, gy = int(x) // 20, int(y) // 20
        if gx > k + 1 and gy > k + 1:
            cells.append(("C", gy - k - 2, gx - k - 2, int(t), int(v)))
        elif gy > k + 1:
            cells.append(("A", gy - k - 2, gx - 1, int(t), int(v)))
        else:
            cells.append(("B", gx - k - 2, gy - 1, int(t), int(v)))
    return sorted(cells)


def mma_cells_of_svg(svg):
    """The same of our svg mma picture (its cells' data-op, data-row, data-col, data-t, data-v)."""
    return sorted((op, int(r), int(c), int(t), int(v)) for op, r, c, t, v in re.findall(
        r'data-op="(\w+)" data-row="(\d+)" data-col="(\d+)" data-t="(\d+)" data-v="(\d+)"', svg))


def same_picture(ours, case):
    """Whether our picture is CuTe's: the same text after the comment lines that print CuTe's
    own objects (`text`), or the same T/V in the same cells (`tv_cells`, `mma_cells`)."""
    compare, skip = case[4]
    if compare == "text":
        cut = lambda t: norm("\n".join(t.split("\n")[skip:]))
        return cut(ours + "\n") == cut(case[2])
    if compare == "tv_cells":
        theirs = tv_cells_of_latex(case[2])
        return bool(theirs) and tv_cells_of_svg(ours, case[1]) == theirs
    theirs = mma_cells_of_cute_svg(case[2])
    return bool(theirs) and mma_cells_of_svg(ours) == theirs


def load_ref(e):
    with open(os.path.join(CONF, e["ref"])) as f:
        for line in f:
            case = json.loads(line)
            if case.get("id") == e["id"]:
                break
        else:
            raise SystemExit(f"coverage-check: no case {e['id']} in {e['ref']}")
    if e["op"] == "table":
        expect = ",".join(str(v) for v in case["cute_static_table"])
        return "table", e["args"] + [str(len(case["cute_static_table"]))], expect, f"{e['ref']}#{e['id']} (CuTe C++ values)"
    op = e["op"] or case["op"]
    args = e["args"] or case["args"]
    if op == "swizzle_composition":
        op, args = "composition", ["Sw<%s,%s,%s>" % tuple(args[0]), args[1]]
    if op == "composition_tiler":
        op = "composition"
    if op == "coalesce_by_mode":
        op = "coalesce"
    expect = case.get("cute", case.get("cute_static_norm"))
    return op, args, expect, f"{e['ref']}#{e['id']} (CuTe C++)"


def norm(text):
    """CuTe's static integers print as _N; spaces around `o` and at line ends vary."""
    text = re.sub(r"_(-?\d)", r"\1", text)
    lines = [ln.rstrip() for ln in text.strip("\n").split("\n")]
    if len(lines) == 1:
        return re.sub(r"\s+", "", lines[0])
    return "\n".join(lines)


def main():
    argv = sys.argv[1:]
    markdown = "--markdown" in argv
    argv = [a for a in argv if a != "--markdown"]
    cute = argv[0] if argv else os.path.join(ROOT, "target", "debug", "cute")
    cases = []
    for row in ROWS:
        e = row["ex"]
        if e is None:
            cases.append(None)
        elif "ref" in e:
            cases.append(load_ref(e))
        elif "latex" in e or "tex" in e:
            cases.append(load_picture(e))
        else:
            cases.append((e["op"], e["args"], e["expect"], e["src"]))
    lines = [json.dumps({"op": c[0], "args": c[1]}) for c in cases if c]
    out = subprocess.run([cute, "batch"], input="\n".join(lines) + "\n", capture_output=True, text=True, check=False)
    answers = iter(out.stdout.splitlines())
    bad = 0
    for row, case in zip(ROWS, cases):
        row["check"] = "-"
        if case is None:
            continue
        answer = json.loads(next(answers))
        got = answer.get("ok")
        if len(case) > 4:
            ok = got is not None and same_picture(got, case)
        else:
            ok = got is not None and norm(got) == norm(case[2])
        if row["status"] == "P" and not ok and "error" in answer:
            # A P row may show what is missing: the refusal is the expected answer there.
            row["check"] = "refused (the missing part)"
            continue
        row["check"] = "agrees" if ok else "DISAGREES"
        row["request"] = f"`{case[0]} " + " ".join(f"'{a}'" if isinstance(a, str) else str(a) for a in case[1]) + "`"
        row["source"] = case[3]
        if not ok:
            bad += 1
            print(f"DISAGREES: group {row['group']} {row['cute']}: {case[0]} {case[1]}\n  CuTe: {case[2][:2000]!r}\n  ours: {str(answer)[:2000]}",
                  file=sys.stderr)
    if markdown:
        print(HEADER + "## Counts\n\n| Group | Y | P | N |\n|---|---|---|---|")
        for g, title in GROUPS.items():
            rows = [r for r in ROWS if r["group"] == g]
            print(f"| {g}. {title} | " + " | ".join(str(sum(r["status"] == s for r in rows)) for s in "YPN") + " |")
        print(f"\nExamples run: {sum(1 for c in cases if c)} of {len(ROWS)} rows; disagreeing with CuTe: {bad}.\n\n## The rows")
        for g, title in GROUPS.items():
            rows = [r for r in ROWS if r["group"] == g]
            counts = {s: sum(r["status"] == s for r in rows) for s in "YPN"}
            print(f"\n### {g}. {title}\n\nY {counts['Y']}, P {counts['P']}, N {counts['N']} (of {len(rows)}).\n")
            print("| CuTe name | Our library | Our op | Status | Missing / note | Example (CuTe's answer from) | Check |")
            print("|---|---|---|---|---|---|---|")
            for r in rows:
                example = f"{r['request']} ({r['source']})" if "request" in r else "-"
                cells = [r["cute"], r["lib"], r["op"], f"**{r['status']}**", r["missing"], example, r["check"]]
                print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    else:
        checked = sum(1 for c in cases if c)
        print(f"coverage-check: {len(ROWS)} rows, {checked} examples run through `cute batch`, {bad} disagree with CuTe")
        for g, title in GROUPS.items():
            rows = [r for r in ROWS if r["group"] == g]
            print(f"  {g}. {title}: " + ", ".join(f"{s} {sum(r['status'] == s for r in rows)}" for s in "YPN"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

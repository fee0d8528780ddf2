#!/usr/bin/env python3
"""Generate CuTe C++ conformance vectors for the tensor operations of `cute` (issue #29):
counting tensors (`make_tensor(counting_iterator<int>(base), layout)`, swizzled layouts
included), identity tensors (`make_identity_tensor`), slicing `tensor(c)` with `_` (CuTe's
swizzle_layout.cpp slices every row and column of its three swizzled tensors), `local_tile`
(with a `Step` projection), `local_partition` (with and without one), the thread slice of a TV
layout `composition(tensor, tv)(t, _)`, the divides of a tensor, `print_tensor`, and the tensor
algorithms of CuTe's tensor_algs.cpp (`batch_reduce`, `logical_reduce`) on counting tensors,
the tensor overloads of tensor_impl.hpp (`flatten`, `coalesce`, `group_modes`, `take`, `filter`,
`filter_zeros`, `composition`, `domain_offset`, `make_tensor_like` / `make_fragment_like`, whose
fresh register tensor is written `counting_iter(0) o LAYOUT`, and `outer_partition`), and a
thread's partition of a tensor by a tiled MMA (`partition_A/B/C`) or a tiled copy
(`partition_S/D`).
algorithms of CuTe's tensor_algs.cpp (`batch_reduce`, `logical_reduce`) on counting tensors;
typed pointers built from integers (`make_gmem_ptr<half_t>((void*)0x1000)`, smem, rmem, tmem,
sub-byte and swizzled pointers, `recast_ptr`), tensors over them (`make_tensor(ptr, layout)`,
`smem_ptr_flag` layouts), their views (slices, tiles, partitions, divides move the pointer), the
element addresses `&tensor(c)` (nothing is dereferenced), `recast<T>(tensor)`,
`as_position_independent_swizzle_tensor` and the restructuring overloads of pointer tensors
(`make_tensor_like` / `make_fragment_like` print only the fresh tensor's layout); zip tensors (`make_zip_tensor` of counting and pointer
tensors: their values `z(c)`, and their views printed as `zip(` the `unzip_tensor` parts `)`, as
CuTe prints no zip tensor; `outer_partition` likewise).

Every case is compiled into one host-only C++ program against CuTe's headers (static `Int<N>`
values), run, and its printed answer kept: `_` before a digit dropped (CuTe's static marker);
single-line answers also lose their spaces; `print_tensor` keeps its exact layout (trailing
newline dropped). The output, `crates/cute-cli/tests/conformance/surface/tensors_cpp.jsonl`,
holds `{"id", "op", "args", "cute", "exact"}` lines; `crates/cute-cli/tests/tensors.rs` runs
them through `cute batch`.

    python3 scripts/gen-conformance-tensors.py [--out PATH]

Include directories: as scripts/gen-conformance-surface.py ($CUTE_INCLUDE, else the venv of
scripts/bench-cute-cpp.py with the nvidia-cutlass and CUDA header wheels).
"""

import argparse
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _surface():
    spec = importlib.util.spec_from_file_location("surface", ROOT / "scripts" / "gen-conformance-surface.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


S = _surface()
expr, split_top = S.expr, S.split_top

SW = [
    "Sw<3,0,3> o 0 o (8,8):(8,1)",
    "Sw<3,0,-3> o 0 o (8,8):(8,1)",
    "Sw<2,1,3> o 0 o ((2,2,2),(2,2,2)):((32,2,8),(4,1,16))",
]


def counting(layout, base=0):
    return f"counting_iter({base}) o {layout}"


def ident(shape):
    """Our text of make_identity_tensor(shape) for a flat shape of rank 2 or an integer."""
    if shape.startswith("("):
        n = len(split_top(shape[1:-1], ","))
        return "ArithTuple(" + ",".join("0" * n) + ") o " + shape + ":(" + ",".join(f"1@{k}" for k in range(n)) + ")"
    return f"ArithTuple0 o {shape}:1"


IDN = "ArithTuple((0,0),0) o ((2,2),3):((1@0@0,1@1@0),1@1)"
MMA = "SM80_16x8x8_F16F16F16F16_TN"
CP1 = ["UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(1,8):(0,1)"]
CH = ["32:2 o 3 o (2,4):(1,2)", "(4,8):(8,1) o 0 o (4,8):(1,4)", "64:1 o 2 o ((2,2),4):((1,8),2)"]
CP2 = ["UniversalCopy<uint32_t>", "half_t", "(4,8):(1,4)", "(2,1):(1,0)"]
CTYPE = {1: "uint1_t", 2: "uint2_t", 4: "int4_t", 8: "uint8_t", 16: "half_t", 32: "float", 64: "double"}


def ptr(text):
    """CuTe C++ for a pointer in our text form (sub-byte pointers at bit 0)."""
    t = text.strip()
    m = re.fullmatch(r"tmem_\[(\d+)b\]\(0x([0-9a-f]{4})\.([0-9a-f]{4})\)", t)
    if m:
        return f"make_tmem_ptr<{CTYPE[int(m[1])]}>(0x{m[2]}{m[3]})"
    m = re.fullmatch(r"(?:(Sw<[^>]*>)_)?(gmem_|smem_)?(?:sub)?ptr\[(\d+)b\]\((0x[0-9a-f]+)(?:\.0)?\)", t)
    if not m:
        raise ValueError(t)
    raw = f"recast_ptr<{CTYPE[int(m[3])]}>(reinterpret_cast<void*>({m[4]}))"
    e = {"gmem_": f"make_gmem_ptr({raw})", "smem_": f"make_smem_ptr({raw})", None: raw}[m[2]]
    return f"make_swizzle_ptr({e},{expr(m[1])})" if m[1] else e


def flagged(layout):
    m = re.fullmatch(r"(Sw<[^>]*>) o smem_ptr\[(\d+)b\]\(unset\) o (.*)", layout)
    if m:
        return f"composition({expr(m[1])},smem_ptr_flag_bits<{m[2]}>{{}},{expr(m[3])})"
    return expr(layout)


def tensor(text):
    """CuTe C++ for a tensor in our text form."""
    t = text.strip()
    if t.startswith("zip("):
        return "make_zip_tensor(" + ",".join(tensor(x) for x in split_top(t[4:-1], ",")) + ")"
    parts = split_top(t, " o ")
    if not t.startswith(("counting_iter", "ArithTuple")):
        return f"make_tensor({ptr(parts[0])},{expr(' o '.join(parts[1:]))})"
    m = re.fullmatch(r"counting_iter\((-?\d+)\) o (.*)", t)
    if m:
        return f"make_tensor(counting_iterator<int>{{{m[1]}}},{expr(m[2])})"
    m = re.fullmatch(r"ArithTuple(\(.*?\)|0) o (.*?):.*", t)
    if m:
        return f"make_identity_tensor({expr(m[2])})"
    raise ValueError(t)


def is_tensor(text):
    """Whether `text` is a tensor's (a counting, identity, zip or pointer tensor), not a layout's."""
    t = text.strip()
    return t.startswith(("counting_iter", "ArithTuple", "zip(")) or bool(
        re.match(r"(Sw<[^>]*>_)?((gmem_|smem_|rmem_)?(sub)?ptr|tmem_)\[", t))


def step(proj):
    inner = proj[1:-1].split(",")
    return "Step<" + ",".join("X" if x.strip() in ("_", "X") else f"_{x.strip()}" for x in inner) + ">{}"


Z = [
    "zip(counting_iter(0) o (4,4):(4,1), counting_iter(100) o (4,4):(1,4))",
    "zip(gmem_ptr[16b](0x1000) o (4,4):(4,1), counting_iter(7) o (4,4):(1,4))",
    "zip(counting_iter(0) o Sw<2,0,2> o 0 o (4,4):(4,1), smem_ptr[32b](0x400) o (4,4):(1,4), counting_iter(3) o (4,4):(4,1))",
]

# (op, args)
CASES = [
    *[("make_tensor", [l, b]) for l, b in [("(4,6):(6,1)", "0"), ("(4,6):(6,1)", "5"), (SW[0], "0"), ("(2,(3,2)):(6,(1,3))", "7")]],
    *[("make_identity_tensor", [s]) for s in ["(4,3)", "((2,2),3)", "3", "(2,3,4)"]],
    # CuTe's swizzle_layout.cpp: every row and column of its three swizzled tensors.
    *[("slice", [f"({i},_)", counting(sw)]) for sw in SW for i in range(8)],
    *[("slice", [f"(_,{j})", counting(sw)]) for sw in SW for j in range(8)],
    *[("slice", [c, t]) for c, t in [
        ("(1,_)", counting("(4,6):(6,1)", 5)), ("(_,(1,_))", counting("(4,(2,3)):(1,(4,8))")),
        ("(_,2)", ident("(4,6)")), ("(1,_)", ident("(4,6)")), ("(_,_)", counting(SW[0])),
        ("(_,1,_)", counting("(2,3,4):(1,2,6)"))]],
    *[("tensor_value", [t, c]) for t, c in [
        (counting("(4,6):(6,1)", 5), "(1,2)"), (counting(SW[0]), "(3,5)"), (counting(SW[2]), "37"),
        (ident("(4,6)"), "(3,5)"), (ident("(4,6)"), "9")]],
    *[("local_tile", [t, tl, c]) for t, tl, c in [
        (counting("(4,6):(6,1)"), "(2,3)", "(1,1)"), (counting("(4,6):(6,1)"), "(2,3)", "(0,1)"),
        (counting("(8,8):(1,8)"), "(4,2)", "(1,3)"), (counting("(8,8):(1,8)"), "(4,2)", "1"),
        (counting(SW[0]), "(4,4)", "(1,0)"), (counting(SW[0]), "(2,8)", "(3,0)"),
        (ident("(4,6)"), "(2,3)", "(1,0)"), (ident("(8,8)"), "(4,2)", "(1,3)"),
        (counting("(16,8,4):(1,16,128)"), "(4,2,2)", "(3,1,1)")]],
    *[("local_tile", [t, tl, c, p]) for t, tl, c, p in [
        (counting("(8,4):(1,8)"), "(2,5,2)", "(3,1,1)", "(1,X,1)"),
        (counting("(8,4):(4,1)"), "(4,3,2)", "(1,0,1)", "(1,X,1)"),
        (counting("(6,4):(1,6)"), "(5,3,2)", "(0,1,1)", "(X,1,1)"),
        (counting("(8,6):(1,8)"), "(4,3,7)", "(1,1,0)", "(1,1,X)"),
        (ident("(8,4)"), "(2,5,2)", "(3,0,1)", "(1,X,1)")]],
    *[("local_partition", [t, thr, i]) for t, thr, i in [
        (counting("(4,6):(6,1)"), "(2,2):(2,1)", "1"), (counting("(4,6):(6,1)"), "(2,3):(1,2)", "5"),
        (counting("(8,8):(8,1)"), "(4,2):(1,4)", "6"), (counting(SW[0]), "(2,4):(4,1)", "3"),
        (counting(SW[0]), "(8,1):(1,0)", "5"), (ident("(4,6)"), "(2,2):(2,1)", "1"),
        (ident("(8,8)"), "(4,2):(2,1)", "7")]],
    *[("local_partition", [t, thr, i, p]) for t, thr, i, p in [
        (counting("(8,4):(1,8)"), "(2,3,2):(2,0,1)", "3", "(1,X,1)"),
        (counting("(8,4):(1,8)"), "(4,2,3):(1,4,0)", "5", "(1,1,X)"),
        (ident("(8,4)"), "(2,3,2):(2,0,1)", "2", "(1,X,1)")]],
    *[("partition_tv", [t, tv, tid]) for t, tv, tid in [
        (counting("(4,4):(4,1)"), "(4,4):(4,1)", "2"), (counting("(4,8):(8,1)"), "(8,4):(4,1)", "5"),
        (counting("(4,8):(8,1)"), "((2,4),4):((16,1),4)", "3"), (counting("(8,8):(1,8)"), "((4,8),2):((16,1),8)", "17"),
        (ident("(4,8)"), "(8,4):(4,1)", "6"), (ident("(4,8)"), "((2,4),4):((16,1),4)", "5"),
        (counting(SW[0]), "(16,4):(4,1)", "9")]],
    *[(op, [t, tl]) for op in ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"] for t, tl in [
        (counting("(6,4):(4,1)"), "2:1"), (counting("(8,8):(8,1)", 3), "(2,4)"), (ident("(4,6)"), "(2,3)"),
        (counting(SW[0]), "(4,2)")]],
    *[("print_tensor", [t]) for t in [
        counting("(4,6):(6,1)"), counting("(2,3,2):(1,2,6)"), counting("3:1"), counting("(3):(1)", 4),
        counting("(2,2,2,2):(1,2,4,8)"), counting("(2,(2,2)):(4,(1,2))", 100), counting(SW[0]),
        ident("(4,3)"), ident("3"), counting("(2,2,2,2,2):(1,2,4,8,16)"), counting("(16,16):(16,1)", 1000)]],
    ("print_tensor", ["ArithTuple((0,0),0) o ((2,2),3):((1@0@0,1@1@0),1@1)"]),
    ("batch_reduce", [counting("((2,2),(2,2)):((2,8),(1,4))")]),
    ("batch_reduce", [counting("(4,3):(3,1)", 2)]),
    *[("logical_reduce", [t, p]) for t, p in [
        (counting("(32,(12,6)):(1,(64,1))"), "(0,_)"), (counting("(32,(12,6)):(1,(64,1))"), "(_,0)"),
        (counting("32:1"), "1"), (counting("32:1"), "_"), (counting("(32,(12,6)):(1,(192,32))"), "(1,1)"),
        (counting("(8,(3,2)):(1,(24,8))"), "(_,_)"), (counting("(2,2,2,2):(1,2,4,8)"), "(_,1,_,1)"),
        (counting("(2,(2,2),2):(1,(2,4),8)"), "(_,(1,_),1)")]],
    # The restructuring overloads of a tensor (tensor_impl.hpp): make_tensor(data, f(layout)).
    *[("flatten", [t]) for t in [
        counting("((2,2),3):((1,2),4)", 3), counting(SW[2]), IDN]],
    *[("coalesce", [t]) for t in [
        counting("((2,2),3):((1,2),4)"), counting("(2,(1,6)):(1,(6,2))", 5), counting(SW[2]), ident("(4,6)"),
        counting("(4,(2,3)):(6,(3,1))")]],
    *[("coalesce", [t, p]) for t, p in [
        (counting("((2,2),3):((1,2),4)"), "(1,1)"), (counting("(2,(1,6)):(1,(6,2))"), "(1,1)"),
        (counting("((2,2),(3,2)):((1,2),(4,12))"), "(1,_)"), (IDN, "(1,1)")]],
    *[("group", [t, b, e]) for t, b, e in [
        (counting("(2,3,4):(1,2,6)"), "0", "2"), (counting("(2,3,4):(1,2,6)", 1), "1", "3"),
        (counting(SW[0]), "0", "2"), (ident("(2,3,4)"), "1", "3")]],
    *[("take", [t, b, e]) for t, b, e in [
        (counting("(2,3,4):(1,2,6)"), "0", "2"), (counting("(2,3,4):(1,2,6)", 5), "1", "3"),
        (counting(SW[2]), "1", "2"), (ident("(2,3,4)"), "1", "3")]],
    *[("filter", [t]) for t in [
        counting("(4,(2,3)):(0,(1,2))", 2), counting("(4,2):(0,1)"), counting("(2,4,3):(1,0,2)"), ident("(4,6)"),
        ident("(1,1)")]],
    *[("filter_zeros", [t]) for t in [
        counting("(4,(2,3)):(0,(1,0))"), counting("(4,2):(0,1)", 3), ident("(4,6)")]],
    *[("composition", [t, tl]) for t, tl in [
        (counting("(4,6):(6,1)"), "(2,3)"), (counting("(4,6):(6,1)", 2), "(2,3):(2,8)"),
        (counting("(4,6):(6,1)"), "(3:2,2:3)"), (counting("(8,8):(1,8)"), "16:4"), (counting(SW[0]), "(4,8):(8,1)"),
        (counting(SW[0]), "(2,4)"), (ident("(4,6)"), "(2,3)"), (ident("(4,6)"), "6:2"),
        (ident("(4,6)"), "(2,3):(2,8)"), (ident("(4,6)"), "(2,2):(1,4)"), (ident("(4,6)"), "(2,3):(0,4)"), (ident("(4,6)"), "(2,3):(0,1)"), (ident("(4,6)"), "(2:2,3:2)")]],
    *[("domain_offset", [c, t]) for c, t in [
        ("(1,2)", counting("(4,6):(6,1)", 1)), ("(3,1)", counting("(4,6):(1,4)")), ("(1,2)", counting(SW[0])),
        ("(1,2)", ident("(4,6)")), ("5", counting("(4,6):(6,1)"))]],
    *[("make_tensor_like", [t]) for t in [
        counting("(4,8):(40,2)", 7), counting("(2,3,4):(12,1,3)"), counting("((2,2),3):((1,6),2)"),
        counting("(4,2):(0,1)"), "(4,8):(8,1)"]],
    *[("make_fragment_like", [t]) for t in [
        counting("(4,8):(8,1)", 7), counting("(2,3,4):(12,1,3)"), counting(SW[0]), counting("((2,2),3):((1,6),2)"),
        counting("(4,2):(0,1)")]],
    *[("outer_partition", [t, tl, c]) for t, tl, c in [
        (counting("(4,6):(6,1)"), "(2,3)", "(1,2)"), (counting("(4,6):(6,1)"), "(2,3)", "4"),
        (counting("(8,8):(1,8)"), "(4,2)", "(3,1)"), (counting(SW[0]), "(2,4)", "(1,3)"),
        (ident("(4,6)"), "(2,3)", "(1,2)"), (ident("(8,8)"), "(4,2)", "5"),
        (counting("(16,8,4):(1,16,128)"), "(4,2)", "(3,1)")]],
    # A thread's partition of a tensor by a tiled MMA / tiled copy (thr.partition_A/B/C/S/D).
    *[("tiled_mma", [MMA, lay, "_", f, t, thr]) for lay, f, t, thr in [
        ("(2,2)", "partition_c", counting("(32,16):(1,32)"), "5"), ("(2,2)", "partition_a", counting("(32,8):(8,1)", 4), "37"),
        ("(2,2)", "partition_b", counting("(16,8):(1,16)"), "70"), ("(2,2)", "partition_c", ident("(32,16)"), "5"),
        ("(2,2)", "partition_a", ident("(32,8)"), "37"), ("_", "partition_c", counting("(16,8,2):(1,16,128)"), "9")]],
    *[("make_tiled_copy", [*cp, f, t, thr]) for cp, f, t, thr in [
        (CP1, "partition_s", counting("(128,64):(64,1)"), "5"), (CP1, "partition_d", counting("(32,64):(1,32)", 7), "37"),
        (CP1, "partition_s", ident("(32,64)"), "9"), (CP2, "partition_s", counting("(8,8):(8,1)"), "6"),
        (CP2, "partition_d", ident("(8,16)"), "13")]],
    # Counting tensors over a composed layout whose outer function is a layout.
    *[("print_tensor", [counting(c)]) for c in CH],
    *[("tensor_value", [counting(CH[1], 3), "(2,5)"])],
    *[("slice", [c, counting(t)]) for t in CH[:2] for c in ["(1,_)", "(_,2)"]],
    ("slice", ["((1,_),_)", counting(CH[2])]),
    *[("local_tile", [counting(CH[1]), "(2,4)", "(1,1)"]), ("local_partition", [counting(CH[1]), "(2,2):(2,1)", "3"]),
      ("partition_tv", [counting(CH[1]), "(8,4):(4,1)", "5"])],
    *[(op, [counting(CH[1]), "(2,4)"]) for op in ["logical_divide", "zipped_divide"]],
    *[("flatten", [counting(CH[2])]), ("coalesce", [counting(CH[2], 1)]), ("coalesce", [counting(CH[2]), "(1,1)"]),
      ("group", [counting(CH[1]), "0", "2"]), ("take", [counting(CH[2]), "1", "2"]),
      ("composition", [counting(CH[1]), "(2,4)"]), ("composition", [counting(CH[0]), "4:2"]),
      ("domain_offset", ["(1,1)", counting(CH[0])]), ("domain_offset", ["(3,2)", counting(CH[1], 5)]),
      ("outer_partition", [counting(CH[1]), "(2,4)", "(1,3)"])],
    # Typed pointers and the tensors over them.
    *[(op, [ty, a]) for op, ty, a in [
        ("make_gmem_ptr", "half_t", "0x1000"), ("make_gmem_ptr", "int4_t", "0x1000"),
        ("make_gmem_ptr", "double", "0"), ("make_smem_ptr", "float", "0x400"),
        ("make_rmem_ptr", "uint8_t", "0x10"), ("make_rmem_ptr", "half_t", "0x2000"),
        ("make_tmem_ptr", "float", "0x10002"), ("make_tmem_ptr", "half_t", "0x200040")]],
    ("make_smem_ptr", ["half_t", "0x1000", "Sw<3,4,3>"]),
    ("make_smem_ptr", ["uint8_t", "0x800", "Sw<2,4,3>"]),
    ("make_smem_ptr", ["half_t", "0x1000", "Sw<0,4,3>"]),
    ("make_swizzle_ptr", ["gmem_ptr[32b](0x2000)", "Sw<3,2,3>"]),
    *[("recast_ptr", [ty, p]) for ty, p in [
        ("float", "gmem_ptr[16b](0x1000)"), ("uint8_t", "smem_ptr[32b](0x404)"),
        ("int4_t", "gmem_ptr[16b](0x1000)"), ("half_t", "Sw<3,4,3>_smem_ptr[16b](0x1000)"),
        ("float", "Sw<3,4,3>_smem_ptr[16b](0x1000)"), ("half_t", "tmem_[32b](0x0001.0002)")]],
    *[("make_tensor", [p, l]) for p, l in [
        ("gmem_ptr[16b](0x1000)", "(4,4):(4,1)"), ("smem_ptr[32b](0x400)", "(8,8):(8,1)"),
        ("ptr[64b](0x20)", "8:1"), ("gmem_subptr[4b](0x1000.0)", "(4,4):(1,4)"),
        ("Sw<3,4,3>_smem_ptr[16b](0x1000)", "(8,64):(64,1)"),
        ("smem_ptr[16b](0x1000)", "Sw<3,3,3> o 0 o (8,64):(64,1)"),
        ("smem_ptr[16b](0x1000)", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"),
        ("tmem_[32b](0x0000.0000)", "(128,32):(65536,1)")]],
    *[("slice", [c, t]) for c, t in [
        ("(_,1)", "gmem_ptr[16b](0x1000) o (4,4):(4,1)"), ("(2,_)", "gmem_ptr[16b](0x1000) o (4,4):(4,1)"),
        ("(1,_)", "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)"),
        ("(_,5)", "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)"),
        ("(_,3)", "gmem_subptr[4b](0x1000.0) o (4,4):(1,4)"), ("(1,_)", "gmem_subptr[4b](0x1000.0) o (4,4):(1,4)"),
        ("(3,_)", "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)"),
        ("(_,2)", "tmem_[32b](0x0000.0000) o (128,32):(65536,1)"),
        ("(_,3)", "tmem_[16b](0x0000.0000) o (128,32):(65536,1)"),
        ("(_,1)", "ptr[8b](0x100) o (4,4):(-4,1)")]],
    *[("tensor_value", [t, c]) for t, c in [
        ("gmem_ptr[16b](0x1000) o (4,4):(4,1)", "(1,2)"), ("gmem_ptr[16b](0x1000) o (4,4):(4,1)", "13"),
        ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", "(1,0)"),
        ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", "(7,13)"),
        ("smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)", "(7,13)"),
        ("ptr[64b](0x20) o (2,3):(3,1)", "(1,1)")]],
    *[("local_tile", [t, tl, c]) for t, tl, c in [
        ("gmem_ptr[16b](0x1000) o (8,8):(8,1)", "(4,2)", "(1,3)"),
        ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", "(8,16)", "(0,2)"),
        ("gmem_subptr[4b](0x1000.0) o (8,8):(1,8)", "(2,4)", "(3,1)")]],
    *[("local_partition", [t, thr, i]) for t, thr, i in [
        ("gmem_ptr[32b](0x1000) o (8,8):(8,1)", "(4,2):(1,4)", "6"),
        ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", "(2,4):(4,1)", "5")]],
    ("partition_tv", ["gmem_ptr[16b](0x1000) o (4,8):(8,1)", "(8,4):(4,1)", "5"]),
    *[(op, ["gmem_ptr[16b](0x1000) o (8,8):(8,1)", "(2,4)"]) for op in ["logical_divide", "zipped_divide"]],
    *[("recast_tensor", [ty, t]) for ty, t in [
        ("float", "gmem_ptr[16b](0x1000) o (8,8):(8,1)"), ("uint8_t", "gmem_ptr[16b](0x1000) o (8,8):(8,1)"),
        ("double", "smem_ptr[16b](0x1000) o (4,(4,4)):(16,(1,4))"), ("int4_t", "gmem_ptr[16b](0x1000) o (8,4):(1,8)"),
        ("float", "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)"),
        ("float", "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)"),
        ("half_t", "smem_ptr[32b](0x1000) o Sw<3,2,3> o 0 o (8,32):(32,1)"),
        ("float", "gmem_ptr[16b](0x1000) o (4,8):(1,-4)"), ("float", "gmem_ptr[16b](0x1040) o (8):(-1)")]],
    *[("as_position_independent_swizzle_tensor", [t]) for t in [
        "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", "Sw<2,4,3>_smem_ptr[32b](0x2000) o (8,32):(32,1)",
        "Sw<3,4,3>_smem_ptr[8b](0x400) o (16,64):(1,16)", "smem_ptr[16b](0x1000) o (8,8):(8,1)"]],
    # Zip tensors.
    *[("tensor_value", [Z[0], c]) for c in ["(1,2)", "7", "(3,1)"]],  # no pointer: z(c) reads memory
    *[("slice", [c, Z[k]]) for k, c in [(0, "(_,1)"), (0, "(2,_)"), (1, "(_,3)"), (2, "(1,_)")]],
    *[("local_tile", [Z[k], tl, c]) for k, tl, c in [(0, "(2,2)", "(1,1)"), (1, "(2,4)", "(1,0)")]],
    ("local_partition", [Z[0], "(2,2):(2,1)", "3"]),
    *[(op, [Z[0], "(2,2)"]) for op in ["logical_divide", "zipped_divide"]],
    # CuTe's upcast / downcast of an smem_ptr_flag layout keep the flag.
    *[(op, [n, "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"]) for op, n in [("upcast", "2"), ("downcast", "2"), ("upcast", "4")]],
    # The restructuring overloads of pointer tensors (the pointer moves by the offset) and zip
    # tensors (outer_partition; the other overloads do not compile for a ZipLayout, or, flatten
    # and filter_zeros, return the zip tensor unchanged, so `cute` refuses them).
    *[("flatten", [t]) for t in [
        "gmem_ptr[16b](0x1000) o ((2,2),3):((1,2),4)", "Sw<3,4,3>_smem_ptr[16b](0x1000) o ((2,4),(8,8)):((64,128),(1,8))"]],
    *[("coalesce", [t]) for t in [
        "gmem_ptr[16b](0x1000) o ((2,2),3):((1,2),4)", "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o ((2,4),64):((64,128),1)"]],
    ("coalesce", ["gmem_ptr[32b](0x2000) o ((2,2),(3,2)):((1,2),(4,12))", "(1,_)"]),
    *[("group", [t, b, e]) for t, b, e in [
        ("gmem_ptr[16b](0x1000) o (2,3,4):(1,2,6)", "1", "3"), ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,8,8):(64,1,8)", "0", "2")]],
    *[("take", [t, b, e]) for t, b, e in [
        ("gmem_ptr[16b](0x1000) o (2,3,4):(1,2,6)", "1", "3"), ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,8,8):(64,1,8)", "1", "3")]],
    ("filter", ["gmem_ptr[16b](0x1000) o (4,(2,3)):(0,(1,2))"]),
    ("filter_zeros", ["gmem_ptr[16b](0x1000) o (4,(2,3)):(0,(1,0))"]),
    *[("composition", [t, tl]) for t, tl in [
        ("gmem_ptr[16b](0x1000) o (4,6):(6,1)", "(2,3):(2,8)"), ("gmem_ptr[16b](0x1000) o (4,6):(6,1)", "(2,3)"),
        ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", "(2,8)"),
        ("smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)", "(4,8):(8,1)")]],
    *[("domain_offset", [c, t]) for c, t in [
        ("(1,2)", "gmem_ptr[16b](0x1000) o (4,6):(6,1)"), ("(1,2)", "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)"),
        ("(1,2)", "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)"),
        ("3", "gmem_subptr[4b](0x1000.0) o (4,4):(1,4)"), ("(1,1)", "ptr[8b](0x100) o (4,4):(-4,1)")]],
    *[("make_tensor_like", [t]) for t in [
        "gmem_ptr[16b](0x1000) o (4,8):(40,2)", "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)"]],
    *[("make_fragment_like", [t]) for t in [
        "gmem_ptr[16b](0x1000) o (2,3,4):(12,1,3)", "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)"]],
    *[("outer_partition", [t, tl, c]) for t, tl, c in [
        ("gmem_ptr[16b](0x1000) o (4,6):(6,1)", "(2,3)", "(1,2)"),
        ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", "(2,4)", "(1,3)"),
        (Z[1], "(2,2)", "(1,1)")]],
    # Tensor memory: the offset is packed into (lane, column) as CuTe's tmem_ptr arithmetic.
    *[("domain_offset", [c, t]) for c, t in [
        ("(1,2)", "tmem_[32b](0x0000.0000) o (128,32):(65536,1)"), ("(3,5)", "tmem_[16b](0x0000.0000) o (128,32):(65536,1)")]],
    ("outer_partition", ["tmem_[32b](0x0000.0000) o (128,32):(65536,1)", "(32,8)", "(1,2)"]),
]


def cpp(op, args):
    code = cpp1(op, args)
    if any(a.startswith("zip(") for a in args) and op != "tensor_value":
        code = "pz" + code[1:]
    return code


def cpp1(op, args):
    if op in ("make_gmem_ptr", "make_smem_ptr", "make_rmem_ptr"):
        e = f"{op}<{args[0]}>(reinterpret_cast<void*>({args[1]}))"
        return f"p(make_swizzle_ptr({e},{expr(args[2])}))" if len(args) == 3 else f"p({e})"
    if op == "make_tmem_ptr":
        return f"p(make_tmem_ptr<{args[0]}>({args[1]}))"
    if op == "make_swizzle_ptr":
        return f"p(make_swizzle_ptr({ptr(args[0])},{expr(args[1])}))"
    if op == "recast_ptr":
        return f"p(recast_ptr<{args[0]}>({ptr(args[1])}))"
    if op == "make_tensor" and not re.fullmatch(r"-?\d+", args[1]):
        return f"p(make_tensor({ptr(args[0])},{flagged(args[1])}))"
    if op == "tensor_value" and not args[0].startswith(("counting_iter", "ArithTuple", "zip(")):
        return f"p(&{tensor(args[0])}({expr(args[1])}))"
    if op in ("upcast", "downcast"):
        return f"p({op}<{args[0]}>({flagged(args[1])}))"
    if op == "recast_tensor":
        return f"p(recast<{args[0]}>({tensor(args[1])}))"
    if op == "as_position_independent_swizzle_tensor":
        return f"p(as_position_independent_swizzle_tensor({tensor(args[0])}))"
    if op == "make_tensor":
        return f"p(make_tensor(counting_iterator<int>{{{args[1]}}},{expr(args[0])}))"
    if op == "make_identity_tensor":
        return f"p(make_identity_tensor({expr(args[0])}))"
    if op == "tensor_value":
        return f"p({tensor(args[0])}({expr(args[1])}))"
    if op == "slice":
        return f"p({tensor(args[1])}({expr(args[0].replace('X', '_'))}))"
    if op == "local_tile":
        proj = f",{step(args[3])}" if len(args) == 4 else ""
        return f"p(local_tile({tensor(args[0])},{expr(args[1])},{expr(args[2])}{proj}))"
    if op == "local_partition":
        proj = f",{step(args[3])}" if len(args) == 4 else ""
        return f"p(local_partition({tensor(args[0])},{expr(args[1])},Int<{int(args[2])}>{{}}{proj}))"
    if op == "partition_tv":
        return f"p(composition({tensor(args[0])},{expr(args[1])})(make_coord(Int<{args[2]}>{{}},_)))"
    if op.endswith("_divide"):
        return f"p({op}({tensor(args[0])},{expr(args[1])}))"
    if op in ("flatten", "filter", "filter_zeros"):
        return f"p({op}({tensor(args[0])}))"
    if op == "coalesce":
        prof = f",{expr(args[1])}" if len(args) == 2 else ""
        return f"p(coalesce({tensor(args[0])}{prof}))"
    if op in ("group", "take"):
        fn = "group_modes" if op == "group" else "take"
        return f"p({fn}<{int(args[1])},{int(args[2])}>({tensor(args[0])}))"
    if op == "composition":
        return f"p(composition({tensor(args[0])},{expr(args[1])}))"
    if op == "domain_offset":
        return f"p(domain_offset({expr(args[0])},{tensor(args[1])}))"
    if op in ("make_tensor_like", "make_fragment_like"):
        # A layout argument: make_tensor_like<int>(layout), the tensor of make_tensor(int*, layout).
        call = f"{op}({tensor(args[0])})" if is_tensor(args[0]) else f"{op}<int>({expr(args[0])})"
        # A fresh register tensor: its iterator is its own storage, written counting_iter(0).
        return f'{{auto r = {call}; printf("counting_iter(0) o "); p(r.layout());}}'
    if op == "outer_partition":
        return f"p(outer_partition({tensor(args[0])},{expr(args[1])},{expr(args[2])}))"
    if op == "tiled_mma":
        lay = "" if args[1] == "_" else f",make_layout({expr(args[1])})"
        part = {"partition_a": "A", "partition_b": "B", "partition_c": "C"}[args[3]]
        return f"{{auto m = make_tiled_mma({args[0]}{{}}{lay}); p(m.get_slice({int(args[5])}).partition_{part}({tensor(args[4])}));}}"
    if op == "make_tiled_copy":
        part = {"partition_s": "S", "partition_d": "D"}[args[4]]
        tc = f"make_tiled_copy(Copy_Atom<{args[0]},{args[1]}>{{}},{expr(args[2])},{expr(args[3])})"
        return f"{{auto c = {tc}; p(c.get_slice({int(args[6])}).partition_{part}({tensor(args[5])}));}}"
    if op == "print_tensor":
        return f"print_tensor({tensor(args[0])})"
    if op == "batch_reduce":
        return f"red_batch({tensor(args[0])})"
    if op == "logical_reduce":
        return f"red_logical({tensor(args[0])},{expr(args[1])})"
    raise ValueError(op)


PRELUDE = r"""
#include <cute/tensor.hpp>
#include <cute/algorithm/tensor_reduce.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cstdio>
#include <vector>
using namespace cute;
template <class T> void p(T const& x) { print(x); printf("\n"); }
template <class Z> void pz(Z const& z) {
  auto u = unzip_tensor(z);
  printf("zip(");
  for_each(make_int_sequence<tuple_size<decltype(u)>::value>{}, [&](auto i) {
    if (i > 0) printf(", ");
    print(get<i>(u));
  });
  printf(")\n");
}
template <class V> void out(V const& d) {
  printf("(");
  for (size_t i = 0; i < d.size(); ++i) printf(i ? ",%d" : "%d", d[i]);
  printf(")\n");
}
template <class T> void red_batch(T const& src) {
  std::vector<int> d(int(size<1>(src)), 0);
  auto dst = make_tensor(d.data(), make_layout(int(d.size())));
  batch_reduce(src, dst);
  out(d);
}
template <class T, class P> void red_logical(T const& src, P const& prof) {
  std::vector<int> d(int(size(slice(prof, src.layout()))), 0);
  auto dst = make_tensor(d.data(), make_layout(int(d.size())));
  logical_reduce(src, dst, prof);
  out(d);
}
"""

SEP = "@@end-of-case@@"


def program():
    lines = [PRELUDE, "int main() {"]
    for op, args in CASES:
        lines.append("  " + cpp(op, args) + ";")
        lines.append(f'  printf("{SEP}\\n");')
    lines.append("}")
    return "\n".join(lines) + "\n"


def norm_line(s):
    return "".join(re.sub(r"_(?=-?\d)", "", s).split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "crates/cute-cli/tests/conformance/surface/tensors_cpp.jsonl"))
    opt = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        src = pathlib.Path(d) / "tensors.cpp"
        exe = pathlib.Path(d) / "tensors"
        src.write_text(program())
        # NDEBUG: CuTe's tensor_algs.cpp passes profiles such as (0_c,_) that logical_reduce's
        # `assert(compatible(profile, shape))` rejects; its tests are built without asserts.
        cmd = [os.environ.get("CXX", "g++"), "-std=c++17", "-O0", "-w", "-DNDEBUG",
               *[f"-I{i}" for i in S.include_dirs()], str(src), "-o", str(exe)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("gen-conformance-tensors: compile failed:\n" + r.stderr[:6000])
        text = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    answers = text.split(SEP + "\n")[:-1]
    if len(answers) != len(CASES):
        sys.exit(f"gen-conformance-tensors: {len(CASES)} cases, {len(answers)} answers")
    with open(opt.out, "w") as f:
        for k, ((op, args), ans) in enumerate(zip(CASES, answers)):
            exact = op == "print_tensor"
            cute = re.sub(r"_(?=-?\d)", "", ans).rstrip("\n") if exact else norm_line(ans)
            f.write(json.dumps({"id": f"tensor-{k:04d}", "op": op, "args": args,
                                "cute": cute, "exact": exact}) + "\n")
    print(f"gen-conformance-tensors: {len(CASES)} vectors -> {opt.out}")


if __name__ == "__main__":
    main()

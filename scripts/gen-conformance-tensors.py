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


def tensor(text):
    """CuTe C++ for a tensor in our text form."""
    t = text.strip()
    m = re.fullmatch(r"counting_iter\((-?\d+)\) o (.*)", t)
    if m:
        return f"make_tensor(counting_iterator<int>{{{m[1]}}},{expr(m[2])})"
    m = re.fullmatch(r"ArithTuple(\(.*?\)|0) o (.*?):.*", t)
    if m:
        return f"make_identity_tensor({expr(m[2])})"
    raise ValueError(t)


def step(proj):
    inner = proj[1:-1].split(",")
    return "Step<" + ",".join("X" if x.strip() in ("_", "X") else f"_{x.strip()}" for x in inner) + ">{}"


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
]


def cpp(op, args):
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
        call = f"{op}({tensor(args[0])})" if args[0].startswith("counting_iter") else f"{op}<int>({expr(args[0])})"
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

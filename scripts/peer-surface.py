#!/usr/bin/env python3
"""Measure the peer-test cases that ../shared/peer-tests marks `unsupported` against the
operations `cute` has now (issue #29: composed layouts, the IntTuple toolkit, slicing, the
offset analyses).

The case files record, for most such cases, the peer's function (`peer_fn`), its arguments in
our text form (`peer_args`, `peer_kwargs`) and the peer's answer (`expect`); CuTe C++ cases carry
the C++ expression (`cpp`) or name a test file whose assertions are checked here as properties.
This script maps each case onto `cute batch` requests where it can (one or several rounds, all
cases of a round in one `cute batch` process) and counts, per suite and per peer function:

  pass      our answer's text equals the peer's (spaces ignored), or the same truth value, or
            every property the CuTe test asserts holds on our answers
  same-fn   a different text for the same function: `cute equal OURS PEER` says 1 (e.g. a
            swizzle moved through an outer layout, or the stride of an extent-1 mode)
  substituted  a peer assertion over sympy symbols, checked at integer substitutions (symbolic
            shapes stay unsupported; the count of substitutions that agree is printed)
  refused   we refuse and the peer raised too
  differ    a different answer (listed with --show: judged in the README, not counted wrong)
  error     we refuse where the peer answered (listed)
  unmapped  no translation (the reason is listed: a peer-only convention, a tensor, ...)

    python3 scripts/peer-surface.py target/debug/cute [--cases ../shared/peer-tests/cases] [--show N]

NVlabs PyCuTe's extras (layout_add, greatest_common_domain, coalesce_z, common_refinement,
common_coarsening) and its F2-stride tests have no arguments in the shared case file, so their
cases there are replaced by the project's transcription of the same tests
(crates/cute-ops/tests/data/nvlabs_pycute_extras.jsonl, nvlabs_f2.jsonl, where an F2 layout that
cute expresses is given as an integer or swizzled layout): exact answers and refusals are
compared, the post-conditions (R(i) == A(i) + B(i), coalesce_z's values past the end, the
order of compatible shapes, commutativity, ...) checked with ../shared/peer-tests/peerlib.py.
Their cases of F2 arithmetic stay `unmapped` (sympy symbols: below). NVlabs' other marked cases
(make_layout_like, the [mode] / mode= forms, tiler promotion, Layout(shape, k),
_offset_and_slice, coshape of basis strides, tiler_to_layout) are replaced the same way by
crates/cute-ops/tests/data/nvlabs_rest.jsonl: exact answers, refusals, `same_as` (another
request, often CuTe's spelling, must give the same text) and asserted properties (rank,
compatible, values of a mode, make_layout_like's post-conditions). `convention`: PyCuTe answers
otherwise and we give CuTe C++'s answer (or the same function); the case says why.

NVlabs' sympy cases (34 marked so in the case file, 5 of its make_layout_like cases, 9
coalesce_z extras) are replaced by
crates/cute-ops/tests/data/nvlabs_sympy.jsonl (written by scripts/gen-nvlabs-sympy.py): each
substitution of integers for the symbols must give the substituted symbolic answer (text, or
the same function) and meet the post-condition the test asserts; a case is `substituted` when
all its substitutions agree.
"""

import argparse
import ast
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "peer-tests"))
import peerlib  # noqa: E402  (../shared/peer-tests: the runner's independent evaluator)
from collections import Counter, defaultdict

SAME = {
    "size", "rank", "depth", "cosize", "shape", "shape_div", "shape_mod", "round_up",
    "product_each", "elem_scale", "safe_div", "tuple_max", "unflatten", "mode",
    "slice_and_offset", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product", "max_common_vector",
    "max_common_layout", "idx2crd", "coalesce", "cycles", "fixed_points", "contiguity",
    "mode_contiguity", "make_swizzle",
}
RENAMED = {
    "compose": "composition",
    "slice_modes": "slice",
    "dice_modes": "dice",
    "functionally_equal": "equal",
    "is_injective": "injective",
    "is_bijective": "bijective",
    # tensor-layouts defines is_contiguous as is_bijective
    "is_contiguous": "bijective",
    "image": "image_offsets",
    "order": "permutation_order",
    "to_F2_matrix": "f2_matrix",
    "concat": "tuple_cat",
    "offset_table": "offset_table",
}
# Peer functions left unmapped, and why (the README lists them).
UNMAPPED_WHY = {
    "sort": "tensor-layouts' sort (flat modes ordered by stride, then shape) is not a CuTe operation",
    "make_layout_like": "tensor-layouts' make_layout_like(layout, tiler) (the tiler's shape with the layout's leading flat strides) is not CuTe's make_layout_like(layout), which `cute make_layout_like` is",
    "iter_layout": "a Python generator: the case records no value to compare (`cute table` and `cute idx2crd` give the pairs)",
    "hier_unzip": "the arguments (a Python function) are not recorded in the case",
}

# CuTe's 02_layout_algebra.md (the cute-docs suite, cases 0171-0186 in order): shape_div and
# shape_mod examples, as (op, shape, divisor, result).
DOCS_EXAMPLES = [
    ("shape_div", "(6,2)", "2", "(3,2)"), ("shape_div", "(6,2)", "3", "(2,2)"),
    ("shape_div", "(6,2)", "6", "(1,2)"), ("shape_div", "(6,2)", "12", "(1,1)"),
    ("shape_div", "(3,6,2,8)", "3", "(1,6,2,8)"), ("shape_div", "(3,6,2,8)", "6", "(1,3,2,8)"),
    ("shape_div", "(3,6,2,8)", "9", "(1,2,2,8)"), ("shape_div", "(3,6,2,8)", "72", "(1,1,1,4)"),
    ("shape_mod", "(6,2)", "2", "(2,1)"), ("shape_mod", "(6,2)", "3", "(3,1)"),
    ("shape_mod", "(6,2)", "6", "(6,1)"), ("shape_mod", "(6,2)", "12", "(6,2)"),
    ("shape_mod", "(3,6,2,8)", "6", "(3,2,1,1)"), ("shape_mod", "(3,6,2,8)", "9", "(3,3,1,1)"),
    ("shape_mod", "(1,2,2,8)", "2", "(1,2,1,1)"), ("shape_mod", "(1,2,2,8)", "16", "(1,2,2,4)"),
]

# CUTLASS test/unit/cute/core: the layouts and shapes each test checks (cases in file order).
COMPARE_TESTS = [  # compare.cpp: (shape, major, comparison that must equal i < j)
    ("(3,5)", "LayoutLeft", "colex_less"), ("(3,5)", "LayoutRight", "lex_less"),
    ("(2,3,5)", "LayoutLeft", "colex_less"), ("(2,3,5)", "LayoutRight", "lex_less"),
    ("((3,2),(5,2,2))", "LayoutLeft", "colex_less"), ("((3,2),(5,2,2))", "LayoutRight", "lex_less"),
]
DISTRIBUTE_TESTS = [  # domain_distribute.cpp: (shape A, B)
    ("((64,3),(8,8))", 128), ("(192,(8,8))", 128), ("((64,3),(8,8))", 1024),
    ("(192,(8,8))", 1024), ("((64,3))", 128),
]
SWIZZLE_SLICE_TESTS = [  # swizzle_layout.cpp: the swizzled layouts sliced row by row, column by column
    "Sw<3,0,3> o 0 o (8,8):(8,1)", "Sw<3,0,-3> o 0 o (8,8):(8,1)",
    "Sw<2,1,3> o 0 o ((2,2,2),(2,2,2)):((32,2,8),(4,1,16))",
]
CPP_WHY = {
    "MixedBits &, |, ^": "MixedBits (a dynamic swizzle's bit arithmetic) has no text form",
    "tensor algorithms (transform, batch_reduce, logical_reduce)": "transform applies a function to stored values (complex conjugation): not a layout operation",
}
# tensor_algs.cpp's TensorLogicalReduce on counting tensors: (layout, profile, expected sums as a
# function of the layout's 1-D values, or a fixed answer)
LOGICAL_REDUCE_TESTS = [
    ("(32,(12,6)):(1,(64,1))", "(0,_)", lambda v: [sum(v[32 * i + m] for m in range(32)) for i in range(72)]),
    ("(32,(12,6)):(1,(64,1))", "(_,0)", lambda v: [sum(v[i + 32 * j] for j in range(72)) for i in range(32)]),
    ("(32):(1)", "1", lambda v: [sum(v)]),
    ("(32):(1)", "_", lambda v: v),
    ("(32,(12,6)):(1,(192,32))", "(1,1)", lambda v: [sum(v)]),
    ("(32,(12,6)):(1,(192,32))", "(_,_)", lambda v: v),
    ("(2,2,2,2):(1,2,4,8)", "(_,1,_,1)", lambda v: [20, 24, 36, 40]),
    ("(2,(2,2),2):(1,(2,4),8)", "(_,(1,_),1)", lambda v: [20, 24, 36, 40]),
]


def norm(s):
    return "".join(str(s).split())


def single(req, exp):
    """One request judged against the peer's recorded answer."""
    a = (yield [req])[0]
    return (yield from judge(a, exp))


def judge(a, exp, compare=None):
    if "ok" not in a:
        return ("refused" if "raised" in exp else "error"), a.get("error")
    ours = a["ok"]
    if compare is not None:
        return ("pass" if compare(ours) else "differ"), ours
    if "text" in exp and norm(ours) == norm(exp["text"]):
        return "pass", ours
    if "text" in exp and ":" in exp["text"] and ":" in ours:
        same = (yield [("equal", [ours, exp["text"]])])[0]
        if same.get("ok") == "1":
            return "same-fn", ours
    return "differ", ours


def py_text(v):
    if isinstance(v, tuple):
        return "(" + ",".join(py_text(x) for x in v) + ")"
    return str(v)


def offset_table_check(exp_repr):
    """The peer's {offset: [coords]} dict (possibly cut short) against our table."""
    body = exp_repr.split("dict:", 1)[1]
    entries = re.findall(r"(-?\d+): \[([^\]]*)\]", body)
    complete = body.rstrip().endswith("}")

    def check(ours):
        table = {}
        for off, coords in re.findall(r"\((-?\d+),(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))\)", norm(ours)):
            table[int(off)] = coords
        if not entries or (complete and len(entries) != len(table)):
            return False
        for off, coords in entries:
            peer = "(" + ",".join(py_text(c) for c in ast.literal_eval("[" + coords + "]")) + ")"
            if table.get(int(off)) != norm(peer):
                return False
        return True

    return check


def translate(case):
    """A generator of request rounds for the case, or the reason it stays unmapped."""
    suite, fn, args = case["suite"], case.get("peer_fn"), case.get("peer_args")
    kw = case.get("peer_kwargs") or {}
    exp = case.get("expect") or {}
    if suite == "cute-docs":
        k = int(case["id"].rsplit("-", 1)[1]) - 171
        if 0 <= k < len(DOCS_EXAMPLES):
            op, s, d, r = DOCS_EXAMPLES[k]
            return single((op, [s, d]), {"text": r})
        return "not one of the shape_div / shape_mod examples"
    if suite == "cute-cpp":
        return translate_cpp(case)
    if fn in UNMAPPED_WHY:
        return UNMAPPED_WHY[fn]
    if not fn or args is None:
        return case.get("unsupported", "no arguments recorded")
    if fn == "Layout.__call__":
        if len(args) != 2:
            return "a call with other than one coordinate"
        if "_" in args[1]:
            return single(("slice", [args[1], args[0]]), exp)
        return single(("crd2idx", [args[1], args[0]]), exp)
    if fn == "make_ordered_layout" and len(args) == 1:
        # the peer's default order is column-major: (0, 1, ..., r-1)
        if args[0].startswith("("):
            order = "(" + ",".join(map(str, range(len(split_top(args[0]))))) + ")"
        else:
            order = "0"
        return single(("make_ordered_layout", [args[0], order]), exp)
    if fn == "crd2crd" and len(args) == 2:
        # crd2crd(coord, dst_shape): the coordinate is read as one of dst_shape itself
        return single(("crd2crd", [args[0], args[1], args[1]]), exp)
    if fn == "is_surjective":
        # codomain_size=N: our `surjective L N` (the offsets are exactly 0..N-1)
        n = [kw["codomain_size"]] if "codomain_size" in kw else []
        return single(("surjective", list(args) + n), exp)
    if fn == "bank_conflicts":
        extra = [kw.get("element_bytes", "4"), kw.get("group_size", "32"), kw.get("num_banks", "32"), kw.get("bank_width_bytes", "4")]
        m = re.search(r"'max_ways': (\d+)", exp.get("unserializable", ""))
        req = ("bank_conflicts", list(args) + extra)
        if m:
            return judge_gen(req, exp, lambda ours: ours == m.group(1))
        return single(req, exp)
    if fn == "offset_table" and "unserializable" in exp:
        return judge_gen(("offset_table", list(args)), exp, offset_table_check(exp["unserializable"]))
    if fn in SAME:
        return single((fn, list(args)), exp)
    if fn in RENAMED:
        return single((RENAMED[fn], list(args)), exp)
    return case.get("unsupported", "no translation")


def judge_gen(req, exp, compare):
    a = (yield [req])[0]
    return (yield from judge(a, exp, compare))


def split_top(t):
    """The top-level elements of a tuple's text."""
    inner, out, depth, cur = t.strip()[1:-1], [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur)
    return out


CPP_INT = r"(?:Int\s*<\s*(\d+)\s*>\s*\{\s*\}|(\d+))"


def translate_cpp(case):
    why = case.get("unsupported", "")
    m = re.search(r"compact_(col|row)_major\s*\(\s*" + CPP_INT + r"\s*,\s*" + CPP_INT + r"\s*\)\s*==\s*" + CPP_INT, case.get("cpp", ""))
    if m:
        g = m.groups()
        shape, start, want = g[1] or g[2], g[3] or g[4], g[5] or g[6]
        # CuTe gives a dynamic extent 1 the start as its stride and a static one stride 0; the
        # text form has only the static kind (the stride of an extent-1 mode is immaterial)
        return single((f"compact_{m.group(1)}_major", [shape, start]), {"text": want})
    src = case.get("source", "")
    k = int(case["id"].rsplit("-", 1)[1])
    if src.endswith("compare.cpp"):
        return compare_program(*COMPARE_TESTS[k - 428])
    if src.endswith("domain_distribute.cpp"):
        return distribute_program(*DISTRIBUTE_TESTS[k - 423])
    if src.endswith("swizzle_layout.cpp"):
        return swizzle_slice_program(SWIZZLE_SLICE_TESTS[k - 419])
    if src.endswith("tensor_algs.cpp") and k in (435, 436):
        return batch_reduce_program() if k == 435 else logical_reduce_program()
    return CPP_WHY.get(why, why)


def sums(text):
    return [int(x) for x in text.strip("()").split(",")]


def batch_reduce_program():
    """tensor_algs.cpp TensorBatchReduce: the counting tensor ((2,2),(2,2)):((2,8),(1,4)) summed
    over mode 0 is 20, 24, 36, 40."""
    (a,) = yield [("batch_reduce", ["counting_iter(0) o ((2,2),(2,2)):((2,8),(1,4))"])]
    if "ok" not in a:
        return "error", a.get("error")
    return ("pass", a["ok"]) if sums(a["ok"]) == [20, 24, 36, 40] else ("differ", a["ok"])


def logical_reduce_program():
    """tensor_algs.cpp TensorLogicalReduce: each profile's sums against the sums of the sliced
    counting tensor (CuTe's reduce(src(_,i)) and reduce(src(i,_)))."""
    reqs = [("logical_reduce", [f"counting_iter(0) o {l}", p]) for l, p, _ in LOGICAL_REDUCE_TESTS]
    reqs += [("table", [l]) for l, _, _ in LOGICAL_REDUCE_TESTS]
    got = yield reqs
    n = len(LOGICAL_REDUCE_TESTS)
    bad = []
    for (l, p, want), a, t in zip(LOGICAL_REDUCE_TESTS, got[:n], got[n:]):
        v = [int(x) for x in t["ok"].split(",")]
        if "ok" not in a or sums(a["ok"]) != want(v):
            bad.append(f"{l} {p}: {a}")
    return ("pass", f"{n} profiles") if not bad else ("differ", bad[0])


def compare_program(shape, major, less):
    """compare.cpp: every coordinate elem_less the shape; (i < j) == less(coord_i, coord_j)."""
    (lay,) = yield [("make_layout", [shape, major])]
    if "ok" not in lay:
        return "error", lay.get("error")
    lay = lay["ok"]
    (n,) = yield [("size", [lay])]
    n = int(n["ok"])
    crds = yield [("idx2crd", [str(i), lay]) for i in range(n)]
    if any("ok" not in c for c in crds):
        return "error", "idx2crd refused"
    crds = [c["ok"] for c in crds]
    reqs = [("elem_less", [c, shape]) for c in crds]
    reqs += [(less, [crds[i], crds[j]]) for i in range(n) for j in range(n)]
    got = yield reqs
    want = ["1"] * n + ["1" if i < j else "0" for i in range(n) for j in range(n)]
    bad = [r for r, g, w in zip(reqs, got, want) if g.get("ok") != w]
    return ("pass", f"{len(reqs)} checks") if not bad else ("differ", f"{len(bad)} of {len(reqs)} fail, e.g. {bad[0]}")


def distribute_program(a, b):
    """domain_distribute.cpp: B evenly divided by size(R), A evenly divided by R, R increasing."""
    (r,) = yield [("domain_distribute", [a, str(b)])]
    if "ok" not in r:
        return "error", r.get("error")
    r = r["ok"]
    size, ev_a, table = yield [("size", [r]), ("evenly_divides", [a, r]), ("table", [r])]
    (ev_b,) = yield [("evenly_divides", [str(b), size.get("ok", "0")])]
    vals = [int(v) for v in table["ok"].split(",")]
    ok = ev_a.get("ok") == "1" and ev_b.get("ok") == "1" and all(x < y for x, y in zip(vals, vals[1:]))
    return ("pass", r) if ok else ("differ", f"{r}: evenly_divides {ev_a} {ev_b}")


def swizzle_slice_program(sw):
    """swizzle_layout.cpp: tensor(i,j) == tensor(i,_)(j) == tensor(_,j)(i) over a counting
    iterator: the sliced composed layout plus its offset agrees with the whole."""
    (shape,) = yield [("shape", [sw])]
    sizes = yield [("size", [e]) for e in split_top(shape["ok"])]
    m, n = int(sizes[0]["ok"]), int(sizes[1]["ok"])
    coords = [(f"({i},_)", i, None) for i in range(m)] + [(f"(_,{j})", None, j) for j in range(n)]
    sliced = yield [("slice_and_offset", [c, sw]) for c, _, _ in coords]
    reqs, want_from = [], []
    for (c, i, j), s in zip(coords, sliced):
        if "ok" not in s:
            return "error", s.get("error")
        parts = split_top(s["ok"])
        sub, off = ",".join(parts[:-1]), int(parts[-1])
        for k in range(n if i is not None else m):
            ij = (i, k) if i is not None else (k, j)
            reqs.append(("crd2idx", [str(k), sub]))
            reqs.append(("crd2idx", [f"({ij[0]},{ij[1]})", sw]))
            want_from.append(off)
    got = yield reqs
    bad = 0
    for t, off in enumerate(want_from):
        part, whole = got[2 * t], got[2 * t + 1]
        if "ok" not in part or "ok" not in whole or int(part["ok"]) + off != int(whole["ok"]):
            bad += 1
    return ("pass", f"{len(want_from)} elements") if not bad else ("differ", f"{bad} of {len(want_from)} elements differ")


def run_batch(cute, reqs):
    inp = "".join(json.dumps({"op": op, "args": args}) + "\n" for op, args in reqs)
    out = subprocess.run([cute, "batch"], input=inp, capture_output=True, text=True).stdout
    answers = [json.loads(l) for l in out.splitlines()]
    if len(answers) != len(reqs):
        sys.exit(f"peer-surface: {len(reqs)} requests, {len(answers)} answers")
    return answers


def drive(cute, programs):
    """Runs the generators round by round, one `cute batch` per round; returns their results."""
    results = {}
    active = {}
    for key, gen in programs.items():
        try:
            active[key] = (gen, next(gen))
        except StopIteration as e:
            results[key] = e.value
    while active:
        order = list(active)
        reqs = [r for k in order for r in active[k][1]]
        answers = run_batch(cute, reqs)
        pos = 0
        nxt = {}
        for k in order:
            gen, want = active[k]
            got = answers[pos:pos + len(want)]
            pos += len(want)
            try:
                nxt[k] = (gen, gen.send(got))
            except StopIteration as e:
                results[k] = e.value
        active = nxt
    return results


EXTRAS = ("layout_add", "coalesce_z", "common_coarsening", "common_refinement", "greatest_common_domain")


F2 = "F2 (XOR) strides"


def vendored_extras(paths):
    """The transcribed NVlabs cases of PyCuTe's extras and of its F2 strides, as cases of the
    `nvlabs-cute` suite."""
    out = []
    lines = []
    for path in paths:
        with open(path) as f:
            next(f)
            lines += list(f)
    for k, line in enumerate(lines):
        c = json.loads(line)
        c.update(suite="nvlabs-cute", id=f"nvlabs-extras-{k:03}", peer_fn=c["category"])
        if "unsupported" not in c:
            c["unsupported"] = c["category"]
        else:
            if c["unsupported"] != c["category"]:
                c["peer_fn"] = c["category"] + " (" + c["unsupported"] + ")"
            c["no_form"] = True
        out.append(c)
    return out


def extras_requests(c):
    """The requests one transcribed case needs (the first is the case's own call)."""
    e = c["expect"]
    if "property" in e:
        over = e["over"]
        size = lambda l: peerlib.size(peerlib.parse(l).shape)
        reqs = []
        for a in over:
            if e["property"] == "identity":
                reqs += [("layout_add", [a, f"{size(a)}:0"]), ("coalesce", [a])]
            for b in over:
                if size(a) != size(b):
                    continue
                if e["property"] == "commutative":
                    reqs += [("layout_add", [a, b]), ("layout_add", [b, a])]
        return reqs
    reqs = [(c["op"], c["args"])]
    if "same_as" in e:
        reqs.append((e["same_as"]["op"], e["same_as"]["args"]))
    if "duality" in e:
        reqs = [("common_refinement", c["args"]), ("common_coarsening", c["args"])]
    if "law" in e or "size" in e:
        reqs.append((c["op"], list(reversed(c["args"]))))
    return reqs


def values(text, n):
    L = peerlib.parse(text)
    return [peerlib.eval_layout(L, i) for i in range(n)]


def judge_extras(c, answers):
    """pass / refused / differ / error for one transcribed case, from its requests' answers."""
    e = c["expect"]
    ok = [a.get("ok") for a in answers]
    if "property" in e:
        if e["property"] == "associative":
            return "pass"  # three-deep sums: checked by crates/cute-ops/tests/nvlabs_extras.rs
        pairs = list(zip(ok[0::2], ok[1::2]))
        if e["property"] == "identity":
            return "pass" if all(x is not None and x == y for x, y in pairs) else "differ"
        return "pass" if all(x == y for x, y in pairs) else "differ"
    first = answers[0]
    if "text" in e:
        return "pass" if "ok" in first and norm(first["ok"]) == norm(e["text"]) else ("differ" if "ok" in first else "error")
    if "raised" in e:
        return "refused" if "error" in first else "differ"
    if "not_representable" in e:
        return "error"  # PyCuTe answers with ArithTuple strides; we refuse (NotRepresentable)
    if None in ok:
        return "error"
    if "same_as" in e:
        return "pass" if norm(ok[0]) == norm(ok[1]) else "differ"
    if "duality" in e:
        a, b = (peerlib.parse(x) for x in c["args"])
        j, m = peerlib.parse(ok[0]), peerlib.parse(ok[1])
        good = all(peerlib.compatible(x, y) for x, y in [(m, j), (m, a), (m, b), (a, j), (b, j)])
        return "pass" if good else "differ"
    if "size" in e:
        return "pass" if ok[0] == ok[1] and peerlib.size(peerlib.parse(ok[0]).shape) == e["size"] else "differ"
    if c["op"] == "layout_add":
        n = peerlib.size(peerlib.parse(c["args"][0]).shape)
        sums = [peerlib.add(x, y) for x, y in zip(values(c["args"][0], n), values(c["args"][1], n))]
        return "pass" if ok[0] == ok[1] and values(ok[0], n) == sums else "differ"
    if c["op"] == "coalesce_z":
        n = peerlib.size(peerlib.parse(c["args"][0]).shape)
        return "pass" if values(ok[0], n + 10) == values(c["args"][0], n + 10) else "differ"
    f = lambda t: peerlib.parse(t)
    if "same_function" in e:
        return "pass" if peerlib.table(f(ok[0])) == peerlib.table(f(e["same_function"])) else "differ"
    if "values" in e:
        return "pass" if [int(v) for v in ok[0].split(",")] == e["values"] else "differ"
    if c["op"] == "coalesce":
        return "pass" if peerlib.table(f(ok[0])) == peerlib.table(f(c["args"][0])) else "differ"
    if c["op"] == "right_inverse":
        L, R = f(c["args"][0]), f(ok[0])
        good = all(peerlib.apply(L, peerlib.apply(R, i)) == i for i in range(peerlib.size(R)))
        return "pass" if good and (not e.get("full") or peerlib.size(R) == peerlib.size(L)) else "differ"
    if c["op"] == "left_inverse":
        L, R = f(c["args"][0]), f(ok[0])
        ys = peerlib.table(L)
        return "pass" if all(peerlib.apply(L, peerlib.apply(R, y)) == y for y in ys) else "differ"
    return "error"


REST = "nvlabs_rest.jsonl"


def vendored_rest(path):
    """The transcribed NVlabs cases of make_layout_like, the [mode] forms, tiler promotion,
    Layout(shape, k), _offset_and_slice, coshape and tiler_to_layout, as cases of `nvlabs-cute`."""
    out = []
    with open(path) as f:
        next(f)
        for k, line in enumerate(f):
            c = json.loads(line)
            c.update(suite="nvlabs-cute", id=f"nvlabs-rest-{k:03}", peer_fn=c["category"][:40])
            out.append(c)
    return out


def at_path(L, path):
    for i in path:
        L = peerlib.mode(L, i)
    return L


def make_layout_like_law(src, ours):
    """PyCuTe's post-conditions of make_layout_like (an extent-1 mode's stride is not judged:
    CuTe gives a static extent 1 stride 0, PyCuTe the running product)."""
    S, R = peerlib.parse(src), peerlib.parse(ours)
    if norm(peerlib.fmt(R.shape)) != norm(peerlib.fmt(S.shape)):
        return False
    lv = list(zip(peerlib.flatten(S.shape), peerlib.flatten(S.stride), peerlib.flatten(R.stride)))
    if any((sd == 0) != (dd == 0) for s, sd, dd in lv if s != 1):
        return False
    cur = 1
    for s, sd, dd in sorted((t for t in lv if t[0] != 1 and t[1] != 0), key=lambda t: t[1]):
        if dd != cur:
            return False
        cur *= s
    image = sorted(set(peerlib.table(R)))
    return image == list(range(len(image)))


def weakly_congruent(a, b):
    """CuTe's weakly_congruent: b refines a's tree (an integer of a matches any subtree)."""
    if not isinstance(a, tuple):
        return True
    return isinstance(b, tuple) and len(a) == len(b) and all(weakly_congruent(x, y) for x, y in zip(a, b))


def coord_value(x):
    """A value of a basis-strided layout as {path: value}, zero entries dropped."""
    if isinstance(x, int):
        return {(): x} if x else {}
    return {p: v for p, v in x.d.items() if v}


def inverse_law(law, lay, ours):
    """NVlabs' post-conditions over a basis-strided L: left_inverse, L(R(L(i))) == L(i) with
    R's shape weakly congruent with the codomain's profile; nullspace, L(R(i)) == 0."""
    L, R = peerlib.parse(lay), peerlib.parse(ours)
    if law == "nullspace":
        return all(not coord_value(peerlib.apply(L, peerlib.apply(R, i))) for i in range(peerlib.size(R)))
    for i in range(peerlib.size(L)):
        b = peerlib.apply(L, i)
        c = peerlib.basis_to_coord(b, R.shape) if not isinstance(b, int) else b
        j = peerlib.crd2idx(c, R.shape, R.stride)
        if coord_value(peerlib.apply(L, j)) != coord_value(b):
            return False
    return True


def rest_program(c):
    """One transcribed case as request rounds; returns (kind, detail)."""
    e = c["expect"]
    (a,) = yield [(c["op"], c["args"])]
    if "raised" in e:
        return ("refused" if "error" in a else "differ"), a.get("error", a.get("ok"))
    if "ok" not in a:
        return "error", a.get("error")
    ours = a["ok"]
    if "same_as" in e:
        (b,) = yield [(e["same_as"]["op"], e["same_as"]["args"])]
        return ("pass" if "ok" in b and norm(e.get("prefix", "") + b["ok"]) == norm(ours) else "differ"), ours
    if "convention" in e:
        if "also" in e:
            x = e["also"]
            got = yield [(x["op"], x["args"]), (x["same_as"]["op"], x["same_as"]["args"])]
            if any("ok" not in g for g in got):
                return "differ", f"CuTe's spelling {x['args']}: {got}"
            (same,) = yield [("equal", [got[0]["ok"], got[1]["ok"]])]
            if same.get("ok") != "1":
                return "differ", f"CuTe's spelling {x['args']}: {got}"
        if "text" in e and norm(ours) == norm(e["text"]):
            return "pass", ours
        if "cute_text" in e:
            return ("convention" if norm(ours) == norm(e["cute_text"]) else "differ"), ours
        (same,) = yield [("equal", [ours, e["text"]])]
        return ("convention" if same.get("ok") == "1" else "differ"), ours
    if c["op"] == "slice_and_offset":
        parts = split_top(ours)
        sub, off = ",".join(parts[:-1]), int(parts[-1])
        good = e.get("offset", off) == off
        if "sub" in e:
            good = good and norm(sub) == norm(e["sub"])
        if "sub_rank" in e:
            good = good and peerlib.rank(peerlib.parse(sub).shape) == 0 if peerlib.is_tuple(peerlib.parse(sub).shape) else False
        return ("pass" if good else "differ"), ours
    if e.get("law") in ("left_inverse", "nullspace"):
        good = inverse_law(e["law"], c["args"][0], ours)
        if e["law"] == "left_inverse":
            (cp,) = yield [("coprofile", c["args"])]
            good = good and "ok" in cp and weakly_congruent(peerlib.parse(cp["ok"]), peerlib.parse(ours).shape)
        return ("pass" if good else "differ"), ours
    if e.get("law") == "make_layout_like":
        (again,) = yield [("make_layout_like", [ours])]
        good = again.get("ok") == ours and make_layout_like_law(c["args"][0], ours)
        return ("pass" if good else "differ"), ours
    R = at_path(peerlib.parse(ours), e.get("at", []))
    checks = []
    if "text" in e:
        checks.append(norm(peerlib.fmt(R)) == norm(e["text"]))
    if "rank" in e:
        checks.append(peerlib.rank(R) == e["rank"])
    if "compatible_from" in e:
        checks.append(peerlib.compatible(peerlib.parse(e["compatible_from"]), R.shape))
    if "values" in e:
        checks.append(peerlib.table(R) == e["values"])
    if "same_function" in e:
        whole = peerlib.parse(ours)
        checks.append(peerlib.depth(R) <= 1 and peerlib.table(whole) == peerlib.table(peerlib.parse(e["same_function"])))
    return ("pass" if checks and all(checks) else "differ"), ours


SYMPY = "nvlabs_sympy.jsonl"


def sympy_program(c):
    """NVlabs' sympy assertions at integer substitutions: every substitution must give the
    substituted symbolic answer (text or the same function) and meet the test's post-condition.
    The case counts as `substituted` (symbolic shapes stay unsupported) when all agree."""
    subs = c["subs"]
    got = yield [(c["op"], s["args"]) for s in subs]
    more, bad = [], []
    for s, a in zip(subs, got):
        e = s["expect"]
        if "ok" not in a:
            if not e.get("may_refuse"):
                bad.append(f"{s['at']}: {a.get('error')}")
            continue
        ours = a["ok"]
        if "same" in e and norm(ours) != norm(e["same"]):
            n = peerlib.size(peerlib.parse(s["args"][0]).shape) + 10 if c["op"] == "coalesce_z" else None
            if n is None:
                more.append((s, ("equal", [ours, e["same"]])))
            elif values(ours, n) != values(e["same"], n):
                bad.append(f"{s['at']}: {ours}, peer {e['same']}")
        if e.get("law") in ("coalesce", "coalesce_z"):
            more.append((s, (c["op"], [ours])))
        if "law" in e and not sympy_law(e["law"], s["args"], ours):
            bad.append(f"{s['at']}: {ours} breaks the {e['law']} post-condition")
    answers = yield [r for _, r in more]
    for (s, (op, args)), a in zip(more, answers):
        want = "1" if op == "equal" else args[0]
        if a.get("ok") != want:
            bad.append(f"{s['at']}: {args[0]}: {op} gives {a}")
    n = len(subs)
    return ("substituted", f"{n} of {n} substitutions agree") if not bad else ("differ", f"{len(bad)} of {n}: {bad[0]}")


def sympy_law(law, args, ours):
    L, R = peerlib.parse(args[0]), peerlib.parse(ours)
    if law == "composition":
        return not peerlib.prop_composition(L, peerlib.parse(args[1]), R)
    if law == "right_inverse":
        return not peerlib.prop_right_inverse(L, R)
    n = peerlib.size(L.shape) + (10 if law == "coalesce_z" else 0)
    return peerlib.depth(R.shape) <= 1 and peerlib.size(R.shape) == peerlib.size(L.shape) and values(ours, n) == values(args[0], n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cute")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--cases", default=os.path.join(here, "..", "..", "shared", "peer-tests", "cases"))
    ap.add_argument("--show", type=int, default=5)
    opt = ap.parse_args()

    cases = []
    for f in sorted(glob.glob(os.path.join(opt.cases, "*.jsonl"))):
        for line in open(f):
            c = json.loads(line)
            if c.get("unsupported"):
                cases.append(c)
    data = os.path.join(here, "..", "crates", "cute-ops", "tests", "data")
    vendored = [os.path.join(data, "nvlabs_pycute_extras.jsonl"), os.path.join(data, "nvlabs_f2.jsonl")]
    extras = []
    if all(os.path.exists(v) for v in vendored):
        replaced = lambda c: c["unsupported"].startswith(EXTRAS) or c["unsupported"] == F2
        cases = [c for c in cases if not (c["suite"] == "nvlabs-cute" and replaced(c))]
        extras = vendored_extras(vendored)
    rest_path = os.path.join(data, REST)
    if os.path.exists(rest_path):
        rest = vendored_rest(rest_path)
        gone = {c["category"] for c in rest}
        cases = [c for c in cases if not (c["suite"] == "nvlabs-cute" and c["unsupported"] in gone)]
        for c in rest:
            c["unsupported"] = c.get("unsupported") or c["category"]
        cases += rest
    sympy_path = os.path.join(data, SYMPY)
    sympy_peer = set()
    if os.path.exists(sympy_path):
        with open(sympy_path) as f:
            sym = [json.loads(l) for l in list(f)[1:]]
        refs = {c["ref"] for c in sym}
        cases = [c for c in cases if c["id"] not in refs]
        for k, c in enumerate(sym):
            c.update(suite="nvlabs-cute", id=f"nvlabs-sympy-{k:03}", peer_fn=c["op"] + " (sympy, substituted)")
            sympy_peer.add(c["peer"])
        cases += sym
    programs, reasons = {}, {}
    for k, c in enumerate(cases):
        if c["id"].startswith("nvlabs-sympy"):
            t = sympy_program(c)
        elif c["id"].startswith("nvlabs-rest"):
            t = rest_program(c) if "expect" in c else c["unsupported"]
        else:
            t = translate(c)
        if isinstance(t, str):
            reasons[k] = t
        else:
            programs[k] = t
    results = drive(opt.cute, programs)

    keys = ["pass", "same-fn", "convention", "substituted", "refused", "differ", "error", "unmapped"]
    cat = defaultdict(Counter)
    by_fn = defaultdict(Counter)
    shown = defaultdict(list)
    why = defaultdict(Counter)
    todo_x = [(c, extras_requests(c)) for c in extras if not c.get("no_form")]
    inp = "".join(json.dumps({"op": op, "args": args}) + "\n" for _, rs in todo_x for op, args in rs)
    out = subprocess.run([opt.cute, "batch"], input=inp, capture_output=True, text=True).stdout
    flat = [json.loads(l) for l in out.splitlines()]
    for c in extras:
        if c.get("peer") in sympy_peer:
            continue  # counted with the substituted sympy cases
        if c.get("no_form"):
            k = "unmapped"
            why[c["suite"]]["NVlabs extras/F2 transcription: " + c["unsupported"]] += 1
        else:
            rs = next(rs for x, rs in todo_x if x is c)
            got, flat = flat[: len(rs)], flat[len(rs):]
            k = judge_extras(c, got)
            if k in ("differ", "error") and len(shown[k]) < opt.show:
                shown[k].append(f"  {c['id']} {c['op']} {c.get('args')}: ours {got[0]}, peer {c['expect']}")
        cat[c["suite"]][k] += 1
        by_fn[(c["suite"], c["peer_fn"])][k] += 1
    for k, c in enumerate(cases):
        label = c.get("peer_fn") or c["unsupported"][:40]
        if k in reasons:
            kind = "unmapped"
            why[c["suite"]][reasons[k]] += 1
        else:
            kind, detail = results[k]
            if kind in ("differ", "error", "same-fn") and len(shown[kind]) < opt.show:
                shown[kind].append(f"  {c['id']} {label} {c.get('peer_args', '')}: ours {detail!r}, peer {c.get('expect', '')}")
        cat[c["suite"]][kind] += 1
        by_fn[(c["suite"], label)][kind] += 1
    print(f"{'suite':16} " + " ".join(f"{k:>9}" for k in keys))
    for s in sorted(cat):
        print(f"{s:16} " + " ".join(f"{cat[s][k]:{max(9, len(k))}}" for k in keys))
    subs = [(c, results[k]) for k, c in enumerate(cases) if c["id"].startswith("nvlabs-sympy")]
    if subs:
        n = sum(len(c["subs"]) for c, _ in subs)
        good = sum(len(c["subs"]) for c, r in subs if r[0] == "substituted")
        print(f"\nsubstituted: NVlabs' sympy assertions at integer substitutions ({SYMPY}): "
              f"{good} of {n} substitutions agree, over {len(subs)} cases")
    print()
    for (s, fn), cnt in sorted(by_fn.items(), key=lambda kv: (kv[0][0], -sum(kv[1].values()))):
        print(f"{s:16} {fn:42} " + " ".join(f"{k}={cnt[k]}" for k in keys if cnt[k]))
    print("\nunmapped, by reason:")
    for s in sorted(why):
        for r, n in why[s].most_common():
            print(f"  {s:16} {n:4}  {r}")
    for k in ("same-fn", "differ", "error"):
        if shown[k]:
            print(f"\n{k}:")
            print("\n".join(shown[k]))


if __name__ == "__main__":
    main()

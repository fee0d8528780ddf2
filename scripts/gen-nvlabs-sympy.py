#!/usr/bin/env python3
"""Generate crates/cute-ops/tests/data/nvlabs_sympy.jsonl: NVlabs PyCuTe's symbolic (sympy)
test assertions, checked at integer substitutions.

PyCuTe accepts sympy symbols as extents and strides and answers with symbolic layouts; cute
(like CuTe C++) computes on integers. Each assertion of the tests below is transcribed by hand
(the inputs and the expected symbolic answer as text in cute's notation, the symbols'
assumptions; facts only, no peer code) in CASES, and this script substitutes integers for the
symbols: every assignment of each symbol in 1..8 (1..5 where a case has four symbols) that
meets the case's assumptions. Each substitution becomes a concrete request (`op`, `args`) with
what it must satisfy:

  same   the peer's symbolic answer with the integers substituted: our answer must be that
         text or the same function (`cute equal`; for coalesce_z, the same values on
         [0, size + 10), its extended domain)
  law    the post-condition the peer's test asserts of the answer (composition: R compatible
         with B and R(i) == A(B(i)); coalesce and coalesce_z: depth <= 1, the same size and
         values (coalesce_z: on [0, size + 10)), idempotent; right_inverse: L(R(i)) == i)
  may_refuse   a refusal is also accepted (a divisibility condition fails at these integers)

`where` restricts `same` to the substitutions where the peer's symbolic reasoning applies (a
symbolic answer is generic: e.g. a symbolic stride is never 1, a symbolic order value ranks
after every static one); the others keep only the `law`, or are left out when the case has
none. `why` says what the restriction stands for.

    python3 scripts/gen-nvlabs-sympy.py [--out PATH]

The expression evaluator takes + - * // over integers and symbol names (no sympy needed).
"""

import argparse
import ast
import itertools
import json
import os
import re

COMPOSITION = "test/test_composition.py@02e137e3"
COALESCE = "test/test_coalesce.py@02e137e3"
COALESCE_Z = "test/test_coalesce_z.py@02e137e3"
COMPLEMENT = "test/test_complement.py@1a4a2cd4"
RIGHT_INVERSE = "test/test_inverse_right.py@13af37e3"
MAKE_LAYOUT = "test/test_make_layout.py@1a4a2cd4"

POSITIVE = "positive integers (sympy positive=True, integer=True)"


def case(ref, source, test, peer, op, args, expect, where=None, why=None):
    return dict(ref=ref, source=source, test=test, peer=peer, op=op, args=args, expect=expect,
                where=where, why=why)


def comp(n, peer, a, b, **kw):
    return case(f"nvlabs-cute-{n:04}", COMPOSITION, "test_composition_sympy",
                f"postcondition_composition({peer})", "composition", [a, b], {"law": "composition"}, **kw)


CASES = [
    comp(229, "Layout(N, X), Layout(3, 4)", "N:X", "3:4"),
    comp(230, "Layout(N, X), Layout(2, 1)", "N:X", "2:1"),
    comp(231, "Layout(N, 1), Layout(3, 4)", "N:1", "3:4"),
    comp(232, "Layout(N, X), Layout((2, 3), (1, 2))", "N:X", "(2,3):(1,2)"),
    comp(233, "Layout((12, N), (X, Y)), Layout(6, 4)", "(12,N):(X,Y)", "6:4"),
    comp(234, "Layout((8, N), (X, Y)), Layout(4, 1)", "(8,N):(X,Y)", "4:1"),
    comp(235, "Layout((4, N), (X, Y)), Layout((2, 2), (2, 1))", "(4,N):(X,Y)", "(2,2):(2,1)"),
    case("nvlabs-cute-0236", COMPOSITION, "test_composition_sympy_fails",
         "composition(Layout((N, 8), (X, Y)), Layout(4, 1)) raises ValueError (the shape divisibility "
         "condition is unverifiable for a symbolic N)", "composition", ["(N,8):(X,Y)", "4:1"],
         {"law": "composition"}, where="4 % min(N, 4) == 0",
         why="the symbolic refusal has no integer counterpart: where CuTe's shape divisibility condition "
             "(4 % min(N, 4) == 0) holds the answer must meet the post-condition; where it fails (N = 3) "
             "a refusal is accepted, and an answer must still meet the post-condition"),
]


def coal(n, test, op, peer, arg, want=None, law=False):
    e = {}
    if want is not None:
        e["same"] = want
    if law:
        e["law"] = op
    return dict(ref=n, source=COALESCE if op == "coalesce" else COALESCE_Z, test=test, peer=peer,
                op=op, args=[arg], expect=e, where=None, why=None)


def coal_refs(op):
    """The shared case ids of test_coalesce.py's sympy cases, in order; coalesce_z's are in
    nvlabs_pycute_extras.jsonl (the same `peer` text)."""
    if op == "coalesce":
        return iter(f"nvlabs-cute-{k:04}" for k in range(292, 301))
    return iter(["nvlabs_pycute_extras.jsonl"] * 9)


for op in ("coalesce", "coalesce_z"):
    post = f"postcondition_{op}"
    refs = coal_refs(op)
    ref = refs.__next__
    t1, t2 = f"test_{op}_sympy", f"test_{op}_sympy_static"
    CASES += [
        coal(ref(), t1, op, f"{post}(Layout((2, 4), (X, 2*X)))", "(2,4):(X,2*X)", "8:X", True),
        coal(ref(), t1, op, f"{post}(Layout((2, 3, 4), (X, 2*X, 6*X)))", "(2,3,4):(X,2*X,6*X)", "24:X", True),
        coal(ref(), t1, op, f"{post}(Layout((2, 4), (X, 3*X)))", "(2,4):(X,3*X)", "(2,4):(X,3*X)", True),
        coal(ref(), t2, op, f"{op}(Layout((4, N), (1, 4))) == Layout((4, N), (1, 4))", "(4,N):(1,4)", "(4,N):(1,4)"),
        coal(ref(), t2, op, f"{op}(Layout((N, 4), (1, N))) == Layout((N, 4), (1, N))", "(N,4):(1,N)", "(N,4):(1,N)"),
        coal(ref(), t2, op, f"{op}(Layout((2, N), (1, 2))) == Layout((2, N), (1, 2))", "(2,N):(1,2)", "(2,N):(1,2)"),
        coal(ref(), t2, op, f"{op}(Layout((N, M), (1, N))) == Layout(N*M, 1)", "(N,M):(1,N)", "N*M:1"),
        coal(ref(), t2, op, f"{op}(Layout((N, M), (X, Y))) == Layout((N, M), (X, Y))", "(N,M):(X,Y)", "(N,M):(X,Y)"),
        coal(ref(), t2, op, f"{op}(Layout((1, N), (X, Y))) == Layout(N, Y)", "(1,N):(X,Y)", "N:Y"),
    ]
    # the test's comments name the coalesced forms of its first three layouts
    for c in CASES[-9:-6]:
        c["same_from"] = "the test's comment"


def compl(n, peer, args, want, **kw):
    return case(f"nvlabs-cute-{n:04}", COMPLEMENT, "test_complement_sympy", peer, "complement", args,
                {"same": want}, **kw)


CASES += [
    compl(337, "complement(Layout(N, 1)) == Layout(1, N)", ["N:1"], "1:N"),
    compl(338, "complement(Layout(N, X)) == Layout((X, 1), (1, N*X))", ["N:X"], "(X,1):(1,N*X)", where="N > 1 or X == 1",
          why="a symbolic extent is never taken for 1: at N = 1 the layout 1:X is the single offset 0, "
              "its cosize is 1 and its complement (up to that cosize) has size 1, while the substituted "
              "symbolic answer (X,1):(1,X) has size X (the same function only where X = 1)"),
    compl(339, "complement(Layout((4, N), (1, 4))) == Layout(1, 4*N)", ["(4,N):(1,4)"], "1:4*N"),
    compl(340, "complement(Layout((2, N), (1, 2))) == Layout(1, 2*N)", ["(2,N):(1,2)"], "1:2*N"),
    compl(341, "complement(Layout((N, 4), (1, N))) == Layout(1, 4*N)", ["(N,4):(1,N)"], "1:4*N"),
    compl(342, "Layout(256, 1)._complement(extend=(32,4,2,2,N)) == Layout((2,N), (256,512)) "
          "(PyCuTe's complement into the codomain shape `extend`: cute's complement with a shape COTARGET)",
          ["256:1", "(32,4,2,2,N)"], "(2,N):(256,512)"),
]


def rinv(n, peer, arg, want, **kw):
    return case(f"nvlabs-cute-{n:04}", RIGHT_INVERSE, "test_right_inverse_sympy", peer, "right_inverse",
                [arg], {"same": want, "law": "right_inverse"}, **kw)


CASES += [
    rinv(466, "right_inverse(Layout(N, 1)) == Layout(N, 1)", "N:1", "N:1"),
    rinv(467, "right_inverse(Layout((4, N), (1, 4))) == Layout((4, N), (1, 4))", "(4,N):(1,4)", "(4,N):(1,4)"),
    rinv(468, "right_inverse(Layout((N, M), (1, N))) == Layout(N*M, 1)", "(N,M):(1,N)", "N*M:1"),
    rinv(469, "right_inverse(Layout(N, X)) == Layout(1, 0)", "N:X", "1:0", where="X != 1 or N == 1",
         why="a symbolic stride X is never taken for 1 (the layout is read as strided, not surjective); "
             "at X = 1 the integer layout N:1 is its own right inverse"),
    rinv(470, "right_inverse(Layout((M, N), (DM, DN))) == Layout(1, 0)", "(M,N):(DM,DN)", "1:0",
         where="(DM != 1 or M == 1) and (DN != 1 or N == 1)",
         why="symbolic strides cannot be ordered, so PyCuTe keeps only the trivial inverse; at "
             "integers a stride-1 mode of extent > 1 starts a non-trivial inverse"),
    rinv(471, "right_inverse(Layout((N, 4), (1, N))) == Layout((N, 4), (1, N))", "(N,4):(1,N)", "(N,4):(1,N)"),
]


def order(n, peer, shape, order_, want, where, why):
    return case(f"nvlabs-cute-{n:04}", MAKE_LAYOUT, "TestMakeOrderedLayout.test_sympy", peer,
                "make_ordered_layout", [shape, order_], {"same": want}, where=where, why=why)


SYM_ORDER = ("PyCuTe (like CuTe for dynamic order values) ranks a symbolic order value after every "
             "static one and symbolic values among themselves left to right; at integers that is "
             "the order by magnitude exactly where ")
CASES += [
    order(708, "make_ordered_layout((4, 8), (1, P)) == Layout((4, 8), (1, 4))", "(4,8)", "(1,P)",
          "(4,8):(1,4)", None, None),
    order(709, "make_ordered_layout((4, 8), (P, 1)) == Layout((4, 8), (8, 1))", "(4,8)", "(P,1)",
          "(4,8):(8,1)", "P > 1", SYM_ORDER + "P > 1"),
    order(710, "make_ordered_layout((4, 8), (P, Q)) == Layout((4, 8), (1, 4))", "(4,8)", "(P,Q)",
          "(4,8):(1,4)", "P <= Q", SYM_ORDER + "P <= Q"),
    order(711, "make_ordered_layout((2, 3, 4, 5), (2, P, Q, 50)) == Layout((2, 3, 4, 5), (1, 10, 30, 2))",
          "(2,3,4,5)", "(2,P,Q,50)", "(2,3,4,5):(1,10,30,2)", "50 < P <= Q", SYM_ORDER + "50 < P <= Q"),
    order(712, "make_ordered_layout((2, 3, 4), (P, 0, Q)) == Layout((2, 3, 4), (3, 1, 6))", "(2,3,4)",
          "(P,0,Q)", "(2,3,4):(3,1,6)", "0 < P <= Q", SYM_ORDER + "0 < P <= Q"),
]


def like(n, test, peer, arg, want, where=None, why=None):
    return case(f"nvlabs-cute-{n:04}", MAKE_LAYOUT, test, peer, "make_layout_like", [arg], {"same": want},
                where=where, why=why)


# The case file does not tell TestMakeLayoutLike's cases apart (`unsupported: make_layout_like`,
# all of them replaced by nvlabs_rest.jsonl, which has no sympy case): these refs are their
# positions in the test file's order.
LIKE = "TestMakeLayoutLike.test_sympy"
SYM_STRIDE = ("PyCuTe ranks a symbolic stride after every static one and symbolic strides among "
              "themselves left to right; at integers that is the order by magnitude exactly where ")
CASES += [
    like(648, LIKE, "make_layout_like(Layout((N, 4), (1, N))) == Layout((N, 4), (1, N))", "(N,4):(1,N)", "(N,4):(1,N)"),
    like(649, LIKE, "make_layout_like(Layout((4, N), (1, 4))) == Layout((4, N), (1, 4))", "(4,N):(1,4)", "(4,N):(1,4)"),
    like(650, LIKE, "make_layout_like(Layout((2, N, 4), (1, X, 2))) == Layout((2, N, 4), (1, 8, 2))",
         "(2,N,4):(1,X,2)", "(2,N,4):(1,8,2)", "X > 2", SYM_STRIDE + "X > 2"),
    like(651, LIKE, "make_layout_like(Layout((N, M), (X, Y))) == Layout((N, M), (1, N))",
         "(N,M):(X,Y)", "(N,M):(1,N)", "X < Y",
         SYM_STRIDE + "X < Y (equal strides share one compact stride in CuTe's make_layout_like, "
         "which cute follows: (2,2):(1,1) stays (2,2):(1,1))"),
    like(652, "TestMakeLayoutLike.test_sympy_substitution",
         "make_layout_like(Layout((N, 4), (1, N))) substituted N -> n equals make_layout_like(Layout((n, 4), (1, n))) "
         "for n in (2, 3, 5)", "(N,4):(1,N)", "(N,4):(1,N)", "N > 1",
         "the test's own restriction: a symbolic extent is generic (n > 1)"),
]

# Order symbols must exceed the case's largest static order to meet `where`: they range over
# the eight integers above it.
OFFSET = {"nvlabs-cute-0711": 50}

ABOUT = (
    "NVlabs PyCuTe (github.com/NVlabs/CuTe) test assertions over sympy symbols (test_composition_sympy, "
    "test_coalesce_sympy, test_complement_sympy, test_right_inverse_sympy, TestMakeOrderedLayout.test_sympy, "
    "TestMakeLayoutLike.test_sympy(_substitution), test_coalesce_z_sympy), transcribed by hand (inputs, expected symbolic answers and the symbols' "
    "assumptions; no peer code) and checked at integer substitutions: cute has no symbolic integers. "
    "Generated by scripts/gen-nvlabs-sympy.py (its header says what `same`, `law`, `may_refuse`, `where` "
    "mean). `ref` is the case of ../shared/peer-tests/cases/nvlabs_cute.jsonl, or for coalesce_z the "
    "transcription in nvlabs_pycute_extras.jsonl with the same `peer` text; `args` and `expect.same` are "
    "the symbolic forms, `subs` the substitutions, each with its symbols (`at`), concrete `args` and "
    "`expect`.")


def evaluate(expr, env):
    """An integer expression of + - * // over literals and symbol names."""
    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name):
            return env[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}
            if isinstance(n.op, ast.FloorDiv):
                return a // b
            return ops[type(n.op)]
        raise ValueError(f"not an integer expression: {expr}")
    return ev(ast.parse(expr, mode="eval"))


ATOM = re.compile(r"[^(),:\s]+")


def substitute(text, env):
    """The text with every extent, stride or value expression evaluated."""
    return ATOM.sub(lambda m: str(evaluate(m.group(0), env)), text)


def symbols(c):
    names = set()
    for t in c["args"] + [c["expect"].get("same", "")]:
        names |= set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", t))
    return sorted(names)


def substitutions(c):
    names = symbols(c)
    top = 8 if len(names) < 4 else 5
    lo = OFFSET.get(c["ref"], 0)
    out = []
    for vals in itertools.product(range(lo + 1, lo + top + 1), repeat=len(names)):
        env = dict(zip(names, vals))
        holds = c["where"] is None or eval(c["where"], {}, dict(env))
        e = {}
        if "same" in c["expect"] and holds:
            e["same"] = substitute(c["expect"]["same"], env)
        if "law" in c["expect"]:
            e["law"] = c["expect"]["law"]
            if not holds and c["op"] == "composition":
                e["may_refuse"] = True
        if not e:
            continue
        at = ",".join(f"{k}={v}" for k, v in env.items())
        out.append({"at": at, "args": [substitute(a, env) for a in c["args"]], "expect": e})
    return names, top, lo, out


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "crates", "cute-ops", "tests", "data", "nvlabs_sympy.jsonl"))
    opt = ap.parse_args()
    lines = [json.dumps({"about": ABOUT})]
    total = 0
    for c in CASES:
        names, top, lo, subs = substitutions(c)
        c = {k: v for k, v in c.items() if v is not None}
        c["symbols"] = f"{', '.join(names)}: {POSITIVE}"
        c["sample"] = f"every assignment of {', '.join(names)} in {lo + 1}..{lo + top}" + (
            f" with {c['where']} for `same`" if "where" in c else "")
        c["subs"] = subs
        total += len(subs)
        lines.append(json.dumps(c))
    with open(opt.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(CASES)} cases, {total} substitutions -> {opt.out}")


if __name__ == "__main__":
    main()

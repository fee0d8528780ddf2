"""Per-call cost of cute_layout functions, for comparing two builds side by side.

    python crates/cute-py/bench_calls.py DIR_A DIR_B [ROUNDS]

DIR_A and DIR_B are folders holding a `cute_layout` package (e.g. two unpacked wheels). Each
round times every case in each build, alternating, in fresh interpreters; the report is the
per-call minimum (ns) over the rounds for each build and the ratio B/A. Cases call the same
functions with the same arguments; `op:NAME` cases call `run(NAME, ...)` in A and the function
`NAME` in B when B has it (a generated function of the table), else `run` as well.
"""

import json
import subprocess
import sys

CASES = [
    ("size", "cl.size(L)"),
    ("rank", "cl.rank(L)"),
    ("coalesce", "cl.coalesce(L)"),
    ("composition", "cl.composition(A, B)"),
    ("complement", "cl.complement(L, 64)"),
    ("logical_divide", "cl.logical_divide(A, T)"),
    ("crd2idx", "cl.crd2idx((1, 2), L)"),
    ("filter", "cl.filter(L)"),
    ("nullspace", "cl.nullspace(L)"),
    ("L(i)", "L(5)"),
    ("run size", "cl.run('size', L)"),
    ("run tuple_cat", "cl.run('tuple_cat', (1, 2), (3,))"),
    ("op:tuple_cat", "CALL_tuple_cat"),
    ("op:congruent", "CALL_congruent"),
    ("op:shape_div", "cl.shape_div((12, 8), 4)"),
]

CHILD = r"""
import json, sys, timeit
sys.path.insert(0, sys.argv[1])
import cute_layout as cl
L = cl.Layout((2, (3, 4)), (1, (2, 6)))
A = cl.Layout((6, 2), (8, 2))
B = cl.Layout((4, 3), (3, 1))
T = (2, 2)
out = {}
for name, expr in json.loads(sys.argv[2]):
    if expr == "CALL_tuple_cat":
        expr = "cl.tuple_cat([(1, 2), (3,)])" if hasattr(cl, "tuple_cat") else "cl.run('tuple_cat', (1, 2), (3,))"
    if expr == "CALL_congruent":
        expr = "cl.congruent((1, 2), (3, 4))" if hasattr(cl, "congruent") else "cl.run('congruent', (1, 2), (3, 4))"
    t = timeit.Timer(expr, globals=globals())
    n, _ = t.autorange()
    out[name] = min(t.repeat(5, n)) / n * 1e9
print(json.dumps(out))
"""


def main(argv):
    a, b = argv[0], argv[1]
    rounds = int(argv[2]) if len(argv) > 2 else 3
    best = {a: {}, b: {}}
    for _ in range(rounds):
        for d in (a, b):
            r = subprocess.run(
                [sys.executable, "-c", CHILD, d, json.dumps(CASES)],
                capture_output=True, text=True, check=True,
            )
            for k, v in json.loads(r.stdout).items():
                best[d][k] = min(v, best[d].get(k, v))
    print(f"{'case':<16} {'A ns':>9} {'B ns':>9} {'B/A':>6}")
    for name, _ in CASES:
        x, y = best[a][name], best[b][name]
        print(f"{name:<16} {x:9.1f} {y:9.1f} {y / x:6.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])

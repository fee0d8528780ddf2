"""Per-call cost of cute_layout functions, for comparing two builds side by side.

    python crates/cute-py/bench_calls.py DIR_A DIR_B [ROUNDS]
    python crates/cute-py/bench_calls.py --ir DIR_A DIR_B [CALLS [CASE,CASE,...]]

DIR_A and DIR_B are folders holding a `cute_layout` package (e.g. two unpacked wheels). Each
round times every case in each build, alternating, in fresh interpreters; the report is the
per-call minimum (ns) over the rounds for each build and the ratio B/A. With `--ir`, the
count of each case is callgrind's instructions per call instead (valgrind; independent of the
machine's load): (instructions of a process making CALLS calls - those of one making none) / CALLS,
PYTHONHASHSEED=0. Cases call the same
functions with the same arguments; `op:NAME` cases call the generated function `NAME` in a
build that has the table's functions (`cute_layout._ops`) and `run(NAME, ...)` in one without.
"""

import json
import subprocess
import sys

# (name, expression): an expression `NEW || OLD` is NEW in a build with the generated functions
# of the table (`cute_layout._ops`) and OLD in one without them.
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
    ("run coalesce", "cl.run('coalesce', L)"),
    ("run composition", "cl.run('composition', A, B)"),
    ("run tuple_cat", "cl.run('tuple_cat', (1, 2), (3,))"),
    ("run_text size", "cl.run_text('size', L)"),
    ("run_text coalesce", "cl.run_text('coalesce', L)"),
    ("run_text text", "cl.run_text('coalesce', '(2,(3,4)):(1,(2,6))')"),
    ("op:tuple_cat", "cl.tuple_cat([(1, 2), (3,)]) || cl.run('tuple_cat', (1, 2), (3,))"),
    ("op:congruent", "cl.congruent((1, 2), (3, 4)) || cl.run('congruent', (1, 2), (3, 4))"),
    ("op:make_ordered", "cl.make_ordered_layout((2, 3, 4), (1, 0, 2)) || cl.run('make_ordered_layout', (2, 3, 4), (1, 0, 2))"),
    ("op:with_shape", "cl.with_shape(L, (4, 6)) || cl.run('with_shape', L, (4, 6))"),
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
new = hasattr(cl, "_ops")
out = {}
for name, expr in json.loads(sys.argv[2]):
    if " || " in expr:
        expr = expr.split(" || ")[0 if new else 1]
    t = timeit.Timer(expr, globals=globals())
    n, _ = t.autorange()
    out[name] = min(t.repeat(5, n)) / n * 1e9
print(json.dumps(out))
"""


IR_CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
import cute_layout as cl
L = cl.Layout((2, (3, 4)), (1, (2, 6)))
A = cl.Layout((6, 2), (8, 2))
B = cl.Layout((4, 3), (3, 1))
T = (2, 2)
expr = sys.argv[2]
if " || " in expr:
    expr = expr.split(" || ")[0 if hasattr(cl, "_ops") else 1]
code = compile(expr, "<case>", "eval")
for _ in range(int(sys.argv[3])):
    eval(code)
"""


def instructions(d, expr, calls):
    """callgrind's count of instructions of a process making `calls` calls of `expr`."""
    import os
    import re

    r = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", IR_CHILD, d, expr, str(calls)],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return int(re.search(r"Collected : (\d+)", r.stderr).group(1))


def main_ir(a, b, calls, names=None):
    print(f"{'case':<18} {'A Ir':>9} {'B Ir':>9} {'B/A':>6}")
    base = {d: instructions(d, "0", 0) for d in (a, b)}
    for name, expr in CASES:
        if names and name not in names:
            continue
        x, y = ((instructions(d, expr, calls) - base[d]) / calls for d in (a, b))
        print(f"{name:<18} {x:9.0f} {y:9.0f} {y / x:6.3f}", flush=True)


def main(argv):
    if argv[0] == "--ir":
        calls = int(argv[3]) if len(argv) > 3 else 2000
        return main_ir(argv[1], argv[2], calls, argv[4].split(",") if len(argv) > 4 else None)
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
    print(f"{'case':<18} {'A ns':>9} {'B ns':>9} {'B/A':>6}")
    for name, _ in CASES:
        x, y = best[a][name], best[b][name]
        print(f"{name:<18} {x:9.1f} {y:9.1f} {y / x:6.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Measure the peer-test cases that ../shared/peer-tests marks `unsupported` against the
operations `cute` has now (issue #29: composed layouts, the IntTuple toolkit, slicing).

The case files record, for each such case, the peer's function (`peer_fn`), its arguments in our
text form (`peer_args`) and the peer's answer (`expect`). This script maps the peer function onto
a `cute batch` request where one exists, runs them all through one `cute batch` process and
counts, per suite and per peer function:

  pass      our answer's text equals the peer's (spaces ignored), or both are the same truth value
  refused   we refuse and the peer raised too
  differ    a different answer (listed: to be judged by the law, not counted as wrong)
  error     we refuse where the peer answered (listed)
  unmapped  no translation (a peer-only analysis, or arguments not expressible in text)

    python3 scripts/peer-surface.py target/release/cute [--cases ../shared/peer-tests/cases] [--show N]

NVlabs PyCuTe's extras (layout_add, greatest_common_domain, coalesce_z, common_refinement,
common_coarsening) and its F2-stride tests have no arguments in the shared case file, so their
cases there are replaced by the project's transcription of the same tests
(crates/cute-ops/tests/data/nvlabs_pycute_extras.jsonl, nvlabs_f2.jsonl, where an F2 layout that
cute expresses is given as an integer or swizzled layout): exact answers and refusals are
compared, the post-conditions (R(i) == A(i) + B(i), coalesce_z's values past the end, the
order of compatible shapes, commutativity, ...) checked with ../shared/peer-tests/peerlib.py.
Their cases of F2 arithmetic, sympy symbols or PyCuTe's [mode] indexing stay `unmapped`.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "peer-tests"))
import peerlib  # noqa: E402  (../shared/peer-tests: the runner's independent evaluator)

SAME = {
    "size", "rank", "depth", "cosize", "shape", "shape_div", "shape_mod", "round_up",
    "product_each", "elem_scale", "safe_div", "tuple_max", "unflatten", "mode",
    "slice_and_offset", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product", "max_common_vector",
    "max_common_layout", "idx2crd", "coalesce",
}
RENAMED = {
    "compose": "composition",
    "slice_modes": "slice",
    "dice_modes": "dice",
    "functionally_equal": "equal",
    "is_injective": "injective",
    "is_bijective": "bijective",
}


def translate(case):
    fn, args = case.get("peer_fn"), case.get("peer_args")
    if not fn or args is None:
        return None
    if fn == "Layout.__call__":
        if len(args) != 2:
            return None
        if "_" in args[1]:
            return ("slice", [args[1], args[0]])
        return ("crd2idx", [args[1], args[0]])
    if fn in SAME:
        return (fn, list(args))
    if fn in RENAMED:
        return (RENAMED[fn], list(args))
    return None


def norm(s):
    return "".join(str(s).split())


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
    reqs = [(c, translate(c)) for c in cases]
    todo = [(c, t) for c, t in reqs if t is not None]
    inp = "".join(json.dumps({"op": t[0], "args": t[1]}) + "\n" for _, t in todo)
    out = subprocess.run([opt.cute, "batch"], input=inp, capture_output=True, text=True).stdout
    answers = [json.loads(l) for l in out.splitlines()]
    if len(answers) != len(todo):
        sys.exit(f"peer-surface: {len(todo)} requests, {len(answers)} answers")

    cat = defaultdict(Counter)
    by_fn = defaultdict(Counter)
    shown = defaultdict(list)
    todo_x = [(c, extras_requests(c)) for c in extras if not c.get("no_form")]
    inp = "".join(json.dumps({"op": op, "args": args}) + "\n" for _, rs in todo_x for op, args in rs)
    out = subprocess.run([opt.cute, "batch"], input=inp, capture_output=True, text=True).stdout
    flat = [json.loads(l) for l in out.splitlines()]
    for c in extras:
        if c.get("no_form"):
            k = "unmapped"
        else:
            rs = next(rs for x, rs in todo_x if x is c)
            got, flat = flat[: len(rs)], flat[len(rs):]
            k = judge_extras(c, got)
            if k in ("differ", "error") and len(shown[k]) < opt.show:
                shown[k].append(f"  {c['id']} {c['op']} {c.get('args')}: ours {got[0]}, peer {c['expect']}")
        cat[c["suite"]][k] += 1
        by_fn[(c["suite"], c["peer_fn"])][k] += 1
    for c, t in reqs:
        if t is None:
            k = "unmapped"
        else:
            a = answers.pop(0)
            exp = c.get("expect") or {}
            if "ok" in a:
                if "text" in exp and norm(a["ok"]) == norm(exp["text"]):
                    k = "pass"
                else:
                    k = "differ"
            else:
                k = "refused" if "raised" in exp else "error"
            if k in ("differ", "error") and len(shown[k]) < opt.show:
                shown[k].append(f"  {c['id']} {t[0]} {t[1]}: ours {a.get('ok', a.get('error'))!r}, peer {exp}")
        n = c.get("count", 1) if c["suite"] == "tensor-layouts" else 1
        cat[c["suite"]][k] += 1
        by_fn[(c["suite"], c.get("peer_fn") or c["unsupported"][:40])][k] += 1
        _ = n
    keys = ["pass", "refused", "differ", "error", "unmapped"]
    print(f"{'suite':16} " + " ".join(f"{k:>9}" for k in keys))
    for s in sorted(cat):
        print(f"{s:16} " + " ".join(f"{cat[s][k]:9}" for k in keys))
    print()
    for (s, fn), cnt in sorted(by_fn.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"{s:16} {fn:42} " + " ".join(f"{k}={cnt[k]}" for k in keys if cnt[k]))
    for k in ("differ", "error"):
        if shown[k]:
            print(f"\n{k}:")
            print("\n".join(shown[k]))


if __name__ == "__main__":
    main()

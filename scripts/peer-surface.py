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
"""

import argparse
import glob
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict

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

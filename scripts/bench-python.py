#!/usr/bin/env python3
"""Time the benchmark cases from Python: pycute against the drop-in `cute_layout.pycute`, the
same Python code with the module swapped, in one run, case by case.

Both modules must be importable: pycute from the `nvidia-cutlass` wheel (`pip install --no-deps
nvidia-cutlass`), ours from `pip install ./crates/cute-py`. If either is missing, the script
creates or reuses a venv (default ~/.cache/cute-bench/venv, override with CUTE_BENCH_VENV),
installs what is missing there and re-runs itself inside it; `--reinstall` rebuilds ours first.

Each case is one call, written once for both modules (`make_call(m, op, args)`): inputs are built
once outside the timed call, then `timeit.Timer.autorange()` picks the call count and REPEATS
repeats give the min and the median. blocked_product / raked_product are not in pycute: the
same code calls the module's function where it has one (the drop-in does) and otherwise a helper
built on `m.logical_product` (CuTe layout.hpp's definition, as scripts/bench-pycute.py does), so
pycute runs the helper; the `via helper` column times the drop-in through that helper too. A sweep is `[L(i) for i in range(size(L))]`, per element.

Every result of ours is compared with pycute's: exact, same-function, valid-inverse (lawful,
differs off the image) or DIFFERS.

Usage:
  scripts/bench-python.py [--cases FILE] [--repeats N] [--markdown] [--json OUT] [--reinstall]
"""

import argparse
import json
import math
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import timeit

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import cute_notation  # noqa: E402  (after the path is set)

ALGEBRA = {
    "coalesce", "composition", "complement", "right_inverse", "left_inverse", "logical_divide",
    "zipped_divide", "logical_product", "blocked_product", "raked_product",
}


def importable(py, mod):
    return subprocess.run([str(py), "-c", f"import {mod}"], capture_output=True).returncode == 0


def ensure_modules(reinstall):
    """Import pycute and cute_layout, else install them into the venv and re-run there."""
    if not reinstall:
        try:
            import cute_layout.pycute  # noqa: F401
            import pycute  # noqa: F401

            return
        except ImportError:
            pass
    venv = cute_notation.VENV
    inside = pathlib.Path(sys.prefix).resolve() == venv.resolve()
    py = venv / "bin" / "python"
    if not py.exists():
        print(f"bench-python: creating {venv}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if not importable(py, "pycute"):
        subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "nvidia-cutlass"],
                       check=True, stdout=sys.stderr)
    if reinstall or not importable(py, "cute_layout"):
        print("bench-python: pip install ./crates/cute-py (release build)", file=sys.stderr)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps",
                        str(ROOT / "crates" / "cute-py")], check=True, stdout=sys.stderr)
    if inside and not reinstall:
        sys.exit("bench-python: pycute or cute_layout is not importable inside " + str(venv))
    argv = [a for a in sys.argv[1:] if a != "--reinstall"]
    os.execv(str(py), [str(py), __file__, *argv])


# ---- one code path for both modules ------------------------------------------------------------


def to_value(m, v):
    """A parsed argument (cute_notation.parse) as the module's value: int, tuple or Layout."""
    if isinstance(v, int):
        return v
    if v[0] == "layout":
        return m.Layout(to_value(m, v[1]), to_value(m, v[2]))
    return tuple(to_value(m, x) for x in v[1])


def pad(m, layout, rank):
    modes = [layout[i] for i in range(len(layout))] if isinstance(layout.shape, tuple) else [layout]
    while len(modes) < rank:
        modes.append(m.Layout(1, 0))
    return m.make_layout(*modes)


def rank_product(m, a, b, raked):
    """blocked/raked product on top of m.logical_product (CuTe layout.hpp's definition)."""
    ra = len(a.shape) if isinstance(a.shape, tuple) else 1
    rb = len(b.shape) if isinstance(b.shape, tuple) else 1
    r = max(ra, rb)
    p = m.logical_product(pad(m, a, r), pad(m, b, r))
    first, second = p[0], p[1]
    if raked:
        first, second = second, first
    return m.make_layout(*(m.make_layout(first[i], second[i]) for i in range(r)))


def make_call(m, op, args):
    """The timed call of one case through module `m` (inputs built here, once) and its element
    count. The same code for pycute and for cute_layout.pycute."""
    v = [to_value(m, cute_notation.parse(a)) for a in args]
    if op == "coalesce":
        return (lambda: m.coalesce(v[0])), 1
    if op == "composition":
        return (lambda: m.composition(v[0], v[1])), 1
    if op == "complement":
        return (lambda: m.complement(v[0], v[1])), 1
    if op == "right_inverse":
        return (lambda: m.right_inverse(v[0])), 1
    if op == "left_inverse":
        return (lambda: m.left_inverse(v[0])), 1
    if op == "logical_divide":
        return (lambda: m.logical_divide(v[0], v[1])), 1
    if op == "zipped_divide":
        return (lambda: m.zipped_divide(v[0], v[1])), 1
    if op == "logical_product":
        return (lambda: m.logical_product(v[0], v[1])), 1
    if op in ("blocked_product", "raked_product"):
        # The module's own function where it has one (the drop-in); pycute has none, so the
        # helper on its logical_product stands in (`helper_call` times ours through it too).
        f = getattr(m, op, None)
        if f is not None:
            return (lambda: f(v[0], v[1])), 1
        return (lambda: rank_product(m, v[0], v[1], op == "raked_product")), 1
    if op == "crd2idx":
        crd, lay = v
        return (lambda: m.crd2idx(crd, lay.shape, lay.stride)), 1
    if op == "idx2crd":
        idx, shape = v
        return (lambda: m.idx2crd(idx, shape)), 1
    if op == "sweep":
        lay = v[0]
        n = m.size(lay)
        return (lambda: [lay(i) for i in range(n)]), n
    raise ValueError(f"unknown operation {op!r}")


def helper_call(m, op, args):
    """blocked/raked product through the helper on `m.logical_product` (pycute's way), for the
    `via helper` column."""
    v = [to_value(m, cute_notation.parse(a)) for a in args]
    return lambda: rank_product(m, v[0], v[1], op == "raked_product")


def norm(x):
    return str(x).replace(" ", "").replace(",)", ")")


def check(op, ours, theirs, args, pycute):
    if op in ("sweep", "crd2idx", "idx2crd"):
        return "exact" if norm(ours) == norm(theirs) else "DIFFERS"
    if norm(ours) == norm(theirs):
        return "exact"
    n = pycute.size(theirs)
    if pycute.size(ours) == n and all(ours(i) == theirs(i) for i in range(n)):
        return "same-function"
    layout = to_value(pycute, cute_notation.parse(args[0]))
    if op == "left_inverse" and all(ours(layout(i)) == i for i in range(pycute.size(layout))):
        return "valid-inverse"
    if op == "right_inverse" and all(layout(ours(i)) == i for i in range(pycute.size(ours))):
        return "valid-inverse"
    return "DIFFERS"


def time_call(fn, elements, repeats):
    t = timeit.Timer(fn)
    number, _ = t.autorange()  # at least 0.2 s per repeat
    runs = sorted(x / number / elements for x in t.repeat(repeat=repeats, number=number))
    return runs[0] * 1e9, statistics.median(runs) * 1e9  # nanoseconds


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=str(ROOT.parent / "shared" / "bench" / "cases.txt"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", help="also write the numbers to this file")
    ap.add_argument("--reinstall", action="store_true", help="rebuild and reinstall cute_layout first")
    opts = ap.parse_args()
    ensure_modules(opts.reinstall)

    import pycute

    import cute_layout.pycute as ours_mod

    rows = []
    for k, (line, op, args) in enumerate(cute_notation.read_cases(opts.cases), 1):
        theirs_fn, n = make_call(pycute, op, args)
        ours_fn, _ = make_call(ours_mod, op, args)
        verdict = check(op, ours_fn(), theirs_fn(), args, pycute)
        t_min, t_med = time_call(theirs_fn, n, opts.repeats)
        o_min, o_med = time_call(ours_fn, n, opts.repeats)
        helper = None
        if op in ("blocked_product", "raked_product"):
            helper = time_call(helper_call(ours_mod, op, args), 1, opts.repeats)
        rows.append(dict(case=k, line=line, op=op, pycute_ns=(t_min, t_med), ours_ns=(o_min, o_med),
                         ratio=t_med / o_med, helper_ns=helper, check=verdict))
        print(f"{k:2} {op:16} pycute {t_med:9.0f} ns  ours {o_med:7.0f} ns  {t_med / o_med:6.1f}x  {verdict}",
              file=sys.stderr)

    alg = [r["ratio"] for r in rows if r["op"] in ALGEBRA]
    summary = dict(
        python=platform.python_version(),
        algebra_geomean=geomean(alg),
        algebra_min=min(alg) if alg else float("nan"),
        crd2idx=next((r["ratio"] for r in rows if r["op"] == "crd2idx"), float("nan")),
        idx2crd=next((r["ratio"] for r in rows if r["op"] == "idx2crd"), float("nan")),
    )
    if opts.markdown:
        print("| # | case | pycute ns (min / median) | ours ns (min / median) | pycute / ours | ours via helper ns (ratio) | check |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            d = (f"{r['helper_ns'][1]:.0f} ({r['pycute_ns'][1] / r['helper_ns'][1]:.1f}x)"
                 if r["helper_ns"] else "")
            print(f"| {r['case']} | `{r['line']}` | {r['pycute_ns'][0]:.0f} / {r['pycute_ns'][1]:.0f} | "
                  f"{r['ours_ns'][0]:.0f} / {r['ours_ns'][1]:.0f} | {r['ratio']:.1f}x | {d} | {r['check']} |")
        print()
        print(f"Geometric mean over the {len(alg)} algebra cases: {summary['algebra_geomean']:.1f}x "
              f"(lowest {summary['algebra_min']:.1f}x); crd2idx {summary['crd2idx']:.1f}x, "
              f"idx2crd {summary['idx2crd']:.1f}x. Python {summary['python']}.")
    else:
        for r in rows:
            print(f"{r['case']:2} {r['ratio']:7.1f}x  {r['line']}")
        print(json.dumps(summary))
    if opts.json:
        pathlib.Path(opts.json).write_text(json.dumps(dict(rows=rows, summary=summary), indent=1))
    if any(r["check"] == "DIFFERS" for r in rows):
        sys.exit("bench-python: a result differs from pycute's (see the check column)")


if __name__ == "__main__":
    main()

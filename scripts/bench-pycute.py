#!/usr/bin/env python3
"""Time pycute and cute-layout on the same cases file, in the same run, side by side.

pycute comes from the `nvidia-cutlass` wheel, installed with `pip install --no-deps` into a
virtual environment outside the repository (default ~/.cache/cute-bench/venv; override with
CUTE_BENCH_VENV); the script creates it on first use and re-runs itself inside it. Ours is the
`cute-bench` binary (`cargo build --profile bench-release -p cute-bench`), run with `--stats --rounds 3`.

pycute timing: inputs are built once outside the timed call; the timed call is the pycute
function itself (`coalesce`, `composition`, ..., `crd2idx(crd, shape, stride)`,
`idx2crd(idx, shape)`; a sweep is `[L(i) for i in range(size(L))]`, reported per element);
`timeit.Timer.autorange()` picks the call count, then REPEATS repeats, min and median reported.
pycute has no blocked_product / raked_product: they are built on `pycute.logical_product` as
CuTe's layout.hpp defines them (both operands padded with 1:0 to the same rank, logical product,
then mode i is (A_i, B'_i) or (B'_i, A_i)).

Usage:
  scripts/bench-pycute.py [--cases FILE] [--bench BIN] [--repeats N] [--json OUT]
                          [--ir IR_FILE --baseline results-baseline.md --markdown]
Prints a table: case, ours ns (min / median: the best and the median of cute-bench's placements
over its three passes, see `cute_bench::time_case`), pycute us (min / median), pycute/ours ratio. With
--ir (the output of scripts/bench-ir.sh) and --baseline it adds our instructions/op and the CuTe
C++ columns of the baseline file, with the ratio of our Ir to CuTe's and their geometric means;
--markdown prints the table as Markdown (what BENCHMARKS.md holds).
"""

import argparse
import json
import math
import os
import pathlib
import re
import statistics
import subprocess
import sys
import timeit

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import cute_notation  # noqa: E402  (after the path is set)


def ensure_pycute():
    """Import pycute, creating the venv and re-executing inside it if needed."""
    try:
        import pycute  # noqa: F401

        return
    except ImportError:
        pass
    if pathlib.Path(sys.prefix).resolve() == cute_notation.VENV.resolve():
        sys.exit("bench-pycute: pycute is not importable inside " + str(cute_notation.VENV))

    def ready(py):
        return subprocess.run([str(py), "-c", "import pycute"], capture_output=True).returncode == 0

    py = cute_notation.venv_python(["nvidia-cutlass"], "bench-pycute", ready)
    os.execv(str(py), [str(py), __file__, *sys.argv[1:]])


# ---- CuTe notation -> pycute values ------------------------------------------------------------


def to_pycute(v):
    """A parsed argument (cute_notation.parse) as a pycute value: int, tuple or Layout."""
    import pycute

    if isinstance(v, int):
        return v
    if v[0] == "layout":
        return pycute.Layout(to_pycute(v[1]), to_pycute(v[2]))
    return tuple(to_pycute(x) for x in v[1])


def parse_value(text):
    """Parse one argument: an int, an int tuple, a layout `S:D`, or a tuple of tilers `<...>`/`(...)`."""
    return to_pycute(cute_notation.parse(text))


def as_tiler(v):
    """A shape tiler (32,16) is the tuple of its integers; pycute takes ints as n:1 layouts."""
    return v


def pad(layout, rank):
    import pycute

    modes = [layout[i] for i in range(len(layout))] if isinstance(layout.shape, tuple) else [layout]
    while len(modes) < rank:
        modes.append(pycute.Layout(1, 0))
    return pycute.make_layout(*modes)


def rank_product(a, b, raked):
    """blocked/raked product on top of pycute.logical_product (CuTe layout.hpp's definition)."""
    import pycute

    ra = len(a.shape) if isinstance(a.shape, tuple) else 1
    rb = len(b.shape) if isinstance(b.shape, tuple) else 1
    r = max(ra, rb)
    pa, pb = pad(a, r), pad(b, r)
    p = pycute.logical_product(pa, pb)
    first, second = p[0], p[1]
    if raked:
        first, second = second, first
    return pycute.make_layout(*(pycute.make_layout(first[i], second[i]) for i in range(r)))


def make_call(op, args):
    """The timed call of one case (inputs built here, once) and its element count."""
    import pycute

    v = [parse_value(a) for a in args]
    if op == "coalesce":
        return (lambda: pycute.coalesce(v[0])), 1
    if op == "composition":
        return (lambda: pycute.composition(v[0], v[1])), 1
    if op == "complement":
        return (lambda: pycute.complement(v[0], v[1])), 1
    if op == "right_inverse":
        return (lambda: pycute.right_inverse(v[0])), 1
    if op == "left_inverse":
        return (lambda: pycute.left_inverse(v[0])), 1
    if op == "logical_divide":
        return (lambda: pycute.logical_divide(v[0], as_tiler(v[1]))), 1
    if op == "zipped_divide":
        return (lambda: pycute.zipped_divide(v[0], as_tiler(v[1]))), 1
    if op == "logical_product":
        return (lambda: pycute.logical_product(v[0], v[1])), 1
    if op == "blocked_product":
        return (lambda: rank_product(v[0], v[1], False)), 1
    if op == "raked_product":
        return (lambda: rank_product(v[0], v[1], True)), 1
    if op == "crd2idx":
        crd, lay = v
        return (lambda: pycute.crd2idx(crd, lay.shape, lay.stride)), 1
    if op == "idx2crd":
        idx, shape = v
        return (lambda: pycute.idx2crd(idx, shape)), 1
    if op == "sweep":
        lay = v[0]
        n = pycute.size(lay)
        return (lambda: [lay(i) for i in range(n)]), n
    raise ValueError(f"unknown operation {op!r}")


def read_cases(path):
    return cute_notation.read_cases(path)


def time_pycute(fn, elements, repeats):
    t = timeit.Timer(fn)
    number, _ = t.autorange()  # at least 0.2 s per repeat
    runs = sorted(x / number / elements for x in t.repeat(repeat=repeats, number=number))
    return runs[0] * 1e6, statistics.median(runs) * 1e6  # microseconds


def run_ours(bench, cases_file, repeats):
    # Three passes over the file (cute-bench --rounds): a burst of load on a shared machine
    # during one case's timing then costs that case one pass, not its result.
    out = subprocess.run(
        [str(bench), "--stats", "--rounds", "3", "--repeats", str(repeats), str(cases_file)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    ours = {}
    for line in out.splitlines():
        i, mn, med, _ = line.split()
        ours[int(i)] = (float(mn), float(med))
    return ours


def run_results(bench, cases_file):
    out = subprocess.run([str(bench), "--results", str(cases_file)], check=True, capture_output=True, text=True).stdout
    return {int(i): r for i, r in (line.split(" ", 1) for line in out.splitlines())}


def check(op, ours_text, theirs, args):
    """Compare our result (text) with pycute's value: exact, same-function, valid-inverse (an
    inverse that satisfies its law but differs from pycute's off the image) or DIFFERS."""
    import pycute

    if op == "sweep":
        return "exact" if ours_text == ",".join(str(x) for x in theirs) else "DIFFERS"
    if op == "idx2crd" or op == "crd2idx":
        return "exact" if ours_text.replace(" ", "") == str(theirs).replace(" ", "") else "DIFFERS"
    ours = parse_value(ours_text)
    if str(ours) == str(theirs):
        return "exact"
    n = pycute.size(theirs)
    if pycute.size(ours) == n and all(ours(i) == theirs(i) for i in range(n)):
        return "same-function"
    layout = parse_value(args[0])
    if op == "left_inverse":
        if all(ours(layout(i)) == i for i in range(pycute.size(layout))):
            return "valid-inverse"
    if op == "right_inverse":
        if pycute.size(ours) == n and all(layout(ours(i)) == i for i in range(n)):
            return "valid-inverse"
    return "DIFFERS"


def read_ir(path):
    ir = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if line.strip():
            i, v = line.split()
            ir[int(i)] = float(v)
    return ir


def read_baseline(path):
    """The CuTe C++ columns of results-baseline.md's main table, by case text (the part of the
    case cell between backticks, spaces collapsed): {text: (ns, Ir, mark)}. Keyed by text, not
    by row number, so that a cases file other than the baseline's gets CuTe's numbers only for
    the cases the baseline measured."""
    base = {}
    for line in pathlib.Path(path).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 8 and cells[0].isdigit() and cells[1].startswith("`"):
            m = re.match(r"([\d.]+)\s*(\S*)", cells[2])
            text = cells[1].split("`")[1]
            if m and cells[3].isdigit():
                base[" ".join(text.split())] = (float(m.group(1)), float(cells[3]), m.group(2))
    return base


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=str(ROOT.parent / "shared" / "bench" / "cases.txt"))
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    ap.add_argument("--bench", default=str(pathlib.Path(target) / "bench-release" / "cute-bench"))
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", help="also write the numbers to this file")
    ap.add_argument("--ir", help="`ID Ir_per_op` lines from scripts/bench-ir.sh")
    ap.add_argument("--baseline", help="results-baseline.md (CuTe C++ columns)")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args()

    import pycute  # noqa: F401  (ensured by ensure_pycute)

    cases = read_cases(opts.cases)
    ours = run_ours(opts.bench, opts.cases, max(opts.repeats, 9))
    ir = read_ir(opts.ir) if opts.ir else {}
    base = read_baseline(opts.baseline) if opts.baseline else {}
    results = run_results(opts.bench, opts.cases)
    rows = []
    for i, (text, op, args) in enumerate(cases):
        fn, elements = make_call(op, args)
        try:
            verdict = check(op, results.get(i, ""), fn(), args)
        except Exception as e:  # a result pycute or our parser cannot handle
            verdict = f"unchecked ({type(e).__name__})"
        py_min, py_med = time_pycute(fn, elements, opts.repeats)
        o_min, o_med = ours[i]
        rows.append(
            {
                "id": i,
                "case": text,
                "ours_ns_min": o_min,
                "ours_ns_median": o_med,
                "ours_ir": ir.get(i),
                "pycute_us_min": py_min,
                "pycute_us_median": py_med,
                "ratio": py_min * 1000.0 / o_min,
                "cute_ns": base.get(" ".join(text.split()), (None,))[0],
                "cute_ir": base.get(" ".join(text.split()), (None, None))[1],
                "cute_mark": base.get(" ".join(text.split()), (None, None, ""))[2],
                "check": verdict,
            }
        )
        print(f"bench-pycute: case {i} done", file=sys.stderr)
    if opts.json:
        pathlib.Path(opts.json).write_text(json.dumps(rows, indent=1) + "\n")
    print_table(rows, opts.markdown, bool(ir), bool(base))
    return 0


def fmt(x, spec):
    return "" if x is None else format(x, spec)


def print_table(rows, markdown, with_ir, with_base):
    head = ["#", "case", "ours vs pycute", "ours ns min / median"]
    if with_ir:
        head.append("ours Ir/op")
    head += ["pycute µs min / median", "pycute / ours"]
    if with_base:
        head += ["CuTe C++ ns", "CuTe C++ Ir/op"]
        if with_ir:
            head.append("ours / CuTe Ir")
    lines = []
    for r in rows:
        sweep = r["case"].startswith("sweep")
        cells = [str(r["id"]), f"`{r['case']}`" + (" (per element)" if sweep else "")]
        cells.append(r["check"])
        cells.append(f"{r['ours_ns_min']:.2f} / {r['ours_ns_median']:.2f}")
        if with_ir:
            cells.append(fmt(r["ours_ir"], ".1f" if sweep else ".0f"))
        cells.append(f"{r['pycute_us_min']:.3f} / {r['pycute_us_median']:.3f}")
        cells.append(f"{r['ratio']:.0f}×")
        if with_base:
            cells.append(fmt(r["cute_ns"], ".2f") + (r["cute_mark"] or ""))
            cells.append(fmt(r["cute_ir"], ".0f"))
            if with_ir:
                ok = r["ours_ir"] is not None and r["cute_ir"]
                cells.append(f"{r['ours_ir'] / r['cute_ir']:.2f}" if ok else "")
        lines.append(cells)
    foot = ["", "geometric mean", "", f"{geomean([r['ours_ns_min'] for r in rows]):.2f}"]
    if with_ir:
        foot.append(f"{geomean([r['ours_ir'] or 0 for r in rows]):.1f}")
    foot += [f"{geomean([r['pycute_us_min'] for r in rows]):.3f}", f"{geomean([r['ratio'] for r in rows]):.0f}×"]
    if with_base:
        foot += [
            f"{geomean([r['cute_ns'] or 0 for r in rows]):.2f}",
            f"{geomean([r['cute_ir'] or 0 for r in rows]):.1f}",
        ]
        if with_ir:
            both = [r for r in rows if r["ours_ir"] and r["cute_ir"]]
            foot.append(f"{geomean([r['ours_ir'] / r['cute_ir'] for r in both]):.2f}")
    lines.append(foot)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---:" if k != 1 else "---" for k in range(len(head))) + "|")
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
        print()
        worst = min(rows, key=lambda r: r["ratio"])
        print(f"Smallest pycute / ours ratio: {worst['ratio']:.0f}× (case {worst['id']}).")
        print()
        print(bar_summary(rows, with_base and with_ir))
    else:
        widths = [max(len(h), *(len(c[k]) for c in lines)) for k, h in enumerate(head)]
        widths[1] = min(widths[1], 60)
        print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for cells in lines:
            print("  ".join(c[:w].ljust(w) if k == 1 else c.rjust(w) for k, (c, w) in enumerate(zip(cells, widths))))
        print()
        print(bar_summary(rows, with_base and with_ir))


def bar_summary(rows, with_ir_ratio):
    """Issue #7's two relative bars, as measured in this run: every case at least 300x faster
    than pycute, and the geometric mean of instructions/op at most 3x the CuTe baseline's."""
    short = [r for r in rows if r["ratio"] < 300]
    text = f"Cases at least 300× faster than pycute: {len(rows) - len(short)} of {len(rows)}"
    if short:
        text += " (short: " + ", ".join(f"case {r['id']} {r['ratio']:.0f}×" for r in short) + ")"
    text += "."
    if with_ir_ratio:
        both = [r for r in rows if r["ours_ir"] and r["cute_ir"]]
        g = geomean([r["ours_ir"] / r["cute_ir"] for r in both])
        text += f" Geometric mean of Ir/op against the CuTe baseline: {g:.2f}x (bar: 3x)."
    return text


if __name__ == "__main__":
    ensure_pycute()
    sys.exit(main())

#!/usr/bin/env python3
"""Time CuTe C++ (host-only build) on a cases file, for a side-by-side column beside ours.

CuTe's headers come from the `nvidia-cutlass` wheel and CUDA's headers from the
`nvidia-cuda-runtime-cu12`, `nvidia-cuda-nvcc-cu12` and `nvidia-cuda-cccl-cu12` wheels, all
installed with `pip install --no-deps` into the benchmark venv (default ~/.cache/cute-bench/venv,
override with CUTE_BENCH_VENV; created on first use). Nothing needs CUDA or a GPU: every case is
compiled by plain `g++ -std=c++17 -O2` (CUTE_HOST_DEVICE is then `inline`).

Method (the one results-baseline.md describes for its `dyn` column):
* one C++ program per case; the layout *structure* (tuple nesting) is fixed in the source, every
  integer (shape, stride, cotarget, index, coordinate) is read from a `volatile` array at start-up
  and, inside the timing loop, copied and passed through an empty `asm volatile` barrier on every
  iteration, so the compiler can neither constant-fold the operation nor hoist it (these copies
  and the checksum are the harness's per-iteration cost, included in the numbers);
* the result is consumed by adding every integer leaf (shape and stride, or the index /
  coordinate) into a checksum returned from a non-inlined loop function;
* `dyn`: every integer is a run-time `int`. Where CuTe does not compile that (it needs static
  strides for complement, the products and left_inverse), the `mixed` variant makes the strides
  static `Int<>` constants (shapes and plain integers stay run-time); part of such an operation
  is then done by the compiler, so `mixed` numbers are lower bounds;
* ns/op: the loop count is calibrated so one repeat takes about 20 ms, REPEATS repeats, min and
  median (sweep: per element);
* Ir/op (--ir): callgrind at 20,000 and 60,000 iterations (sweep: 20 and 60), the difference of
  the totals divided by the difference of the iteration counts (start-up cancels).

Usage: scripts/bench-cute-cpp.py [--cases FILE] [--ir] [--repeats N] [--markdown] [--keep DIR]
                                 [--ours OURS_JSON]
Prints one row per case: id, op, variant, ns min, ns median, Ir/op, CuTe's result; with --ours
(the --json of bench-pycute.py, same cases, same run), also the geometric means of ours / this
build in instructions and ns (what BENCHMARKS.md quotes as "against this build").
"""

import argparse
import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import cute_notation  # noqa: E402  (after the path is set)

WHEELS = ["nvidia-cutlass", "nvidia-cuda-runtime-cu12", "nvidia-cuda-nvcc-cu12", "nvidia-cuda-cccl-cu12"]


def include_dirs():
    """The include directories of the wheels, installing them into the venv if needed."""

    def dirs_of(py):
        out = subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        )
        sp = pathlib.Path(out.stdout.strip())
        return [
            sp / "cutlass_library" / "source" / "include",
            sp / "nvidia" / "cuda_runtime" / "include",
            sp / "nvidia" / "cuda_cccl" / "include",
            sp / "nvidia" / "cuda_nvcc" / "include",
        ]

    py = cute_notation.venv_python(WHEELS, "bench-cute-cpp",
                                   lambda py: all(d.is_dir() for d in dirs_of(py)))
    dirs = dirs_of(py)
    missing = [str(d) for d in dirs if not d.is_dir()]
    if missing:
        sys.exit("bench-cute-cpp: missing include directories: " + ", ".join(missing))
    return dirs


# ---- CuTe notation: cute_notation.parse gives
# int | ("tuple", [items]) | ("layout", shape, stride) | ("tiles", [items])


def parse_arg(text):
    return cute_notation.parse(text)


class Emitter:
    """C++ expressions for a parsed value; run-time integers become slots of the value array."""

    def __init__(self, static_strides):
        self.values = []
        self.static_strides = static_strides

    def slot(self, v):
        self.values.append(v)
        return f"a[{len(self.values) - 1}]"

    def ints(self, t, maker, static=False):
        if isinstance(t, int):
            return f"Int<{t}>{{}}" if static else self.slot(t)
        return f"{maker}(" + ", ".join(self.ints(x, maker, static) for x in t[1]) + ")"

    def expr(self, v, maker="make_shape"):
        if isinstance(v, int):
            return self.slot(v)
        if v[0] == "tuple":
            return self.ints(v, maker)
        if v[0] == "layout":
            return (f"make_layout({self.ints(v[1], 'make_shape')}, "
                    f"{self.ints(v[2], 'make_stride', self.static_strides)})")
        if v[0] == "tiles":
            return "make_tile(" + ", ".join(self.expr(x) for x in v[1]) + ")"
        raise ValueError(v)


PRELUDE = r"""
#include <cute/layout.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
using namespace cute;

template <class T> long long leaf_sum(T const& t) {
  if constexpr (is_tuple<T>::value) {
    long long s = 0;
    for_each(t, [&](auto const& x) { s += leaf_sum(x); });
    return s;
  } else {
    return (long long)(t);
  }
}
template <class S, class D> long long leaf_sum(Layout<S, D> const& l) {
  return leaf_sum(l.shape()) + leaf_sum(l.stride());
}
"""

MAIN = r"""
static volatile int VALS[NVALS] = {VALUES};
static int INIT[NVALS];

__attribute__((noinline)) long long run(long iters) {
  long long acc = 0;
  for (long it = 0; it < iters; ++it) {
    int a[NVALS];
    COPIES
    BODY
  }
  return acc;
}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  for (int k = 0; k < NVALS; ++k) INIT[k] = VALS[k];
  if (argc > 2 && !std::strcmp(argv[1], "iters")) { std::printf("%lld\n", run(std::atol(argv[2]))); return 0; }
  if (argc > 1 && !std::strcmp(argv[1], "result")) {
    int a[NVALS];
    for (int k = 0; k < NVALS; ++k) a[k] = VALS[k];
    RESULT
    std::printf("\n");
    return 0;
  }
  int repeats = argc > 2 && !std::strcmp(argv[1], "time") ? std::atoi(argv[2]) : 9;
  long n = 1;
  while (true) {
    double t0 = now(); run(n); double t = now() - t0;
    if (t > 0.02) break;
    n = t < 0.002 ? n * 10 : (long)(n * 0.025 / t) + 1;
  }
  std::vector<double> ns;
  for (int r = 0; r < repeats; ++r) {
    double t0 = now(); volatile long long s = run(n); (void)s;
    ns.push_back((now() - t0) * 1e9 / n / ELEMS);
  }
  std::sort(ns.begin(), ns.end());
  std::printf("%.3f %.3f %ld\n", ns[0], ns[ns.size() / 2], n);
  return 0;
}
"""


def program(op, args, static_strides):
    """C++ source for one case, or None if the op is unknown."""
    e = Emitter(static_strides)
    vals = [parse_arg(a) for a in args]
    elems = 1
    if op in ("coalesce", "right_inverse", "left_inverse"):
        res = f"{op}({e.expr(vals[0])})"
    elif op in ("composition", "logical_divide", "zipped_divide", "logical_product",
                "blocked_product", "raked_product"):
        res = f"{op}({e.expr(vals[0])}, {e.expr(vals[1])})"
    elif op == "complement":
        res = f"complement({e.expr(vals[0])}, {e.expr(vals[1])})"
    elif op == "crd2idx":
        c = e.expr(vals[0], "make_coord")
        layout = e.expr(vals[1])
        res = f"[&] {{ auto L = {layout}; return crd2idx({c}, L.shape(), L.stride()); }}()"
    elif op == "idx2crd":
        res = f"idx2crd({e.expr(vals[0])}, {e.expr(vals[1])})"
    elif op == "sweep":
        layout = e.expr(vals[0])
        res = f"[&] {{ auto L = {layout}; long long s = 0; for (int i = 0; i < int(size(L)); ++i) s += L(i); return s; }}()"
        v = vals[0]
        sizes = [1]

        def walk(t):
            if isinstance(t, int):
                sizes[0] *= t
            else:
                for x in t[1]:
                    walk(x)

        walk(v[1])
        elems = sizes[0]
    else:
        return None
    body = f"acc += leaf_sum({res});"
    result = f"print({res});"
    src = PRELUDE + MAIN
    # The per-iteration copies written out one statement per value (a loop over them is not
    # unrolled by g++ -O2 and costs about 6 instructions per value instead of 1-2).
    copies = " ".join(f'a[{k}] = INIT[{k}]; asm volatile("" : "+r"(a[{k}]));'
                      for k in range(max(1, len(e.values))))
    src = src.replace("COPIES", copies)
    src = src.replace("NVALS", str(max(1, len(e.values))))
    src = src.replace("VALUES", ", ".join(str(v) for v in e.values) or "0")
    src = src.replace("BODY", body).replace("RESULT", result).replace("ELEMS", str(elems))
    return src, elems


def callgrind_ir(exe, iters):
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}",
                            str(exe), "iters", str(iters)], capture_output=True, text=True)
        m = re.search(r"Collected : *(\d+)", p.stderr)
        if not m:
            raise RuntimeError(p.stderr[-2000:])
        return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default=str(ROOT.parent / "shared" / "bench" / "cases.txt"))
    ap.add_argument("--ir", action="store_true", help="also count instructions with callgrind")
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--keep", help="keep the generated sources and binaries in this directory")
    ap.add_argument("--ours", help="the JSON of bench-pycute.py --json (same cases): print the "
                    "geometric means of ours / this build, in Ir and ns")
    opts = ap.parse_args()
    incs = include_dirs()
    cxx = os.environ.get("CXX", "g++")
    work = pathlib.Path(opts.keep) if opts.keep else pathlib.Path(tempfile.mkdtemp(prefix="cute-cpp-"))
    work.mkdir(parents=True, exist_ok=True)
    lines = [[op, *args] for _, op, args in cute_notation.read_cases(opts.cases)]
    rows = []
    for cid, (op, *args) in enumerate(lines):
        row = {"id": cid, "op": op, "variant": "does not compile", "min": None, "median": None,
               "ir": None, "result": ""}
        for variant, static in (("dyn", False), ("mixed", True)):
            prog = program(op, args, static)
            if prog is None:
                row["variant"] = "unknown op"
                break
            src, elems = prog
            cpp = work / f"case{cid}-{variant}.cpp"
            exe = work / f"case{cid}-{variant}"
            cpp.write_text(src)
            cmd = [cxx, "-std=c++17", "-O2", "-w", *[f"-I{d}" for d in incs], str(cpp), "-o", str(exe)]
            if subprocess.run(cmd, capture_output=True).returncode != 0:
                continue
            row["variant"] = variant
            row["result"] = subprocess.run([str(exe), "result"], capture_output=True,
                                           text=True).stdout.strip()
            t = subprocess.run([str(exe), "time", str(opts.repeats)], capture_output=True,
                               text=True, check=True).stdout.split()
            row["min"], row["median"] = float(t[0]), float(t[1])
            if opts.ir and shutil.which("valgrind"):
                n1, n2 = (20, 60) if op == "sweep" else (20000, 60000)
                row["ir"] = (callgrind_ir(exe, n2) - callgrind_ir(exe, n1)) / (n2 - n1) / elems
            break
        rows.append(row)
        print(f"case {cid} {op}: {row['variant']}", file=sys.stderr)
    fmt = (lambda x, p: "-" if x is None else f"{x:.{p}f}")
    version = ".".join(re.findall(r"#define CUTLASS_(?:MAJOR|MINOR|PATCH) (\d+)",
                                  (incs[0] / "cutlass" / "version.h").read_text()))
    compiler = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    print(f"- CuTe: CUTLASS {version} headers; compiler: {compiler}; flags: -std=c++17 -O2 (host-only)")
    print()
    if opts.markdown:
        print("| # | case | CuTe C++ variant | ns/op (min) | ns/op (median) | Ir/op | CuTe's result |")
        print("|---|---|---|---:|---:|---:|---|")
        for r, ln in zip(rows, lines):
            print(f"| {r['id']} | `{' '.join(ln)}` | {r['variant']} | {fmt(r['min'], 2)} | "
                  f"{fmt(r['median'], 2)} | {fmt(r['ir'], 1)} | `{r['result']}` |")
    else:
        for r in rows:
            print(f"{r['id']} {r['op']} {r['variant']} {fmt(r['min'], 3)} {fmt(r['median'], 3)} "
                  f"{fmt(r['ir'], 1)} {r['result']}")
    if opts.ours:
        print()
        print(against_ours(rows, json.loads(pathlib.Path(opts.ours).read_text())))
    if not opts.keep:
        shutil.rmtree(work, ignore_errors=True)


def against_ours(rows, ours):
    """One line: the geometric means, over the cases both measured, of our Ir/op and ns/op (min)
    divided by this build's, with the per-case Ir ratios."""
    by_id = {o["id"]: o for o in ours}
    ir, ns, per_case = [], [], []
    for r in rows:
        o = by_id.get(r["id"])
        if o is None or r["min"] is None:
            continue
        ns.append(o["ours_ns_min"] / r["min"])
        if r["ir"] and o.get("ours_ir"):
            ir.append(o["ours_ir"] / r["ir"])
            per_case.append(f"{r['id']} {ir[-1]:.1f}")
    gm = (lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan"))
    text = (f"Ours against this build (same run, {len(ns)} cases): geometric mean "
            f"{gm(ir):.2f}x in instructions and {gm(ns):.2f}x in ns (min)")
    return text + (f"; Ir per case: {', '.join(per_case)}." if per_case else ".")


if __name__ == "__main__":
    main()

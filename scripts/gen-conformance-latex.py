#!/usr/bin/env python3
"""Generate CuTe C++ conformance vectors for the `latex` and `svg` operations: CuTe's
`print_latex` of layouts and swizzled layouts (with its default colours and with a colour
function), `print_latex_tv` of thread-value layouts, `print_latex` and `print_svg` of tiled MMAs.

`crates/cute-ops/tests/data/latex/print_latex.cpp` prints case K for argument K; it is compiled
host-only with g++ against CuTe's headers and run once per case. The output,
`crates/cute-ops/tests/data/latex/cute_latex.jsonl`, holds `{"id", "op", "args", "skip",
"cute"}` lines: `args` are the operation's arguments for the same picture, `cute` is CuTe's
text, and the first `skip` lines are comments that print CuTe's own (thread, value) ->
coordinate layouts, which the test does not compare. A `latex` answer must be CuTe's text; an
`svg` answer (our SVG is drawn differently from CuTe's `print_svg`) must put the same
`T<t> V<v>` in the same cells. CuTe's `% Layout:` line of a plain layout
is kept with its static integers `_N` written `N`. `crates/cute-ops/tests/latex_conformance.rs`
compares the rest line for line.

    python3 scripts/gen-conformance-latex.py [--out PATH]

Include directories: as scripts/gen-conformance-surface.py ($CUTE_INCLUDE, else the venv of
scripts/bench-cute-cpp.py).
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "crates/cute-ops/tests/data/latex"
TV = "((4,8),(2,2)):((16,1),(8,64))"

# (case of print_latex.cpp, latex op arguments, leading comment lines not compared)
CASES = [
    (0, ["(2,3):(3,1)"], 0),
    (1, ["(4,8):(8,1)"], 0),
    (2, ["7:2"], 0),
    (3, ["((2,2),(2,4)):((1,8),(2,16))"], 0),
    (4, ["(4,4):(1,4)", "--palette", "#ff0000,#00ff00,#0000ff"], 0),
    (5, ["--tv", TV, "--tile", "(16,8)"], 1),
    (6, ["--tv", "(8,4):(4,1)", "--tile", "(4,8)"], 1),
    (7, ["--tv", TV, "--tile", "(16,8)", "--palette", "red,lime,blue"], 1),
    (8, ["mma", "SM80_16x8x8_F16F16F16F16_TN"], 3),
    (9, ["mma", "SM80_16x8x16_F16F16F16F16_TN", "--layout", "(1,2,1)"], 3),
    (10, ["Sw<2,0,2> o 0 o (4,4):(4,1)"], 0),
    (11, ["Sw<1,1,2> o 0 o (4,8):(8,1)"], 0),
    (12, ["mma", "SM80_16x8x8_F16F16F16F16_TN"], 4),
    (13, ["mma", "SM80_16x8x16_F16F16F16F16_TN", "--layout", "(1,2,1)"], 4),
]
SVG_CASES = {12, 13}


def include_dirs():
    import importlib.util
    spec = importlib.util.spec_from_file_location("surface", ROOT / "scripts" / "gen-conformance-surface.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.include_dirs()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(DATA / "cute_latex.jsonl"))
    opt = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        exe = pathlib.Path(d) / "print_latex"
        cmd = [os.environ.get("CXX", "g++"), "-std=c++17", "-O0", "-w",
               *[f"-I{i}" for i in include_dirs()], str(DATA / "print_latex.cpp"), "-o", str(exe)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("gen-conformance-latex: compile failed:\n" + r.stderr[:4000])
        with open(opt.out, "w") as f:
            for case, args, skip in CASES:
                text = subprocess.run([str(exe), str(case)], capture_output=True, text=True,
                                      check=True).stdout
                if not text.startswith("<!--" if case in SVG_CASES else "% Layout"):
                    sys.exit(f"gen-conformance-latex: case {case}: {text[:200]!r}")
                if skip == 0:
                    first, rest = text.split("\n", 1)
                    text = re.sub(r"_(?=-?\d)", "", first) + "\n" + rest
                f.write(json.dumps({"id": f"latex-{case:04d}",
                                    "op": "svg" if case in SVG_CASES else "latex", "args": args,
                                    "skip": skip, "cute": text}) + "\n")
    print(f"gen-conformance-latex: {len(CASES)} vectors -> {opt.out}")


if __name__ == "__main__":
    main()

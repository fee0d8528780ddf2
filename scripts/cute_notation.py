"""Shared by the benchmark scripts: CuTe's text notation, cases files, and the benchmark venv.

* `parse(text)`: one argument of a cases line as a small tree: an `int`, `("tuple", [items])`
  for `(...)`, `("tiles", [items])` for a by-mode tiler `<...>`, `("layout", shape, stride)`
  for `S:D`. A leading `_` (CuTe's static integer `_2`) is accepted and dropped.
* `read_cases(path)`: the cases of a file as `(line, op, args)`, comments and blank lines left out.
* `venv_python(packages, who)`: the Python of the benchmark venv (default
  ~/.cache/cute-bench/venv, override with CUTE_BENCH_VENV), created on first use, with
  `packages` installed by `pip install --no-deps` if `ready()` says they are missing.
"""

import os
import pathlib
import re
import subprocess
import sys

VENV = pathlib.Path(os.environ.get("CUTE_BENCH_VENV", pathlib.Path.home() / ".cache" / "cute-bench" / "venv"))
_INT = re.compile(r"_?-?\d+")


def parse(text):
    s = text.replace(" ", "")
    pos = 0

    def peek():
        return s[pos] if pos < len(s) else ""

    def node():
        nonlocal pos
        c = peek()
        if c in "(<":
            close = ")" if c == "(" else ">"
            pos += 1
            items = []
            if peek() == close:
                pos += 1
            else:
                while True:
                    items.append(node())
                    if peek() == ",":
                        pos += 1
                        continue
                    if peek() != close:
                        raise ValueError(f"expected ',' or {close!r} at {pos} in {text!r}")
                    pos += 1
                    break
            value = ("tuple" if c == "(" else "tiles", items)
        else:
            m = _INT.match(s, pos)
            if not m:
                raise ValueError(f"expected an integer at {pos} in {text!r}")
            pos = m.end()
            value = int(m.group().lstrip("_"))
        if peek() == ":":
            pos += 1
            return ("layout", value, node())
        return value

    v = node()
    if pos != len(s):
        raise ValueError(f"trailing text at {pos} in {text!r}")
    return v


def read_cases(path):
    cases = []
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        cases.append((line, words[0], words[1:]))
    return cases


def venv_python(packages, who, ready):
    """The venv's python, with `packages` pip-installed (--no-deps) unless `ready(python)`."""
    py = VENV / "bin" / "python"
    if not py.exists():
        print(f"{who}: creating {VENV}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if not ready(py):
        print(f"{who}: pip install --no-deps " + " ".join(packages), file=sys.stderr)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", *packages],
                       check=True, stdout=sys.stderr)
    return py

#!/usr/bin/env python3
"""find_layout scaling: run the divan bench, print a Markdown table and the fitted growth exponent.

Usage: python3 scripts/find_layout_scaling.py            # runs `cargo bench --bench find_layout`
       cargo bench -p cute-layout --bench find_layout | python3 scripts/find_layout_scaling.py -

The exponent is the least-squares slope of log(median time) against log(M) over all sizes.
"""
import math
import re
import subprocess
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def bench_output() -> str:
    if len(sys.argv) > 1 and sys.argv[1] == "-":
        return sys.stdin.read()
    cmd = ["cargo", "bench", "-p", "cute-layout", "--bench", "find_layout"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def parse(text: str):
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\s*[├╰]─\s+(\d+)\s+(.*)$", line)
        if not m:
            continue
        cols = [c.strip() for c in m.group(2).split("│")]
        # cols: fastest, slowest, median, mean, samples, iters
        value, unit = cols[2].split()
        rows.append((int(m.group(1)), float(value) * UNITS[unit]))
    return rows


def main() -> None:
    rows = parse(bench_output())
    if len(rows) < 2:
        sys.exit("no bench rows found")
    xs = [math.log(2.0**k) for k, _ in rows]
    ys = [math.log(t) for _, t in rows]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    print("| M | median time | ns per value |")
    print("|---:|---:|---:|")
    for k, t in rows:
        m = 2**k
        print(f"| 2^{k} = {m} | {t * 1e6:.1f} µs | {t / m * 1e9:.2f} |")
    print()
    print(f"Fitted growth exponent (least squares on log-log, {n} sizes): **{slope:.3f}**")


if __name__ == "__main__":
    main()

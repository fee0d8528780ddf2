#!/usr/bin/env python3
"""Vendor the CuTe conformance vectors into crates/cute-cli/tests/conformance/.

Copies every ../shared/conformance/*.jsonl (relative to the repository root; override with
--source) and keeps only the fields the conformance test reads, so the repository stays small.
Lines are kept in their original order; the output is deterministic (sorted keys, compact JSON).

Usage: python3 scripts/refresh-conformance.py [--source DIR] [--dest DIR]
"""

import argparse
import json
import pathlib
import sys

KEEP = (
    "op",
    "id",
    "args",
    "coord_kind",
    "variant",
    "tiler_kind",
    "cute_static_norm",
    "cute_static_error",
    "law_ok",
    "law_note",
    "admissible",
    "pre_ok",
    "cute_static_table",
)


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=pathlib.Path, default=root.parent / "shared" / "conformance")
    ap.add_argument("--dest", type=pathlib.Path, default=root / "crates" / "cute-cli" / "tests" / "conformance")
    opts = ap.parse_args()

    files = sorted(opts.source.glob("*.jsonl"))
    if not files:
        print(f"refresh-conformance: no *.jsonl files in {opts.source}", file=sys.stderr)
        return 1
    opts.dest.mkdir(parents=True, exist_ok=True)
    wanted = {f.name for f in files}
    for stale in opts.dest.glob("*.jsonl"):
        if stale.name not in wanted:
            stale.unlink()

    total_in = total_out = cases = 0
    for f in files:
        out_lines = []
        with f.open("rb") as fh:
            for n, raw in enumerate(fh, 1):
                if not raw.strip():
                    continue
                try:
                    case = json.loads(raw)
                except ValueError as e:
                    print(f"refresh-conformance: {f.name}:{n}: {e}", file=sys.stderr)
                    return 1
                kept = {k: case[k] for k in KEEP if k in case}
                out_lines.append(json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
        text = "\n".join(out_lines) + "\n"
        (opts.dest / f.name).write_text(text, encoding="utf-8")
        total_in += f.stat().st_size
        total_out += len(text.encode("utf-8"))
        cases += len(out_lines)
    print(
        f"refresh-conformance: {len(files)} files, {cases} cases, "
        f"{total_in / 1e6:.1f} MB -> {total_out / 1e6:.1f} MB in {opts.dest}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""CuTe's conformance vectors through the Python API.

Each case of the vendored vectors (crates/cute-cli/tests/conformance/*.jsonl, the same files the
Rust conformance test reads) is called through the Pythonic function (Python values in: `Layout`
objects, nested tuples, ints, `None` for `_`) and through `run_text` (the operation table the
`cute` CLI uses). The two must agree exactly: the same text, or the same error kind. Where CuTe's
answer satisfies the law, ours is CuTe's text or a lawful alternative: that, and that our other
answers satisfy the laws, is the Rust conformance test's job (crates/cute-cli/tests/
conformance.rs, on the same table); this one checks that the Python layer adds no difference.
"""

import json
import pathlib

import pytest

import cute_layout as cl
from cute_text import text, value

ROOT = pathlib.Path(__file__).resolve().parents[3]
DIR = ROOT / "crates" / "cute-cli" / "tests" / "conformance"
FILES = sorted(DIR.glob("*.jsonl"))

TABLE_OP = {
    "coalesce_by_mode": "coalesce",
    "complement_nocotarget": "complement",
    "composition_tiler": "composition",
    "swizzle_composition": "composition",
}


def swz(args):
    return cl.Swizzle(*(int(x) for x in args))


def pythonic(op, args):
    """The call a Python user writes for this case."""
    a = args
    if op == "make_layout":
        return cl.make_layout(value(a[0]), a[1])
    if op in ("size", "cosize", "rank", "depth", "flatten"):
        return getattr(cl, op)(value(a[0]))
    if op == "crd2idx":
        return cl.crd2idx(value(a[0]), value(a[1]))
    if op == "idx2crd":
        return cl.idx2crd(int(a[0]), value(a[1]))
    if op in ("coalesce", "coalesce_by_mode"):
        return cl.coalesce(*(value(x) for x in a))
    if op in ("complement", "complement_nocotarget"):
        return cl.complement(*(value(x) for x in a))
    if op in ("composition", "composition_tiler"):
        return cl.composition(value(a[0]), value(a[1]))
    if op == "swizzle_composition":
        return cl.composition(swz(a[0]), value(a[1]))
    if op == "swizzle":
        return swz(a)
    if op in ("upcast", "downcast"):
        return getattr(cl, op)(value(a[1]), int(a[0]))
    if op in ("weakly_congruent", "compatible", "evenly_divides"):
        return cl.run(op, *a)
    return getattr(cl, op)(*(value(x) for x in a))


def outcome(f):
    try:
        return ("ok", text(f()))
    except cl.LayoutError as e:
        assert isinstance(e.kind, str) and e.kind, "LayoutError without .kind"
        return ("error", e.kind)


def cases():
    if not FILES:
        pytest.skip(f"no conformance vectors under {DIR}")
    for f in FILES:
        for line in f.read_text().splitlines():
            if line.strip():
                yield f.name, json.loads(line)


@pytest.mark.parametrize("name", [f.name for f in FILES] or ["(none)"])
def test_file(name):
    path = DIR / name
    if not path.exists():
        pytest.skip(f"no conformance vectors under {DIR}")
    n = agreed = refused = 0
    problems = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        op, args = case["op"], case["args"]
        n += 1
        ours = outcome(lambda: pythonic(op, args))
        table = outcome(lambda: cl.run_text(TABLE_OP.get(op, op), *args))
        if op == "swizzle":
            # The Pythonic value is a Swizzle object: compare its values with CuTe's table.
            want = case.get("cute_static_table")
            if want is not None and ours[0] == "ok":
                sw = swz(args)
                got = [sw(x) for x in range(len(want))]
                if got != want:
                    problems.append(f"{case['id']}: swizzle table differs")
            if ours[0] != table[0]:
                problems.append(f"{case['id']}: Python {ours} vs table {table}")
            continue
        if ours != table:
            problems.append(f"{case['id']} {op}{tuple(args)}: Python {ours} vs table {table}")
            continue
        ref = case.get("cute_static_norm")
        if case.get("law_ok") is True and ref is not None and ours == ("ok", ref):
            agreed += 1
        if ours[0] == "error":
            refused += 1
    assert n > 0
    print(f"{name}: {n} cases, {agreed} equal to CuTe's lawful answer, {refused} refused")
    assert not problems, f"{len(problems)} of {n} cases differ:\n" + "\n".join(problems[:20])

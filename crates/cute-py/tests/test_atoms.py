"""MMA and copy atoms, TiledMMA and TiledCopy through the Python classes, against CuTe's answers
(the vendored vectors of crates/cute-cli/tests/conformance/atoms, from CuTe C++)."""

import json
import pathlib
import xml.etree.ElementTree as ET

import pytest

import cute_layout as cl

DIR = pathlib.Path(__file__).resolve().parents[3] / "crates" / "cute-cli" / "tests" / "conformance" / "atoms"


def cases(name):
    path = DIR / name
    if not path.exists():
        pytest.skip(f"no atom vectors at {path}")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def opt(x):
    return None if x == "_" else x


def test_mma_atoms():
    n = 0
    for c in cases("mma_atoms.jsonl"):
        atom = cl.MMAAtom(c["args"][0])
        for field, want in c["cute"].items():
            assert str(getattr(atom, field)).replace(" ", "") == want, (c["args"], field)
            n += 1
    assert n > 100


def test_tiled_mma():
    n = 0
    for c in cases("tiled_mma.jsonl"):
        atom, layout, perm = c["args"]
        mma = cl.TiledMMA(atom, opt(layout), opt(perm))
        cute = c["cute"]
        for field in ("thr_layout_vmnk", "permutation_mnk", "layout_a_tv", "layout_b_tv", "layout_c_tv",
                      "tile_size_mnk", "size"):
            if field in cute:
                assert str(getattr(mma, field)).replace(" ", "") == str(cute[field]), (c["args"], field)
                n += 1
        for t in cute.get("threads", []):
            for op in "abc":
                gmem = cute["gmem"][op]
                if f"partition_{op}" in t:
                    assert str(mma.partition(op, gmem, t["t"])) == t[f"partition_{op}"], (c["args"], op, t["t"])
                    assert mma.offset(op, gmem, t["t"]) == t[f"offset_{op}"], (c["args"], op, t["t"])
                    n += 2
    assert n > 100


def test_copy_atoms():
    n = 0
    for c in cases("copy_atoms.jsonl"):
        name, ty = c["args"]
        atom = cl.CopyAtom(name, ty)
        cute = c["cute"]
        assert str(atom.thr_id) == cute["thr_id"]
        for k in ("src", "dst", "ref"):
            assert str(getattr(atom, k + "_bits")) == cute["bits"][k], (c["args"], k)
            assert str(getattr(atom, k)) == cute["typed"][k], (c["args"], k)
        assert atom.num_val_src == cute["num_val_src"] and atom.num_val_dst == cute["num_val_dst"]
        n += 1
    assert n > 50


def test_tiled_copy():
    n = 0
    for c in cases("tiled_copy.jsonl"):
        if c["op"] != "make_tiled_copy":
            continue
        atom, ty, thr, val = c["args"]
        tc = cl.TiledCopy(atom, ty, thr, opt(val))
        cute = c["cute"]
        for field in ("tiler_mn", "tiled_layout_tv", "layout_s_tv", "layout_d_tv", "size"):
            if field in cute:
                assert str(getattr(tc, field)).replace(" ", "") == str(cute[field]), (c["args"], field)
                n += 1
        for t in cute.get("threads", []):
            assert str(tc.partition_s(cute["tensor"], t["t"])) == t["partition_s"]
            assert tc.offset_s(cute["tensor"], t["t"]) == t["offset_s"]
            n += 2
    assert n > 20


def test_pictures_and_errors():
    mma = cl.TiledMMA("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    for svg in (mma._repr_svg_(), mma.tv_picture("a")._repr_svg_(), cl.MMAAtom("SM80_16x8x8_F16F16F16F16_TN").svg()):
        assert ET.fromstring(svg).tag.endswith("svg")
    assert "tikzpicture" in mma.latex()
    tc = cl.TiledCopy("UniversalCopy<uint128_t>", "half_t", (32, 8), (1, 8))
    assert ET.fromstring(tc._repr_svg_()).tag.endswith("svg")
    with pytest.raises(cl.LayoutError) as e:
        cl.MMAAtom("SM80_NO_SUCH_ATOM")
    assert e.value.kind == "UnknownAtom"
    assert "SM80" in cl.atoms.list_atoms("SM80")
    # every atom operation is also reachable through the generic entry point
    assert str(cl.run("mma_atom", "SM80_16x8x16_F32F16F16F32_TN", "layout_c_tv")) == "((4,8),(2,2)):((32,1),(16,8))"

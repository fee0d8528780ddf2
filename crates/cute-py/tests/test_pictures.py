"""Pictures that fit (issue 38, Python): operand pictures show their operand, a layout's
Jupyter display is its picture, and pictures take a size and fit a notebook cell by default."""

import re
import xml.etree.ElementTree as ET

import cute_layout as cl
from cute_layout import Layout, MMAAtom

GMMA_64x256 = "SM90_64x256x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
GMMA_64x64 = "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"


def root(svg):
    """The width, height and viewBox of an SVG's root element."""
    r = ET.fromstring(svg)
    assert r.tag.endswith("svg")
    return float(r.get("width")), float(r.get("height")), [float(v) for v in r.get("viewBox").split()]


def title(svg):
    return re.search(r'<text class="title"[^>]*>([^<]*)</text>', svg).group(1)


def test_operand_pictures_show_their_operand():
    atom = MMAAtom("SM80_16x8x16_F16F16F16F16_TN")  # M, N, K = 16, 8, 16
    pics = {o: atom.tv_picture(o) for o in "abc"}
    assert len({str(p) for p in pics.values()}) == 3
    # Each operand's TV layout on its own tile: A is MxK, B is NxK, C is MxN.
    for o, tile in {"a": "(16,16)", "b": "(8,16)", "c": "(16,8)"}.items():
        tv = getattr(atom, f"layout_{o}_tv")
        assert title(str(pics[o])) == f"TV layout {tv} on tile {tile}"
    assert pics["a"].svg(fit=False) == str(pics["a"]) == cl.TVLayout(atom.layout_a_tv, (16, 16)).svg(fit=False)
    # A GMMA's A and B are shared by the 128 threads of the warpgroup: every cell of the tile is
    # drawn (one per tile cell, not per pair), each reached by the 128 threads.
    gmma = MMAAtom(GMMA_64x64)
    a = str(gmma.tv_picture("a"))
    assert title(a) == f"TV layout {gmma.layout_a_tv} on tile (64,16)"
    assert a.count('<rect class="multi"') == 64 * 16 and ">T0 V0 +127</text>" in a
    assert str(gmma.tv_picture("a")) != str(gmma.tv_picture("c"))


def test_layout_shows_as_its_picture_in_jupyter():
    L = Layout((4, 8), (8, 1))
    bundle = L._repr_mimebundle_()
    assert sorted(bundle) == ["image/svg+xml", "text/plain"]  # no HTML table before the picture
    assert bundle["image/svg+xml"] == L.svg() == L._repr_svg_()
    assert bundle["text/plain"] == repr(L) == "Layout((4, 8), (8, 1))"
    assert not hasattr(L, "_repr_html_")
    assert L.table().startswith("(4,8):(8,1)\n")  # the table on request
    for x in (cl.Swizzle(3, 4, 3), cl.ComposedLayout.parse("Sw<3,4,3> o 0 o (8,64):(64,1)"),
              cl.TVLayout(Layout(((4, 8), 4), ((32, 1), 8)), (32, 4)), MMAAtom(GMMA_64x64)):
        b = x._repr_mimebundle_()
        assert sorted(b) == ["image/svg+xml", "text/plain"] and b["text/plain"] == repr(x)
    try:
        assert cl.set_jupyter_format("png") == "svg"
        b = L._repr_mimebundle_()
        assert sorted(b) == ["image/png", "text/plain"] and b["image/png"] == L.png()
        assert sorted(MMAAtom(GMMA_64x64)._repr_mimebundle_()) == ["image/png", "text/plain"]
    finally:
        cl.set_jupyter_format("svg")


def test_pictures_fit_and_take_a_size():
    small = Layout((4, 8), (8, 1))
    assert small.svg() == small.svg(fit=False)  # fits already: drawn at its size, every label
    big = Layout((64, 64), (64, 1))
    w, h, box = root(big.svg())
    assert box[:2] == [0, 0] and (w, h) == (800 * box[2] / box[3] if box[2] < box[3] else 800, h)
    assert w <= 800 and h <= 600 and (w == 800 or h == 600)
    assert abs(w / h - box[2] / box[3]) < 0.01  # the aspect kept
    assert ">4095</text>" in big.svg(fit=False) and ">4095</text>" not in big.svg()  # labels dropped
    assert big.svg().count('class="r') > 0  # the colours stay
    w, h, box = root(big.svg(width=300))
    assert w == 300 and (w, h) == (300, round(300 * box[3] / box[2]) or h)
    w, h, _ = root(big.svg(height=200))
    assert h == 200
    w, h, box = root(big.svg(fit=False))
    assert (w, h) == (box[2], box[3])


def test_big_mma_pictures_fit_and_stay_light():
    atom = MMAAtom(GMMA_64x256)
    full = atom.svg(fit=False)
    w, h, box = root(full)
    assert (w, h) == (box[2], box[3]) and w > 12000
    shown = atom.svg()
    w, h, box = root(shown)
    assert w <= 800 and h <= 600 and box[2] > 12000
    assert len(shown) < 600_000 < 4_000_000 < len(full)  # about 0.5 MB instead of 4.2 MB
    assert "<text x=" not in shown and 'class="t' in shown  # no cell labels; thread colours kept
    w, h, _ = root(MMAAtom(GMMA_64x64).svg())
    assert w <= 800 and h <= 600
    # Small atoms keep their labels at the fitted size.
    sm80 = MMAAtom("SM80_16x8x16_F16F16F16F16_TN").svg()
    assert ">T31</text>" in sm80 and root(sm80)[1] == 600
    tiled = cl.TiledMMA("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    assert root(tiled.svg())[0] <= 800 and root(tiled._repr_svg_())[1] <= 600

"""PNG pictures: `.png()` on layouts, swizzles, swizzled and TV layouts, atoms and pictures,
`png()` and `svg_to_png()`, the size limits, and the Jupyter format switch."""

import struct

import pytest

import cute_layout as cl
from cute_layout import ComposedLayout, Layout, LayoutError, Swizzle, TVLayout
from cute_layout.atoms import MMAAtom, TiledCopy, TiledMMA

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def size(png):
    """Width and height from the IHDR chunk."""
    assert isinstance(png, bytes)
    assert png[:8] == SIGNATURE and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def test_every_picture_has_a_png():
    tv = TVLayout(Layout(((4, 8), (2, 2)), ((16, 1), (8, 64))), (16, 8))
    for obj in (
        Layout((4, 8), (8, 1)),
        Swizzle(3, 4, 3),
        ComposedLayout.parse("Sw<3,4,3> o 0 o (8,64):(64,1)"),
        tv,
        MMAAtom("SM80_16x8x16_F32F16F16F32_TN"),
        TiledMMA("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)),
        TiledCopy("SM75_U32x4_LDSM_N", "half_t", Layout((32, 1), (1, 0)), Layout((1, 8), (0, 1))),
        MMAAtom("SM80_16x8x16_F32F16F16F32_TN").tv_picture("a"),
    ):
        w, h = size(obj.png())
        assert max(w, h) >= 800, (obj, w, h)  # the default scale fits a slide


def test_module_functions_and_scale():
    w, h = size(cl.png("(4,8):(8,1)"))
    w1, h1 = size(cl.png(Layout((4, 8), (8, 1)), scale=1))
    assert (w, h) == (4 * w1, 4 * h1)  # a small layout is drawn at 4x by default
    assert size(cl.png(Layout(((4, 8), 4), ((32, 1), 8)), (32, 4)))
    assert cl.svg_to_png(Swizzle(2, 0, 3).svg()) == Swizzle(2, 0, 3).png()
    assert size(cl.svg_to_png(cl.picture("logical_divide", "(8,8):(1,8)", "(2,4)"), 0.5)) is not None
    with pytest.raises(LayoutError) as e:
        Layout(8, 1).png(scale=0)
    assert e.value.kind == "Usage"


def test_too_big_is_refused():
    # Refused by the pixel limits before anything is drawn (how fast is measured in the
    # benchmarks, not here).
    for make in (
        lambda: Layout(65536, 1).png(),
        lambda: Layout((256, 256), (1, 256)).png(scale=8),
        lambda: cl.png("(128,128):(1,128)", scale=100),
    ):
        with pytest.raises(LayoutError) as e:
            make()
        assert e.value.kind == "TooLarge", e.value
    # Within the limits: the largest default picture.
    w, h = size(Layout((64, 64), (1, 64)).png())
    assert w <= 16384 and h <= 16384 and w * h <= 16_777_216


def test_jupyter_shows_one_format():
    L = Layout((4, 8), (8, 1))
    mma = MMAAtom("SM80_16x8x16_F32F16F16F32_TN")
    assert cl.jupyter_format() == "svg"
    assert L._repr_svg_().startswith("<svg") and L._repr_png_() is None
    assert mma._repr_svg_().startswith("<svg") and mma._repr_png_() is None
    try:
        assert cl.set_jupyter_format("png") == "svg"
        assert L._repr_svg_() is None and size(L._repr_png_())
        assert mma._repr_svg_() is None and size(mma._repr_png_())
        assert Swizzle(3, 4, 3)._repr_svg_() is None and size(Swizzle(3, 4, 3)._repr_png_())
        # A picture past the limits shows nothing rather than raising inside Jupyter.
        assert Layout(65536, 1)._repr_png_() is None
    finally:
        assert cl.set_jupyter_format("svg") == "png"
    with pytest.raises(LayoutError):
        cl.set_jupyter_format("jpeg")


def test_swizzles_are_coloured_so_the_swizzle_shows():
    # Sw<3,4,3>: groups of 16 offsets share a colour, so rows are permutations of the groups.
    svg = ComposedLayout.parse("Sw<3,4,3> o 0 o (8,64):(64,1)").svg()
    assert "colour = value / 16 mod 8" in svg, svg[:600]
    assert Swizzle(3, 4, 3).svg(fit=False).count('<rect class="o') == 1024

"""CuTe's MMA and copy atoms, TiledMMA and TiledCopy, as Python objects over the operation table.

Every field is computed by the library (the `mma_atom`, `tiled_mma`, `copy_atom`,
`make_tiled_copy*` and `make_layout_tv` operations of `cute ops`); these classes only name the
arguments and convert results (layouts become `Layout`, thread-value layouts also come as
`TVLayout` pictures on their tile).

>>> mma = TiledMMA("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.size, mma.tile_size_mnk
(128, (32, 16, 16))
>>> str(MMAAtom("SM80_16x8x16_F32F16F16F32_TN").layout_c_tv)
'((4,8),(2,2)):((32,1),(16,8))'
"""

from ._native import (
    Layout,
    LayoutError,
    TVLayout,
    jupyter_format,
    mma_latex,
    mma_svg,
    picture,
    run,
    run_text,
    svg_to_png,
)

__all__ = [
    "MMAAtom",
    "TiledMMA",
    "CopyAtom",
    "TiledCopy",
    "Picture",
    "list_atoms",
    "make_tiled_mma",
    "make_tiled_copy",
    "make_layout_tv",
]


class _Shown:
    """Jupyter display of the picture: SVG fitted to the cell (`self.svg()`), or PNG of the full
    picture (`self.svg(fit=False)`) after `set_jupyter_format("png")`; `png()` is the picture as
    PNG bytes (`LayoutError` of kind `TooLarge` past the size limits)."""

    def png(self, scale=None):
        return svg_to_png(self.svg(fit=False), scale)

    def _repr_svg_(self):
        if jupyter_format() != "svg":
            return None
        try:
            return self.svg()
        except LayoutError:
            return None

    def _repr_png_(self):
        if jupyter_format() != "png":
            return None
        try:
            return self.png()
        except LayoutError:
            return None

    def _repr_mimebundle_(self, include=None, exclude=None):
        shown = self._repr_svg_() if jupyter_format() == "svg" else self._repr_png_()
        kind = "image/svg+xml" if jupyter_format() == "svg" else "image/png"
        return {**({kind: shown} if shown is not None else {}), "text/plain": repr(self)}


class Picture(_Shown):
    """An SVG picture that Jupyter displays; `str()` is the SVG text, `svg(width=None,
    height=None, fit=True)` the picture fitted as `Layout.svg` fits (where the picture was drawn
    from a `TVLayout`; else the text itself), `png()` the PNG bytes."""

    def __init__(self, svg, source=None):
        self._text = svg
        self._source = source

    def svg(self, width=None, height=None, fit=True):
        if self._source is None or not fit:
            return self._text
        return self._source.svg(width, height, fit)

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"<Picture, {len(self._text)} characters of SVG>"


def _opt(x):
    return "_" if x is None else x


def _lay(x):
    """A layout argument: a shape (int or tuple) stands for its column-major layout, as CuTe's
    `make_layout(shape)`."""
    return Layout(x) if isinstance(x, (int, tuple)) else x


# The modes of (M,N,K) that operand a, b or c of an MMA covers.
_OPERAND_MODES = {"a": (0, 2), "b": (1, 2), "c": (0, 1)}


def _tv_picture(field, mnk_field, operand):
    """The picture of `field(f"layout_{operand}_tv")` on the operand's tile of `field(mnk_field)`."""
    if operand not in _OPERAND_MODES:
        raise ValueError(f"tv_picture: operand is 'a', 'b' or 'c', not {operand!r}")
    i, j = _OPERAND_MODES[operand]
    mnk = field(mnk_field)
    tv = TVLayout(field(f"layout_{operand}_tv"), (mnk[i], mnk[j]))
    return Picture(tv.svg(fit=False), tv)


def list_atoms(filter=""):
    """The atoms the library knows (`cute atoms [FILTER]`), one family per line."""
    return run_text("list_atoms", filter) if filter else run_text("list_atoms")


class MMAAtom(_Shown):
    """CuTe's `MMA_Atom<NAME>`: `thr_id`, `shape_mnk` and the thread-value layouts of A, B and C."""

    def __init__(self, name):
        self.name = name
        run_text("mma_atom", name, "thr_id")  # an unknown name raises LayoutError here

    def _field(self, field):
        return run("mma_atom", self.name, field)

    thr_id = property(lambda self: self._field("thr_id"))
    shape_mnk = property(lambda self: self._field("shape_mnk"))
    layout_a_tv = property(lambda self: self._field("layout_a_tv"))
    layout_b_tv = property(lambda self: self._field("layout_b_tv"))
    layout_c_tv = property(lambda self: self._field("layout_c_tv"))
    layout_sfa_tv = property(lambda self: self._field("layout_sfa_tv"), doc="block-scaled atoms: scale factors of A")
    layout_sfb_tv = property(lambda self: self._field("layout_sfb_tv"), doc="block-scaled atoms: scale factors of B")

    def tv_picture(self, operand="c"):
        """The thread-value layout of operand `a`, `b` or `c` drawn on its tile: `(M,K)`,
        `(N,K)` or `(M,N)` of `shape_mnk`."""
        return _tv_picture(self._field, "shape_mnk", operand)

    def svg(self, width=None, height=None, fit=True):
        """The picture of `mma_svg`, fitted into `width` x `height` pixels as `Layout.svg` is."""
        return mma_svg(self.name, None, None, width, height, fit)

    def latex(self):
        return mma_latex(self.name)

    def __repr__(self):
        return f"MMAAtom({self.name!r})"


class TiledMMA(_Shown):
    """CuTe's `make_tiled_mma(atom, atom_layout, permutation)` (`None`: CuTe's defaults).
    `atom_layout` is a layout, a shape (its column-major layout) or CuTe text; `permutation` a
    tiler."""

    def __init__(self, atom, atom_layout=None, permutation=None):
        self.atom = atom.name if isinstance(atom, MMAAtom) else atom
        self.atom_layout = atom_layout
        self.permutation = permutation
        self._field("size")  # validates

    def _args(self):
        return (self.atom, _opt(self.atom_layout), _opt(self.permutation))

    def _field(self, field, *extra):
        return run("tiled_mma", *self._args(), field, *extra)

    thr_layout_vmnk = property(lambda self: self._field("thr_layout_vmnk"))
    permutation_mnk = property(lambda self: self._field("permutation_mnk"))
    tile_size_mnk = property(lambda self: self._field("tile_size_mnk"))
    size = property(lambda self: self._field("size"))
    layout_a_tv = property(lambda self: self._field("layout_a_tv"))
    layout_b_tv = property(lambda self: self._field("layout_b_tv"))
    layout_c_tv = property(lambda self: self._field("layout_c_tv"))

    def partition(self, operand, gmem_layout, thread):
        """`thr_mma.partition_{A,B,C}(tensor)` of thread `thread` on a tensor of `gmem_layout`."""
        return self._field(f"partition_{operand}", _lay(gmem_layout), thread)

    def offset(self, operand, gmem_layout, thread):
        """The offset of that partition's first element in the tensor."""
        return self._field(f"offset_{operand}", _lay(gmem_layout), thread)

    def fragment(self, operand, gmem_layout, thread):
        """`partition_fragment_{A,B,C}`: the register fragment's layout."""
        return self._field(f"fragment_{operand}", _lay(gmem_layout), thread)

    def tv_picture(self, operand="c"):
        """The thread-value layout of operand `a`, `b` or `c` drawn on its tile: `(M,K)`,
        `(N,K)` or `(M,N)` of `tile_size_mnk`."""
        return _tv_picture(self._field, "tile_size_mnk", operand)

    def svg(self, width=None, height=None, fit=True):
        """The picture of `mma_svg`, fitted into `width` x `height` pixels as `Layout.svg` is."""
        return mma_svg(self.atom, self.atom_layout, self.permutation, width, height, fit)

    def latex(self):
        return mma_latex(self.atom, self.atom_layout, self.permutation)

    def __repr__(self):
        return f"TiledMMA({self.atom!r}, {self.atom_layout!r}, {self.permutation!r})"


def make_tiled_mma(atom, atom_layout=None, permutation=None):
    return TiledMMA(atom, atom_layout, permutation)


class CopyAtom:
    """CuTe's `Copy_Atom<NAME, TYPE>`: `thr_id`, `val_id`, the bit layouts `src_bits`,
    `dst_bits`, `ref_bits`, the same recast to TYPE (`src`, `dst`, `ref`), `num_val_src/dst`."""

    def __init__(self, name, type):
        self.name, self.type = name, type
        run_text("copy_atom", name, type, "thr_id")

    def _field(self, field):
        return run("copy_atom", self.name, self.type, field)

    thr_id = property(lambda self: self._field("thr_id"))
    val_id = property(lambda self: self._field("val_id"))
    src_bits = property(lambda self: self._field("src_bits"))
    dst_bits = property(lambda self: self._field("dst_bits"))
    ref_bits = property(lambda self: self._field("ref_bits"))
    src = property(lambda self: self._field("src"))
    dst = property(lambda self: self._field("dst"))
    ref = property(lambda self: self._field("ref"))
    num_val_src = property(lambda self: self._field("num_val_src"))
    num_val_dst = property(lambda self: self._field("num_val_dst"))

    def __repr__(self):
        return f"CopyAtom({self.name!r}, {self.type!r})"


class TiledCopy(_Shown):
    """CuTe's `make_tiled_copy(Copy_Atom<atom, type>, thr_layout, val_layout)`, or with `mma`
    (a `TiledMMA`) and `operand` (`"A"`, `"B"`, `"C"`, `"C_atom"`), `make_tiled_copy_A/B/C` of
    that tiled MMA."""

    def __init__(self, atom, type, thr_layout=None, val_layout=None, mma=None, operand=None):
        self.atom, self.type = (atom.name, atom.type) if isinstance(atom, CopyAtom) else (atom, type)
        self.thr_layout, self.val_layout, self.mma, self.operand = thr_layout, val_layout, mma, operand
        if mma is None and thr_layout is None:
            raise TypeError("TiledCopy: give thr_layout (and val_layout), or mma and operand")
        self._field("size")

    def _call(self, field, *extra):
        if self.mma is not None:
            m = self.mma
            return ("make_tiled_copy_" + (self.operand or "C"), self.atom, self.type, m.atom,
                    _opt(m.atom_layout), _opt(m.permutation), field, *extra)
        val = "_" if self.val_layout is None else _lay(self.val_layout)
        return ("make_tiled_copy", self.atom, self.type, _lay(self.thr_layout), val, field, *extra)

    def _field(self, field, *extra):
        return run(*self._call(field, *extra))

    tiler_mn = property(lambda self: self._field("tiler_mn"))
    tiled_layout_tv = property(lambda self: self._field("tiled_layout_tv"))
    layout_s_tv = property(lambda self: self._field("layout_s_tv"))
    layout_d_tv = property(lambda self: self._field("layout_d_tv"))
    size = property(lambda self: self._field("size"))

    def partition_s(self, tensor_layout, thread):
        return self._field("partition_s", _lay(tensor_layout), thread)

    def partition_d(self, tensor_layout, thread):
        return self._field("partition_d", _lay(tensor_layout), thread)

    def offset_s(self, tensor_layout, thread):
        return self._field("offset_s", _lay(tensor_layout), thread)

    def offset_d(self, tensor_layout, thread):
        return self._field("offset_d", _lay(tensor_layout), thread)

    def retile_s(self, fragment):
        return self._field("retile_s", fragment)

    def retile_d(self, fragment):
        return self._field("retile_d", fragment)

    def tv_picture(self, which="s"):
        tv = TVLayout(self._field(f"layout_{which}_tv"), self.tiler_mn)
        return Picture(picture(*self._call(f"layout_{which}_tv")), tv)

    def svg(self, width=None, height=None, fit=True):
        """The source thread-value layout on its tile (`tv_picture("s")`), fitted as
        `Layout.svg` is."""
        return self.tv_picture("s").svg(width, height, fit)

    def __repr__(self):
        return f"TiledCopy({self.atom!r}, {self.type!r}, {self.thr_layout!r}, {self.val_layout!r})"


def make_tiled_copy(atom, type, thr_layout, val_layout=None):
    return TiledCopy(atom, type, thr_layout, val_layout)


def make_layout_tv(thr_layout, val_layout):
    """The CuTe DSL's `make_layout_tv(thr, val)`: `(tiler_mn, layout_tv)`."""
    t, v = _lay(thr_layout), _lay(val_layout)
    return run("make_layout_tv", t, v, "tiler_mn"), run("make_layout_tv", t, v, "layout_tv")

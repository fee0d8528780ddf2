"""CuTe's layout algebra, native (Rust) and eager, for Python.

Layouts are ``Shape:Stride`` functions from coordinates to offsets, as in NVIDIA CuTe. Every
operation follows CuTe's results where they satisfy the operation's law, and raises a typed
``LayoutError`` (with ``.kind``) where CuTe's answer would break it. Functions take pycute's and
CuTe's names and argument orders; ``cute_layout.pycute`` is a drop-in for ``pycute``.

>>> from cute_layout import Layout, composition
>>> A = Layout((6, 2), (8, 2))
>>> str(composition(A, Layout((4, 3), (3, 1))))
'((2,2),3):((24,2),8)'

``run(op, *args)`` reaches every operation of the project's operation table (``ops()`` lists
them, the same as the ``cute`` command line), and ``batch(requests)`` runs many in one call.
"""

from ._native import (
    BasisLayout,
    ComposedLayout,
    Layout,
    LayoutError,
    ParseError,
    Swizzle,
    TVLayout,
    batch,
    blocked_product,
    coalesce,
    complement,
    composition,
    cosize,
    crd2crd,
    crd2idx,
    depth,
    downcast,
    filter,
    filter_zeros,
    flat_divide,
    flat_product,
    flatten,
    idx2crd,
    inner_product,
    latex,
    left_inverse,
    logical_divide,
    logical_product,
    make_layout,
    make_identity_layout,
    make_layout_right,
    mma_latex,
    mma_svg,
    max_common_layout,
    max_common_vector,
    mode,
    nullspace,
    ops,
    picture,
    prefix_product,
    raked_product,
    rank,
    recast,
    right_inverse,
    run,
    run_text,
    shape,
    shape_div,
    size,
    slice_,
    slice_and_offset,
    stride,
    svg,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    upcast,
    zipped_divide,
    zipped_product,
)

__all__ = [
    "BasisLayout",
    "ComposedLayout",
    "Layout",
    "LayoutError",
    "ParseError",
    "Swizzle",
    "TVLayout",
    "batch",
    "blocked_product",
    "coalesce",
    "complement",
    "composition",
    "cosize",
    "crd2crd",
    "crd2idx",
    "depth",
    "downcast",
    "filter",
    "filter_zeros",
    "flat_divide",
    "flat_product",
    "flatten",
    "idx2crd",
    "inner_product",
    "latex",
    "left_inverse",
    "logical_divide",
    "logical_product",
    "make_layout",
    "make_identity_layout",
    "make_layout_right",
    "mma_latex",
    "mma_svg",
    "max_common_layout",
    "max_common_vector",
    "mode",
    "nullspace",
    "ops",
    "picture",
    "prefix_product",
    "raked_product",
    "rank",
    "recast",
    "right_inverse",
    "run",
    "run_text",
    "shape",
    "shape_div",
    "size",
    "slice_",
    "slice_and_offset",
    "stride",
    "svg",
    "tile_to_shape",
    "tiled_divide",
    "tiled_product",
    "upcast",
    "zipped_divide",
    "zipped_product",
]

from . import atoms  # noqa: E402  (MMAAtom, TiledMMA, CopyAtom, TiledCopy over the table)
from .atoms import CopyAtom, MMAAtom, Picture, TiledCopy, TiledMMA, make_layout_tv, make_tiled_copy, make_tiled_mma  # noqa: E402

__all__ += ["atoms", "CopyAtom", "MMAAtom", "Picture", "TiledCopy", "TiledMMA", "make_layout_tv", "make_tiled_copy", "make_tiled_mma"]
from .tensor import Tensor  # noqa: E402

__all__ += ["Tensor"]

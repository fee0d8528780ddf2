"""CuTe's layout algebra, native (Rust) and eager, for Python.

Layouts are ``Shape:Stride`` functions from coordinates to offsets, as in NVIDIA CuTe. Every
operation follows CuTe's results where they satisfy the operation's law, and raises a typed
``LayoutError`` (with ``.kind``) where CuTe's answer would break it. Functions take pycute's and
CuTe's names and argument orders; ``cute_layout.pycute`` is a drop-in for ``pycute``.

>>> from cute_layout import Layout, composition
>>> A = Layout((6, 2), (8, 2))
>>> str(composition(A, Layout((4, 3), (3, 1))))
'((2,2),3):((24,2),8)'

Every operation of the table (``ops()``, the same as ``cute ops``) is a function of this module
with the operation's parameters and its summary as the docstring (``_ops``, generated from the
table's declarations by ``crates/cute-py/gen_ops.py``). ``run(op, *args)`` also reaches every operation of the project's operation table (``ops()`` lists
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
    coalesce_z,
    common_coarsening,
    common_refinement,
    complement,
    composition,
    cosize,
    crd2idx,
    depth,
    downcast,
    filter,
    filter_zeros,
    flat_divide,
    flat_product,
    flatten,
    greatest_common_domain,
    idx2crd,
    inner_product,
    jupyter_format,
    layout_add,
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
    png,
    prefix_product,
    raked_product,
    rank,
    recast,
    right_inverse,
    run,
    run_text,
    set_jupyter_format,
    shape,
    shape_div,
    size,
    slice_,
    slice_and_offset,
    stride,
    svg_to_png,
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
    "coalesce_z",
    "common_coarsening",
    "common_refinement",
    "complement",
    "composition",
    "cosize",
    "crd2idx",
    "depth",
    "downcast",
    "filter",
    "filter_zeros",
    "flat_divide",
    "flat_product",
    "flatten",
    "greatest_common_domain",
    "idx2crd",
    "inner_product",
    "jupyter_format",
    "layout_add",
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
    "png",
    "prefix_product",
    "raked_product",
    "rank",
    "recast",
    "right_inverse",
    "run",
    "run_text",
    "set_jupyter_format",
    "shape",
    "shape_div",
    "size",
    "slice_",
    "slice_and_offset",
    "stride",
    "svg_to_png",
    "tile_to_shape",
    "tiled_divide",
    "tiled_product",
    "upcast",
    "zipped_divide",
    "zipped_product",
]

from . import _ops  # noqa: E402  (one function per operation of the table)
from ._ops import *  # noqa: E402,F401,F403

__all__ += [n for n in _ops.__all__ if n not in __all__]

from . import atoms  # noqa: E402  (MMAAtom, TiledMMA, CopyAtom, TiledCopy over the table)
from .atoms import CopyAtom, MMAAtom, Picture, TiledCopy, TiledMMA, make_layout_tv, make_tiled_copy, make_tiled_mma  # noqa: E402

__all__ += ["atoms", "CopyAtom", "MMAAtom", "Picture", "TiledCopy", "TiledMMA", "make_layout_tv", "make_tiled_copy", "make_tiled_mma"]
# The atom functions return objects (TiledCopy, a TV layout): kept, with the table's docstring first.
for _f in (make_layout_tv, make_tiled_copy):
    if hasattr(_ops, _f.__name__):  # (absent only while gen_ops.py writes _ops.py)
        _f.__doc__ = getattr(_ops, _f.__name__).__doc__ + "\n\nHere: " + (_f.__doc__ or "").strip()
del _f

from .tensor import Tensor  # noqa: E402

__all__ += ["Tensor"]

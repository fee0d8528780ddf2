"""A drop-in for ``pycute`` (the Python CuTe of NVIDIA/cutlass): ``import cute_layout.pycute as
pycute`` or ``from cute_layout.pycute import *``.

Same names, argument orders and result types as pycute's ``int_tuple``, ``layout``, ``swizzle``
and ``typing`` modules; the layout algebra is the native ``cute_layout`` (sound: an input on
which pycute's answer would break the operation's law raises ``cute_layout.LayoutError``
instead). What differs from pycute, on purpose:

- ``str(layout)`` is CuTe's text ``(4,8):(1,4)`` (pycute prints Python tuples, ``(4, 8):(1, 4)``);
  ``str(Swizzle(3,4,3))`` is ``Sw<3,4,3>`` (pycute: ``SW_3_4_3``).
- Results are CuTe's: e.g. ``coalesce`` of a layout whose modes all have extent 1 is ``1:0``, as
  pycute; ``complement(L)`` (pycute's ``max_idx=1``) is CuTe's ``complement(L)``.
- Where pycute's answer breaks the law (pycute.jsonl / PYCUTE.md in the package docs list the
  cases), the drop-in raises ``LayoutError`` instead of returning it.
- ``logical_product(A, n)`` with an int is CuTe's product by ``n:1`` (pycute calls
  ``logical_divide`` there, a bug).
- ``filter(L, profile)`` with a profile raises ``LayoutError(kind="NotImplemented")``.
"""

import abc as _abc

from . import _native
from ._native import (
    ComposedLayout,
    Layout,
    LayoutError,
    Swizzle,
    blocked_product,
    coalesce,
    composition,
    cosize,
    crd2idx,
    idx2crd,
    inner_product,
    left_inverse,
    logical_divide,
    logical_product,
    prefix_product,
    raked_product,
    right_inverse,
    shape_div,
    size,
    slice_,
    slice_and_offset,
    tiled_divide,
    tiled_product,
    zipped_divide,
    zipped_product,
)
from ._native import filter  # noqa: A004  (pycute's name)

__all__ = [
    # typing
    "Integer",
    # int_tuple
    "is_int",
    "is_tuple",
    "flatten",
    "signum",
    "product",
    "inner_product",
    "tuple_max",
    "elem_scale",
    "shape_div",
    "prefix_product",
    "idx2crd",
    "crd2idx",
    "crd2crd",
    "slice_",
    "has_none",
    # layout
    "LayoutBase",
    "is_layout",
    "Layout",
    "make_layout",
    "size",
    "cosize",
    "coalesce",
    "filter",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "logical_product",
    "hier_unzip",
    "zipped_divide",
    "tiled_divide",
    "zipped_product",
    "tiled_product",
    "blocked_product",
    "raked_product",
    "slice_and_offset",
    # swizzle
    "shiftl",
    "shiftr",
    "Swizzle",
    "ComposedLayout",
    "LayoutError",
]


# ---- typing -------------------------------------------------------------------------------------


class _IntegerMeta(_abc.ABCMeta):
    def __instancecheck__(cls, obj):
        return isinstance(obj, int) and not isinstance(obj, bool)

    def __subclasscheck__(cls, sub):
        return issubclass(sub, int) and not issubclass(sub, bool)


class Integer(metaclass=_IntegerMeta):
    """pycute's ``Integer``: ints, not bools."""


# ---- layout classes ------------------------------------------------------------------------------


class LayoutBase(_abc.ABC):
    """pycute's base class of layouts; ``Layout``, ``ComposedLayout`` and ``Swizzle`` are
    registered as its subclasses."""


LayoutBase.register(Layout)
LayoutBase.register(ComposedLayout)
LayoutBase.register(Swizzle)


def is_layout(x):
    return isinstance(x, LayoutBase)


# ---- int tuples (type tests and the table's operations; no algebra here) -------------------------


def is_int(x):
    return isinstance(x, int)


def is_tuple(x):
    return isinstance(x, tuple)


def has_none(a):
    if isinstance(a, tuple):
        return any(has_none(v) for v in a)
    return a is None


def flatten(t):
    """pycute's ``flatten``: a flat tuple of the leaves (an int ``n`` gives ``(n,)``); of a
    layout, its flat layout."""
    r = _native.flatten(t)
    return r if isinstance(r, (tuple, Layout, ComposedLayout)) else (r,)


def signum(a):
    return (a > 0) - (a < 0)


def product(a):
    """The product of the leaves (CuTe's ``size`` of an int tuple)."""
    return size(a)


def _not_implemented(name):
    e = LayoutError(f"{name}: not implemented in cute_layout")
    e.kind = "NotImplemented"
    return e


def tuple_max(a):
    return max(flatten(a))


def elem_scale(a, b):
    raise _not_implemented("elem_scale")


# ---- layout algebra ------------------------------------------------------------------------------


def make_layout(*layouts):
    """pycute's ``make_layout(*layouts)``: the layout whose modes are the given layouts (or the
    layouts of one iterable), CuTe's ``make_layout(L0, L1, ...)``."""
    if len(layouts) == 1 and not isinstance(layouts[0], LayoutBase):
        layouts = layouts[0]
    return _native.make_layout(layouts)


# pycute's `crd2crd(crd, dst_shape, src_shape=None)` (the module's `crd2crd` takes the table's
# order, source shape first).
crd2crd = _native.pycute_crd2crd

# pycute's `complement(layout, max_idx=1)`: CuTe's `complement(layout)` for the default, else
# `complement(layout, max_idx)` (native, like every function here).
complement = _native.pycute_complement


def hier_unzip(splitter, layoutA, layoutB):
    """pycute's helper: ``zipped_divide`` / ``zipped_product`` by their splitter."""
    if splitter is logical_divide:
        return zipped_divide(layoutA, layoutB)
    if splitter is logical_product:
        return zipped_product(layoutA, layoutB)
    raise _not_implemented("hier_unzip with another splitter")


# ---- swizzle helpers -----------------------------------------------------------------------------


def shiftl(a, s):
    return a << s if s > 0 else a >> -s


def shiftr(a, s):
    return a >> s if s > 0 else a << -s

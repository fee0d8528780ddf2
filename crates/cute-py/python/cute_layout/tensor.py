"""`Tensor(data, layout)`: a layout over a numpy array, a buffer or any indexable sequence.

The layout maps coordinates to offsets into `data` (flattened for a numpy array, without a
copy when it is contiguous); every offset is checked to lie inside `data` when the tensor is
made, so indexing never reads outside it.

>>> import numpy as np
>>> T = Tensor(np.arange(32), Layout((4, 8), (8, 1)))
>>> int(T[1, 2]), T[None, 2].layout
(10, Layout((4,), (8,)))
>>> T.numpy().shape
(4, 8)
>>> T.local_tile((2, 4), (1, 1)).layout, T.local_tile((2, 4), (1, 1)).offset
(Layout((2, 4), (8, 1)), 20)
>>> [int(x) for x in T.local_partition(Layout((2, 2), (2, 1)), 1).numpy().ravel(order="F")][:4]
[1, 17, 3, 19]
"""

from ._native import Layout, LayoutError, run_text, size, slice_and_offset

__all__ = ["Tensor"]


def _flat(data):
    try:
        import numpy as np
    except ImportError:
        return data
    if isinstance(data, np.ndarray):
        return data.reshape(-1)  # a view when contiguous
    return data


class Tensor:
    """A layout over `data` starting at element `offset`: `T[c]` is `data[offset + layout(c)]`;
    a coordinate with `None` (CuTe's `_`) gives the sub-tensor."""

    def __init__(self, data, layout, offset=0):
        self.data = _flat(data)
        self.layout = layout if isinstance(layout, Layout) else Layout(layout)
        self.offset = offset
        n = len(self.data)
        offs = self.layout.offsets()
        if size(self.layout) > 0:
            lo, hi = int(min(offs)) + offset, int(max(offs)) + offset
            if lo < 0 or hi >= n:
                e = LayoutError(
                    f"Tensor: layout {self.layout} at offset {offset} reaches [{lo}, {hi}], "
                    f"outside the {n} elements of the data")
                e.kind = "OutOfBounds"
                raise e

    @property
    def shape(self):
        return self.layout.shape

    def size(self):
        return self.layout.size()

    def _index(self, crd):
        if isinstance(crd, tuple) and len(crd) == 1:
            crd = crd[0]
        return crd

    def _has_none(self, c):
        return c is None or (isinstance(c, tuple) and any(self._has_none(x) for x in c))

    def __getitem__(self, crd):
        crd = self._index(crd)
        if self._has_none(crd):
            sub, off = slice_and_offset(crd, self.layout)
            return Tensor(self.data, sub, self.offset + off)
        return self.data[self.offset + self.layout(crd)]

    def __setitem__(self, crd, value):
        crd = self._index(crd)
        if self._has_none(crd):
            raise TypeError("Tensor: assign to one element (a coordinate without None)")
        self.data[self.offset + self.layout(crd)] = value

    def __len__(self):
        return len(self.layout)

    # Tiling and partitioning are layout operations: the operation table computes them on the
    # counting tensor `counting_iter(offset) o layout` (the tensor without its data), whose
    # answer carries the new layout and offset; the result views the same data.

    def _counting(self):
        return f"counting_iter({self.offset}) o {self.layout}"

    def _view(self, text):
        head, _, layout = text.partition(" o ")
        return Tensor(self.data, Layout(layout), int(head[len("counting_iter("):-1]))

    def local_tile(self, tiler, coord, proj=None):
        """CuTe's `local_tile(tensor, tiler, coord[, proj])`: the tile at tile coordinate
        `coord` (`zipped_divide(T, tiler)((_,...), coord)`). `proj` is CuTe's `Step`: a tuple
        with `None` (or the text `Step<_1,X,_1>`) for the modes of `tiler` and `coord` to drop."""
        extra = [] if proj is None else [proj]
        return self._view(run_text("local_tile", self._counting(), tiler, coord, *extra))

    def local_partition(self, thr, index, proj=None):
        """CuTe's `local_partition(tensor, thr, index[, proj])`: the elements thread `index`
        owns when the tensor is tiled by `thr`'s shape and thread `thr(c)` takes element `c` of
        every tile."""
        extra = [] if proj is None else [proj]
        return self._view(run_text("local_partition", self._counting(), thr, index, *extra))

    def partition_tv(self, tv, thread):
        """Thread `thread`'s values under a (thread, value) -> index layout `tv`: CuTe's
        `composition(tensor, tv)(thread, _)`."""
        return self._view(run_text("partition_tv", self._counting(), tv, thread))

    def numpy(self):
        """The elements in a numpy array of the top-level mode sizes (column-major, as CuTe
        enumerates coordinates); a copy."""
        import numpy as np

        modes = [self.layout[i].size() for i in range(len(self.layout))]
        flat = np.asarray(self.data)[self.layout.offsets() + self.offset]
        return flat.reshape(modes, order="F")

    def __repr__(self):
        return f"Tensor(<{len(self.data)} elements>, {self.layout!r}, offset={self.offset})"

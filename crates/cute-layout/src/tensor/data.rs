//! Tensors: a layout over storage, CuTe's `Tensor<Engine, Layout>`, on the CPU.
//!
//! A tensor pairs a (possibly swizzled) layout with a slice of elements: the element at
//! coordinate `c` is `data[base + layout(c)]`. Every way of making a tensor checks once that
//! every offset the layout can produce lies inside the storage (from the layout's image bounds,
//! no enumeration), so reading an element afterwards needs only the check that the coordinate is
//! in the domain. Tiling and partitioning are layout operations; they return views that borrow
//! the same storage.
//!
//! ```
//! use cute_layout::{IntTuple, Layout, Tensor, Tiler};
//! // A 4 x 6 row-major matrix.
//! let a = Tensor::new((0..24).collect::<Vec<i32>>(), "(4,6):(6,1)".parse::<Layout>()?)?;
//! assert_eq!(*a.get(&IntTuple::flat([2, 3]))?, 15);
//! // The 2 x 3 tile at tile coordinate (1,1): rows 2..4, columns 3..6.
//! let t = a.local_tile(&"(2,3)".parse::<Tiler>()?, &IntTuple::flat([1, 1]))?;
//! assert_eq!(t.iter().copied().collect::<Vec<_>>(), [15, 21, 16, 22, 17, 23]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::vec::Vec;
use core::fmt;

use smallvec::SmallVec;

use crate::algebra::Tiler;
use crate::basis::ScaledBasis;
use crate::composed::composed_layout::ComposedLayout;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::{Slice, SliceCoord};
use crate::layout::tree::Leaves;
use crate::layout::Layout;

/// Storage a tensor reads: a contiguous slice of elements.
pub trait Storage {
    /// The element type.
    type Elem;
    /// The elements.
    fn as_slice(&self) -> &[Self::Elem];
}

/// Storage a tensor writes.
pub trait StorageMut: Storage {
    /// The elements, mutably.
    fn as_mut_slice(&mut self) -> &mut [Self::Elem];
}

impl<T> Storage for Vec<T> {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> StorageMut for Vec<T> {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<T> Storage for &[T] {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> Storage for &mut [T] {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> StorageMut for &mut [T] {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

/// A layout over storage, CuTe's `Tensor<Engine, Layout>`: the element at coordinate `c` is
/// `data[base + layout(c)]`. `S` is `Vec<T>` (owning), `&[T]` or `&mut [T]` (borrowed).
///
/// Every constructor checks once, from the layout's image bounds, that every offset the layout
/// can produce lies inside the storage ([`LayoutError::OutOfBounds`] otherwise), so reading an
/// element needs only the check that the coordinate is in the domain. Slicing, tiling and
/// partitioning are layout operations returning views that borrow the same storage.
///
/// # Examples
/// ```
/// # use cute_layout::{IntTuple, Layout, Tensor, Tiler};
/// let a = Tensor::new((0..24).collect::<Vec<i32>>(), "(4,6):(6,1)".parse::<Layout>()?)?;
/// let t = a.local_tile(&"(2,3)".parse::<Tiler>()?, &IntTuple::flat([1, 1]))?;
/// assert_eq!(t.to_vec(), [15, 21, 16, 22, 17, 23]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Tensor<S> {
    data: S,
    layout: ComposedLayout,
    base: usize,
}

/// Check that the natural coordinate of `c` lies in `shape` (every leaf in `0..extent`).
pub(crate) fn check_in_domain(
    op: &'static str,
    shape: &IntTuple,
    c: &IntTuple,
) -> Result<(), LayoutError> {
    let natural = shape.idx2crd(c)?;
    let inside = natural
        .leaves()
        .iter()
        .zip(shape.leaves())
        .all(|(&x, &s)| (0..s).contains(&x));
    if inside {
        Ok(())
    } else {
        Err(LayoutError::CoordOutOfRange {
            op,
            coord: c.clone().into(),
            shape: shape.clone().into(),
        })
    }
}

/// The base that puts every offset of `layout` plus `base` inside `0..len`, checked.
fn check_bounds(
    op: &'static str,
    layout: &ComposedLayout,
    base: i64,
    len: usize,
) -> Result<usize, LayoutError> {
    let (lo, hi) = layout.image_bounds();
    let lo_abs = lo.checked_add(base);
    let hi_abs = hi.checked_add(base);
    match (lo_abs, hi_abs) {
        (Some(l), Some(h)) if l >= 0 && usize::try_from(h).is_ok_and(|h| h < len) => {
            usize::try_from(base).map_err(|_| LayoutError::overflow(op))
        }
        _ => Err(LayoutError::OutOfBounds {
            op,
            bounds: (lo.saturating_add(base), hi.saturating_add(base)),
            len,
        }),
    }
}

/// CuTe's `get_flat_coord`: the per-mode 1-D coordinate `c` of `thr` with `thr(c) == idx`.
pub(crate) fn thread_coord(
    op: &'static str,
    thr: &Layout,
    idx: i64,
) -> Result<Leaves<i64>, LayoutError> {
    let not_image = || LayoutError::InvalidArgument {
        op,
        what: alloc::format!("thread index {idx} is not a value of the thread layout {thr}"),
    };
    if idx < 0 {
        return Err(not_image());
    }
    let hier = thr.coord(idx)?;
    if thr.index(&hier)? != idx {
        return Err(not_image());
    }
    let mut out = Leaves::new();
    for (m, c) in thr.modes().zip(hier.elements()) {
        out.push(m.shape().crd2idx(&c)?);
    }
    Ok(out)
}

impl<S: Storage> Tensor<S> {
    /// A tensor over `data` with `layout`: element `c` is `data[layout(c)]`.
    ///
    /// # Errors
    /// [`LayoutError::OutOfBounds`] unless every offset the layout can produce (its
    /// [`ComposedLayout::image_bounds`]) lies in `0..data.len()`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let t = Tensor::new(vec![0.0f32; 32], "(4,8):(8,1)".parse::<Layout>()?)?;
    /// assert_eq!(t.size(), 32);
    /// assert!(Tensor::new(vec![0.0f32; 31], "(4,8):(8,1)".parse::<Layout>()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(data: S, layout: impl Into<ComposedLayout>) -> Result<Self, LayoutError> {
        Self::with_base(data, layout, 0)
    }

    /// A tensor whose origin is element `base` of `data` (for negative strides or a view into
    /// the middle of a buffer): element `c` is `data[base + layout(c)]`.
    ///
    /// # Errors
    /// As [`Tensor::new`].
    pub fn with_base(
        data: S,
        layout: impl Into<ComposedLayout>,
        base: usize,
    ) -> Result<Self, LayoutError> {
        let layout = layout.into();
        let b = i64::try_from(base).map_err(|_| LayoutError::overflow("make_tensor"))?;
        let base = check_bounds("make_tensor", &layout, b, data.as_slice().len())?;
        Ok(Tensor { data, layout, base })
    }

    /// The layout.
    pub fn layout(&self) -> &ComposedLayout {
        &self.layout
    }

    /// The shape.
    pub fn shape(&self) -> IntTuple {
        self.layout.shape()
    }

    /// Number of elements.
    pub fn size(&self) -> i64 {
        self.layout.size()
    }

    /// Number of top-level modes.
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// Position of the origin in the storage.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The whole storage.
    pub fn data(&self) -> &[S::Elem] {
        self.data.as_slice()
    }

    /// The storage, giving up the layout.
    pub fn into_data(self) -> S {
        self.data
    }

    /// Storage position of an in-domain offset (proven in bounds on construction).
    #[inline]
    fn pos(&self, off: i64) -> usize {
        (self.base as i64 + off) as usize
    }

    /// Storage position of the element at any kind of coordinate.
    ///
    /// # Errors
    /// [`LayoutError::CoordOutOfRange`] if the coordinate is outside the shape; as
    /// [`Layout::index`] for a coordinate that does not fit the shape's tree.
    pub fn position(&self, c: &IntTuple) -> Result<usize, LayoutError> {
        check_in_domain("tensor", &self.layout.shape(), c)?;
        Ok(self.pos(self.layout.index(c)?))
    }

    /// The element at any kind of coordinate (1-D, R-D, natural).
    ///
    /// # Errors
    /// As [`Tensor::position`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// assert_eq!(*a.get(&"(1,2)".parse()?)?, 5);
    /// assert_eq!(*a.get(&"3".parse()?)?, 4); // 1-D: coordinate (1,1)
    /// assert_eq!(a.get(&"(2,0)".parse()?).unwrap_err().kind(), "CoordOutOfRange");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, c: &IntTuple) -> Result<&S::Elem, LayoutError> {
        let p = self.position(c)?;
        Ok(&self.data.as_slice()[p])
    }

    /// The element at 1-D index `i`, `None` outside `0..size`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// assert_eq!(a.get_1d(1), Some(&3));
    /// assert_eq!(a.get_1d(6), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_1d(&self, i: i64) -> Option<&S::Elem> {
        let o = self.layout.index_1d(i)?;
        Some(&self.data.as_slice()[self.pos(o)])
    }

    /// Storage positions of all elements, in the layout's (colexicographic) order.
    pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.layout.offsets().map(move |o| self.pos(o))
    }

    /// All elements in the layout's (colexicographic) order.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// assert_eq!(a.iter().copied().collect::<Vec<_>>(), [0, 3, 1, 4, 2, 5]); // column by column
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &S::Elem> + '_ {
        let d = self.data.as_slice();
        self.positions().map(move |p| &d[p])
    }

    /// The elements in layout order, cloned.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// assert_eq!(a.to_vec(), [0, 3, 1, 4, 2, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_vec(&self) -> Vec<S::Elem>
    where
        S::Elem: Clone,
    {
        self.iter().cloned().collect()
    }

    /// A borrowed view of the whole tensor.
    pub fn view(&self) -> Tensor<&[S::Elem]> {
        Tensor {
            data: self.data.as_slice(),
            layout: self.layout.clone(),
            base: self.base,
        }
    }

    /// The view with a new layout and an extra offset, re-checked against the storage.
    fn derive(
        &self,
        op: &'static str,
        layout: ComposedLayout,
        off: i64,
    ) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        let b = (self.base as i64)
            .checked_add(off)
            .ok_or(LayoutError::overflow(op))?;
        let base = check_bounds(op, &layout, b, self.data.as_slice().len())?;
        Ok(Tensor {
            data: self.data.as_slice(),
            layout,
            base,
        })
    }

    /// CuTe's `tensor(c)` with `_` entries: the sub-tensor of the modes where `c` is `_`
    /// (CuTe `slice_and_offset`; the offset moves into the view's origin, or into a swizzled
    /// layout's offset).
    ///
    /// # Laws
    /// * `R(d) == self(c with its _ entries replaced by d)` for every coordinate `d` of `R`.
    ///
    /// # Errors
    /// As [`Layout::slice_and_offset`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, SliceCoord, Tensor};
    /// let a = Tensor::new((0..12).collect::<Vec<u8>>(), "(3,4):(4,1)".parse::<Layout>()?)?;
    /// let row = a.slice(&"(1,_)".parse::<SliceCoord>()?)?;
    /// assert_eq!(row.to_vec(), [4, 5, 6, 7]);
    /// let col = a.slice(&"(_,2)".parse::<SliceCoord>()?)?;
    /// assert_eq!(col.to_vec(), [2, 6, 10]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice(&self, c: &SliceCoord) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        let (l, off) = self.layout.slice_and_offset(c)?;
        self.derive("slice", l, off)
    }

    /// The view with `f` applied to the layout.
    fn map(
        &self,
        op: &'static str,
        f: impl FnOnce(&ComposedLayout) -> Result<ComposedLayout, LayoutError>,
    ) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        let l = f(&self.layout)?;
        self.derive(op, l, 0)
    }

    /// CuTe `flatten` of the layout.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..12).collect::<Vec<u8>>(), "((2,2),3):((1,2),4)".parse::<Layout>()?)?;
    /// assert_eq!(a.flatten().layout().to_string(), "(2,2,3):(1,2,4)");
    /// assert_eq!(a.flatten().to_vec(), a.to_vec());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flatten(&self) -> Tensor<&[S::Elem]> {
        Tensor {
            data: self.data.as_slice(),
            layout: self.layout.flatten(),
            base: self.base,
        }
    }

    /// CuTe `coalesce` of the layout (same elements in the same order, fewest modes).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(1,2)".parse::<Layout>()?)?;
    /// assert_eq!(a.coalesce().layout().to_string(), "6:1");
    /// assert_eq!(a.coalesce().to_vec(), a.to_vec());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce(&self) -> Tensor<&[S::Elem]> {
        Tensor {
            data: self.data.as_slice(),
            layout: self.layout.coalesce(),
            base: self.base,
        }
    }

    /// CuTe `group<begin,end>` of the layout.
    ///
    /// # Errors
    /// As [`Layout::group_modes`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..12).collect::<Vec<u8>>(), "(2,3,2):(1,2,6)".parse::<Layout>()?)?;
    /// assert_eq!(a.group_modes(0, 2)?.layout().to_string(), "((2,3),2):((1,2),6)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group_modes(&self, begin: usize, end: usize) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        self.map("group", |l| l.group_modes(begin, end))
    }

    /// CuTe `composition(tensor, layout)`: the elements re-indexed by `rhs` (the tensor's
    /// layout ∘ `rhs`).
    ///
    /// # Errors
    /// As [`Layout::compose`]; [`LayoutError::OutOfBounds`] if `rhs` reaches past the tensor.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// assert_eq!(a.compose(&"3:2".parse()?)?.to_vec(), [0, 1, 2]); // 1-D elements 0, 2, 4: the first row
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compose(&self, rhs: &Layout) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        self.map("composition", |l| l.compose(rhs))
    }

    /// CuTe `composition(tensor, tiler)`.
    ///
    /// # Errors
    /// As [`Layout::compose_tiler`]; [`LayoutError::OutOfBounds`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// assert_eq!(a.compose_tiler(&"(1,2)".parse()?)?.to_vec(), [0, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compose_tiler(&self, tiler: &Tiler) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        self.map("composition", |l| l.compose_tiler(tiler))
    }

    /// CuTe `logical_divide` of the layout: `((tile),(rest))` per mode.
    ///
    /// # Errors
    /// As [`Layout::logical_divide`]; [`LayoutError::OutOfBounds`] if a partial tile reaches
    /// past the storage.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor, Tiler};
    /// let a = Tensor::new((0..16).collect::<Vec<u8>>(), "(4,4):(1,4)".parse::<Layout>()?)?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let d = a.logical_divide(&t)?;
    /// assert_eq!(d.layout().layout(), &a.layout().layout().logical_divide(&t)?);
    /// let mut v = d.to_vec();
    /// v.sort();
    /// assert_eq!(v, a.to_vec()); // the same elements, regrouped
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn logical_divide(&self, tiler: &Tiler) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        self.map("logical_divide", |l| l.logical_divide(tiler))
    }

    /// CuTe `zipped_divide` of the layout: `((tiles),(rests))`.
    ///
    /// # Errors
    /// As [`Tensor::logical_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor, Tiler};
    /// let a = Tensor::new((0..16).collect::<Vec<u8>>(), "(4,4):(1,4)".parse::<Layout>()?)?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let d = a.zipped_divide(&t)?;
    /// assert_eq!(d.layout().layout(), &a.layout().layout().zipped_divide(&t)?);
    /// let mut v = d.to_vec();
    /// v.sort();
    /// assert_eq!(v, a.to_vec()); // the same elements, regrouped
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        self.map("zipped_divide", |l| l.zipped_divide(tiler))
    }

    /// CuTe `tiled_divide` of the layout: `((tiles),rest...)`.
    ///
    /// # Errors
    /// As [`Tensor::logical_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor, Tiler};
    /// let a = Tensor::new((0..16).collect::<Vec<u8>>(), "(4,4):(1,4)".parse::<Layout>()?)?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let d = a.tiled_divide(&t)?;
    /// assert_eq!(d.layout().layout(), &a.layout().layout().tiled_divide(&t)?);
    /// let mut v = d.to_vec();
    /// v.sort();
    /// assert_eq!(v, a.to_vec()); // the same elements, regrouped
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tiled_divide(&self, tiler: &Tiler) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        self.map("tiled_divide", |l| l.tiled_divide(tiler))
    }

    /// CuTe `flat_divide` of the layout: `(tile...,rest...)`.
    ///
    /// # Errors
    /// As [`Tensor::logical_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor, Tiler};
    /// let a = Tensor::new((0..16).collect::<Vec<u8>>(), "(4,4):(1,4)".parse::<Layout>()?)?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let d = a.flat_divide(&t)?;
    /// assert_eq!(d.layout().layout(), &a.layout().layout().flat_divide(&t)?);
    /// let mut v = d.to_vec();
    /// v.sort();
    /// assert_eq!(v, a.to_vec()); // the same elements, regrouped
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flat_divide(&self, tiler: &Tiler) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        self.map("flat_divide", |l| l.flat_divide(tiler))
    }

    /// CuTe `local_tile(tensor, tiler, coord)`: the tile at tile coordinate `coord`, i.e.
    /// `zipped_divide(tensor, tiler)((_,...), coord)`; a `coord` with fewer entries than there
    /// are rest modes keeps the remaining ones.
    ///
    /// # Laws
    /// * `R(c) == self(tile_origin + c)` per mode, where `tile_origin` is `coord` times the tile
    ///   shape.
    ///
    /// # Errors
    /// As [`Tensor::zipped_divide`] and [`Tensor::slice`] (a tile coordinate outside the grid of
    /// tiles is [`LayoutError::CoordOutOfRange`]).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, Layout, Tensor};
    /// let a = Tensor::new((0..6).collect::<Vec<u8>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// let row = a.local_tile(&"(1,3)".parse()?, &IntTuple::int(1))?;
    /// assert_eq!(row.to_vec(), [3, 4, 5]);
    /// assert!(a.local_tile(&"(1,3)".parse()?, &IntTuple::int(2)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_tile(
        &self,
        tiler: &Tiler,
        coord: &IntTuple,
    ) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        let z = self.layout.zipped_divide(tiler)?;
        let c = tile_slice(&z, coord)?;
        let (l, off) = z.slice_and_offset(&c)?;
        self.derive("local_tile", l, off)
    }

    /// CuTe `local_partition(tensor, thr, idx)`: the elements thread `idx` owns when the tensor
    /// is tiled by the shape of the thread layout `thr` and each tile is spread over the
    /// threads as `thr` says (thread `thr(c)` takes element `c` of every tile).
    ///
    /// # Laws
    /// * Over all `idx` in the image of `thr`, the partitions hold every element exactly once
    ///   (for an injective `thr` whose tile shape divides the tensor's).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `idx` is not a value of `thr`;
    /// [`LayoutError::ZeroStride`] if `thr` has a stride-0 mode; as [`Tensor::zipped_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..32).collect::<Vec<u32>>(), "(4,8):(1,4)".parse::<Layout>()?)?;
    /// let thr: Layout = "(2,2):(2,1)".parse()?; // 4 threads, row-major over a 2 x 2 tile
    /// let p = a.local_partition(&thr, 1)?;       // thread 1 sits at tile coordinate (0,1)
    /// assert_eq!(p.to_string(), "(2,4):(2,8)");
    /// assert_eq!(p.to_vec(), [4, 6, 12, 14, 20, 22, 28, 30]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_partition(
        &self,
        thr: &Layout,
        idx: i64,
    ) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        let (l, off) = partition_layout(&self.layout, thr, idx)?;
        self.derive("local_partition", l, off)
    }

    /// Partition by a thread-value layout: `tv` maps `(thread, value)` to a 1-D index of this
    /// tensor (usually a tile); thread `tid` gets the values `self(tv(tid, v))` for every `v`.
    /// CuTe: `composition(tensor, tv)(tid, _)`.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] unless `tv` has rank 2; as [`Layout::compose`] and
    /// [`Tensor::slice`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let a = Tensor::new((0..16).collect::<Vec<u8>>(), "(4,4):(4,1)".parse::<Layout>()?)?;
    /// let tv: Layout = "(4,4):(4,1)".parse()?; // thread t takes column t (indices 4t..4t+4)
    /// assert_eq!(a.partition_tv(&tv, 2)?.to_vec(), [2, 6, 10, 14]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partition_tv(&self, tv: &Layout, tid: i64) -> Result<Tensor<&[S::Elem]>, LayoutError> {
        let (l, off) = tv_layout(&self.layout, tv, tid)?;
        self.derive("partition_tv", l, off)
    }
}

/// `(repeat<R0>(_), coord [+ _...])` for a zipped layout `((tile),(rest))`.
pub(crate) fn tile_slice(z: &ComposedLayout, coord: &IntTuple) -> Result<SliceCoord, LayoutError> {
    let rank_of = |i: usize| z.mode(i).map_or(1, |m| m.rank());
    // A mode of integer shape takes a plain coordinate, not a tuple of one.
    let plain = |i: usize| z.mode(i).is_some_and(|m| m.layout().shape().is_int());
    let (r0, r1) = (rank_of(0), rank_of(1));
    let tile = if plain(0) {
        SliceCoord::all()
    } else {
        SliceCoord::flat(core::iter::repeat_n(Slice::All, r0))
    };
    let rest = if coord.is_int() {
        SliceCoord::from(coord.clone())
    } else if plain(1) && coord.rank() == 1 {
        SliceCoord::from(coord.elements().next().unwrap_or_else(|| coord.clone()))
    } else {
        let n = coord.rank();
        if n > r1 {
            return Err(LayoutError::RankMismatch {
                op: "local_tile",
                expected: r1,
                found: n,
            });
        }
        SliceCoord::tuple(
            coord
                .elements()
                .map(SliceCoord::from)
                .chain(core::iter::repeat_n(SliceCoord::all(), r1 - n)),
        )?
    };
    SliceCoord::tuple([tile, rest])
}

/// The layout and offset of thread `idx`'s partition (see [`Tensor::local_partition`]).
fn partition_layout(
    layout: &ComposedLayout,
    thr: &Layout,
    idx: i64,
) -> Result<(ComposedLayout, i64), LayoutError> {
    let (z, c) = partition_parts(layout, thr, idx)?;
    z.slice_and_offset(&c)
}

/// `zipped_divide(layout, shape(thr))` and the coordinate `(thr coordinate of idx, _...)` that
/// slices thread `idx`'s partition out of it.
pub(crate) fn partition_parts(
    layout: &ComposedLayout,
    thr: &Layout,
    idx: i64,
) -> Result<(ComposedLayout, SliceCoord), LayoutError> {
    let coord = thread_coord("local_partition", thr, idx)?;
    let tiler = Tiler::Modes(thr.modes().map(|m| Tiler::Int(m.size())).collect());
    let z = layout.zipped_divide(&tiler)?;
    let r1 = z.mode(1).map_or(1, |m| m.rank());
    let c = SliceCoord::tuple([
        SliceCoord::flat(coord.iter().map(|&v| Slice::At(v))),
        SliceCoord::flat(core::iter::repeat_n(Slice::All, r1)),
    ])?;
    Ok((z, c))
}

/// The layout and offset of thread `tid`'s values under a TV layout.
fn tv_layout(
    layout: &ComposedLayout,
    tv: &Layout,
    tid: i64,
) -> Result<(ComposedLayout, i64), LayoutError> {
    let (c, s) = tv_parts(layout, tv, tid)?;
    c.slice_and_offset(&s)
}

/// `composition(layout, tv)` and the coordinate `(tid, _)`.
pub(crate) fn tv_parts(
    layout: &ComposedLayout,
    tv: &Layout,
    tid: i64,
) -> Result<(ComposedLayout, SliceCoord), LayoutError> {
    if tv.rank() != 2 {
        return Err(LayoutError::RankMismatch {
            op: "partition_tv",
            expected: 2,
            found: tv.rank(),
        });
    }
    Ok((
        layout.compose(tv)?,
        SliceCoord::flat([Slice::At(tid), Slice::All]),
    ))
}

impl<S: StorageMut> Tensor<S> {
    /// The element at any kind of coordinate, mutably.
    ///
    /// # Errors
    /// As [`Tensor::position`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, Layout, Tensor};
    /// let mut a = Tensor::new(vec![0u8; 6], "(2,3):(3,1)".parse::<Layout>()?)?;
    /// *a.get_mut(&IntTuple::flat([1, 2]))? = 9;
    /// assert_eq!(a.data(), [0, 0, 0, 0, 0, 9]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_mut(&mut self, c: &IntTuple) -> Result<&mut S::Elem, LayoutError> {
        let p = self.position(c)?;
        Ok(&mut self.data.as_mut_slice()[p])
    }

    /// A mutable view of the whole tensor.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let mut a = Tensor::new(vec![0u8; 6], "(2,3):(3,1)".parse::<Layout>()?)?;
    /// a.view_mut().fill(1);
    /// assert_eq!(a.data(), [1; 6]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn view_mut(&mut self) -> Tensor<&mut [S::Elem]> {
        Tensor {
            layout: self.layout.clone(),
            base: self.base,
            data: self.data.as_mut_slice(),
        }
    }

    fn derive_mut(
        &mut self,
        op: &'static str,
        layout: ComposedLayout,
        off: i64,
    ) -> Result<Tensor<&mut [S::Elem]>, LayoutError> {
        let b = (self.base as i64)
            .checked_add(off)
            .ok_or(LayoutError::overflow(op))?;
        let data = self.data.as_mut_slice();
        let base = check_bounds(op, &layout, b, data.len())?;
        Ok(Tensor { data, layout, base })
    }

    /// [`Tensor::slice`], mutably.
    ///
    /// # Errors
    /// As [`Tensor::slice`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let mut a = Tensor::new(vec![0u8; 6], "(2,3):(3,1)".parse::<Layout>()?)?;
    /// a.slice_mut(&"(_,1)".parse()?)?.fill(7);
    /// assert_eq!(a.data(), [0, 7, 0, 0, 7, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice_mut(&mut self, c: &SliceCoord) -> Result<Tensor<&mut [S::Elem]>, LayoutError> {
        let (l, off) = self.layout.slice_and_offset(c)?;
        self.derive_mut("slice", l, off)
    }

    /// [`Tensor::local_tile`], mutably.
    ///
    /// # Errors
    /// As [`Tensor::local_tile`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, Layout, Tensor};
    /// let mut a = Tensor::new(vec![0u8; 16], "(4,4):(4,1)".parse::<Layout>()?)?;
    /// a.local_tile_mut(&"(2,2)".parse()?, &IntTuple::flat([1, 1]))?.fill(1);
    /// assert_eq!(a.data(), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_tile_mut(
        &mut self,
        tiler: &Tiler,
        coord: &IntTuple,
    ) -> Result<Tensor<&mut [S::Elem]>, LayoutError> {
        let z = self.layout.zipped_divide(tiler)?;
        let c = tile_slice(&z, coord)?;
        let (l, off) = z.slice_and_offset(&c)?;
        self.derive_mut("local_tile", l, off)
    }

    /// [`Tensor::local_partition`], mutably.
    ///
    /// # Errors
    /// As [`Tensor::local_partition`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let mut a = Tensor::new(vec![0u8; 8], "8:1".parse::<Layout>()?)?;
    /// let thr: Layout = "4:1".parse()?;
    /// for t in 0..4 {
    ///     a.local_partition_mut(&thr, t)?.fill(t as u8);
    /// }
    /// assert_eq!(a.data(), [0, 1, 2, 3, 0, 1, 2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_partition_mut(
        &mut self,
        thr: &Layout,
        idx: i64,
    ) -> Result<Tensor<&mut [S::Elem]>, LayoutError> {
        let (l, off) = partition_layout(&self.layout, thr, idx)?;
        self.derive_mut("local_partition", l, off)
    }

    /// [`Tensor::partition_tv`], mutably.
    ///
    /// # Errors
    /// As [`Tensor::partition_tv`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let mut a = Tensor::new(vec![0u8; 8], "8:1".parse::<Layout>()?)?;
    /// let tv: Layout = "(4,2):(2,1)".parse()?; // thread t owns elements 2t, 2t+1
    /// for t in 0..4 {
    ///     a.partition_tv_mut(&tv, t)?.fill(t as u8);
    /// }
    /// assert_eq!(a.data(), [0, 0, 1, 1, 2, 2, 3, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partition_tv_mut(
        &mut self,
        tv: &Layout,
        tid: i64,
    ) -> Result<Tensor<&mut [S::Elem]>, LayoutError> {
        let (l, off) = tv_layout(&self.layout, tv, tid)?;
        self.derive_mut("partition_tv", l, off)
    }

    /// Set every element to `v` (CuTe `fill`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let mut a = Tensor::new(vec![0u8; 8], "(2,2):(4,1)".parse::<Layout>()?)?;
    /// a.fill(5);
    /// assert_eq!(a.data(), [5, 5, 0, 0, 5, 5, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill(&mut self, v: S::Elem)
    where
        S::Elem: Clone,
    {
        let base = self.base as i64;
        let layout = self.layout.clone();
        let d = self.data.as_mut_slice();
        for o in layout.offsets() {
            d[(base + o) as usize] = v.clone();
        }
    }

    /// CuTe `copy(src, dst)`: element `i` of `src` (in its layout's 1-D order) to element `i`
    /// of `self`, for tensors of the same size and any two layouts.
    ///
    /// The two layouts (the inner layouts of swizzled ones) are split into common flat modes
    /// (extent, source stride, destination stride) and walked with an odometer: no division
    /// per element. When the destination is injective the order of the walk does not matter,
    /// so the modes are sorted to put the smallest destination strides innermost and merged
    /// where both sides stay contiguous; the innermost run is a `clone_from_slice` when both
    /// strides are 1, else a strided loop, and the two innermost modes go in 64 x 64 cache
    /// blocks. Swizzles are applied to each offset. Layouts that share no common split walk
    /// both offset sequences in order.
    ///
    /// # Laws
    /// * Afterwards `self.get_1d(i) == src.get_1d(i)` for every `i < size`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the sizes differ.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tensor};
    /// let src = Tensor::new((0..6).collect::<Vec<i32>>(), "(2,3):(3,1)".parse::<Layout>()?)?;
    /// let mut dst = Tensor::new(vec![0; 6], "(2,3):(1,2)".parse::<Layout>()?)?;
    /// dst.copy_from(&src)?; // a transpose: row-major to column-major
    /// assert_eq!(dst.data(), [0, 3, 1, 4, 2, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "copy")]
    pub fn copy_from<S2: Storage<Elem = S::Elem>>(
        &mut self,
        src: &Tensor<S2>,
    ) -> Result<(), LayoutError>
    where
        S::Elem: Clone,
    {
        if src.size() != self.size() {
            return Err(LayoutError::InvalidArgument {
                op: "copy",
                what: alloc::format!(
                    "source {} and destination {} have different sizes",
                    src.layout,
                    self.layout
                ),
            });
        }
        let (sb, db) = (src.base as i64, self.base as i64);
        let s = src.data.as_slice();
        let (sl, dl) = (src.layout.clone(), self.layout.clone());
        // Any order of the elements gives the same result when no two source elements land on
        // one destination element; then walk in the order that is cheapest for memory.
        let reorder = injective(dl.layout());
        if let Some(modes) = plan(sl.layout(), dl.layout(), reorder) {
            let d = self.data.as_mut_slice();
            if sl.layers().is_empty() && dl.layers().is_empty() {
                copy_modes(s, sb, d, db, &modes, |x| x, |x| x, true);
            } else {
                copy_modes(
                    s,
                    sb,
                    d,
                    db,
                    &modes,
                    |x| sl.post_in_domain(x),
                    |x| dl.post_in_domain(x),
                    false,
                );
            }
            return Ok(());
        }
        let d = self.data.as_mut_slice();
        for (so, doff) in sl.offsets().zip(dl.offsets()) {
            d[(db + doff) as usize] = s[(sb + so) as usize].clone();
        }
        Ok(())
    }
}

/// Whether a layout is injective, by a sufficient condition: its coalesced modes, sorted by
/// `|stride|`, each start past the span of the ones before.
fn injective(l: &Layout) -> bool {
    let mut m = flat_modes(&l.coalesce());
    m.sort_by_key(|&(_, d)| d.unsigned_abs());
    let mut span = 0u64;
    for (n, d) in m {
        if n > 1 && d.unsigned_abs() <= span {
            return false;
        }
        span = d
            .unsigned_abs()
            .saturating_mul(n as u64 - 1)
            .saturating_add(span);
    }
    true
}

/// The joint modes of two layouts, innermost first; if `reorder`, sorted so the innermost walks
/// the destination (then the source) with the smallest strides, and merged where both stay
/// contiguous.
fn plan(a: &Layout, b: &Layout, reorder: bool) -> Option<SmallVec<[(i64, i64, i64); 8]>> {
    let mut m = joint_modes(a, b)?;
    if reorder {
        m.sort_by_key(|&(_, sa, db)| (db.unsigned_abs(), sa.unsigned_abs()));
        let mut merged: SmallVec<[(i64, i64, i64); 8]> = SmallVec::new();
        for (n, sa, db) in m {
            match merged.last_mut() {
                Some(last) if sa == last.0 * last.1 && db == last.0 * last.2 => last.0 *= n,
                _ => merged.push((n, sa, db)),
            }
        }
        m = merged;
    }
    Some(m)
}

/// Flat modes `(extent, stride in a, stride in b)` that walk `a` and `b` together in 1-D order:
/// each layout's coalesced modes split at the other's mode boundaries. `None` if a boundary of
/// one falls inside a mode of the other at a point that does not divide it.
fn joint_modes(a: &Layout, b: &Layout) -> Option<SmallVec<[(i64, i64, i64); 8]>> {
    let ma: SmallVec<[(i64, i64); 8]> = flat_modes(&a.coalesce());
    let mb: SmallVec<[(i64, i64); 8]> = flat_modes(&b.coalesce());
    let mut out = SmallVec::new();
    let (mut i, mut j) = (0usize, 0usize);
    let (mut ea, mut da) = *ma.first()?;
    let (mut eb, mut db) = *mb.first()?;
    loop {
        let n = ea.min(eb);
        if ea % n != 0 || eb % n != 0 {
            return None;
        }
        out.push((n, da, db));
        ea /= n;
        eb /= n;
        da = da.checked_mul(n)?;
        db = db.checked_mul(n)?;
        if ea == 1 {
            i += 1;
            if let Some(&(e, d)) = ma.get(i) {
                (ea, da) = (e, d);
            }
        }
        if eb == 1 {
            j += 1;
            if let Some(&(e, d)) = mb.get(j) {
                (eb, db) = (e, d);
            }
        }
        if i >= ma.len() || j >= mb.len() {
            return (i >= ma.len() && j >= mb.len()).then_some(out);
        }
    }
}

fn flat_modes(l: &Layout) -> SmallVec<[(i64, i64); 8]> {
    l.shape_leaves()
        .iter()
        .zip(l.stride_leaves())
        .filter(|&(&s, _)| s > 1)
        .map(|(&s, &d)| (s, d))
        .chain(core::iter::once((1, 0)).filter(|_| l.size() == 1))
        .collect()
}

/// Cache block for the two innermost modes of a copy.
const BLOCK: i64 = 64;

/// The copy loop over joint modes (see [`Tensor::copy_from`]): an odometer over the outer
/// modes, the two innermost in cache blocks, the innermost as one run. Positions are
/// `base + post(offset)`; `plain` says the post-maps are the identity (then runs are slice
/// copies or strided loops).
#[allow(clippy::too_many_arguments)]
fn copy_modes<T: Clone>(
    s: &[T],
    sb: i64,
    d: &mut [T],
    db: i64,
    modes: &[(i64, i64, i64)],
    ps: impl Fn(i64) -> i64,
    pd: impl Fn(i64) -> i64,
    plain: bool,
) {
    let (n0, s0, d0) = modes[0];
    let (n1, s1, d1) = modes.get(1).copied().unwrap_or((1, 0, 0));
    let outer = &modes[modes.len().min(2)..];
    let mut coord: SmallVec<[i64; 8]> = SmallVec::from_elem(0, outer.len());
    let (mut so, mut dof) = (0i64, 0i64);
    // Block the innermost mode only where the second one needs blocking for the cache.
    let block0 = if n1 == 1 || (s0 == 1 && d0 == 1) {
        n0
    } else {
        BLOCK
    };
    loop {
        let mut j0 = 0;
        while j0 < n1 {
            let j1 = (j0 + BLOCK).min(n1);
            let mut i0 = 0;
            while i0 < n0 {
                let i1 = (i0 + block0).min(n0);
                for j in j0..j1 {
                    let ss = so + j * s1 + i0 * s0;
                    let ds = dof + j * d1 + i0 * d0;
                    if plain {
                        run(s, sb + ss, s0, d, db + ds, d0, i1 - i0);
                    } else {
                        for k in 0..i1 - i0 {
                            let x = sb + ps(ss + k * s0);
                            let y = db + pd(ds + k * d0);
                            d[y as usize] = s[x as usize].clone();
                        }
                    }
                }
                i0 = i1;
            }
            j0 = j1;
        }
        let mut k = 0;
        loop {
            if k == outer.len() {
                return;
            }
            let (n, ds_, dd_) = outer[k];
            coord[k] += 1;
            so += ds_;
            dof += dd_;
            if coord[k] < n {
                break;
            }
            coord[k] = 0;
            so -= ds_ * n;
            dof -= dd_ * n;
            k += 1;
        }
    }
}

/// `n` elements from `s[ss + k*st_s]` to `d[ds + k*st_d]`.
#[inline]
fn run<T: Clone>(s: &[T], ss: i64, st_s: i64, d: &mut [T], ds: i64, st_d: i64, n: i64) {
    let (ss, ds, n) = (ss as usize, ds as usize, n as usize);
    if st_s == 1 && st_d == 1 {
        d[ds..ds + n].clone_from_slice(&s[ss..ss + n]);
    } else if st_s > 0 && st_d > 0 {
        let src = s[ss..].iter().step_by(st_s as usize);
        let dst = d[ds..].iter_mut().step_by(st_d as usize);
        for (x, y) in dst.zip(src).take(n) {
            *x = y.clone();
        }
    } else {
        for k in 0..n as i64 {
            d[(ds as i64 + k * st_d) as usize] = s[(ss as i64 + k * st_s) as usize].clone();
        }
    }
}

impl<S: Storage> fmt::Display for Tensor<S> {
    /// The layout (CuTe prints the engine too; here the storage is not printed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.layout)
    }
}

impl<S: Storage> fmt::Debug for Tensor<S>
where
    S::Elem: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("layout", &self.layout)
            .field("base", &self.base)
            .field("elements", &self.to_vec_debug())
            .finish()
    }
}

impl<S: Storage> Tensor<S> {
    fn to_vec_debug(&self) -> Vec<&S::Elem> {
        self.iter().take(64).collect()
    }
}

/// A coordinate (identity) tensor: CuTe's `make_identity_tensor(shape)`. Its element at a
/// coordinate is that coordinate of the original shape, as a natural coordinate; tiled and
/// partitioned like a data tensor, it tells which global coordinate each element of a tile or
/// partition has. Partial tiles run past the shape (their coordinates exceed the extents),
/// which [`IdentityTensor::in_bounds`] detects: CuTe's predication.
///
/// # Examples
/// ```
/// # use cute_layout::{IdentityTensor, IntTuple, Tiler};
/// let c = IdentityTensor::new("(10,8)".parse()?)?;
/// let tile = c.local_tile(&"(4,4)".parse::<Tiler>()?, &IntTuple::flat([2, 1]))?;
/// assert_eq!(tile.get(&IntTuple::flat([1, 3]))?.to_string(), "(9,7)");
/// assert!(tile.in_bounds(&IntTuple::flat([1, 3]))?);
/// assert!(!tile.in_bounds(&IntTuple::flat([2, 0]))?); // row 10 of 10
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IdentityTensor {
    /// The original shape (its tree is that of every coordinate).
    shape: IntTuple,
    layout: Layout<ScaledBasis>,
    /// Offset per leaf of `shape`.
    base: Leaves<i64>,
    /// Whether `shape`'s extents bound the coordinates (false when made from its parts).
    bounded: bool,
}

impl IdentityTensor {
    /// The identity tensor of `shape`.
    ///
    /// # Errors
    /// As [`Layout::identity`].
    #[doc(alias = "make_identity_tensor")]
    pub fn new(shape: IntTuple) -> Result<Self, LayoutError> {
        let layout = Layout::identity(shape.clone())?;
        let base = Leaves::from_elem(0, shape.leaves().len());
        Ok(IdentityTensor {
            shape,
            layout,
            base,
            bounded: true,
        })
    }

    /// The coordinate tensor whose element at `c` is `base + layout(c)`, CuTe's
    /// `make_tensor(ArithmeticTupleIterator(base), layout)` (what CuTe prints as
    /// `ArithTuple(0,1) o (2,2):(2@0,2@1)`). Every basis stride must name a leaf of `base`'s
    /// tree. Made so, the tensor knows no original shape: [`IdentityTensor::in_bounds`] refuses.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if a basis stride names no leaf of `base`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple};
    /// let t = IdentityTensor::from_parts("(0,1)".parse()?, "(2,2):(2@0,2@1)".parse()?)?;
    /// assert_eq!(t.get(&IntTuple::flat([1, 1]))?.to_string(), "(2,3)");
    /// assert!(IdentityTensor::from_parts("(0,1)".parse()?, "2:1@2".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_parts(base: IntTuple, layout: Layout<ScaledBasis>) -> Result<Self, LayoutError> {
        let t = IdentityTensor {
            base: base.leaves.clone(),
            shape: base,
            layout,
            bounded: false,
        };
        for d in t.layout.stride_leaves().iter().filter(|d| d.value() != 0) {
            t.leaf_of(d)?;
        }
        Ok(t)
    }

    /// The coordinate at the origin of this view (CuTe's `ArithTuple` iterator).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, SliceCoord};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// assert_eq!(c.slice(&"(2,_)".parse::<SliceCoord>()?)?.origin().to_string(), "(2,0)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn origin(&self) -> IntTuple {
        let mut t = self.shape.clone();
        t.leaves = self.base.clone();
        t
    }

    /// The layout with basis strides.
    pub fn layout(&self) -> &Layout<ScaledBasis> {
        &self.layout
    }

    /// The shape of this (possibly tiled) view.
    pub fn shape(&self) -> IntTuple {
        self.layout.shape()
    }

    /// Number of elements.
    pub fn size(&self) -> i64 {
        self.layout.size()
    }

    /// Leaf index of the original shape at a basis stride's path (not for a plain 0, which
    /// adds nothing anywhere).
    fn leaf_of(&self, d: &ScaledBasis) -> Result<usize, LayoutError> {
        let path: Leaves<usize> = d.path().collect();
        let mut leaf = 0usize;
        let mut node = self.shape.clone();
        for &p in &path {
            for e in node.elements().take(p) {
                leaf += e.leaves().len();
            }
            node = node.get(p).ok_or(LayoutError::ModeOutOfRange {
                op: "identity_tensor",
                index: p,
                rank: node.rank(),
            })?;
        }
        if node.is_int() {
            Ok(leaf)
        } else {
            Err(LayoutError::InvalidArgument {
                op: "identity_tensor",
                what: alloc::format!("basis {d} names a tuple of {}", self.shape),
            })
        }
    }

    /// The coordinate (of the original shape) at any kind of coordinate of this view.
    ///
    /// # Errors
    /// [`LayoutError::CoordOutOfRange`] outside the view's shape; as [`Layout::index`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// assert_eq!(c.get(&IntTuple::int(9))?.to_string(), "(1,2)");
    /// assert!(c.get(&IntTuple::int(24)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, c: &IntTuple) -> Result<IntTuple, LayoutError> {
        check_in_domain("identity_tensor", &self.shape(), c)?;
        let natural = self.shape().idx2crd(c)?;
        let mut out = self.base.clone();
        for (k, d) in self.layout.stride_leaves().iter().enumerate() {
            if d.value() == 0 {
                // A zero stride (CuTe's `_0`, as `coalesce` leaves for `1:0`) adds nothing.
                continue;
            }
            let leaf = self.leaf_of(d)?;
            let v = natural.leaves()[k]
                .checked_mul(d.value())
                .and_then(|v| v.checked_add(out[leaf]))
                .ok_or(LayoutError::overflow("identity_tensor"))?;
            out[leaf] = v;
        }
        let mut t = self.shape.clone();
        t.leaves = out;
        Ok(t)
    }

    /// Whether the coordinate at `c` lies inside the original shape (CuTe's `elem_less(coord,
    /// shape)` predicate).
    ///
    /// # Errors
    /// As [`IdentityTensor::get`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple, Tiler};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// let tile = c.local_tile(&"(4,4)".parse::<Tiler>()?, &IntTuple::flat([0, 1]))?;
    /// assert!(tile.in_bounds(&IntTuple::flat([0, 1]))?); // column 5
    /// assert!(!tile.in_bounds(&IntTuple::flat([0, 2]))?); // column 6 of 6
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn in_bounds(&self, c: &IntTuple) -> Result<bool, LayoutError> {
        if !self.bounded {
            return Err(LayoutError::InvalidArgument {
                op: "identity_tensor",
                what: "a coordinate tensor made from its parts has no shape to test against".into(),
            });
        }
        let g = self.get(c)?;
        Ok(g.leaves()
            .iter()
            .zip(self.shape.leaves())
            .all(|(&x, &s)| (0..s).contains(&x)))
    }

    /// All coordinates of this view, in its layout's order.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// let all: Vec<String> = c.iter().map(|x| x.to_string()).collect();
    /// assert_eq!(all.len(), 24);
    /// assert_eq!((all[0].as_str(), all[23].as_str()), ("(0,0)", "(3,5)"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = IntTuple> + '_ {
        (0..self.size()).filter_map(move |i| self.get(&IntTuple::int(i)).ok())
    }

    pub(crate) fn with(
        &self,
        layout: Layout<ScaledBasis>,
        origin: Option<IntTuple>,
    ) -> Result<Self, LayoutError> {
        let mut base = self.base.clone();
        if let Some(o) = origin {
            let g = self.get(&o)?;
            base = g.leaves;
        }
        Ok(IdentityTensor {
            shape: self.shape.clone(),
            layout,
            base,
            bounded: self.bounded,
        })
    }

    /// [`Tensor::slice`] for coordinates.
    ///
    /// # Errors
    /// As [`Layout::slice_and_offset`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple, SliceCoord};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// let col = c.slice(&"(_,4)".parse::<SliceCoord>()?)?;
    /// assert_eq!(col.get(&IntTuple::int(3))?.to_string(), "(3,4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice(&self, c: &SliceCoord) -> Result<Self, LayoutError> {
        let l = basis_slice(&self.layout, c)?;
        self.with(l, Some(c.origin()))
    }

    /// [`Tensor::zipped_divide`] for coordinates (partial tiles allowed: their coordinates run
    /// past the shape).
    ///
    /// # Errors
    /// As [`Layout::zipped_divide`] on the per-mode layouts.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple, Tiler};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// let z = c.zipped_divide(&"(2,4)".parse::<Tiler>()?)?;
    /// assert_eq!(z.shape().to_string(), "((2,4),(2,2))");
    /// assert_eq!(z.get(&IntTuple::flat([7, 3]))?.to_string(), "(3,7)"); // past column 5: a partial tile
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.with(basis_zipped_divide(&self.layout, tiler)?, None)
    }

    /// [`Tensor::local_tile`] for coordinates.
    ///
    /// # Errors
    /// As [`IdentityTensor::zipped_divide`] and [`IdentityTensor::slice`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple, Tiler};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// let t = c.local_tile(&"(2,3)".parse::<Tiler>()?, &IntTuple::flat([1, 1]))?;
    /// assert_eq!(t.get(&IntTuple::flat([1, 2]))?.to_string(), "(3,5)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_tile(&self, tiler: &Tiler, coord: &IntTuple) -> Result<Self, LayoutError> {
        let z = self.zipped_divide(tiler)?;
        let shadow = ComposedLayout::from(shadow_of(&z.layout)?);
        let c = tile_slice(&shadow, coord)?;
        z.slice(&c)
    }

    /// [`Tensor::local_partition`] for coordinates.
    ///
    /// # Errors
    /// As [`Tensor::local_partition`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple, Layout};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// let p = c.local_partition(&"(2,2):(2,1)".parse::<Layout>()?, 1)?;
    /// assert_eq!(p.get(&IntTuple::flat([1, 2]))?.to_string(), "(2,5)"); // thread 1 at (0,1)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_partition(&self, thr: &Layout, idx: i64) -> Result<Self, LayoutError> {
        let coord = thread_coord("local_partition", thr, idx)?;
        let tiler = Tiler::Modes(thr.modes().map(|m| Tiler::Int(m.size())).collect());
        let z = self.zipped_divide(&tiler)?;
        let r1 = z.layout.mode(1).map_or(1, |m| m.rank());
        let c = SliceCoord::tuple([
            SliceCoord::flat(coord.iter().map(|&v| Slice::At(v))),
            SliceCoord::flat(core::iter::repeat_n(Slice::All, r1)),
        ])?;
        z.slice(&c)
    }
}

impl IdentityTensor {
    /// [`Tensor::partition_tv`] for coordinates: `composition(coords, tv)(tid, _)`.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] unless `tv` has rank 2; as [`Layout::compose`] (of a
    /// basis-strided layout) and [`IdentityTensor::slice`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, IntTuple, Layout};
    /// let c = IdentityTensor::new("(4,4)".parse()?)?;
    /// let tv: Layout = "(4,4):(4,1)".parse()?; // thread t takes column t
    /// let p = c.partition_tv(&tv, 2)?;
    /// assert_eq!(p.get(&IntTuple::int(3))?.to_string(), "(3,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partition_tv(&self, tv: &Layout, tid: i64) -> Result<Self, LayoutError> {
        if tv.rank() != 2 {
            return Err(LayoutError::RankMismatch {
                op: "partition_tv",
                expected: 2,
                found: tv.rank(),
            });
        }
        let c = self.with(self.layout.compose(tv)?, None)?;
        c.slice(&SliceCoord::flat([Slice::At(tid), Slice::All]))
    }

    /// A divide of the coordinates: `layout o f(make_layout(shape), tiler)` where `f` is a
    /// layout divide ([`Layout::logical_divide`], [`Layout::zipped_divide`], ...).
    ///
    /// # Errors
    /// As [`Layout::divide_with`] (of a basis-strided layout).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IdentityTensor, Layout, Tiler};
    /// let c = IdentityTensor::new("(4,6)".parse()?)?;
    /// let d = c.divide_with(&"(2,3)".parse::<Tiler>()?, Layout::logical_divide)?;
    /// assert_eq!(d.layout().to_string(), "((2,2),(3,2)):((1@0,2@0),(1@1,3@1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn divide_with(
        &self,
        tiler: &Tiler,
        f: fn(&Layout, &Tiler) -> Result<Layout, LayoutError>,
    ) -> Result<Self, LayoutError> {
        self.with(self.layout.divide_with(tiler, f)?, None)
    }
}

/// A layout with the same tree and shape whose stride `k` is leaf index `k`: slicing it tells
/// which leaves are kept.
fn shadow_of(l: &Layout<ScaledBasis>) -> Result<Layout, LayoutError> {
    let stride: Leaves<i64> = (0..l.leaf_count() as i64).collect();
    Layout::checked("slice", l.toks.clone(), l.shape.clone(), stride)
}

/// `slice` of a layout with basis strides (the offset is taken separately).
fn basis_slice(
    l: &Layout<ScaledBasis>,
    c: &SliceCoord,
) -> Result<Layout<ScaledBasis>, LayoutError> {
    // Leaf k of the shadow has stride k; the range checks happen there too.
    let shadow = shadow_of(l)?;
    let kept = shadow.slice(c)?;
    let stride: Leaves<ScaledBasis> = kept
        .stride_leaves()
        .iter()
        .map(|&k| l.stride_leaves()[k as usize])
        .collect();
    Layout::checked("slice", kept.toks.clone(), kept.shape.clone(), stride)
}

/// `zipped_divide` of a layout with basis strides, mode by mode: each mode `m` with tiler `t`
/// is `m ∘ (t, complement(t, size(m)))`, regrouped as `((tiles),(rests))`.
fn basis_zipped_divide(
    l: &Layout<ScaledBasis>,
    tiler: &Tiler,
) -> Result<Layout<ScaledBasis>, LayoutError> {
    let divide = |m: &Layout<ScaledBasis>,
                  t: &Tiler|
     -> Result<(Layout<ScaledBasis>, Layout<ScaledBasis>), LayoutError> {
        let tl = match t {
            Tiler::Layout(x) => x.clone(),
            Tiler::Int(n) => Tiler::int_layout(*n, true),
            Tiler::Skip => Layout::col_major(m.shape())?,
            Tiler::Modes(_) => {
                return Err(LayoutError::InvalidArgument {
                    op: "zipped_divide",
                    what: "nested tilers are not supported on identity tensors".into(),
                })
            }
        };
        let rest = tl.complement(m.size())?;
        let r = m.compose(&Layout::from_modes([tl, rest])?)?;
        let tile = r.mode(0).ok_or(LayoutError::overflow("zipped_divide"))?;
        let rest = r.mode(1).ok_or(LayoutError::overflow("zipped_divide"))?;
        Ok((tile, rest))
    };
    match tiler {
        Tiler::Modes(ts) => {
            if ts.len() > l.rank() {
                return Err(LayoutError::RankMismatch {
                    op: "zipped_divide",
                    expected: l.rank(),
                    found: ts.len(),
                });
            }
            let mut tiles = Vec::new();
            let mut rests = Vec::new();
            for (m, t) in l.modes().zip(ts.iter()) {
                let (a, b) = divide(&m, t)?;
                tiles.push(a);
                rests.push(b);
            }
            rests.extend(l.modes().skip(ts.len()));
            Layout::from_modes([Layout::from_modes(tiles)?, Layout::from_modes(rests)?])
        }
        t => {
            let (a, b) = divide(l, t)?;
            Layout::from_modes([a, b])
        }
    }
}

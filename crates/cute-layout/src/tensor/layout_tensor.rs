//! Tensors without data: the tensors a layout tool can hold, in CuTe's printed form.
//!
//! Two kinds of CuTe tensor need no storage, because their values are computed:
//!
//! * a **counting tensor**, CuTe's `make_tensor(counting_iterator<int>(base), layout)`: its value
//!   at a coordinate `c` is `base + layout(c)`, the offset the layout gives (the layout may be
//!   swizzled, `Sw<B,M,S> o OFFSET o L`, CuTe's `sw_tensor`). CuTe prints it
//!   `counting_iter(0) o (4,8):(8,1)`;
//! * a **coordinate tensor**, CuTe's `make_identity_tensor(shape)` and its tiles and partitions:
//!   its value at `c` is the coordinate `base + layout(c)` of a layout with basis strides (`1@0`
//!   is the unit vector of mode 0). CuTe prints it `ArithTuple(0,0) o (4,8):(1@0,1@1)`;
//! * a **pointer tensor**, CuTe's `make_tensor(ptr, layout)` over a typed pointer without memory
//!   ([`crate::Pointer`]): its value at `c` is the element's address (CuTe's `&tensor(c)`).
//!   CuTe prints it `gmem_ptr[16b](0x1000) o (4,4):(4,1)` (see [`LayoutTensor::from_pointer`]);
//! * a **zip tensor**, CuTe's `make_zip_tensor(t1, t2, ...)`: its value is the tuple of the
//!   tensors' values; written `zip(T1, T2, ...)`, as CuTe prints none (see [`LayoutTensor::zip`]).
//!
//! [`LayoutTensor`] is any of them; its text form is what CuTe's `print(tensor)` writes, without the
//! `_` of CuTe's static integers (which the parser accepts). Slicing, `local_tile`,
//! `local_partition` and thread-value partitions are layout operations and give tensors of the
//! same kind with the same text as CuTe's; [`LayoutTensor::print_tensor`] writes CuTe's
//! `print_tensor` table, and [`LayoutTensor::batch_reduce`] / [`LayoutTensor::logical_reduce`]
//! sum values as CuTe's tensor algorithms do.
//!
//! ```
//! use cute_layout::{IntTuple, LayoutTensor, SliceCoord};
//! let t: LayoutTensor = "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)".parse()?;
//! let row = t.slice(&"(2,_)".parse::<SliceCoord>()?)?;
//! assert_eq!(row.to_string(), "counting_iter(18) o ((2,2,2)):((1,-2,4))"); // as CuTe prints it
//! for j in 0..8 {
//!     assert_eq!(row.value(&IntTuple::int(j))?, t.value(&IntTuple::flat([2, j]))?);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::algebra::Tiler;
use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle_slice;
use crate::layout::coord::MAX_ENUMERATED;
use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};
use crate::layout::fmt::MAX_TABLE_CELLS;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::{Slice, SliceCoord};
use crate::layout::Layout;
use crate::tensor::chain_tensor;
use crate::tensor::data::{check_in_domain, partition_parts, tile_slice, tv_parts, IdentityTensor};
use crate::tensor::pointer::is_pointer_text;

pub use crate::tensor::kinds::{LayoutTensor, TensorValue};

impl fmt::Display for TensorValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TensorValue::Int(v) => write!(f, "{v}"),
            TensorValue::Coord(t) => write!(f, "{t}"),
            TensorValue::Ptr(p) => write!(f, "{p}"),
            TensorValue::Tuple(vs) => {
                f.write_str("(")?;
                for (k, v) in vs.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl TensorValue {
    fn from_coord(t: IntTuple) -> Self {
        match t.as_int() {
            Some(v) => TensorValue::Int(v),
            None => TensorValue::Coord(t),
        }
    }

    /// The value as an integer tuple (an integer for an offset, the byte address for a
    /// pointer).
    pub fn to_tuple(&self) -> IntTuple {
        match self {
            TensorValue::Int(v) => IntTuple::int(*v),
            TensorValue::Ptr(p) => IntTuple::int(p.addr()),
            TensorValue::Tuple(vs) => IntTuple::tuple(vs.iter().map(TensorValue::to_tuple))
                .unwrap_or_else(|_| IntTuple::int(0)),
            TensorValue::Coord(t) => t.clone(),
        }
    }

    /// `self + other` (coordinates add leaf by leaf, as CuTe's `ArithmeticTuple`).
    fn add(&self, other: &TensorValue, op: &'static str) -> Result<TensorValue, LayoutError> {
        match (self, other) {
            (TensorValue::Int(a), TensorValue::Int(b)) => a
                .checked_add(*b)
                .map(TensorValue::Int)
                .ok_or(LayoutError::overflow(op)),
            (TensorValue::Coord(a), TensorValue::Coord(b)) if a.congruent(b) => {
                let mut t = a.clone();
                for (x, y) in t.leaves.iter_mut().zip(b.leaves()) {
                    *x = x.checked_add(*y).ok_or(LayoutError::overflow(op))?;
                }
                Ok(TensorValue::Coord(t))
            }
            _ => Err(LayoutError::InvalidArgument {
                op,
                what: format!("cannot add {self} and {other}"),
            }),
        }
    }

    /// CuTe's `pretty_print` of the value: `%5d` for an integer, two spaces and the tuple for a
    /// coordinate.
    fn pretty(&self, out: &mut String) {
        use core::fmt::Write as _;
        let _ = match self {
            TensorValue::Int(v) => write!(out, "{v:>5}"),
            TensorValue::Coord(t) => write!(out, "  {t}"),
            TensorValue::Ptr(p) => write!(out, "  {}", p.address_text()),
            TensorValue::Tuple(_) => write!(out, "  {self}"),
        };
    }
}

/// CuTe's `tensor(c)` with `_` entries on a (possibly swizzled) layout: the sliced layout and the
/// offset that moves into the iterator. A swizzled layout is sliced as CuTe slices it: the
/// fixed part's offset is split around the swizzle and, where the remaining modes do not reach
/// a swizzled pair of bits, the swizzle is folded into the strides.
///
/// CuTe's decomposition assumes that adding offsets never carries between bits (it XORs the
/// parts); it is used only where that holds: every leaf of the inner layout with extent above 1
/// has a power-of-two extent and a non-negative power-of-two stride, the leaves and the layer's
/// offset occupy disjoint bits. Elsewhere the offset moves into the swizzled layout (correct for
/// every layout; CuTe has no answer there).
pub(crate) fn cute_slice(
    l: &ComposedLayout,
    c: &SliceCoord,
) -> Result<(ComposedLayout, i64), LayoutError> {
    if l.layers().len() != 1 || !c.fixes_any() || !bit_disjoint(l.layout(), l.layers()[0].1) {
        let (s, off) = l.slice_and_offset(c)?;
        return Ok((s, off));
    }
    let diced = l.layout().dice(c)?;
    let r = swizzle_slice::slice_and_offset(l, c, &diced, true)?;
    Ok((r.layout, r.offset))
}

/// Whether every leaf of `l` with extent above 1 has a power-of-two extent and a non-negative
/// power-of-two stride, and the leaves' bits and `offset`'s are pairwise disjoint.
fn bit_disjoint(l: &Layout, offset: i64) -> bool {
    if offset < 0 {
        return false;
    }
    let mut used = offset as u64;
    for (&s, &d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
        if s == 1 || d == 0 {
            continue;
        }
        if s < 1 || d < 0 || (s as u64).count_ones() != 1 || (d as u64).count_ones() != 1 {
            return false;
        }
        let Some(mask) = ((s - 1) as u64).checked_mul(d as u64) else {
            return false;
        };
        if used & mask != 0 {
            return false;
        }
        used |= mask;
    }
    true
}

/// CuTe's `dice(proj, tiler)`: the modes of the tiler where the projection has an integer
/// (CuTe's `Step<_1,X,_1>`: `X` is `_`).
fn dice_tiler(t: &Tiler, proj: &SliceCoord) -> Result<Tiler, LayoutError> {
    fn keep(t: &Tiler, p: &SliceCoord, out: &mut Vec<Tiler>) -> Result<(), LayoutError> {
        match p.as_leaf() {
            Some(Slice::All) => Ok(()),
            Some(Slice::At(_)) => {
                out.push(t.clone());
                Ok(())
            }
            None => {
                let ps: Vec<SliceCoord> = p.elements().collect();
                let modes: Vec<Tiler> = match t {
                    Tiler::Modes(m) => m.clone(),
                    Tiler::Layout(l) if l.rank() == ps.len() && !l.shape().is_int() => {
                        l.modes().map(Tiler::Layout).collect()
                    }
                    _ => Vec::new(),
                };
                if modes.len() != ps.len() {
                    return Err(LayoutError::InvalidArgument {
                        op: "local_tile",
                        what: format!(
                            "the projection {proj} does not match the tiler {t}",
                            proj = p
                        ),
                    });
                }
                for (ti, pi) in modes.iter().zip(&ps) {
                    keep(ti, pi, out)?;
                }
                Ok(())
            }
        }
    }
    if let Some(Slice::At(_)) = proj.as_leaf() {
        return Ok(t.clone());
    }
    let mut out = Vec::new();
    keep(t, proj, &mut out)?;
    if out.is_empty() {
        return Err(LayoutError::InvalidArgument {
            op: "local_tile",
            what: format!("the projection {proj} keeps no mode of the tiler {t}"),
        });
    }
    Ok(Tiler::Modes(out))
}

impl LayoutTensor {
    /// CuTe's `make_tensor(counting_iterator<int>(base), layout)`: the value at `c` is
    /// `base + layout(c)`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, Layout, LayoutTensor};
    /// let t = LayoutTensor::counting(5, "(4,8):(8,1)".parse::<Layout>()?);
    /// assert_eq!(t.to_string(), "counting_iter(5) o (4,8):(8,1)");
    /// assert_eq!(t.value(&IntTuple::flat([1, 2]))?.to_string(), "15");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn counting(base: i64, layout: impl Into<ComposedLayout>) -> Self {
        LayoutTensor::Counting {
            base,
            layout: layout.into(),
        }
    }

    /// CuTe's `make_identity_tensor(shape)`: the value at a coordinate is that coordinate.
    ///
    /// # Errors
    /// As [`Layout::identity`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor};
    /// let t = LayoutTensor::identity("(4,8)".parse()?)?;
    /// assert_eq!(t.to_string(), "ArithTuple(0,0) o (4,8):(1@0,1@1)");
    /// assert_eq!(t.value(&IntTuple::int(9))?.to_string(), "(1,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_identity_tensor")]
    pub fn identity(shape: IntTuple) -> Result<Self, LayoutError> {
        Ok(LayoutTensor::Coords(Box::new(IdentityTensor::new(shape)?)))
    }

    /// The shape.
    pub fn shape(&self) -> IntTuple {
        match self {
            LayoutTensor::Counting { layout, .. } => layout.shape(),
            LayoutTensor::Coords(t) => t.shape(),
            LayoutTensor::Chain { chain, .. } => chain.shape(),
            LayoutTensor::Pointer { layout, .. } => layout.shape(),
            LayoutTensor::Zip(ts) => ts[0].shape(),
        }
    }

    /// Number of elements.
    pub fn size(&self) -> i64 {
        match self {
            LayoutTensor::Counting { layout, .. } => layout.size(),
            LayoutTensor::Coords(t) => t.size(),
            LayoutTensor::Chain { chain, .. } => chain.size(),
            LayoutTensor::Pointer { layout, .. } => layout.size(),
            LayoutTensor::Zip(ts) => ts[0].size(),
        }
    }

    /// Number of top-level modes.
    pub fn rank(&self) -> usize {
        self.shape().rank()
    }

    /// The layout's text (basis strides for a coordinate tensor).
    pub fn layout_text(&self) -> String {
        match self {
            LayoutTensor::Counting { layout, .. } => layout.to_string(),
            LayoutTensor::Coords(t) => t.layout().to_string(),
            LayoutTensor::Chain { chain, .. } => chain.to_string(),
            LayoutTensor::Pointer { layout, .. } => layout.to_string(),
            LayoutTensor::Zip(ts) => {
                let parts: Vec<String> = ts.iter().map(|t| t.layout_text()).collect();
                format!("zip({})", parts.join(", "))
            }
        }
    }

    /// CuTe's `tensor(c)`: the value at a 1-D, R-D or natural coordinate.
    ///
    /// # Errors
    /// [`LayoutError::CoordOutOfRange`] outside the shape; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor};
    /// let t: LayoutTensor = "counting_iter(100) o (2,3):(3,1)".parse()?;
    /// assert_eq!(t.value(&IntTuple::flat([1, 2]))?.to_string(), "105");
    /// assert!(t.value(&IntTuple::flat([2, 0])).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(&self, c: &IntTuple) -> Result<TensorValue, LayoutError> {
        match self {
            LayoutTensor::Counting { base, layout } => {
                check_in_domain("tensor", &layout.shape(), c)?;
                let v = layout
                    .index(c)?
                    .checked_add(*base)
                    .ok_or(LayoutError::overflow("tensor"))?;
                Ok(TensorValue::Int(v))
            }
            LayoutTensor::Coords(t) => Ok(TensorValue::from_coord(t.get(c)?)),
            LayoutTensor::Chain { base, chain } => chain_tensor::value(*base, chain, c),
            LayoutTensor::Pointer { ptr, layout } => {
                check_in_domain("tensor", &layout.shape(), c)?;
                Ok(TensorValue::Ptr(
                    ptr.offset(layout.index(c)?, "tensor")?.element()?,
                ))
            }
            LayoutTensor::Zip(ts) => Ok(TensorValue::Tuple(
                ts.iter().map(|t| t.value(c)).collect::<Result<_, _>>()?,
            )),
        }
    }

    /// All values in the layout's 1-D (colexicographic) order.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past `limit` values; as [`LayoutTensor::value`].
    pub fn values(&self, limit: i64) -> Result<Vec<TensorValue>, LayoutError> {
        self.check_limit("values", limit)?;
        (0..self.size())
            .map(|i| self.value(&IntTuple::int(i)))
            .collect()
    }

    fn check_limit(&self, op: &'static str, limit: i64) -> Result<(), LayoutError> {
        if self.size() > limit {
            return Err(LayoutError::TooLarge {
                op,
                what: format!("{} values", self.size()),
                limit,
            });
        }
        Ok(())
    }

    /// CuTe's `tensor(c)` with `_` entries: the sub-tensor of the modes where `c` has `_`. The
    /// fixed entries' offset moves into the iterator; a swizzled layout is sliced as CuTe does
    /// (the swizzle folded into the strides where the remaining modes allow it).
    ///
    /// # Laws
    /// * `R(d) == self(c with its _ entries replaced by d)` for every coordinate `d` of `R`.
    ///
    /// # Errors
    /// As [`Layout::slice_and_offset`]; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{LayoutTensor, SliceCoord};
    /// let t: LayoutTensor = "counting_iter(5) o (4,6):(6,1)".parse()?;
    /// assert_eq!(t.slice(&"(1,_)".parse::<SliceCoord>()?)?.to_string(), "counting_iter(11) o (6):(1)");
    /// let c = LayoutTensor::identity("(4,6)".parse()?)?;
    /// assert_eq!(c.slice(&"(_,2)".parse::<SliceCoord>()?)?.to_string(), "ArithTuple(0,2) o (4):(1@0)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice(&self, c: &SliceCoord) -> Result<LayoutTensor, LayoutError> {
        match self {
            LayoutTensor::Counting { base, layout } => {
                let (l, off) = cute_slice(layout, c)?;
                counted(*base, off, l, "slice")
            }
            LayoutTensor::Coords(t) => Ok(LayoutTensor::Coords(Box::new(t.slice(c)?))),
            LayoutTensor::Chain { base, chain } => chain_tensor::slice(*base, chain, c, "slice"),
            LayoutTensor::Pointer { .. } | LayoutTensor::Zip(_) => {
                self.map_view("slice", |t| t.slice(c))
            }
        }
    }

    /// CuTe's `local_tile(tensor, tiler, coord)`: the tile at tile coordinate `coord`,
    /// `zipped_divide(tensor, tiler)((_,...), coord)` (a `coord` shorter than the rest modes
    /// keeps the others). With a projection (CuTe's `Step<_1,X,_1>`, written `(1,_,1)`), the
    /// tiler and the coordinate are first diced by it: only their modes where it has an integer
    /// are used.
    ///
    /// # Laws
    /// * `R(c) == self(coord * tile_shape + c)` per mode, for every coordinate `c` of the tile
    ///   (a tiler of integers, dividing the shape).
    ///
    /// # Errors
    /// As [`Layout::zipped_divide`] and [`LayoutTensor::slice`] (a tile coordinate outside the
    /// grid of tiles is [`LayoutError::CoordOutOfRange`]); [`LayoutError::InvalidArgument`] for
    /// a projection that does not match the tiler.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor, SliceCoord, Tiler};
    /// let t: LayoutTensor = "counting_iter(0) o (4,6):(6,1)".parse()?;
    /// let tile = t.local_tile(&"(2,3)".parse::<Tiler>()?, &IntTuple::flat([1, 1]), None)?;
    /// assert_eq!(tile.to_string(), "counting_iter(15) o (2,3):(6,1)");
    /// let proj: SliceCoord = "(1,_,1)".parse()?; // Step<_1,X,_1>: the M and K modes
    /// let mk = t.local_tile(&"(2,5,3)".parse::<Tiler>()?, &"(1,7,1)".parse()?, Some(&proj))?;
    /// assert_eq!(mk, tile);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_tile(
        &self,
        tiler: &Tiler,
        coord: &IntTuple,
        proj: Option<&SliceCoord>,
    ) -> Result<LayoutTensor, LayoutError> {
        let (tiler, coord) = match proj {
            Some(p) => (dice_tiler(tiler, p)?, coord.dice_tuple(p)?),
            None => (tiler.clone(), coord.clone()),
        };
        match self {
            LayoutTensor::Counting { base, layout } => {
                let z = layout.zipped_divide(&tiler)?;
                let c = tile_slice(&z, &coord)?;
                let (l, off) = cute_slice(&z, &c)?;
                counted(*base, off, l, "local_tile")
            }
            LayoutTensor::Coords(t) => Ok(LayoutTensor::Coords(Box::new(
                t.local_tile(&tiler, &coord)?,
            ))),
            LayoutTensor::Chain { base, chain } => {
                chain_tensor::local_tile(*base, chain, &tiler, &coord)
            }
            LayoutTensor::Pointer { .. } | LayoutTensor::Zip(_) => {
                self.map_view("local_tile", |t| t.local_tile(&tiler, &coord, None))
            }
        }
    }

    /// CuTe's `local_partition(tensor, thr, idx)`: the elements thread `idx` owns when the
    /// tensor is tiled by the shape of the thread layout `thr` and thread `thr(c)` takes element
    /// `c` of every tile. With a projection, `thr` is first diced by it (CuTe's
    /// `local_partition(tensor, dice(proj, thr), idx)`).
    ///
    /// # Laws
    /// * Over every `idx` in the image of an injective `thr` whose shape divides the tensor's,
    ///   the partitions hold every value exactly once.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `idx` is not a value of `thr`; as
    /// [`Layout::zipped_divide`] and [`LayoutTensor::slice`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, LayoutTensor};
    /// let t: LayoutTensor = "counting_iter(0) o (4,6):(6,1)".parse()?;
    /// let thr: Layout = "(2,2):(2,1)".parse()?;
    /// assert_eq!(t.local_partition(&thr, 1, None)?.to_string(), "counting_iter(1) o (2,3):(12,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn local_partition(
        &self,
        thr: &Layout,
        idx: i64,
        proj: Option<&SliceCoord>,
    ) -> Result<LayoutTensor, LayoutError> {
        let thr = match proj {
            Some(p) => thr.dice(p)?,
            None => thr.clone(),
        };
        match self {
            LayoutTensor::Counting { base, layout } => {
                let (z, c) = partition_parts(layout, &thr, idx)?;
                let (l, off) = cute_slice(&z, &c)?;
                counted(*base, off, l, "local_partition")
            }
            LayoutTensor::Coords(t) => Ok(LayoutTensor::Coords(Box::new(
                t.local_partition(&thr, idx)?,
            ))),
            LayoutTensor::Chain { base, chain } => {
                chain_tensor::local_partition(*base, chain, &thr, idx)
            }
            LayoutTensor::Pointer { .. } | LayoutTensor::Zip(_) => {
                self.map_view("local_partition", |t| t.local_partition(&thr, idx, None))
            }
        }
    }

    /// Thread `tid`'s values under a thread-value layout: CuTe's
    /// `composition(tensor, tv)(tid, _)`, `tv` mapping `(thread, value)` to a 1-D index of the
    /// tensor.
    ///
    /// # Laws
    /// * `R(v) == self(tv(tid, v))` for every value index `v`.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] unless `tv` has rank 2; as [`Layout::compose`] and
    /// [`LayoutTensor::slice`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, LayoutTensor};
    /// let t: LayoutTensor = "counting_iter(0) o (4,4):(4,1)".parse()?;
    /// let tv: Layout = "(4,4):(4,1)".parse()?; // thread t takes indices 4t..4t+4: column t
    /// assert_eq!(t.partition_tv(&tv, 2)?.to_string(), "counting_iter(2) o (4):(4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partition_tv(&self, tv: &Layout, tid: i64) -> Result<LayoutTensor, LayoutError> {
        match self {
            LayoutTensor::Counting { base, layout } => {
                let (comp, c) = tv_parts(layout, tv, tid)?;
                let (l, off) = cute_slice(&comp, &c)?;
                counted(*base, off, l, "partition_tv")
            }
            LayoutTensor::Coords(t) => Ok(LayoutTensor::Coords(Box::new(t.partition_tv(tv, tid)?))),
            LayoutTensor::Chain { base, chain } => {
                chain_tensor::partition_tv(*base, chain, tv, tid)
            }
            LayoutTensor::Pointer { .. } | LayoutTensor::Zip(_) => {
                self.map_view("partition_tv", |t| t.partition_tv(tv, tid))
            }
        }
    }

    /// A divide of the tensor's layout by `tiler` (CuTe's `logical_divide(tensor, tiler)` and
    /// the others): `f` divides a layout, `g` a swizzled layout. The values do not change, only
    /// their arrangement.
    ///
    /// # Errors
    /// As the divide.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Layout, LayoutTensor};
    /// let t: LayoutTensor = "counting_iter(3) o (4,6):(6,1)".parse()?;
    /// let d = t.divide(&"(2,3)".parse()?, Layout::zipped_divide, ComposedLayout::zipped_divide)?;
    /// assert_eq!(d.to_string(), "counting_iter(3) o ((2,3),(2,2)):((6,1),(12,3))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn divide(
        &self,
        tiler: &Tiler,
        f: fn(&Layout, &Tiler) -> Result<Layout, LayoutError>,
        g: fn(&ComposedLayout, &Tiler) -> Result<ComposedLayout, LayoutError>,
    ) -> Result<LayoutTensor, LayoutError> {
        Ok(match self {
            LayoutTensor::Counting { base, layout } => LayoutTensor::Counting {
                base: *base,
                layout: g(layout, tiler)?,
            },
            LayoutTensor::Coords(t) => LayoutTensor::Coords(Box::new(t.divide_with(tiler, f)?)),
            LayoutTensor::Chain { base, chain } => chain_tensor::divide(*base, chain, tiler, f)?,
            LayoutTensor::Pointer { ptr, layout } => LayoutTensor::Pointer {
                ptr: *ptr,
                layout: g(layout, tiler)?,
            },
            LayoutTensor::Zip(ts) => LayoutTensor::Zip(
                ts.iter()
                    .map(|t| t.divide(tiler, f, g))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// CuTe's `print_tensor(tensor)`: the tensor's print, `:`, then its values, `%5d` for an
    /// offset and two spaces before a coordinate; rank 1 one value a line, rank 2 a grid, rank
    /// 3 the grids of the last mode separated by `5 * size<1>` dashes, rank 4 those groups
    /// separated by `=`; rank 0 and ranks above 4 only the first line. No final newline.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past [`MAX_TABLE_CELLS`] values.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(0) o (2,3):(3,1)".parse()?;
    /// assert_eq!(t.print_tensor()?, "counting_iter(0) o (2,3):(3,1):\n    0    1    2\n    3    4    5");
    /// let c = LayoutTensor::identity("(2,2)".parse()?)?;
    /// assert_eq!(c.print_tensor()?, "ArithTuple(0,0) o (2,2):(1@0,1@1):\n  (0,0)  (0,1)\n  (1,0)  (1,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn print_tensor(&self) -> Result<String, LayoutError> {
        self.check_limit("print_tensor", MAX_TABLE_CELLS)?;
        let shape = self.shape();
        let rank = if shape.is_int() { 1 } else { shape.rank() };
        let ext: Vec<i64> = if shape.is_int() {
            alloc::vec![shape.size()?]
        } else {
            shape
                .elements()
                .map(|m| m.size())
                .collect::<Result<_, _>>()?
        };
        let mut out = format!("{self}:");
        let rule = |out: &mut String, ch: char| {
            out.push('\n');
            for _ in 0..5 * ext[1] {
                out.push(ch);
            }
        };
        match rank {
            1 => {
                for m in 0..ext[0] {
                    out.push('\n');
                    self.value(&IntTuple::int(m))?.pretty(&mut out);
                }
            }
            2..=4 => {
                let outer: Vec<Vec<i64>> = match rank {
                    2 => alloc::vec![Vec::new()],
                    3 => (0..ext[2]).map(|k| alloc::vec![k]).collect(),
                    _ => (0..ext[3])
                        .flat_map(|p| (0..ext[2]).map(move |k| alloc::vec![k, p]))
                        .collect(),
                };
                for (g, rest) in outer.iter().enumerate() {
                    if g > 0 {
                        let new_p = rank == 4 && rest[0] == 0;
                        rule(&mut out, if new_p { '=' } else { '-' });
                    }
                    for m in 0..ext[0] {
                        out.push('\n');
                        for n in 0..ext[1] {
                            let mut c = alloc::vec![m, n];
                            c.extend_from_slice(rest);
                            self.value(&IntTuple::flat(c))?.pretty(&mut out);
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(out)
    }

    /// CuTe's `batch_reduce(src, dst)` with `dst` zero: for a rank-2 tensor
    /// `(RedMode, BatchMode)`, `dst(i)` is the sum of `self(_, i)`, for `i` in `0..size<1>`.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] unless the rank is 2; [`LayoutError::TooLarge`] past
    /// [`MAX_ENUMERATED`] values; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(0) o ((2,2),(2,2)):((2,8),(1,4))".parse()?;
    /// let sums: Vec<String> = t.batch_reduce()?.iter().map(|v| v.to_string()).collect();
    /// assert_eq!(sums, ["20", "24", "36", "40"]); // CuTe's tensor_algs.cpp TensorBatchReduce
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn batch_reduce(&self) -> Result<Vec<TensorValue>, LayoutError> {
        let shape = self.shape();
        if shape.is_int() || shape.rank() != 2 {
            return Err(LayoutError::RankMismatch {
                op: "batch_reduce",
                expected: 2,
                found: if shape.is_int() { 1 } else { shape.rank() },
            });
        }
        self.check_limit("batch_reduce", MAX_ENUMERATED)?;
        let modes: Vec<IntTuple> = shape.elements().collect();
        let (nr, nb) = (modes[0].size()?, modes[1].size()?);
        (0..nb)
            .map(|i| {
                let mut acc: Option<TensorValue> = None;
                for m in 0..nr {
                    let v = self.value(&IntTuple::flat([m, i]))?;
                    acc = Some(match acc {
                        None => v,
                        Some(a) => a.add(&v, "batch_reduce")?,
                    });
                }
                Ok(acc.unwrap_or(TensorValue::Int(0)))
            })
            .collect()
    }

    /// CuTe's `logical_reduce(src, dst, profile)` with `dst` zero: the values summed over the
    /// modes where `profile` has an integer, one sum per coordinate of the modes where it has
    /// `_` (`dst` has the shape `slice(profile, shape)`, column-major; the sums are in its 1-D
    /// order). A profile of integers only sums everything; `_` sums nothing.
    ///
    /// # Laws
    /// * `dst(i) == sum over d of self(c)` where `c` runs over the coordinates whose `_` part is
    ///   the `i`-th coordinate of `slice(profile, shape)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `profile` does not match the shape's tree;
    /// [`LayoutError::TooLarge`] past [`MAX_ENUMERATED`] values; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(0) o (2,2,2,2):(1,2,4,8)".parse()?;
    /// let sums: Vec<String> = t.logical_reduce(&"(_,1,_,1)".parse()?)?.iter().map(|v| v.to_string()).collect();
    /// assert_eq!(sums, ["20", "24", "36", "40"]); // CuTe's tensor_algs.cpp TensorLogicalReduce
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn logical_reduce(&self, profile: &SliceCoord) -> Result<Vec<TensorValue>, LayoutError> {
        self.check_limit("logical_reduce", MAX_ENUMERATED)?;
        let shape = self.shape();
        let kept = shape.slice_tuple(profile)?;
        let n = kept.size()?;
        let mut acc: Vec<Option<TensorValue>> = alloc::vec![None; n as usize];
        for i in 0..self.size() {
            let c = shape.idx2crd(&IntTuple::int(i))?;
            let b = if kept.rank() == 0 || (!kept.is_int() && kept.leaves().is_empty()) {
                0
            } else {
                kept.crd2idx(&c.slice_tuple(profile)?)?
            };
            let v = self.value(&c)?;
            let slot = &mut acc[b as usize];
            *slot = Some(match slot.take() {
                None => v,
                Some(a) => a.add(&v, "logical_reduce")?,
            });
        }
        Ok(acc
            .into_iter()
            .map(|v| v.unwrap_or(TensorValue::Int(0)))
            .collect())
    }
}

/// The counting tensor `counting_iter(base + off) o l`.
fn counted(
    base: i64,
    off: i64,
    l: ComposedLayout,
    op: &'static str,
) -> Result<LayoutTensor, LayoutError> {
    let base = base.checked_add(off).ok_or(LayoutError::overflow(op))?;
    Ok(LayoutTensor::Counting { base, layout: l })
}

impl fmt::Display for LayoutTensor {
    /// CuTe's `print(tensor)`: `counting_iter(BASE) o LAYOUT` or `ArithTuple(BASE) o LAYOUT`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutTensor::Counting { base, layout } => {
                write!(f, "counting_iter({base}) o {layout}")
            }
            LayoutTensor::Coords(t) => write!(f, "ArithTuple{} o {}", t.origin(), t.layout()),
            LayoutTensor::Chain { base, chain } => write!(f, "counting_iter({base}) o {chain}"),
            LayoutTensor::Pointer { ptr, layout } => write!(f, "{ptr} o {layout}"),
            LayoutTensor::Zip(ts) => {
                f.write_str("zip(")?;
                for (k, t) in ts.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Whether `s` is the text of a [`LayoutTensor`] (starts with `counting_iter`, `ArithTuple`,
/// `zip(` or a pointer, [`is_pointer_text`]).
pub fn is_tensor_text(s: &str) -> bool {
    let t = s.trim_start();
    t.starts_with("counting_iter")
        || t.starts_with("ArithTuple")
        || t.starts_with("zip(")
        || is_pointer_text(t)
}

pub(crate) fn perr(offset: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { offset, kind }
}

/// Shift a parse error of a part that starts at byte `at` of the whole text.
pub(crate) fn shifted(e: ParseError, at: usize) -> ParseError {
    perr(e.offset + at, e.kind)
}

/// Byte offset of the ` o ` after position `from` (the separator `o` between spaces).
pub(crate) fn find_o(s: &str, from: usize) -> Result<(usize, usize), ParseError> {
    let b = s.as_bytes();
    let mut k = from;
    while k < b.len() && b[k].is_ascii_whitespace() {
        k += 1;
    }
    if k >= b.len() {
        return Err(perr(k, ParseErrorKind::UnexpectedEnd { expected: "'o'" }));
    }
    if b[k] != b'o' {
        return Err(perr(
            k,
            ParseErrorKind::UnexpectedChar {
                found: s[k..].chars().next().unwrap_or('?'),
                expected: "'o'",
            },
        ));
    }
    Ok((k, k + 1))
}

/// End of a balanced `( ... )` starting at `from`, or of an integer token.
pub(crate) fn end_of_value(s: &str, from: usize) -> Result<usize, ParseError> {
    let b = s.as_bytes();
    if b.get(from) == Some(&b'(') {
        let mut depth = 0i32;
        for (k, &c) in b.iter().enumerate().skip(from) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(k + 1);
                    }
                }
                _ => {}
            }
        }
        return Err(perr(
            b.len(),
            ParseErrorKind::UnexpectedEnd { expected: "')'" },
        ));
    }
    let mut k = from;
    while k < b.len() && (b[k].is_ascii_digit() || b[k] == b'_' || b[k] == b'-') {
        k += 1;
    }
    if k == from {
        return Err(match s[from..].chars().next() {
            Some(c) => perr(
                from,
                ParseErrorKind::UnexpectedChar {
                    found: c,
                    expected: "an integer or a tuple",
                },
            ),
            None => perr(
                from,
                ParseErrorKind::UnexpectedEnd {
                    expected: "an integer or a tuple",
                },
            ),
        });
    }
    Ok(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> LayoutTensor {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// Every coordinate `(m,n)` of a rank-2 shape, each entry 1-D within its mode (a slice of
    /// a swizzled tensor may split a mode into segments).
    fn coords(shape: &IntTuple) -> Vec<IntTuple> {
        let m: Vec<i64> = shape.elements().map(|e| e.size().unwrap()).collect();
        (0..m[1])
            .flat_map(|n| (0..m[0]).map(move |i| IntTuple::flat([i, n])))
            .collect()
    }

    #[test]
    fn text_round_trips() {
        for s in [
            "counting_iter(0) o (4,8):(8,1)",
            "counting_iter(-3) o Sw<3,0,3> o 0 o (8,8):(8,1)",
            "ArithTuple(0,0) o (4,8):(1@0,1@1)",
            "ArithTuple((0,0),0) o ((2,2),3):((1@0@0,1@1@0),1@1)",
            "ArithTuple(0,1) o (2,2):(2@0,2@1)",
            "ArithTuple0 o 3:1",
        ] {
            assert_eq!(t(s).to_string(), s);
        }
        // CuTe's own print, static integers and all.
        assert_eq!(
            t("counting_iter(0) o Sw<3,0,3> o _0 o (_8,_8):(_8,_1)").to_string(),
            "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)"
        );
        assert_eq!(
            t("ArithTuple(_0,_0) o (_4,_3):(_1@0,_1@1)").to_string(),
            "ArithTuple(0,0) o (4,3):(1@0,1@1)"
        );
        assert_eq!(t("ArithTuple_0 o _3:_1").to_string(), "ArithTuple0 o 3:1");
        for bad in [
            "",
            "counting_iter",
            "counting_iter(0)",
            "counting_iter(0) x 4:1",
            "counting_iter((1,2)) o 4:1",
            "ArithTuple(0) o 4:1@1",
            "ArithTuple( o 4:1@0",
            "Tensor(0) o 4:1",
        ] {
            assert!(bad.parse::<LayoutTensor>().is_err(), "{bad:?}");
        }
    }

    /// Law: a slice's values are the tensor's at the completed coordinates, for every fixing of
    /// every mode of small tensors, swizzled ones (CuTe's swizzle_layout.cpp cases) included.
    #[test]
    fn slice_law_over_whole_domains() {
        for s in [
            "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)",
            "counting_iter(0) o Sw<3,0,-3> o 0 o (8,8):(8,1)",
            "counting_iter(0) o Sw<2,1,3> o 0 o ((2,2,2),(2,2,2)):((32,2,8),(4,1,16))",
            "counting_iter(7) o (4,(2,3)):(3,(1,12))",
            "ArithTuple(0,0) o (4,6):(1@0,1@1)",
        ] {
            let x = t(s);
            let modes: Vec<IntTuple> = x.shape().elements().collect();
            let (n0, n1) = (modes[0].size().unwrap(), modes[1].size().unwrap());
            for i in 0..n0 {
                let row = x
                    .slice(&SliceCoord::flat([Slice::At(i), Slice::All]))
                    .unwrap();
                for j in 0..n1 {
                    assert_eq!(
                        row.value(&IntTuple::int(j)).unwrap(),
                        x.value(&IntTuple::flat([i, j])).unwrap(),
                        "{s} ({i},_) at {j}: {row}"
                    );
                }
            }
            for j in 0..n1 {
                let col = x
                    .slice(&SliceCoord::flat([Slice::All, Slice::At(j)]))
                    .unwrap();
                for i in 0..n0 {
                    assert_eq!(
                        col.value(&IntTuple::int(i)).unwrap(),
                        x.value(&IntTuple::flat([i, j])).unwrap(),
                        "{s} (_,{j}) at {i}: {col}"
                    );
                }
            }
        }
    }

    /// Law: every tile's value at `c` is the tensor's at `tile_coord * tile + c`, over all
    /// tiles and all points of small tensors, counting and coordinate tensors alike.
    #[test]
    fn local_tile_law_over_whole_domains() {
        for s in [
            "counting_iter(0) o (4,6):(6,1)",
            "counting_iter(2) o (6,4):(1,8)",
            "counting_iter(0) o Sw<2,0,2> o 0 o (4,8):(8,1)",
            "ArithTuple(0,0) o (4,6):(1@0,1@1)",
        ] {
            let x = t(s);
            let ext: Vec<i64> = x.shape().leaves().to_vec();
            for (tm, tn) in [(2, 2), (1, 2), (2, 1), (4, 2)] {
                let tiler: Tiler = alloc::format!("({tm},{tn})").parse().unwrap();
                for bm in 0..ext[0] / tm {
                    for bn in 0..ext[1] / tn {
                        let tile = x
                            .local_tile(&tiler, &IntTuple::flat([bm, bn]), None)
                            .unwrap();
                        for c in coords(&tile.shape()) {
                            let (m, n) = (c.leaves()[0], c.leaves()[1]);
                            assert_eq!(
                                tile.value(&c).unwrap(),
                                x.value(&IntTuple::flat([bm * tm + m, bn * tn + n]))
                                    .unwrap(),
                                "{s} tile ({tm},{tn}) at ({bm},{bn}) point {c}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Law: the partitions of an injective thread layout hold every value once, and thread
    /// `thr(a,b)`'s value at `(i,j)` is the tensor's at `(i*T0 + a, j*T1 + b)`.
    #[test]
    fn local_partition_law_over_whole_domains() {
        for s in [
            "counting_iter(0) o (4,6):(6,1)",
            "counting_iter(0) o Sw<1,0,2> o 0 o (4,6):(6,1)",
            "ArithTuple(0,0) o (4,6):(1@0,1@1)",
        ] {
            let x = t(s);
            for thr in ["(2,3):(3,1)", "(2,3):(1,2)", "(4,2):(1,4)"] {
                let thr: Layout = thr.parse().unwrap();
                let (t0, t1) = (thr.shape().leaves()[0], thr.shape().leaves()[1]);
                let mut seen = Vec::new();
                for a in 0..t0 {
                    for b in 0..t1 {
                        let idx = thr.index(&IntTuple::flat([a, b])).unwrap();
                        let p = x.local_partition(&thr, idx, None).unwrap();
                        for c in coords(&p.shape()) {
                            let (i, j) = (c.leaves()[0], c.leaves()[1]);
                            let want = x.value(&IntTuple::flat([i * t0 + a, j * t1 + b])).unwrap();
                            assert_eq!(p.value(&c).unwrap(), want, "{s} thr {thr} idx {idx}");
                            seen.push(want.to_string());
                        }
                    }
                }
                seen.sort();
                let mut all: Vec<String> = x
                    .values(1 << 10)
                    .unwrap()
                    .iter()
                    .map(|v| v.to_string())
                    .collect();
                all.sort();
                assert_eq!(seen, all, "{s} thr {thr}");
            }
        }
    }

    /// Law: `partition_tv(T, tv, t)(v) == T(tv(t, v))` at every thread and value.
    #[test]
    fn partition_tv_law_over_whole_domains() {
        for s in [
            "counting_iter(0) o (4,8):(8,1)",
            "counting_iter(0) o Sw<2,0,3> o 0 o (4,8):(8,1)",
            "ArithTuple(0,0) o (4,8):(1@0,1@1)",
        ] {
            let x = t(s);
            for tv in ["(8,4):(4,1)", "((2,4),4):((16,1),4)", "(4,8):(1,4)"] {
                let tv: Layout = tv.parse().unwrap();
                let (nt, nv) = (tv.mode(0).unwrap().size(), tv.mode(1).unwrap().size());
                for tid in 0..nt {
                    let p = x.partition_tv(&tv, tid).unwrap();
                    for v in 0..nv {
                        let i = tv.index(&IntTuple::flat([tid, v])).unwrap();
                        assert_eq!(
                            p.value(&IntTuple::int(v)).unwrap(),
                            x.value(&IntTuple::int(i)).unwrap(),
                            "{s} tv {tv} thread {tid} value {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn tensor_algorithms_of_cute_tests() {
        let sums =
            |x: Vec<TensorValue>| -> Vec<String> { x.iter().map(|v| v.to_string()).collect() };
        let src = t("counting_iter(0) o (32,(12,6)):(1,(64,1))");
        // Reduce each column / each row, checked against the direct sums of the slices.
        let cols = src.logical_reduce(&"(0,_)".parse().unwrap()).unwrap();
        for (i, v) in cols.iter().enumerate() {
            let s = src
                .slice(&SliceCoord::flat([Slice::All, Slice::At(i as i64)]))
                .unwrap();
            let want: i64 = s
                .values(1 << 20)
                .unwrap()
                .iter()
                .map(|v| match v {
                    TensorValue::Int(x) => *x,
                    _ => unreachable!(),
                })
                .sum();
            assert_eq!(*v, TensorValue::Int(want));
        }
        assert_eq!(cols.len(), 72);
        let rows = src.logical_reduce(&"(_,0)".parse().unwrap()).unwrap();
        assert_eq!(rows.len(), 32);
        let t32 = t("counting_iter(0) o (32):(1)");
        assert_eq!(
            sums(t32.logical_reduce(&"1".parse().unwrap()).unwrap()),
            ["496"]
        );
        assert_eq!(t32.logical_reduce(&"_".parse().unwrap()).unwrap().len(), 32);
        let b = t("counting_iter(0) o (32,(12,6)):(1,(192,32))");
        assert_eq!(
            sums(b.logical_reduce(&"(1,1)".parse().unwrap()).unwrap()),
            [format!("{}", (0..2304).sum::<i64>())]
        );
        assert_eq!(
            sums(b.logical_reduce(&"(_,_)".parse().unwrap()).unwrap()),
            sums(b.values(1 << 20).unwrap())
        );
        let h = t("counting_iter(0) o (2,(2,2),2):(1,(2,4),8)");
        assert_eq!(
            sums(h.logical_reduce(&"(_,(1,_),1)".parse().unwrap()).unwrap()),
            ["20", "24", "36", "40"]
        );
        // Coordinates add leaf by leaf.
        let c = LayoutTensor::identity("(2,3)".parse().unwrap()).unwrap();
        assert_eq!(sums(c.batch_reduce().unwrap()), ["(1,0)", "(1,2)", "(1,4)"]);
    }
}

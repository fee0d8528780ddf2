//! Counting tensors over a general composed layout, CuTe's
//! `make_tensor(counting_iterator<int>(base), ComposedLayout<A,O,B>)` where an outer function
//! `A` is a layout (`counting_iter(0) o 32:2 o 3 o (2,4):(1,2)`): [`LayoutTensor::Chain`]. Its
//! value at `c` is `base + chain(c)`. As CuTe's `ComposedLayout` overloads do, every view acts
//! on the inner layout and a slice's offset moves into the innermost offset (the iterator
//! stays); the functions here are the [`LayoutTensor`] methods' cases for it.
//!
//! ```
//! use cute_layout::{IntTuple, LayoutTensor, SliceCoord};
//! let t: LayoutTensor = "counting_iter(0) o 32:2 o 3 o (2,4):(1,2)".parse()?;
//! assert_eq!(t.value(&IntTuple::flat([1, 2]))?.to_string(), "16"); // 2 * (3 + 5)
//! let row = t.slice(&"(1,_)".parse::<SliceCoord>()?)?;
//! assert_eq!(row.to_string(), "counting_iter(0) o 32:2 o 4 o (4):(2)"); // as CuTe prints it
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::boxed::Box;

use crate::algebra::Tiler;
use crate::composed::chain::LayoutChain;
use crate::composed::composed_layout::ComposedLayout;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::SliceCoord;
use crate::layout::Layout;
use crate::tensor::data::{check_in_domain, partition_parts, tile_slice, tv_parts};
use crate::tensor::kinds::{LayoutTensor, TensorValue};

/// The tensor `counting_iter(base + off) o chain`, a [`LayoutTensor::Counting`] when every
/// outer function of `chain` is a swizzle.
pub(crate) fn chained(
    base: i64,
    off: i64,
    chain: LayoutChain,
    op: &'static str,
) -> Result<LayoutTensor, LayoutError> {
    let base = base.checked_add(off).ok_or(LayoutError::overflow(op))?;
    Ok(match chain.to_composed() {
        Some(layout) => LayoutTensor::Counting { base, layout },
        None => LayoutTensor::Chain {
            base,
            chain: Box::new(chain),
        },
    })
}

/// `base + chain(c)`.
pub(crate) fn value(
    base: i64,
    chain: &LayoutChain,
    c: &IntTuple,
) -> Result<TensorValue, LayoutError> {
    check_in_domain("tensor", &chain.shape(), c)?;
    let v = chain
        .index(c)?
        .checked_add(base)
        .ok_or(LayoutError::overflow("tensor"))?;
    Ok(TensorValue::Int(v))
}

/// `tensor(c)` with `_` entries: CuTe's `slice_and_offset` of a `ComposedLayout`, the offset
/// moved into the innermost offset.
pub(crate) fn slice(
    base: i64,
    chain: &LayoutChain,
    c: &SliceCoord,
    op: &'static str,
) -> Result<LayoutTensor, LayoutError> {
    let (s, off) = chain.slice_and_offset(c)?;
    chained(base, off, s, op)
}

/// `local_tile`: `zipped_divide` of the inner layout, then the tile's slice.
pub(crate) fn local_tile(
    base: i64,
    chain: &LayoutChain,
    tiler: &Tiler,
    coord: &IntTuple,
) -> Result<LayoutTensor, LayoutError> {
    let z = chain.map(|l| l.zipped_divide(tiler))?;
    let c = tile_slice(&ComposedLayout::from(z.layout().clone()), coord)?;
    slice(base, &z, &c, "local_tile")
}

/// `local_partition` of the inner layout.
pub(crate) fn local_partition(
    base: i64,
    chain: &LayoutChain,
    thr: &Layout,
    idx: i64,
) -> Result<LayoutTensor, LayoutError> {
    let (z, c) = partition_parts(&ComposedLayout::from(chain.layout().clone()), thr, idx)?;
    let z = chain.map(|_| Ok(z.layout().clone()))?;
    slice(base, &z, &c, "local_partition")
}

/// `composition(T, tv)(tid, _)`: the thread-value layout composed into the inner layout.
pub(crate) fn partition_tv(
    base: i64,
    chain: &LayoutChain,
    tv: &Layout,
    tid: i64,
) -> Result<LayoutTensor, LayoutError> {
    let (comp, c) = tv_parts(&ComposedLayout::from(chain.layout().clone()), tv, tid)?;
    let comp = chain.map(|_| Ok(comp.layout().clone()))?;
    slice(base, &comp, &c, "partition_tv")
}

/// A divide of the inner layout.
pub(crate) fn divide(
    base: i64,
    chain: &LayoutChain,
    tiler: &Tiler,
    f: fn(&Layout, &Tiler) -> Result<Layout, LayoutError>,
) -> Result<LayoutTensor, LayoutError> {
    chained(base, 0, chain.map(|l| f(l, tiler))?, "divide")
}

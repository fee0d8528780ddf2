//! The tensors without data a layout tool holds ([`LayoutTensor`]) and the values they hold
//! ([`TensorValue`]); their operations are in `layout_tensor.rs` and the files beside it.

use crate::composed::chain::LayoutChain;
use crate::composed::composed_layout::ComposedLayout;
use crate::layout::int_tuple::IntTuple;
use crate::tensor::data::IdentityTensor;
use crate::tensor::pointer::Pointer;
use alloc::boxed::Box;
use alloc::vec::Vec;

/// A tensor whose values are computed from its layout, as CuTe's tensors without storage:
///
/// * `counting_iter(BASE) o LAYOUT`, CuTe's `make_tensor(counting_iterator<int>(BASE), LAYOUT)`:
///   the value at `c` is `BASE + LAYOUT(c)`; the layout may be swizzled
///   (`Sw<B,M,S> o OFFSET o L`, CuTe's `sw_tensor`);
/// * `ArithTuple(BASE) o LAYOUT` with basis strides, CuTe's `make_identity_tensor(shape)` and
///   its views: the value at `c` is the coordinate `BASE + LAYOUT(c)`.
///
/// The text form ([`FromStr`](core::str::FromStr), [`Display`](core::fmt::Display)) is what
/// CuTe's `print(tensor)` writes, without the `_` of CuTe's static integers (accepted when
/// parsing). Slicing, `local_tile`, `local_partition`, thread-value partitions and the divides
/// give tensors of the same kind with CuTe's text; [`LayoutTensor::print_tensor`] writes CuTe's
/// `print_tensor`; [`LayoutTensor::batch_reduce`] and [`LayoutTensor::logical_reduce`] sum the
/// values as CuTe's tensor algorithms do.
///
/// # Examples
/// ```
/// use cute_layout::{IntTuple, LayoutTensor, SliceCoord};
/// let t: LayoutTensor = "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)".parse()?;
/// let row = t.slice(&"(2,_)".parse::<SliceCoord>()?)?;
/// assert_eq!(row.to_string(), "counting_iter(18) o ((2,2,2)):((1,-2,4))"); // as CuTe prints it
/// assert_eq!(row.value(&IntTuple::int(5))?, t.value(&IntTuple::flat([2, 5]))?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
// Made once per operation and never stored in bulk: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum LayoutTensor {
    /// `counting_iter(base) o layout`: the value at `c` is `base + layout(c)`.
    Counting {
        /// The value at the origin (CuTe's iterator).
        base: i64,
        /// The layout, possibly swizzled.
        layout: ComposedLayout,
    },
    /// `ArithTuple(base) o layout` with basis strides: the value at `c` is a coordinate.
    Coords(Box<IdentityTensor>),
    /// `counting_iter(base) o chain` over a composed layout with a layout outer function
    /// (`32:2 o 3 o L`): the value at `c` is `base + chain(c)` (CuTe's `ComposedLayout` overloads).
    Chain {
        /// The value at the origin (CuTe's iterator).
        base: i64,
        /// The composed layout.
        chain: Box<LayoutChain>,
    },
    /// `PTR o layout`, CuTe's `make_tensor(ptr, layout)` over a typed pointer
    /// ([`Pointer`]): the value at `c` is the element's address, `ptr + layout(c)`
    /// dereferenced ([`Pointer::element`]); see [`LayoutTensor::from_pointer`].
    Pointer {
        /// The iterator.
        ptr: Pointer,
        /// The layout, possibly swizzled.
        layout: ComposedLayout,
    },
    /// `zip(T1, T2, ...)`, CuTe's `make_zip_tensor(t1, t2, ...)` of tensors of one shape: the
    /// value at `c` is the tuple of the tensors' values; views act on every tensor. See
    /// [`LayoutTensor::zip`].
    Zip(Vec<LayoutTensor>),
}

/// One value of a [`LayoutTensor`]: an integer (an offset) or a coordinate.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TensorValue {
    /// An offset (or the coordinate of a rank-1 identity tensor, which CuTe prints as one).
    Int(i64),
    /// A coordinate.
    Coord(IntTuple),
    /// An element's address (a pointer tensor's value).
    Ptr(Pointer),
    /// The values of the tensors of a zip tensor, CuTe's `tuple` (printed `(a,b)`).
    Tuple(Vec<TensorValue>),
}

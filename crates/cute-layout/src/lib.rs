//! # cute-layout
//!
//! CuTe's layout algebra (NVIDIA CUTLASS) as a library: hierarchical `Shape:Stride` layouts, their
//! text form, coordinate maps, and (in later modules) the algebra on them.
//!
//! A layout is a function from coordinates to indices. `(2,(2,2)):(4,(2,1))` has shape
//! `(2,(2,2))` (8 points, a 2 x 4 matrix whose columns are themselves 2 x 2) and stride
//! `(4,(2,1))`: the natural coordinate `(i,(j,k))` goes to `4i + 2j + k`.
//!
//! ```
//! use cute_layout::Layout;
//! let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
//! assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (8, 8, 2, 2));
//! assert_eq!(l.index(&"(1,(0,1))".parse()?)?, 5);
//! assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 4, 2, 6, 1, 5, 3, 7]);
//! assert_eq!(l.to_string(), "(2,(2,2)):(4,(2,1))");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! For many coordinates of one shape, [`Idx2Crd`] precomputes `idx2crd`'s divisions, and
//! [`Layout::offsets`] walks a whole layout with no division at all.
//!
//! Beyond plain layouts: [`Swizzle`] and [`ComposedLayout`] (`Sw<3,4,3> o 0 o (8,64):(64,1)`,
//! CuTe's swizzled shared-memory layouts), [`ScaledBasis`] strides and [`Layout::identity`]
//! (layouts that evaluate to coordinates), and [`Tensor`] / [`IdentityTensor`] (layouts over
//! storage: slicing with [`SliceCoord`], `local_tile`, `local_partition`, copy).
//!
//! Design rules: layouts are small values (up to 16 leaves stored inline, no heap allocation);
//! every constructor validates its input so the rest can rely on it; every failure caused by
//! input is a typed [`LayoutError`] or [`ParseError`], never a panic; the library does no I/O.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

extern crate alloc;

mod algebra;
pub mod analysis;
pub mod atom;
mod basis;
mod chain;
pub mod codegen;
mod composed;
mod coord;
mod divider;
mod error;
mod fmt;
mod int_tuple;
mod int_tuple_ops;
mod layout;
mod parse;
pub mod render;
mod slice;
pub mod smem_search;
mod swizzle;
mod tensor;
mod tree;
mod tuple_algebra;

pub use algebra::Tiler;
pub use analysis::{
    explain_complement, explain_composition, explain_logical_divide, explain_logical_product,
    explain_rearranged, find_layout, find_layout_with_shape, Explanation, Image,
};
pub use basis::{ScaledBasis, MAX_BASIS_DEPTH};
pub use chain::{is_composed_text, LayoutChain, OuterFn};
pub use composed::ComposedLayout;
pub use coord::Offsets;
pub use divider::Idx2Crd;
pub use error::{LayoutError, ParseError, ParseErrorKind};
pub use int_tuple::IntTuple;
pub use int_tuple_ops::{IntTupleBuilder, TupleToken};
pub use layout::{Layout, Order, StrideValue};
pub use render::{Table, VectorTable, MAX_TABLE_CELLS};
pub use slice::{Slice, SliceCoord};
pub use swizzle::{Swizzle, MAX_SWIZZLE_BITS};
pub use tensor::{IdentityTensor, Storage, StorageMut, Tensor};
pub use tree::{MAX_DEPTH, MAX_NODES};
pub use tuple_algebra::{coord_less, safe_div, CoordOrder};

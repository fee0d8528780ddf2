//! # cute-layout
//!
//! CuTe's layout algebra (NVIDIA CUTLASS) as a library: hierarchical `Shape:Stride` layouts, their
//! text form, coordinate maps, and the algebra on them (coalesce, composition, complement,
//! inverses, divides, products), swizzles, tensors, MMA and copy atoms, and pictures. It follows
//! CuTe's static-integer results wherever they are correct, and returns a typed error where
//! CuTe's answer would break the operation's own law. `no_std` (with `alloc`), no `unsafe`.
//!
//! A layout is a function from coordinates to indices. `(2,(2,2)):(4,(2,1))` has shape
//! `(2,(2,2))` (8 points, a 2 x 4 matrix whose columns are themselves 2 x 2) and stride
//! `(4,(2,1))`: the natural coordinate `(i,(j,k))` goes to `4i + 2j + k`.
//!
//! ```
//! use cute_layout::{layout, Layout};
//! let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;          // CuTe's text form
//! assert_eq!(l, layout!("(2,(2,2)):(4,(2,1))"));            // the same, as a literal
//! assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (8, 8, 2, 2));
//! assert_eq!(l.index(&"(1,(0,1))".parse()?)?, 5);
//! assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 4, 2, 6, 1, 5, 3, 7]);
//! let b = Layout::try_from("(4,3):(3,1)")?;
//! assert_eq!("(6,2):(8,2)".parse::<Layout>()?.compose(&b)?.to_string(), "((2,2),3):((24,2),8)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Indices outside the domain
//!
//! Some laws evaluate a layout outside `[0, size)`: composition's `A(B(i))` where B's offsets
//! pass A's size or are negative, the inverses, a swizzle moved through a layout. One
//! convention holds everywhere ([`Layout::index_any`]), CuTe's integer arithmetic:
//!
//! * past the end, the last mode's coordinate is not reduced by its extent (it "runs on");
//! * a negative index is split by truncating division (C++'s `/` and `%`), so every coordinate
//!   of `-i` is the negation of that of `i`, and `L(-i) == -L(i)`: the 1-D function is odd.
//!
//! ```
//! use cute_layout::Layout;
//! let l: Layout = "(4,4):(4,1)".parse()?;
//! assert_eq!(l.index_any(17)?, 8); // (1, 4): the last coordinate runs on
//! assert_eq!(l.index_any(-6)?, -9); // (-2, -1), = -l(6)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A swizzle acts on the two's-complement bits of an offset and does not commute with negation
//! (`Sw<1,0,2>` maps 1 to 1 but -1 to -2), so a swizzle is moved through a layout (composition
//! with a composed right operand, the inverses) only where the offsets it sees are non-negative,
//! or the layout is `x -> 2^k x`; elsewhere the operation refuses (see
//! [`Layout::compose_composed`]).
//!
//! ## CuTe's names and this crate's
//!
//! Every operation has its definition, laws, errors and an example on its own page.
//!
//! | CuTe | here |
//! |---|---|
//! | `make_layout(shape, stride)`, `LayoutLeft`, `LayoutRight` | [`Layout::new`], [`Layout::col_major`], [`Layout::row_major`], [`Layout::with_order`] |
//! | `make_ordered_layout`, `make_layout(l0, l1, ...)` | [`Layout::ordered`], [`Layout::from_modes`] |
//! | `make_identity_layout` | [`Layout::identity`] (strides [`ScaledBasis`]) |
//! | `size`, `cosize`, `rank`, `depth`, `shape`, `stride` | [`Layout::size`], [`Layout::cosize`], [`Layout::rank`], [`Layout::depth`], [`Layout::shape`], [`Layout::stride`] |
//! | `layout(c)`, `crd2idx`, `idx2crd`, `crd2crd` | [`Layout::index`], [`Layout::index_1d`], [`IntTuple::crd2idx`], [`IntTuple::idx2crd`], [`Layout::coord`], [`IntTuple::crd2crd`], [`Idx2Crd`] |
//! | `layout<I...>`, `get`, `select`, `take`, `group_modes`, `append`, `prepend`, `replace`, `flatten` | [`Layout::mode`], [`Layout::mode_at`], [`Layout::select_modes`], [`Layout::take_modes`], [`Layout::group_modes`], [`Layout::append`], [`Layout::prepend`], [`Layout::replace`], [`Layout::flatten`] |
//! | `congruent`, `weakly_congruent`, `compatible`, `evenly_divides` | [`IntTuple::congruent`], [`IntTuple::weakly_congruent`], [`IntTuple::compatible`], [`IntTuple::evenly_divides`] |
//! | `coalesce`, `filter`, `filter_zeros` | [`Layout::coalesce`], [`Layout::coalesce_by_mode`], [`Layout::filter`], [`Layout::filter_zeros`] |
//! | `composition` | [`Layout::compose`], [`Layout::compose_tiler`] (a [`Tiler`]), [`Layout::with_shape`], [`ComposedLayout::compose`] |
//! | `complement` | [`Layout::complement`], [`Layout::complement_shape`], [`Layout::complement_cosize`] |
//! | `right_inverse`, `left_inverse`, `nullspace` | [`Layout::right_inverse`], [`Layout::left_inverse`], [`Layout::nullspace`] |
//! | `max_common_vector`, `max_common_layout` | [`Layout::max_common_vector`], [`Layout::max_common_layout`] |
//! | `upcast`, `downcast`, `recast_layout` | [`Layout::upcast`], [`Layout::downcast`], [`Layout::recast`] |
//! | `logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide` | [`Layout::logical_divide`], [`Layout::zipped_divide`], [`Layout::tiled_divide`], [`Layout::flat_divide`] |
//! | `logical_product`, `zipped_product`, `tiled_product`, `flat_product`, `blocked_product`, `raked_product` | [`Layout::logical_product`], [`Layout::zipped_product`], [`Layout::tiled_product`], [`Layout::flat_product`], [`Layout::blocked_product`], [`Layout::raked_product`] |
//! | `tile_to_shape` | [`Layout::tile_to_shape`] |
//! | `Swizzle<B,M,S>`, `ComposedLayout` | [`Swizzle`], [`ComposedLayout`] (`Sw<3,4,3> o 0 o (8,64):(64,1)`) |
//! | `Tensor`, `local_tile`, `local_partition`, `make_identity_tensor`, `copy` | [`Tensor`], [`Tensor::local_tile`], [`Tensor::local_partition`], [`IdentityTensor`], [`Tensor::copy_from`] |
//! | `MMA_Atom`, `TiledMMA`, `Copy_Atom`, `TiledCopy` | the [`atom`] module |
//! | `print_layout`, `print_latex`, `print_latex_tv` | [`Layout::table`], [`render::latex()`], [`render::latex_tv`]; SVG: [`render::svg()`], [`render::svg_tv`], [`render::svg_banks`] |
//!
//! Beyond CuTe: NVlabs PyCuTe's F2 (XOR) strides ([`F2`], `Layout<F2>`; the module [`pycute::f2`]
//! says what they are and which operations take them), [`analysis::find_layout`] (the layout with given values), [`Layout::image`], the
//! predicates [`Layout::is_injective`] and friends, and step-by-step explanations of the algebra
//! ([`analysis::explain`]); from NVlabs PyCuTe, its symbolic layouts ([`SymLayout`]: extents and
//! strides that are monomials over named symbols, `(N,M):(1,N)`, with PyCuTe's coalesce,
//! composition, complement, right inverse, `make_ordered_layout` and `make_layout_like`).
//!
//! ## Features
//!
//! * `serde`: [`Layout`], [`IntTuple`], [`Swizzle`] and [`ComposedLayout`] serialize as their
//!   text form (`"(2,4):(4,1)"`) and deserialize from it, with the parser's checks.
//!
//! Design rules: layouts are small values (up to 16 leaves stored inline, no heap allocation);
//! every constructor validates its input so the rest can rely on it; every failure caused by
//! input is a typed [`LayoutError`] or [`ParseError`], never a panic; the library does no I/O.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

extern crate alloc;

// The folders; ARCHITECTURE.md draws their layers, and tests/layering.rs checks that no file
// imports from a folder above its own.
mod algebra;
pub mod analysis;
pub mod atom;
mod basis;
pub mod composed;
pub mod gpu;
pub mod layout;
mod literal;
pub mod pycute;
pub mod render;
pub mod tensor;

// Layouts, tuples, coordinates and their errors.
pub use layout::coord::Offsets;
pub use layout::divider::Idx2Crd;
pub use layout::error::{LayoutError, ParseError, ParseErrorKind};
pub use layout::int_tuple::IntTuple;
pub use layout::int_tuple_ops::{IntTupleBuilder, TupleToken};
pub use layout::slice::{Slice, SliceCoord};
pub use layout::tree::{MAX_DEPTH, MAX_NODES};
pub use layout::tuple_algebra::CoordOrder;
pub use layout::{Layout, Order, StrideValue};

// The algebra.
pub use algebra::construct::{MAX_COORDINATES, MAX_COORDINATE_INTEGERS};
pub use algebra::Tiler;

// Swizzles and composed layouts.
pub use composed::chain::{LayoutChain, OuterFn};
pub use composed::composed_layout::ComposedLayout;
pub use composed::swizzle::{Swizzle, MAX_SWIZZLE_BITS};

// Basis strides.
pub use basis::basis_tiler::StrideText;
pub use basis::{ScaledBasis, MAX_BASIS_DEPTH};

// NVlabs PyCuTe's stride kinds.
pub use pycute::basis_sum::{BasisSum, MAX_BASIS_TERMS};
pub use pycute::extras::MAX_ADD_VALUES;
pub use pycute::f2::{F2Basis, F2, MAX_F2_POINTS};
pub use pycute::symbolic::{Sym, SymLayout, SymTuple};

// Pictures.
pub use render::{Table, VectorTable, MAX_TABLE_CELLS};

// Tensors and pointers.
pub use tensor::data::{IdentityTensor, Storage, StorageMut, Tensor};
pub use tensor::layout_tensor::{LayoutTensor, TensorValue};
pub use tensor::pointer::{MemSpace, Pointer, MAX_ELEMENT_BITS};
pub use tensor::pointer_tensor::SmemPtrFlagLayout;

#[doc(hidden)]
pub use literal::literal_or_panic;

//! The layout algebra: coalesce, composition, complement, inverses, divides and products.
//!
//! Every operation follows CuTe's algorithm with all integers static, so that where CuTe's answer
//! is right ours has the same text. Where CuTe's answer would break the operation's law, the
//! operation returns the [`LayoutError`](crate::LayoutError) that names the failed condition instead; the decision is
//! made algebraically (from the shapes and strides), never by enumerating the domain.

mod build;
mod cast;
mod coalesce;
mod complement;
mod composition;
pub(crate) mod construct;
mod divide;
#[cfg(test)]
mod fast_path_tests;
mod flat;
mod inverse;
mod kernels;
pub(crate) mod layout_like;
mod linear_product;
mod lists;
mod merge;
mod modes;
mod product;
mod shape_divide;
mod tiler;
mod view;

pub use tiler::Tiler;

#[cfg(test)]
pub(crate) use crate::layout::testing;

pub(crate) use crate::layout::layout_type::{in_place, in_place_with};
pub(crate) use coalesce::{bw_coalesce, bw_coalesce_x};
pub(crate) use composition::{linear_stride_x, weak_step, WeakStep};
pub(crate) use divide::tile_unzip_public;
pub(crate) use lists::Modes;
pub(crate) use modes::{
    ceil_div, check_flat, flat_fault, flat_modes, from_flat, from_flat_unchecked, leaf_toks, mul,
};
pub(crate) use tiler::{by_mode, by_tiler, Rest};

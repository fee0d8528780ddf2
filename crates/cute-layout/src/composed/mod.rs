//! Swizzles and composed layouts: `Swizzle<B,M,S>`, `swizzle o offset o layout`
//! (`ComposedLayout`) and the general chain of layout-like functions (`LayoutChain`).

pub(crate) mod chain;
pub(crate) mod chain_construct;
pub(crate) mod composed_fn;
pub(crate) mod composed_layout;
pub(crate) mod composed_slice;
pub(crate) mod swizzle;
pub(crate) mod swizzle_slice;

pub use chain::is_composed_text;

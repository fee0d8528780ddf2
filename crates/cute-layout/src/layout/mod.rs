//! The layout itself: integer tuples and their flat tree, `Layout`, coordinates and slicing,
//! CuTe's tuple toolkit, the text form (parse and format), and the errors every level returns.

pub(crate) mod coord;
pub(crate) mod divider;
pub(crate) mod error;
pub(crate) mod fmt;
pub(crate) mod int_tuple;
pub(crate) mod int_tuple_ops;
pub(crate) mod layout_type;
pub(crate) mod parse;
pub(crate) mod slice;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod tree;
pub(crate) mod tuple_algebra;
pub(crate) mod tuple_cat;
pub(crate) mod tuple_fn;

pub use layout_type::{Layout, Order, StrideValue};

pub use tuple_algebra::{coord_less, safe_div};

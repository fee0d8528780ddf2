//! Rendering layouts for people to read.
//!
//! A layout is a function, and the quickest way to understand one is to look at its values laid
//! out on its coordinate grid. CuTe prints that grid with `print_layout`; [`Layout::table`]
//! returns the same text, character for character, as a [`Display`](core::fmt::Display) value:
//!
//! ```
//! # use cute_layout::Layout;
//! let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
//! assert_eq!(
//!     l.table()?.to_string(),
//!     "(2,(2,2)):(4,(2,1))
//!       0   1   2   3 \n    +---+---+---+---+
//!  0  | 0 | 2 | 1 | 3 |
//!     +---+---+---+---+
//!  1  | 4 | 6 | 5 | 7 |
//!     +---+---+---+---+
//! "
//! ); // 01_layout.md, print_layout(s2xh4)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The library never prints: every renderer returns a value that implements `Display`, and
//! refuses (with a [`LayoutError`](crate::LayoutError)) layouts too large to be worth drawing,
//! see [`MAX_TABLE_CELLS`].
//!
//! [`Layout::table`]: crate::Layout::table

pub mod text;

pub use text::{Table, VectorTable, MAX_TABLE_CELLS};

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
//! ); // 01_layout.md's print_layout example
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The library never prints: every renderer returns a value that implements `Display` or a
//! `String`, and refuses (with a [`LayoutError`](crate::LayoutError)) layouts too large to be
//! worth drawing, see [`MAX_TABLE_CELLS`] and [`MAX_PICTURE_CELLS`].
//!
//! # Pictures
//!
//! | what | SVG | TikZ/LaTeX (CuTe's format) |
//! |---|---|---|
//! | a layout on its 2-D grid, coloured by value | [`svg()`] | [`latex()`] (`print_latex`) |
//! | a thread-value layout on a tile, `T<t> V<v>` | [`svg_tv`] | [`latex_tv`] (`print_latex_tv`) |
//! | an MMA atom or tiled MMA: A, B and C panels | [`svg_mma`] | [`latex_mma`] (`print_latex_mma`) |
//! | a TiledCopy: source and destination tiles, `T<t> V<v>` | [`svg_copy`] | [`latex_copy`] (`print_latex` of a TiledCopy) |
//! | shared-memory banks and conflicts | [`svg_banks`], [`bank_conflicts`] | |
//! | an operation: operands beside the result | [`svg_op`] | |
//! | the terminal, with colour | [`Table::with_ansi`] | |
//!
//! A [`Style`] may also carry a palette ([`Style::palette`], [`parse_palette`]): CuTe's colour
//! function of `print_latex`, for the TikZ and the SVG pictures alike (see [`color`]).
//!
//! Every picture function takes a [`Style`], whose **post-map** hook draws `f ∘ L` instead of
//! `L`: pass a swizzle as `f` to draw (and bank-analyse) a swizzled layout
//! `Sw<B,M,S> o 0 o L`:
//!
//! ```
//! # use cute_layout::{Layout, render::{self, Access, Banks, Style}};
//! let l: Layout = "(8,8):(8,1)".parse()?;
//! let (b, m, s) = (3, 0, 3); // Sw<3,0,3>
//! let sw = move |x: i64| x ^ ((x & (((1 << b) - 1) << (m + s))) >> s);
//! let style = Style::new().post_map(&sw).title("Sw<3,0,3> o 0 o (8,8):(8,1)");
//! let svg = render::svg_banks(&l, Banks::new(8, 4)?, Access::Columns, &style)?;
//! assert!(svg.contains("0 extra from bank conflicts"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Layout::table`]: crate::Layout::table

pub mod banks;
pub mod color;
pub mod copy;
mod grid;
pub mod latex;
pub mod mma;
pub mod ops;
mod panel;
pub mod style;
pub mod svg;
pub mod text;
pub mod tv;

pub use banks::{bank_conflicts, svg_banks, Access, BankReport, Banks, Request};
pub use color::{parse_palette, Color};
pub use copy::{latex_copy, latex_copy_with, svg_copy};
pub use latex::{latex, latex_tv};
pub use mma::{latex_mma, latex_mma_with, svg_mma};
pub use ops::{svg_op, Op};
pub use style::{Style, MAX_PICTURE_CELLS};
pub use svg::svg;
pub use text::{Table, VectorTable, MAX_TABLE_CELLS};
pub use tv::svg_tv;

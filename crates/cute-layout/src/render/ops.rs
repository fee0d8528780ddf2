//! Operation pictures: the operands beside the result, in the spirit of the figures of CuTe's
//! `02_layout_algebra.md`.
//!
//! Every panel is coloured by value with the same palette, so a colour in the result can be
//! traced back to the operand. A red outline marks:
//! * **divides** (`logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide`): the first
//!   tile, in the result (the cells whose value is in the image of `A ∘ T`, i.e. whose rest
//!   coordinates are 0) and in `A` (the cells holding those values);
//! * **products** (`logical_product`, `zipped_product`, `tiled_product`, `flat_product`,
//!   `blocked_product`, `raked_product`): the first copy of `A` in the result (the cells whose
//!   value is in the image of `A`) and the cell `0` of `B`, where that copy is placed;
//! * **composition**: the cells of `A` that `B` selects (the 1-D coordinates in the image of `B`).
//!
//! A tuple tiler of a divide or a composition (`(2,4)`, `(3:4,_)`) is drawn through `A`'s
//! coordinates: each cell of `B` shows the 1-D coordinate of `A` it selects, as a layout tiler's
//! values do.
//!
//! Highlights go by value, so for a layout `A` that maps two coordinates to one offset both
//! cells are outlined. With a post-map in the [`Style`], `A` and the result are drawn through
//! it; `B` (coordinates into `A`, or the arrangement of copies) is drawn as it is.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::grid::Grid;
use super::panel::Panel;
use super::style::Style;
use super::svg::write_svg;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::Tiler;

/// An operation [`svg_op`] can draw, by CuTe's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Op {
    /// `composition(A, B)`: `R(c) = A(B(c))`.
    Composition,
    /// `logical_divide(A, T)`.
    LogicalDivide,
    /// `zipped_divide(A, T)`.
    ZippedDivide,
    /// `tiled_divide(A, T)`.
    TiledDivide,
    /// `flat_divide(A, T)`.
    FlatDivide,
    /// `logical_product(A, B)`.
    LogicalProduct,
    /// `zipped_product(A, B)`.
    ZippedProduct,
    /// `tiled_product(A, B)`.
    TiledProduct,
    /// `flat_product(A, B)`.
    FlatProduct,
    /// `blocked_product(A, B)` (`B` a layout).
    BlockedProduct,
    /// `raked_product(A, B)` (`B` a layout).
    RakedProduct,
}

impl Op {
    /// Every operation, in the order above.
    pub const ALL: [Op; 11] = [
        Op::Composition,
        Op::LogicalDivide,
        Op::ZippedDivide,
        Op::TiledDivide,
        Op::FlatDivide,
        Op::LogicalProduct,
        Op::ZippedProduct,
        Op::TiledProduct,
        Op::FlatProduct,
        Op::BlockedProduct,
        Op::RakedProduct,
    ];

    /// CuTe's name (`"logical_divide"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Op::Composition => "composition",
            Op::LogicalDivide => "logical_divide",
            Op::ZippedDivide => "zipped_divide",
            Op::TiledDivide => "tiled_divide",
            Op::FlatDivide => "flat_divide",
            Op::LogicalProduct => "logical_product",
            Op::ZippedProduct => "zipped_product",
            Op::TiledProduct => "tiled_product",
            Op::FlatProduct => "flat_product",
            Op::BlockedProduct => "blocked_product",
            Op::RakedProduct => "raked_product",
        }
    }

    /// The operation with CuTe's name `name`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::render::Op;
    /// assert_eq!(Op::from_name("logical_divide"), Some(Op::LogicalDivide));
    /// assert_eq!(Op::from_name("divide"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.name() == name)
    }

    fn is_divide(self) -> bool {
        matches!(
            self,
            Op::LogicalDivide | Op::ZippedDivide | Op::TiledDivide | Op::FlatDivide
        )
    }

    /// The result of the operation.
    ///
    /// # Errors
    /// The operation's own errors; [`LayoutError::InvalidArgument`] if `blocked_product` or
    /// `raked_product` get a tiler that is not a layout or an integer.
    pub fn apply(self, a: &Layout, b: &Tiler) -> Result<Layout, LayoutError> {
        match self {
            Op::Composition => a.compose_tiler(b),
            Op::LogicalDivide => a.logical_divide(b),
            Op::ZippedDivide => a.zipped_divide(b),
            Op::TiledDivide => a.tiled_divide(b),
            Op::FlatDivide => a.flat_divide(b),
            Op::LogicalProduct => a.logical_product(b),
            Op::ZippedProduct => a.zipped_product(b),
            Op::TiledProduct => a.tiled_product(b),
            Op::FlatProduct => a.flat_product(b),
            Op::BlockedProduct | Op::RakedProduct => {
                let bl = match b {
                    Tiler::Layout(l) => l.clone(),
                    Tiler::Int(n) => Layout::new(IntTuple::int(*n), IntTuple::int(1))?,
                    _ => {
                        return Err(LayoutError::InvalidArgument {
                            op: self.name(),
                            what: format!("the second operand {b} must be a layout"),
                        })
                    }
                };
                if self == Op::BlockedProduct {
                    a.blocked_product(&bl)
                } else {
                    a.raked_product(&bl)
                }
            }
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The layout a tiler stands for, if it can be drawn as one (no `_` inside).
fn tiler_layout(t: &Tiler) -> Option<Layout> {
    match t {
        Tiler::Layout(l) => Some(l.clone()),
        Tiler::Int(n) => Layout::new(IntTuple::int(*n), IntTuple::int(1)).ok(),
        Tiler::Skip => None,
        Tiler::Modes(ts) => {
            let modes = ts.iter().map(tiler_layout).collect::<Option<Vec<_>>>()?;
            Layout::from_modes(modes).ok()
        }
    }
}

/// Sorted, deduplicated offsets of `l`, through `f`.
fn image(l: &Layout, style: &Style<'_>) -> Vec<i64> {
    let mut v: Vec<i64> = l.offsets().map(|x| style.map(x)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn mark(grid: &Grid, set: &[i64]) -> Vec<bool> {
    grid.values
        .iter()
        .map(|v| set.binary_search(v).is_ok())
        .collect()
}

/// The picture of `op(a, b)`: `A`, `B` (when the tiler can be drawn as a layout) and the result
/// side by side, with the first tile of a divide, the first copy of a product or the cells a
/// composition selects outlined in red (see the [module docs](self)).
///
/// # Errors
/// The operation's own errors (a picture is only drawn for a result the library returns);
/// [`LayoutError::TooLarge`] if an operand or the result has more than
/// [`MAX_PICTURE_CELLS`](super::MAX_PICTURE_CELLS) points.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, Tiler, render::{self, Op, Style}};
/// // 02_layout_algebra.md, Logical Divide 1-D example
/// let a: Layout = "(4,2,3):(2,1,8)".parse()?;
/// let t: Tiler = "4:2".parse()?;
/// let svg = render::svg_op(Op::LogicalDivide, &a, &t, &Style::new())?;
/// assert!(svg.contains("logical_divide(A, B) = ((2,2),(2,3)):((4,1),(2,8))"));
/// assert_eq!(svg.matches("<g class=\"panel\">").count(), 3);
/// assert!(svg.contains("class=\"hl\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn svg_op(op: Op, a: &Layout, b: &Tiler, style: &Style<'_>) -> Result<String, LayoutError> {
    let r = op.apply(a, b)?;
    let name = op.name();
    let ga = Grid::of_layout(name, a, style)?;
    let gr = Grid::of_layout(name, &r, style)?;
    // A tuple tiler of a divide or a composition is drawn through A's coordinates: cell c of B
    // shows the 1-D coordinate of A that tile element c takes (col_major(shape(A)) o B), the
    // same thing a layout tiler's values are.
    let by_coords = matches!(b, Tiler::Modes(_)) && (op.is_divide() || op == Op::Composition);
    let bl = if by_coords {
        Layout::col_major(a.shape())
            .and_then(|id| id.compose_tiler(b))
            .ok()
    } else {
        tiler_layout(b)
    };
    let gb = match &bl {
        Some(l) => Some(Grid::of_layout(name, l, &Style::new())?),
        None => None,
    };

    let (mut hl_a, mut hl_b, mut hl_r) = (Vec::new(), Vec::new(), Vec::new());
    let legend;
    if op.is_divide() {
        legend = "red outline: the first tile (values of A o B; rest coordinates 0)";
        if let Ok(tile) = a.compose_tiler(b) {
            let set = image(&tile, style);
            hl_a = mark(&ga, &set);
            hl_r = mark(&gr, &set);
        }
    } else if op == Op::Composition {
        legend = "red outline: the cells of A that B selects";
        if let Some(l) = &bl {
            let sel = image(l, &Style::new());
            // Cell (m, n) of A's grid is A's 1-D coordinate m + rows * n.
            hl_a = (0..ga.rows * ga.cols)
                .map(|k| {
                    let (m, n) = (k / ga.cols.max(1), k % ga.cols.max(1));
                    let i = i64::try_from(m + ga.rows * n).unwrap_or(i64::MAX);
                    sel.binary_search(&i).is_ok()
                })
                .collect();
        }
    } else {
        legend = "red outline: the first copy of A (values of A), placed at B's coordinate 0";
        let set = image(a, style);
        hl_r = mark(&gr, &set);
        if let Some(g) = &gb {
            hl_b = (0..g.rows * g.cols).map(|k| k == 0).collect();
        }
    }

    let a_title = match style.title {
        Some(t) => format!("A = {t}"),
        None => format!("A = {a}"),
    };
    let mut pa = Panel::of_grid(a_title, ga);
    pa.highlight = hl_a;
    let mut panels = alloc::vec![pa];
    if let Some(g) = gb {
        let mut pb = Panel::of_grid(format!("B = {b}"), g);
        if by_coords {
            pb.notes.push(String::from(
                "cells: the 1-D coordinate of A of each tile element",
            ));
        }
        pb.highlight = hl_b;
        panels.push(pb);
    }
    let mut pr = Panel::of_grid(format!("{name}(A, B) = {r}"), gr);
    pr.highlight = hl_r;
    panels.push(pr);
    let mut caption: Vec<String> = alloc::vec![format!("{name}({a}, {b}) = {r}")];
    if bl.is_none() {
        caption.push(format!(
            "B = {b} is not drawn (it keeps some modes as they are: _)"
        ));
    }
    caption.push(String::from(legend));
    caption.push(format!(
        "colours: value mod {}, the same in every panel",
        style.palette.map_or(8, <[_]>::len)
    ));
    Ok(write_svg(&panels, &caption, style))
}

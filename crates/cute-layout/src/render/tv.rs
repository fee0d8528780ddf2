//! Thread-value pictures: which thread holds which value of a tile.
//!
//! A TV layout maps `(thread, value)` to a cell of a tile: `tv(t, v)` is the 1-D (column-major)
//! index of the cell in the tile, so with a tile of shape `(M, N)` the cell is
//! `(tv(t,v) mod M, tv(t,v) / M)`. This is what CuTe's `print_latex_tv(layout_tv, tile_mn)` draws
//! (CuTe's TV layouts there yield coordinates through basis strides; an integer stride layout
//! yields the same cells through the tile's column-major order).
//!
//! Each cell is labelled `T<t> V<v>` and coloured by thread: in SVG one colour per thread of a
//! warp (thread mod 32), in TikZ CuTe's `TikzColor_TV` colours (thread mod 8). Cells reached by no pair are grey, cells reached by several pairs are red and
//! labelled with the first pair (CuTe's order: threads, then values) and `+k` for the `k` others.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::grid::check_cells;
use super::panel::{Cell, Label, Paint, Panel};
use super::style::Style;
use super::svg::write_svg;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// The most `(thread, value)` pairs of a TV layout drawn in SVG ([`svg_tv`]): 2^20, the pairs of
/// the largest MMA operand (an SM90 GMMA's B, 256 x 32 values broadcast to 128 threads). The SVG
/// has one cell per tile cell, so only the tile is bounded by
/// [`MAX_PICTURE_CELLS`](super::MAX_PICTURE_CELLS); TikZ, which writes a node per pair, keeps that
/// limit for the pairs too.
pub const MAX_TV_PAIRS: i64 = 1 << 20;

/// Which `(thread, value)` pairs reach each cell of a tile.
#[derive(Clone, Debug)]
pub(crate) struct TvMap {
    pub rows: usize,
    pub cols: usize,
    pub row_shape: IntTuple,
    pub col_shape: IntTuple,
    /// Row-major: the first pair reaching the cell (threads outer, values inner), if any.
    pub first: Vec<Option<(i64, i64)>>,
    /// Row-major: how many pairs reach the cell.
    pub count: Vec<u32>,
    /// The pairs in CuTe's order with their cell `(m, n)` (empty unless asked for).
    pub order: Vec<(i64, i64, usize, usize)>,
}

impl TvMap {
    /// # Errors
    /// [`LayoutError::RankMismatch`] if `tv` or `tile` is not rank 2;
    /// [`LayoutError::InvalidExtent`] for a tile extent below 1; [`LayoutError::TooLarge`] for a
    /// tile past the picture limit, or a TV layout past it (with `keep_order`, which lists every
    /// pair in `order`) or past [`MAX_TV_PAIRS`]; [`LayoutError::InvalidArgument`] if a pair
    /// maps outside the tile.
    pub fn new(
        op: &'static str,
        tv: &Layout,
        tile: &IntTuple,
        style: &Style<'_>,
        keep_order: bool,
    ) -> Result<TvMap, LayoutError> {
        if tv.rank() != 2 {
            return Err(LayoutError::RankMismatch {
                op,
                expected: 2,
                found: tv.rank(),
            });
        }
        if tile.is_int() || tile.rank() != 2 {
            return Err(LayoutError::RankMismatch {
                op,
                expected: 2,
                found: if tile.is_int() { 1 } else { tile.rank() },
            });
        }
        tile.check_extents(op)?;
        let row_shape = tile.get(0).unwrap_or_else(|| IntTuple::int(1));
        let col_shape = tile.get(1).unwrap_or_else(|| IntTuple::int(1));
        let m_ext = row_shape.size()?;
        let n_ext = col_shape.size()?;
        let cells_i = m_ext
            .checked_mul(n_ext)
            .ok_or_else(|| LayoutError::overflow(op))?;
        let cells = check_cells(op, &format_args!("tile {tile}"), cells_i)?;
        if keep_order {
            check_cells(op, &format_args!("TV layout {tv}"), tv.size())?;
        } else if !(0..=MAX_TV_PAIRS).contains(&tv.size()) {
            return Err(LayoutError::TooLarge {
                op,
                what: format!("TV layout {tv} has {} (thread, value) pairs", tv.size()),
                limit: MAX_TV_PAIRS,
            });
        }
        let rows = usize::try_from(m_ext).map_err(|_| LayoutError::overflow(op))?;
        let cols = cells / rows.max(1);
        let threads = tv.mode(0).map_or(1, |m| m.size());
        let values = tv.mode(1).map_or(1, |m| m.size());
        let mut first = alloc::vec![None; cells];
        let mut count = alloc::vec![0u32; cells];
        let mut order = Vec::with_capacity(if keep_order {
            usize::try_from(tv.size()).unwrap_or(0)
        } else {
            0
        });
        for t in 0..threads {
            for v in 0..values {
                let idx = tv
                    .index_1d(t + threads * v)
                    .map(|x| style.map(x))
                    .unwrap_or(-1);
                if !(0..cells_i).contains(&idx) {
                    return Err(LayoutError::InvalidArgument {
                        op,
                        what: format!(
                            "thread {t} value {v} of TV layout {tv} maps to index {idx}, outside the tile {tile} of {cells_i} cells"
                        ),
                    });
                }
                // 0 <= idx < cells, which fits usize.
                let idx = idx as usize;
                let (m, n) = (idx % rows.max(1), idx / rows.max(1));
                let k = m * cols + n;
                if let (Some(f), Some(c)) = (first.get_mut(k), count.get_mut(k)) {
                    if f.is_none() {
                        *f = Some((t, v));
                    }
                    *c = c.saturating_add(1);
                }
                if keep_order {
                    order.push((t, v, m, n));
                }
            }
        }
        Ok(TvMap {
            rows,
            cols,
            row_shape,
            col_shape,
            first,
            count,
            order,
        })
    }

    /// Cells reached by no pair, and by several.
    pub fn anomalies(&self) -> (usize, usize) {
        let none = self.count.iter().filter(|&&c| c == 0).count();
        let multi = self.count.iter().filter(|&&c| c > 1).count();
        (none, multi)
    }
}

/// The thread-value picture of `tv` on a tile of shape `tile` (see the [module docs](self)): cells
/// labelled `T<t> V<v>`, coloured by thread, unreached cells grey, cells reached several times red.
///
/// The style's post-map, if any, is applied to the tile index `tv(t, v)`.
///
/// # Errors
/// [`LayoutError::RankMismatch`] if `tv` or `tile` is not rank 2 (thread mode, value mode; rows,
/// columns); [`LayoutError::InvalidExtent`] for a tile extent below 1;
/// [`LayoutError::TooLarge`] for a tile with more than
/// [`MAX_PICTURE_CELLS`](super::MAX_PICTURE_CELLS) points or a TV layout with more than
/// [`MAX_TV_PAIRS`] pairs; [`LayoutError::InvalidArgument`] if a pair maps outside the tile.
///
/// # Examples
/// ```
/// # use cute_layout::{IntTuple, Layout, render::{self, Style}};
/// // An MMA-like accumulator layout: 32 threads x 4 values on a 16 x 8 tile.
/// let tv: Layout = "((4,8),(2,2)):((16,1),(8,64))".parse()?;
/// let tile: IntTuple = "(16,8)".parse()?;
/// let svg = render::svg_tv(&tv, &tile, &Style::new())?;
/// assert_eq!(svg.matches("<rect class=\"t").count(), 128); // every cell, coloured by thread
/// assert!(svg.contains(">T0 V0</text>") && svg.contains(">T31 V3</text>"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(alias = "print_latex_tv")]
pub fn svg_tv(tv: &Layout, tile: &IntTuple, style: &Style<'_>) -> Result<String, LayoutError> {
    let map = TvMap::new("svg_tv", tv, tile, style, false)?;
    let (none, multi) = map.anomalies();
    let cells = map
        .first
        .iter()
        .zip(&map.count)
        .map(|(f, &c)| match (*f, c) {
            (Some((t, v)), 1) => Cell {
                paint: Paint::Thread(t),
                label: Label::Tv { t, v, extra: 0 },
            },
            (Some((t, v)), c) => Cell {
                paint: Paint::Multi,
                label: Label::Tv {
                    t,
                    v,
                    extra: c as usize - 1,
                },
            },
            (None, _) => Cell {
                paint: Paint::Unreached,
                label: Label::Empty,
            },
        })
        .collect();
    let title = match style.title {
        Some(t) => String::from(t),
        None => format!("TV layout {tv} on tile {tile}"),
    };
    let highlight: Vec<bool> = match style.thread {
        Some(h) => map
            .first
            .iter()
            .map(|f| matches!(f, Some((t, _)) if *t == h))
            .collect(),
        None => Vec::new(),
    };
    let mut notes = alloc::vec![format!(
        "cell = tile coordinate of tv(thread, value); colour = thread mod {}",
        style.thread_colors()
    )];
    if none > 0 {
        notes.push(format!(
            "{none} cells reached by no (thread, value) pair (grey)"
        ));
    }
    if multi > 0 {
        notes.push(format!(
            "{multi} cells reached by several pairs (red; first pair shown, +k others)"
        ));
    }
    if let Some(h) = style.thread {
        let n = highlight.iter().filter(|&&x| x).count();
        notes.push(format!("outlined: the {n} cells of thread {h}"));
    }
    let panel = Panel {
        title,
        notes,
        rows: map.rows,
        cols: map.cols,
        row_shape: map.row_shape,
        col_shape: map.col_shape,
        highlight,
        cells,
        row_notes: Vec::new(),
        banks: 0,
    };
    Ok(write_svg(&[panel], &[], style))
}

//! The picture model shared by the SVG and LaTeX writers: a layout's values on its 2-D grid.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::style::{Style, MAX_PICTURE_CELLS};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// A layout's values on its 2-D grid (after the style's post-map), with the shapes of the row
/// and column modes for the headers.
///
/// Rows are mode 0 (one row for a rank-0/1 layout); columns are mode 1, or modes `1..R` grouped
/// for rank `R > 2` (then [`Grid::note`] says so). Cell `(m, n)` holds `f(L(m + M n))`.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub row_shape: IntTuple,
    pub col_shape: IntTuple,
    /// Row-major: `values[m * cols + n]`.
    pub values: Vec<i64>,
    /// Said in the caption: how a layout that is not rank 2 was laid out.
    pub note: Option<String>,
}

/// Refuses `cells` past [`MAX_PICTURE_CELLS`].
pub(crate) fn check_cells(
    op: &'static str,
    what: &dyn core::fmt::Display,
    cells: i64,
) -> Result<usize, LayoutError> {
    if !(0..=MAX_PICTURE_CELLS).contains(&cells) {
        return Err(LayoutError::TooLarge {
            op,
            what: format!("{what} has {cells} cells, more than a picture may show"),
            limit: MAX_PICTURE_CELLS,
        });
    }
    usize::try_from(cells).map_err(|_| LayoutError::overflow(op))
}

/// The row and column shapes of a layout's grid, and the note for ranks other than 2.
pub(crate) fn grid_shapes(layout: &Layout) -> (IntTuple, IntTuple, Option<String>) {
    let shape = layout.shape();
    match layout.rank() {
        0 | 1 => (
            IntTuple::int(1),
            shape.clone(),
            Some(format!(
                "rank 1: drawn as one row of {}",
                shape.size().unwrap_or(0)
            )),
        ),
        2 => (
            shape.get(0).unwrap_or_else(|| IntTuple::int(1)),
            shape.get(1).unwrap_or_else(|| IntTuple::int(1)),
            None,
        ),
        r => (
            shape.get(0).unwrap_or_else(|| IntTuple::int(1)),
            IntTuple::tuple(shape.elements().skip(1)).unwrap_or_else(|_| shape.clone()),
            Some(format!(
                "rank {r}: rows are mode 0, columns are modes 1..{r} grouped"
            )),
        ),
    }
}

impl Grid {
    /// The grid of `layout` with `style`'s post-map.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past [`MAX_PICTURE_CELLS`].
    pub fn of_layout(
        op: &'static str,
        layout: &Layout,
        style: &Style<'_>,
    ) -> Result<Grid, LayoutError> {
        let cells = check_cells(op, &format_args!("layout {layout}"), layout.size())?;
        let (row_shape, col_shape, note) = grid_shapes(layout);
        let rows = usize::try_from(row_shape.size()?)
            .map_err(|_| LayoutError::overflow(op))?
            .max(1);
        let cols = cells / rows;
        let mut values = alloc::vec![0i64; cells];
        for (i, v) in layout.offsets().enumerate() {
            let (m, n) = (i % rows, i / rows);
            if let Some(slot) = values.get_mut(m * cols + n) {
                *slot = style.map(v);
            }
        }
        Ok(Grid {
            rows,
            cols,
            row_shape,
            col_shape,
            values,
            note,
        })
    }

    /// `values[m * cols + n]`, 0 outside (never reached: callers loop inside the grid).
    #[inline]
    pub fn at(&self, m: usize, n: usize) -> i64 {
        self.values.get(m * self.cols + n).copied().unwrap_or(0)
    }
}

/// The natural coordinate of every 1-D index `0..n` of `shape`, as text (`(1,(0,1))`); just
/// the number for an integer shape.
pub(crate) fn coord_labels(shape: &IntTuple, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let i = i64::try_from(i).unwrap_or(i64::MAX);
            shape
                .idx2crd(&IntTuple::int(i))
                .map_or_else(|_| format!("{i}"), |c| format!("{c}"))
        })
        .collect()
}

/// Products of the leading leaves of `shape` (`s0`, `s0 s1`, ...), excluding the total: the
/// 1-D periods at which an outer coordinate of the mode changes. Drawn as heavier grid lines.
pub(crate) fn periods(shape: &IntTuple) -> Vec<usize> {
    let leaves = shape.leaves();
    let mut out = Vec::new();
    let mut p: usize = 1;
    for &s in leaves.iter().take(leaves.len().saturating_sub(1)) {
        let Ok(s) = usize::try_from(s) else { break };
        let Some(q) = p.checked_mul(s) else { break };
        p = q;
        if p > 1 {
            out.push(p);
        }
    }
    out.dedup();
    out
}

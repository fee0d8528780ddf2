//! Panels: a titled grid of labelled, coloured cells with hierarchical headers. Every SVG picture
//! is one or more panels side by side; see [`super::svg`] for the drawing.

use alloc::string::String;
use alloc::vec::Vec;

use super::grid::Grid;
use crate::layout::int_tuple::IntTuple;

/// The colour class of a cell. Each becomes one CSS class, so a picture repeats no style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Paint {
    /// Coloured by value: class `o{v mod 8}`.
    Offset(i64),
    /// Coloured by thread: class `t{t mod 8}` (CuTe's `TikzColor_TV` colours).
    Thread(i64),
    /// Coloured by bank: class `b{bank}`.
    Bank(i64),
    /// Reached by no (thread, value) pair: class `none`.
    Unreached,
    /// Reached by several (thread, value) pairs: class `multi`.
    Multi,
    /// Coloured by position in the range of values: class `r{k}`, `k` in `0..RANGE_SHADES`.
    Range(i64),
}

/// What is written in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Label {
    /// A number.
    Value(i64),
    /// `T<t> V<v>`; `extra` more pairs reach the cell (written `+extra`).
    Tv { t: i64, v: i64, extra: usize },
    /// Offset over bank: two lines.
    Bank { offset: i64, bank: i64 },
    /// Nothing.
    Empty,
}

impl Label {
    /// The text lines of the label.
    pub fn lines(&self) -> (String, Option<String>) {
        use alloc::format;
        match *self {
            Label::Value(v) => (format!("{v}"), None),
            Label::Tv { t, v, extra: 0 } => (format!("T{t} V{v}"), None),
            Label::Tv { t, v, extra } => (format!("T{t} V{v} +{extra}"), None),
            Label::Bank { offset, bank } => (format!("{offset}"), Some(format!("b{bank}"))),
            Label::Empty => (String::new(), None),
        }
    }
}

/// One cell: its colour class and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub paint: Paint,
    pub label: Label,
}

/// A titled grid of cells.
#[derive(Clone, Debug)]
pub(crate) struct Panel {
    pub title: String,
    pub notes: Vec<String>,
    pub rows: usize,
    pub cols: usize,
    pub row_shape: IntTuple,
    pub col_shape: IntTuple,
    /// Row-major, `rows * cols` cells.
    pub cells: Vec<Cell>,
    /// Row-major; empty for no highlight. The outline of the highlighted cells is drawn.
    pub highlight: Vec<bool>,
    /// One note per row, drawn at the right of the row; empty for none.
    pub row_notes: Vec<String>,
    /// Number of banks of a bank picture (one colour class each, hue by bank), else 0.
    pub banks: i64,
}

impl Panel {
    /// A panel of a layout's grid, each cell labelled with its value and coloured by it.
    pub fn of_grid(title: String, grid: Grid) -> Panel {
        let cells = grid
            .values
            .iter()
            .map(|&v| Cell {
                paint: Paint::Offset(v),
                label: Label::Value(v),
            })
            .collect();
        Panel {
            title,
            notes: grid.note.into_iter().collect(),
            rows: grid.rows,
            cols: grid.cols,
            row_shape: grid.row_shape,
            col_shape: grid.col_shape,
            cells,
            highlight: Vec::new(),
            row_notes: Vec::new(),
            banks: 0,
        }
    }
}

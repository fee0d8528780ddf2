//! Plain-text renderings: CuTe's `print_layout` table ([`Table`]) and the one-line-per-kind vector
//! view of `01_layout.md` ([`VectorTable`]).
//!
//! # The `print_layout` format
//!
//! For a layout whose mode 0 has `M` points (the rows) and whose mode 1 has `N` points (the
//! columns), CuTe's `print_layout` prints:
//!
//! 1. the layout in its text form;
//! 2. the column header: a 4-character gutter, then `"  {n:>w} "` for every column `n`;
//! 3. for every row `m`: a border line (gutter, `"+"` followed by `w + 2` dashes per column, a final
//!    `"+"`), then `"{m:>2}  "` and `"| {v:>w} "` for every value `v = L(m, n)`, and a final `"|"`;
//! 4. a closing border line.
//!
//! Every line ends with `'\n'`, the last one included. The cell width `w` is CuTe's
//! `num_digits(cosize(L))` (1 for a cosize below 10, also when it is 0 or negative).
//!
//! Where CuTe's fixed widths would break the grid, this renderer widens instead (CuTe's output is
//! misaligned there; its output is reproduced exactly everywhere else):
//! * `w` grows to the widest value (negative strides give `-` signs and values past the cosize)
//!   and to the widest column number (layouts with stride-0 modes have more columns than cosize);
//! * the row label grows past 2 characters when there are more than 100 rows, and the gutter with
//!   it (`label + 2` spaces).
//!
//! # Layouts that are not rank 2
//!
//! CuTe's `print_layout` only accepts rank-2 layouts. Here a rank-1 layout (an integer shape like
//! `8:1` or a 1-tuple like `(8):(1)`) is drawn as a single row: `L(0, n) = L(n)`. A layout of rank
//! `R > 2` is drawn as a matrix whose columns are modes `1..R` grouped into one mode (CuTe's
//! `group<1,R>`), so that the cell `(m, n)` holds `L(m + M * n)` where `M` is the size of mode 0,
//! the same value as the R-D coordinate `(m, n)` of `group<1,R>(L)`.

use alloc::string::{String, ToString};
use core::fmt::{self, Write as _};

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

pub use crate::layout::fmt::MAX_TABLE_CELLS;

/// CuTe's `num_digits`: the number of decimal digits of `x`, 1 for anything below 10.
fn cute_num_digits(x: u64) -> usize {
    let mut n = 1;
    let mut v = x;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// The length of `x` written in decimal, with its sign.
fn text_width(x: i64) -> usize {
    let mut n = if x < 0 { 2 } else { 1 };
    let mut v = x.unsigned_abs();
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// Rows, columns and the layout to draw, shared by both renderers.
#[derive(Clone, Copy, Debug)]
struct Grid<'a> {
    layout: &'a Layout,
    rows: i64,
    cols: i64,
    post: Option<PostMap<'a>>,
}

/// A function applied to every value before it is shown (e.g. a swizzle), and the name to print
/// instead of the layout's text.
#[derive(Clone, Copy)]
struct PostMap<'a> {
    f: &'a dyn Fn(i64) -> i64,
    name: &'a str,
}

impl fmt::Debug for PostMap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostMap").field("name", &self.name).finish()
    }
}

impl<'a> Grid<'a> {
    fn new(layout: &'a Layout, op: &'static str) -> Result<Self, LayoutError> {
        let size = layout.size();
        if size > MAX_TABLE_CELLS {
            return Err(LayoutError::InvalidArgument {
                op,
                what: alloc::format!(
                    "layout {layout} has {size} points, more than the {MAX_TABLE_CELLS} a table may show"
                ),
            });
        }
        let rows = if layout.rank() >= 2 {
            layout.mode(0).map_or(1, |m| m.size())
        } else {
            1
        };
        Ok(Grid {
            layout,
            rows,
            cols: size / rows,
            post: None,
        })
    }

    /// `L(m, n)`: the value at row `m`, column `n`.
    #[inline]
    fn at(&self, m: i64, n: i64) -> i64 {
        // In the domain by construction (m < rows, n < cols, rows * cols == size).
        let v = self.layout.index_1d(m + self.rows * n).unwrap_or(0);
        self.post.map_or(v, |p| (p.f)(v))
    }

    /// Width of the widest value, with its sign.
    fn value_width(&self) -> usize {
        match self.post {
            None => self.layout.offsets().map(text_width).max(),
            Some(p) => self.layout.offsets().map(|v| text_width((p.f)(v))).max(),
        }
        .unwrap_or(1)
    }

    /// The cosize CuTe's cell width is computed from: the layout's, or one past the largest
    /// mapped value.
    fn cosize(&self) -> u64 {
        match self.post {
            None => self.layout.cosize(),
            Some(p) => self
                .layout
                .offsets()
                .map(|v| (p.f)(v))
                .max()
                .and_then(|m| u64::try_from(m).ok())
                .map_or(0, |m| m + 1),
        }
    }

    /// The shape of the column mode: mode 1, modes `1..R` grouped, or the whole shape (rank 1).
    fn column_shape(&self) -> IntTuple {
        let shape = self.layout.shape();
        match self.layout.rank() {
            0 | 1 => shape,
            2 => shape.get(1).unwrap_or(shape),
            _ => IntTuple::tuple(shape.elements().skip(1)).unwrap_or(shape),
        }
    }
}

/// CuTe's `print_layout`: the layout's values on its 2-D grid, with row and column numbers and
/// `+---+` borders. Returned by [`Layout::table`]; see the [module docs](self) for the exact format
/// and for layouts that are not rank 2.
///
/// The rendering ends with a newline (as CuTe's does), so print it with `print!`, not `println!`.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    grid: Grid<'a>,
    coords: bool,
    ansi: bool,
}

/// Background colours of [`Table::with_ansi`] (xterm 256-colour indices), by value mod 8: the
/// same pastel hues as the SVG pictures.
const ANSI_BG: [u8; 8] = [153, 223, 151, 217, 183, 229, 152, 225];

impl<'a> Table<'a> {
    /// Shows `f(v)` instead of every value `v`, and `name` instead of the layout's text: the table
    /// of a layout seen through a function of its offsets, e.g. a swizzled layout
    /// `Sw<B,M,S> o 0 o L` drawn as `L` with the swizzle as `f` (CuTe prints such a composed
    /// layout the same way).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,2):(2,1)".parse()?;
    /// let sw = |x: i64| x ^ ((x & 2) >> 1); // Sw<1,0,1>
    /// let t = l.table()?.with_post_map(&sw, "Sw<1,0,1> o 0 o (2,2):(2,1)").to_string();
    /// assert_eq!(t.lines().next(), Some("Sw<1,0,1> o 0 o (2,2):(2,1)"));
    /// assert_eq!(t.lines().nth(5), Some(" 1  | 3 | 2 |"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_post_map(self, f: &'a dyn Fn(i64) -> i64, name: &'a str) -> Self {
        Table {
            grid: Grid {
                post: Some(PostMap { f, name }),
                ..self.grid
            },
            ..self
        }
    }

    /// Adds the column header of `01_layout.md`'s "Index Mapping" figure: the column numbers and,
    /// when the column mode is a tuple, the natural coordinate of every column, each line marked
    /// `<== 1-D col coord` / `<== 2-D col coord (j,k)`. Cells are then wide enough for the
    /// coordinates and values are centred (as in that figure) rather than right-aligned.
    ///
    /// The leaves of the layout are named `i, j, k, ...` from the left, and the coordinate line
    /// names the column mode's leaves in its shape (`(j,k)`); it says `R-D` for a column mode of
    /// rank `R` and depth 1, `h-D` for a deeper one.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(3,(2,3)):(3,(12,1))".parse()?;
    /// let t = l.table()?.with_coords().to_string();
    /// assert_eq!(t.lines().nth(2), Some("     (0,0) (1,0) (0,1) (1,1) (0,2) (1,2)   <== 2-D col coord (j,k)"));
    /// assert_eq!(t.lines().nth(4), Some(" 0  |  0  |  12 |  1  |  13 |  2  |  14 |"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_coords(self) -> Self {
        Table {
            coords: true,
            ..self
        }
    }

    /// Colours every cell for a terminal: ANSI escapes set a background by value mod 8 (and a
    /// black foreground) around each cell's content and reset after it. Removing the escapes
    /// gives the plain table, character for character. Only use it when the output is a
    /// terminal that wants colour (e.g. `NO_COLOR` unset).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,2):(1,2)".parse()?;
    /// let t = l.table()?.with_ansi().to_string();
    /// assert!(t.contains("|\x1b[30;48;5;223m 1 \x1b[0m|"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_ansi(self) -> Self {
        Table { ansi: true, ..self }
    }

    /// Number of rows (the size of mode 0; 1 for a rank-1 layout).
    pub fn rows(&self) -> i64 {
        self.grid.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> i64 {
        self.grid.cols
    }
}

/// Writes `s` centred in `width` characters, the odd space going to the left.
fn centred(f: &mut fmt::Formatter<'_>, s: &str, width: usize) -> fmt::Result {
    let pad = width.saturating_sub(s.len());
    let left = pad.div_ceil(2);
    write!(f, "{:left$}{s}{:right$}", "", "", right = pad - left)
}

/// Leaf names for the coordinate header: `i, j, k, ...`, or `None` past `z`.
fn leaf_name(k: usize) -> Option<char> {
    let c = u32::from(b'i') + u32::try_from(k).ok()?;
    char::from_u32(c).filter(|c| *c <= 'z')
}

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = &self.grid;
        let label = text_width(g.rows - 1).max(2);
        let gutter = label + 2;
        let mut w = cute_num_digits(g.cosize())
            .max(g.value_width())
            .max(text_width(g.cols - 1));
        match g.post {
            Some(p) => writeln!(f, "{}", p.name)?,
            None => writeln!(f, "{}", g.layout)?,
        }

        if self.coords {
            let cshape = g.column_shape();
            let ctext: alloc::vec::Vec<String> = (0..g.cols)
                .map(|n| {
                    cshape
                        .idx2crd(&IntTuple::int(n))
                        .map_or_else(|_| n.to_string(), |c| c.to_string())
                })
                .collect();
            let cell = ctext.iter().map(String::len).fold(w + 2, usize::max);
            w = cell - 2;
            // Line 1: column numbers.
            write!(f, "{:gutter$}", "")?;
            for n in 0..g.cols {
                f.write_char(' ')?;
                centred(f, &n.to_string(), cell)?;
            }
            writeln!(f, "   <== 1-D col coord")?;
            // Line 2: natural column coordinates, when the column mode is a tuple.
            if !cshape.is_int() {
                write!(f, "{:gutter$}", "")?;
                for c in &ctext {
                    f.write_char(' ')?;
                    centred(f, c, cell)?;
                }
                let kind = if cshape.depth() > 1 {
                    String::from("h")
                } else {
                    cshape.rank().to_string()
                };
                write!(f, "   <== {kind}-D col coord")?;
                let first = g.layout.leaf_count() - cshape.leaves().len();
                let names: Option<String> = (0..cshape.leaves().len())
                    .map(|k| leaf_name(first + k))
                    .collect();
                if let Some(names) = names {
                    let mut it = names.chars();
                    let named = cshape.to_string().chars().fold(String::new(), |mut s, ch| {
                        if ch.is_ascii_digit() || ch == '-' {
                            // Replace each integer by the next name; skip its other digits.
                            if !s.ends_with(|p: char| p.is_ascii_lowercase()) {
                                if let Some(nm) = it.next() {
                                    s.push(nm);
                                }
                            }
                        } else {
                            s.push(ch);
                        }
                        s
                    });
                    write!(f, " {named}")?;
                }
                writeln!(f)?;
            }
        } else {
            write!(f, "{:gutter$}", "")?;
            for n in 0..g.cols {
                write!(f, "  {n:>w$} ")?;
            }
            writeln!(f)?;
        }

        let cell = w + 2;
        let border = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            write!(f, "{:gutter$}", "")?;
            for _ in 0..g.cols {
                write!(f, "+{:-<cell$}", "")?;
            }
            writeln!(f, "+")
        };
        for m in 0..g.rows {
            border(f)?;
            write!(f, "{m:>label$}  ")?;
            for n in 0..g.cols {
                let v = g.at(m, n);
                f.write_char('|')?;
                if self.ansi {
                    let bg = ANSI_BG.get(v.rem_euclid(8) as usize).copied().unwrap_or(0);
                    write!(f, "\x1b[30;48;5;{bg}m")?;
                }
                if self.coords {
                    centred(f, &v.to_string(), cell)?;
                } else {
                    write!(f, " {v:>w$} ")?;
                }
                if self.ansi {
                    f.write_str("\x1b[0m")?;
                }
            }
            writeln!(f, "|")?;
        }
        border(f)
    }
}

/// The vector view of `01_layout.md` ("Vector Layouts"): the layout, then every 1-D coordinate and
/// its index, one line each:
///
/// ```text
/// Layout:  8:2
/// Coord :  0  1  2  3  4  5  6  7
/// Index :  0  2  4  6  8 10 12 14
/// ```
///
/// Each entry is a space and the number right-aligned in the width of the widest entry (at least
/// 2). Returned by [`Layout::vector_table`]; ends with a newline.
#[derive(Clone, Copy, Debug)]
pub struct VectorTable<'a> {
    grid: Grid<'a>,
}

impl<'a> VectorTable<'a> {
    /// Shows `f(v)` instead of every value `v`, and `name` instead of the layout's text (see
    /// [`Table::with_post_map`]).
    pub fn with_post_map(self, f: &'a dyn Fn(i64) -> i64, name: &'a str) -> Self {
        VectorTable {
            grid: Grid {
                post: Some(PostMap { f, name }),
                ..self.grid
            },
        }
    }
}

impl fmt::Display for VectorTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.grid.layout;
        let size = l.size();
        let w = self.grid.value_width().max(text_width(size - 1)).max(2);
        match self.grid.post {
            Some(p) => writeln!(f, "Layout:  {}", p.name)?,
            None => writeln!(f, "Layout:  {l}")?,
        }
        f.write_str("Coord :")?;
        for i in 0..size {
            write!(f, " {i:>w$}")?;
        }
        f.write_str("\nIndex :")?;
        for v in l.offsets() {
            let v = self.grid.post.map_or(v, |p| (p.f)(v));
            write!(f, " {v:>w$}")?;
        }
        writeln!(f)
    }
}

impl Layout {
    /// CuTe's `print_layout`: a [`Table`] of the layout's values on its 2-D grid, for display.
    ///
    /// Rank-1 layouts are drawn as one row, rank `R > 2` layouts with modes `1..R` grouped as the
    /// columns (see [`render::text`](crate::render::text)).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the layout has more than
    /// [`MAX_TABLE_CELLS`] points.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,4):(4,1)".parse()?;
    /// let t = l.table()?;
    /// assert_eq!((t.rows(), t.cols()), (2, 4));
    /// assert_eq!(t.to_string().lines().nth(3), Some(" 0  | 0 | 1 | 2 | 3 |"));
    /// assert!("(512,512):(1,512)".parse::<Layout>()?.table().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "print_layout")]
    pub fn table(&self) -> Result<Table<'_>, LayoutError> {
        Ok(Table {
            grid: Grid::new(self, "print_layout")?,
            coords: false,
            ansi: false,
        })
    }

    /// The vector view ([`VectorTable`]): the layout, its 1-D coordinates and their indices.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the layout has more than
    /// [`MAX_TABLE_CELLS`] points.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "((4,2)):((2,1))".parse()?;
    /// assert_eq!(
    ///     l.vector_table()?.to_string(),
    ///     "Layout:  ((4,2)):((2,1))\n\
    ///      Coord :  0  1  2  3  4  5  6  7\n\
    ///      Index :  0  2  4  6  1  3  5  7\n"
    /// ); // 01_layout.md, "Vector Layouts"
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vector_table(&self) -> Result<VectorTable<'_>, LayoutError> {
        Ok(VectorTable {
            grid: Grid::new(self, "print_vector")?,
        })
    }
}

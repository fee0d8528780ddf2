//! Pictures of a [`TiledCopy`]: CuTe's `print_latex(tiled_copy)` (`print_latex_copy`), the
//! source tile on the left and the destination tile on the right, and the same as SVG.
//!
//! Each tile is `Tiler_MN`'s `(M, N)` grid; cell `(m, n)` is labelled `T<t> V<v>` with the first
//! `(thread, value)` (threads outer, values inner, as CuTe loops) whose `get_layoutS_TV()` (or
//! `D`) reaches it, and coloured by that thread (CuTe's `TikzColor_TV`, thread mod 8, in TikZ;
//! one colour per thread of a warp, thread mod 32, in SVG). Cells no
//! pair reaches stay blank. The LaTeX is CuTe's text line for line, except that the two comment
//! lines give the TV layouts in this library's (integer) form.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::grid::check_cells;
use super::latex::{tikz_color, PREAMBLE, TV8};
use super::panel::{Cell, Label, Paint, Panel};
use super::style::Style;
use super::svg::write_svg;
use crate::atom::copy::TiledCopy;
use crate::atom::AtomError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// The cells of one side: `(M, N)` and, row-major, the first `(t, v)` reaching each cell, plus
/// how many pairs reach it.
pub(crate) struct CopyCells {
    /// `M`.
    pub rows: usize,
    /// `N`.
    pub cols: usize,
    /// Cell `m * cols + n`: the first pair reaching it.
    pub first: Vec<Option<(i64, i64)>>,
    /// Cell `m * cols + n`: how many pairs reach it.
    pub count: Vec<u32>,
}

/// The cells of a TV layout `(thread, value) -> m + M n` on an `M x N` tile, CuTe's order.
pub(crate) fn copy_cells(
    tv: &Layout,
    m_ext: i64,
    n_ext: i64,
    at: &Coords,
) -> Result<CopyCells, AtomError> {
    let op = "print_latex_copy";
    let total = m_ext
        .checked_mul(n_ext)
        .ok_or_else(|| crate::LayoutError::overflow(op))?;
    let cells = check_cells(op, &format_args!("tile ({m_ext},{n_ext})"), total)?;
    check_cells(op, &format_args!("TV layout {tv}"), tv.size())?;
    let rows = usize::try_from(m_ext).map_err(|_| crate::LayoutError::overflow(op))?;
    let cols = cells / rows.max(1);
    let threads = tv.mode(0).map_or(1, |m| m.size());
    let values = tv.mode(1).map_or(1, |m| m.size());
    let mut first = alloc::vec![None; cells];
    let mut count = alloc::vec![0u32; cells];
    for t in 0..threads {
        for v in 0..values {
            let idx = tv.index_1d(t + threads * v).unwrap_or(-1);
            if !(0..total).contains(&idx) {
                return Err(AtomError::Layout(crate::LayoutError::InvalidArgument {
                    op,
                    what: format!("thread {t} value {v} of {tv} maps to {idx}, outside the tile"),
                }));
            }
            let (m, n) = at.cell(idx, m_ext)?;
            let k = m as usize * cols + n as usize;
            if let (Some(f), Some(c)) = (first.get_mut(k), count.get_mut(k)) {
                if f.is_none() {
                    *f = Some((t, v));
                }
                *c = c.saturating_add(1);
            }
        }
    }
    Ok(CopyCells {
        rows,
        cols,
        first,
        count,
    })
}

/// Tile index -> drawn cell: CuTe draws `tidfrg_S(make_identity_tensor((M, N)))`, so a tile
/// index `j` of a mode whose tiler is a layout `L` is drawn at coordinate `L(j)` (an integer
/// tiler draws `j` itself).
pub(crate) struct Coords {
    modes: [Option<Layout>; 2],
    ext: (i64, i64),
}

impl Coords {
    fn of(tc: &TiledCopy, ext: (i64, i64)) -> Coords {
        let mut modes = [None, None];
        if let crate::Tiler::Modes(ms) = tc.tiler_mn() {
            for (slot, m) in modes.iter_mut().zip(ms) {
                if let crate::Tiler::Layout(l) = m {
                    *slot = Some(l.clone());
                }
            }
        }
        Coords { modes, ext }
    }

    /// The cell `(m, n)` of tile index `idx` (column-major in `(M, N)`).
    fn cell(&self, idx: i64, m_ext: i64) -> Result<(i64, i64), AtomError> {
        let (jm, jn) = (idx % m_ext.max(1), idx / m_ext.max(1));
        let map = |l: &Option<Layout>, j: i64| l.as_ref().map_or(Some(j), |l| l.index_1d(j));
        match (map(&self.modes[0], jm), map(&self.modes[1], jn)) {
            (Some(m), Some(n)) if (0..self.ext.0).contains(&m) && (0..self.ext.1).contains(&n) => {
                Ok((m, n))
            }
            _ => Err(AtomError::Layout(crate::LayoutError::InvalidArgument {
                op: "print_latex_copy",
                what: format!(
                    "tile index {idx} is drawn outside the ({},{}) tile",
                    self.ext.0, self.ext.1
                ),
            })),
        }
    }
}

/// `(M, N)`: the sizes of the tiler's two modes (`product_each(shape(Tiler_MN))`).
fn tile_mn(tc: &TiledCopy) -> Result<(i64, i64), AtomError> {
    let t = tc.tile_mn()?;
    let e: Vec<i64> = t.elements().map(|e| e.size()).collect::<Result<_, _>>()?;
    match e.as_slice() {
        [m, n] => Ok((*m, *n)),
        _ => Err(AtomError::Layout(crate::LayoutError::RankMismatch {
            op: "print_latex_copy",
            expected: 2,
            found: e.len(),
        })),
    }
}

/// CuTe's `print_latex(tiled_copy)`: the source TV layout's tile at columns `0..N`, the
/// destination's at `N+3..2N+3`, each cell `T<t> V<v>` filled with the thread's colour.
///
/// # Errors
/// [`AtomError::Layout`] if the tile is not of rank 2 or too large to draw
/// ([`super::MAX_PICTURE_CELLS`]).
///
/// # Examples
/// ```
/// use cute_layout::atom::copy::{copy_atom, TiledCopy};
/// use cute_layout::render::latex_copy;
/// let atom = copy_atom("UniversalCopy<uint32_t>")?.typed("float")?;
/// let tc = TiledCopy::make_tiled_copy(atom, &"(2,2):(1,2)".parse()?, &"(1,2):(0,1)".parse()?)?;
/// let tex = latex_copy(&tc)?;
/// assert!(tex.contains("\\node[fill={rgb,255:red,175;green,255;blue,175}] at (1,0) {\\shortstack{T1 \\\\ V0}};"));
/// assert!(tex.contains("(0,7) grid (2,11)")); // the destination tile, 3 columns to the right
/// # Ok::<(), cute_layout::atom::AtomError>(())
/// ```
#[doc(alias = "print_latex_copy")]
pub fn latex_copy(tc: &TiledCopy) -> Result<String, AtomError> {
    latex_copy_with(tc, &Style::new())
}

/// [`latex_copy`] with the style's palette, if any, in place of CuTe's thread colours
/// (`palette[t mod N]`, CuTe's `print_latex_copy(..., color)`); the rest of the style is not
/// used.
///
/// # Errors
/// As [`latex_copy`].
pub fn latex_copy_with(tc: &TiledCopy, style: &Style<'_>) -> Result<String, AtomError> {
    let (m_ext, n_ext) = tile_mn(tc)?;
    let (s_tv, d_tv) = (tc.layout_s_tv()?, tc.layout_d_tv()?);
    let at = Coords::of(tc, (m_ext, n_ext));
    let s_cells = copy_cells(&s_tv, m_ext, n_ext, &at)?;
    let d_cells = copy_cells(&d_tv, m_ext, n_ext, &at)?;
    let mut s = String::with_capacity(600 + 120 * (s_cells.first.len() + d_cells.first.len()));
    let _ = writeln!(s, "% Layout S TV: {s_tv}");
    let _ = writeln!(s, "% Layout D TV: {d_tv}");
    s.push_str(PREAMBLE);
    let (m_max, n_max) = (m_ext, n_ext);
    for (cells, shift) in [(&s_cells, 0), (&d_cells, n_ext + 3)] {
        // CuTe prints the cells in (thread, value) order; re-walk in that order.
        let tv = if shift == 0 { &s_tv } else { &d_tv };
        let threads = tv.mode(0).map_or(1, |m| m.size());
        let values = tv.mode(1).map_or(1, |m| m.size());
        let mut filled = alloc::vec![false; cells.first.len()];
        for t in 0..threads {
            for v in 0..values {
                let idx = tv.index_1d(t + threads * v).unwrap_or(0);
                let (m, n) = at.cell(idx, m_ext)?;
                let k = m as usize * cells.cols + n as usize;
                if let Some(f) = filled.get_mut(k) {
                    if !*f {
                        *f = true;
                        let color = tikz_color(style, t, &TV8);
                        let _ = writeln!(
                            s,
                            "\\node[fill={color}] at ({m},{}) {{\\shortstack{{T{t} \\\\ V{v}}}}};",
                            n + shift
                        );
                    }
                }
            }
        }
        let _ = writeln!(
            s,
            "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,{shift}) grid ({m_max},{});\n",
            n_max + shift
        );
        // CuTe labels the source's rows on the left (column -1) and the destination's on the
        // right (column 2N+3).
        let label_col = if shift == 0 { -1 } else { n_ext + shift };
        for m in 0..m_ext {
            let _ = writeln!(
                s,
                "\\node at ({m},{label_col}) {{\\Large{{\\texttt{{{m}}}}}}};"
            );
        }
        for n in 0..n_ext {
            let _ = writeln!(
                s,
                "\\node at (-1,{}) {{\\Large{{\\texttt{{{n}}}}}}};",
                n + shift
            );
        }
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    Ok(s)
}

fn panel(title: String, cells: &CopyCells, what: &str, colors: usize) -> Panel {
    let multi = cells.count.iter().filter(|&&c| c > 1).count();
    let none = cells.count.iter().filter(|&&c| c == 0).count();
    let mut notes = alloc::vec![format!(
        "{what}: cell = tile coordinate of (thread, value); colour = thread mod {colors}"
    )];
    if multi > 0 {
        notes.push(format!(
            "{multi} cells reached by several pairs (first shown, as CuTe draws)"
        ));
    }
    if none > 0 {
        notes.push(format!("{none} cells reached by no pair (blank)"));
    }
    Panel {
        title,
        notes,
        rows: cells.rows,
        cols: cells.cols,
        row_shape: IntTuple::int(cells.rows as i64),
        col_shape: IntTuple::int(cells.cols as i64),
        cells: cells
            .first
            .iter()
            .map(|f| match *f {
                Some((t, v)) => Cell {
                    paint: Paint::Thread(t),
                    label: Label::Tv { t, v, extra: 0 },
                },
                None => Cell {
                    paint: Paint::Unreached,
                    label: Label::Empty,
                },
            })
            .collect(),
        highlight: Vec::new(),
        row_notes: Vec::new(),
        banks: 0,
    }
}

/// The TiledCopy's source and destination as SVG panels side by side, cell for cell as
/// [`latex_copy`] (first `(thread, value)` per cell, coloured by thread).
///
/// # Errors
/// As [`latex_copy`].
///
/// # Examples
/// ```
/// use cute_layout::atom::copy::{copy_atom, TiledCopy};
/// use cute_layout::render::{svg_copy, Style};
/// let atom = copy_atom("SM75_U32x4_LDSM_N")?.typed("half_t")?;
/// let tc = TiledCopy::make_tiled_copy(atom, &"(32,1):(1,0)".parse()?, &"(1,8):(0,1)".parse()?)?;
/// let svg = svg_copy(&tc, &Style::default())?;
/// assert!(svg.contains("T0 V0") && svg.contains("T31 V7"));
/// # Ok::<(), cute_layout::atom::AtomError>(())
/// ```
pub fn svg_copy(tc: &TiledCopy, style: &Style<'_>) -> Result<String, AtomError> {
    let (m_ext, n_ext) = tile_mn(tc)?;
    let (s_tv, d_tv) = (tc.layout_s_tv()?, tc.layout_d_tv()?);
    let at = Coords::of(tc, (m_ext, n_ext));
    let s_cells = copy_cells(&s_tv, m_ext, n_ext, &at)?;
    let d_cells = copy_cells(&d_tv, m_ext, n_ext, &at)?;
    let name = tc.atom().atom().name();
    let ty = tc.atom().value_type().name();
    let caption = match style.title {
        Some(t) => alloc::vec![String::from(t)],
        None => alloc::vec![format!(
            "TiledCopy of Copy_Atom<{name}, {ty}>: tiler {}, TiledLayout_TV {}, {} threads",
            tc.tiler_mn(),
            tc.tiled_layout_tv(),
            tc.size()
        )],
    };
    let panels = [
        panel(
            format!("Source: layout_S_TV {s_tv}"),
            &s_cells,
            "source",
            style.thread_colors(),
        ),
        panel(
            format!("Destination: layout_D_TV {d_tv}"),
            &d_cells,
            "destination",
            style.thread_colors(),
        ),
    ];
    Ok(write_svg(&panels, &caption, style))
}

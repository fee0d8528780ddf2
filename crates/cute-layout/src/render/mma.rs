//! Pictures of MMA atoms and tiled MMAs: CuTe's `print_latex(TiledMMA)` (`print_latex_mma`),
//! as TikZ text and as SVG.
//!
//! The picture has three panels on one grid, as CuTe draws them: C (`M x N`) with its top-left
//! cell at `(0,0)`, A (`M x K`) to its left (columns `-K-1 .. -1`) and B, transposed (`K x N`),
//! above it (rows `-K-1 .. -1`), so that each row of A and each column of B meet at the C cells
//! they produce. Each cell shows the first `(thread, value)` pair that holds it, in CuTe's
//! order (threads outer, values inner), as `T<t> V<v>`, coloured by thread (CuTe's
//! `TikzColor_TV`, thread mod 8, in TikZ; one colour per thread of a warp, thread mod 32, in
//! SVG); row and column indices are written beside A and B. Cells no
//! pair reaches are left blank (CuTe draws nothing there), as are pairs the TV layout sends
//! outside the tile (a tiled MMA with several atoms along K).
//!
//! ```
//! use cute_layout::atom::{mma_atom, TiledMma};
//! use cute_layout::render::{latex_mma, svg_mma, Style};
//! let mma = TiledMma::new(mma_atom("SM80_16x8x8_F16F16F16F16_TN")?, None, None)?;
//! let tex = latex_mma(&mma)?;
//! assert!(tex.contains("\\node[fill={rgb,255:red,175;green,255;blue,175}] at (0,2) {\\shortstack{T1 \\\\ V0}};"));
//! assert_eq!(tex.matches("shortstack").count(), 16 * 8 + 16 * 8 + 8 * 8);
//! let svg = svg_mma(&mma, &Style::new())?;
//! assert_eq!(svg.matches("<rect class=\"t").count(), 16 * 8 + 16 * 8 + 8 * 8);
//! # Ok::<(), cute_layout::atom::AtomError>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::latex::{tikz_color, PREAMBLE, TV8};
use super::style::{Style, MAX_PICTURE_CELLS};
use super::svg::{open_svg, THREAD_COLORS};
use crate::atom::{AtomError, Operand, TiledMma};
use crate::layout::error::LayoutError;
use crate::layout::Layout;

/// One panel: `rows x cols` cells in the tile's coordinates, and the pairs in CuTe's order.
pub(crate) struct MmaPanel {
    pub op: Operand,
    pub rows: usize,
    pub cols: usize,
    /// Row-major: the first pair reaching the cell.
    pub first: Vec<Option<(i64, i64)>>,
    /// The pairs that fill a cell, in the order CuTe prints them: (t, v, row, col).
    pub order: Vec<(i64, i64, usize, usize)>,
}

/// The panels of a tiled MMA: C, A, B. A's cells are `(m, k)`, B's `(n, k)`, C's `(m, n)`.
pub(crate) fn mma_panels(mma: &TiledMma) -> Result<[MmaPanel; 3], AtomError> {
    let [tm, tn, tk] = mma.tile_size_mnk();
    let total = tm
        .checked_mul(tn)
        .and_then(|c| c.checked_add(tm.checked_mul(tk)?))
        .and_then(|c| c.checked_add(tn.checked_mul(tk)?));
    if total.is_none_or(|c| c > MAX_PICTURE_CELLS) {
        return Err(LayoutError::TooLarge {
            op: "print_latex_mma",
            what: format!(
                "a {tm}x{tn}x{tk} tile ({} cells)",
                total.unwrap_or(i64::MAX)
            ),
            limit: MAX_PICTURE_CELLS,
        }
        .into());
    }
    let panel = |op: Operand, rows: i64, cols: i64| -> Result<MmaPanel, AtomError> {
        let tv: Layout = mma.layout_tv(op)?;
        let (rows, cols) = (rows as usize, cols as usize);
        let mut first = vec![None; rows * cols];
        let mut order = Vec::new();
        let threads = tv.mode(0).map_or(1, |m| m.size());
        let values = tv.mode(1).map_or(1, |m| m.size());
        // (t, v) -> index, threads outer: the TV layout is column-major over (t, v), so walk
        // its offsets and reorder.
        let offs: Vec<i64> = tv.offsets().collect();
        for t in 0..threads {
            for v in 0..values {
                let idx = offs[(t + v * threads) as usize];
                if idx < 0 || idx >= (rows * cols) as i64 {
                    continue;
                }
                let (r, c) = ((idx as usize) % rows, (idx as usize) / rows);
                let cell = &mut first[r * cols + c];
                if cell.is_none() {
                    *cell = Some((t, v));
                    order.push((t, v, r, c));
                }
            }
        }
        Ok(MmaPanel {
            op,
            rows,
            cols,
            first,
            order,
        })
    };
    Ok([
        panel(Operand::C, tm, tn)?,
        panel(Operand::A, tm, tk)?,
        panel(Operand::B, tn, tk)?,
    ])
}

fn label(s: &mut String, r: i64, c: i64, v: i64) {
    let _ = writeln!(s, "\\node at ({r},{c}) {{\\Large{{\\texttt{{{v}}}}}}};");
}

/// CuTe's `print_latex(tiled_mma)`: the TikZ picture of the C, A and B thread-value layouts,
/// node for node as CuTe prints it (the `%` header lines name our TV layouts).
///
/// # Errors
/// [`LayoutError::TooLarge`] past [`MAX_PICTURE_CELLS`] cells in all; the tiled MMA's errors.
#[doc(alias = "print_latex_mma")]
pub fn latex_mma(mma: &TiledMma) -> Result<String, AtomError> {
    latex_mma_with(mma, &Style::new())
}

/// [`latex_mma`] with the style's palette, if any, in place of CuTe's thread colours
/// (`palette[t mod N]`, CuTe's `print_latex_mma(..., color)`); the rest of the style is not
/// used.
///
/// # Errors
/// As [`latex_mma`].
pub fn latex_mma_with(mma: &TiledMma, style: &Style<'_>) -> Result<String, AtomError> {
    let [c, a, b] = mma_panels(mma)?;
    let [m, n, k] = mma.tile_size_mnk();
    let mut s = String::with_capacity(400 + 70 * (c.order.len() + a.order.len() + b.order.len()));
    let _ = writeln!(s, "% LayoutC: {}", mma.layout_tv(Operand::C)?);
    let _ = writeln!(s, "% LayoutA: {}", mma.layout_tv(Operand::A)?);
    let _ = writeln!(s, "% LayoutB: {}", mma.layout_tv(Operand::B)?);
    s.push_str(PREAMBLE);
    let node = |s: &mut String, t: i64, v: i64, x: i64, y: i64| {
        let color = tikz_color(style, t, &TV8);
        let _ = writeln!(
            s,
            "\\node[fill={color}] at ({x},{y}) {{\\shortstack{{T{t} \\\\ V{v}}}}};"
        );
    };
    for &(t, v, r, col) in &c.order {
        node(&mut s, t, v, r as i64, col as i64);
    }
    let _ = writeln!(
        s,
        "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({m},{n});\n"
    );
    for &(t, v, r, kk) in &a.order {
        node(&mut s, t, v, r as i64, kk as i64 - k - 1);
    }
    let _ = writeln!(
        s,
        "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,{}) grid ({m},-1);\n",
        -k - 1
    );
    for mm in 0..m {
        label(&mut s, mm, -k - 2, mm);
    }
    for kk in 0..k {
        label(&mut s, -1, kk - k - 1, kk);
    }
    for &(t, v, nn, kk) in &b.order {
        node(&mut s, t, v, kk as i64 - k - 1, nn as i64);
    }
    let _ = writeln!(
        s,
        "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({},0) grid (-1,{n});\n",
        -k - 1
    );
    for nn in 0..n {
        label(&mut s, -k - 2, nn, nn);
    }
    for kk in 0..k {
        label(&mut s, kk - k - 1, -1, kk);
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    Ok(s)
}

const CELL: i64 = 44;
const MARGIN: i64 = 16;
const TITLE_H: i64 = 40;

/// The SVG picture of [`latex_mma`]: the same three panels and cells, coloured by thread mod 32
/// (a colour per thread of a warp). Each filled
/// cell is a `<rect class="t{t mod 32}" data-op="A|B|C" data-row data-col data-t data-v>` (its
/// tile coordinates and pair) followed by its two text lines `T<t>` and `V<v>`.
///
/// # Errors
/// As [`latex_mma`].
pub fn svg_mma(mma: &TiledMma, style: &Style<'_>) -> Result<String, AtomError> {
    let panels = mma_panels(mma)?;
    let [m, n, k] = mma.tile_size_mnk();
    // Grid columns -K-2 .. N, rows -K-2 .. M.
    let width = 2 * MARGIN + (n + k + 2) * CELL;
    let height = 2 * MARGIN + TITLE_H + (m + k + 2) * CELL;
    let x0 = MARGIN + (k + 2) * CELL;
    let y0 = MARGIN + TITLE_H + (k + 2) * CELL;
    let cells: usize = panels.iter().map(|p| p.rows * p.cols).sum();
    let mut s = String::with_capacity(2048 + 200 * cells);
    let scale = style.fit_scale(width as f64, height as f64);
    // Without labels (a fitted picture too small to read them): no text and no data attributes.
    let labels = CELL as f64 * scale >= super::svg::MIN_LABEL_PX;
    open_svg(&mut s, width as f64, height as f64, scale, 11);
    s.push_str(
        ".ix{font-size:13px;fill:#333}\n\
         .e{fill:#fff;stroke:#000;stroke-width:1}\n\
         .frame{fill:none;stroke:#000;stroke-width:2}\n",
    );
    let colors: Vec<String> = match style.palette {
        Some(p) => p.iter().map(|c| c.hex()).collect(),
        None => THREAD_COLORS.iter().map(|c| String::from(*c)).collect(),
    };
    for (i, c) in colors.iter().enumerate() {
        let _ = writeln!(s, ".t{i}{{fill:{c};stroke:#000;stroke-width:1}}");
    }
    s.push_str("</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
    let title = match style.title {
        Some(t) => String::from(t),
        None => String::from(mma.atom().name()),
    };
    let _ = writeln!(
        s,
        "<text class=\"title\" x=\"{MARGIN}\" y=\"{}\">{}</text>",
        MARGIN + 13,
        super::svg::esc(&title)
    );
    let _ = writeln!(
        s,
        "<text class=\"note\" x=\"{MARGIN}\" y=\"{}\">{}</text>",
        MARGIN + 30,
        super::svg::esc(&format!(
            "tile {m}x{n}x{k}, {} threads, thr_layout_vmnk {}, permutation {}",
            mma.size(),
            mma.thr_layout_vmnk(),
            mma.permutation_text()
        ))
    );
    for p in &panels {
        // Grid position of a cell of the panel: (row, col) on the picture grid.
        let at = |r: usize, c: usize| -> (i64, i64) {
            let (r, c) = (r as i64, c as i64);
            match p.op {
                Operand::C => (r, c),
                Operand::A => (r, c - k - 1),
                Operand::B => (c - k - 1, r),
            }
        };
        let name = p.op.name();
        let _ = writeln!(s, "<g id=\"{name}\">");
        if !labels {
            // The cells in grid order, each run of one class along a grid row as one rect.
            let ncol = colors.len().max(1) as i64;
            let mut cells: Vec<(i64, i64, i64)> = Vec::with_capacity(p.rows * p.cols);
            for r in 0..p.rows {
                for c in 0..p.cols {
                    let (gr, gc) = at(r, c);
                    let cls = p.first[r * p.cols + c].map_or(-1, |(t, _)| t.rem_euclid(ncol));
                    cells.push((gr, gc, cls));
                }
            }
            cells.sort_unstable();
            let mut i = 0;
            while i < cells.len() {
                let (gr, gc, cls) = cells[i];
                let mut run = 1;
                while cells
                    .get(i + run)
                    .is_some_and(|&(r2, c2, k2)| r2 == gr && c2 == gc + run as i64 && k2 == cls)
                {
                    run += 1;
                }
                let class = if cls < 0 {
                    String::from("e")
                } else {
                    format!("t{cls}")
                };
                let _ = writeln!(
                    s,
                    "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{CELL}\"/>",
                    x0 + gc * CELL,
                    y0 + gr * CELL,
                    run as i64 * CELL
                );
                i += run;
            }
        }
        for r in (0..p.rows).filter(|_| labels) {
            for c in 0..p.cols {
                let (gr, gc) = at(r, c);
                let (x, y) = (x0 + gc * CELL, y0 + gr * CELL);
                match p.first[r * p.cols + c] {
                    Some((t, v)) => {
                        let _ = writeln!(
                            s,
                            "<rect class=\"t{}\" data-op=\"{name}\" data-row=\"{r}\" data-col=\"{c}\" data-t=\"{t}\" data-v=\"{v}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"/><text x=\"{}\" y=\"{}\">T{t}</text><text x=\"{}\" y=\"{}\">V{v}</text>",
                            t.rem_euclid(colors.len().max(1) as i64),
                            x + CELL / 2,
                            y + CELL / 2 - 2,
                            x + CELL / 2,
                            y + CELL / 2 + 12
                        );
                    }
                    None => {
                        let _ = writeln!(
                            s,
                            "<rect class=\"e\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"/>"
                        );
                    }
                }
            }
        }
        // Frame of the panel.
        let (r0, c0) = at(0, 0);
        let (r1, c1) = at(p.rows - 1, p.cols - 1);
        let (rmin, rmax) = (r0.min(r1), r0.max(r1));
        let (cmin, cmax) = (c0.min(c1), c0.max(c1));
        let _ = writeln!(
            s,
            "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            x0 + cmin * CELL,
            y0 + rmin * CELL,
            (cmax - cmin + 1) * CELL,
            (rmax - rmin + 1) * CELL
        );
        s.push_str("</g>\n");
    }
    // Indices: m left of A, k above A; n above B, k left of B.
    let mut ix = |gr: i64, gc: i64, v: i64| {
        let _ = writeln!(
            s,
            "<text class=\"ix\" x=\"{}\" y=\"{}\">{v}</text>",
            x0 + gc * CELL + CELL / 2,
            y0 + gr * CELL + CELL / 2 + 5
        );
    };
    for mm in 0..m {
        ix(mm, -k - 2, mm);
    }
    for kk in 0..k {
        ix(-1, kk - k - 1, kk);
    }
    for nn in 0..n {
        ix(-k - 2, nn, nn);
    }
    for kk in 0..k {
        ix(kk - k - 1, -1, kk);
    }
    s.push_str("</svg>\n");
    Ok(s)
}

//! TikZ/LaTeX pictures, in the exact format of CuTe's `print_latex` and `print_latex_tv`, so that
//! existing documents and scripts keep working. Compile with `pdflatex` (the `standalone` class
//! with `convert` also makes a PNG when shell escape is on).
//!
//! # `print_latex(layout)`
//!
//! ```text
//! % Layout: <L2>
//! \documentclass[convert]{standalone}
//! \usepackage{tikz}
//!
//! \begin{document}
//! \begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]
//!
//! \node[fill=<colour of v>] at (<m>,<n>) {<v>};          one line per cell, rows outer
//! \draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (<M>,<N>);
//!
//! \node at (<m>,-1) {\Large{\texttt{<m>}}};               one line per row
//! \node at (-1,<n>) {\Large{\texttt{<n>}}};               one line per column
//! \end{tikzpicture}
//! \end{document}
//! ```
//!
//! `L2` is the layout padded to rank 2 with `1:0` (CuTe's `append<2>(layout, Layout<_1,_0>{})`):
//! a rank-1 layout `3:2` is drawn as the column `(3,1):(2,0)`, as CuTe does. Colours are CuTe's
//! `TikzColor_BWx8`: `black!00, black!40, black!20, black!60, black!10, black!50, black!30,
//! black!70` by value mod 8. Where CuTe refuses (rank > 2) the modes `1..R` are grouped as the
//! columns and the `% Layout:` line shows the grouped layout.
//!
//! # `print_latex_tv(tv, tile)`
//!
//! The header line is `% Layout TV: <tv>`, and each cell reached by a `(thread, value)` pair is
//! `\node[fill=<colour of thread>] at (<m>,<n>) {\shortstack{T<t> \\ V<v>}};` in CuTe's order
//! (threads outer, values inner, first pair wins), with CuTe's `TikzColor_TV` colours. Beyond
//! CuTe: cells no pair reaches get `\node[fill=black!30] at (<m>,<n>) {};` and cells several pairs
//! reach get a red frame after the grid; both appear only when such cells exist, so every
//! picture CuTe draws correctly is reproduced character for character.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;

use super::grid::check_cells;
use super::style::Style;
use super::tv::TvMap;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// CuTe's `TikzColor_BWx8`.
const BW8: [&str; 8] = [
    "black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70",
];

/// CuTe's `TikzColor_TV`.
pub(crate) const TV8: [&str; 8] = [
    "{rgb,255:red,175;green,175;blue,255}",
    "{rgb,255:red,175;green,255;blue,175}",
    "{rgb,255:red,255;green,255;blue,175}",
    "{rgb,255:red,255;green,175;blue,175}",
    "{rgb,255:red,210;green,210;blue,255}",
    "{rgb,255:red,210;green,255;blue,210}",
    "{rgb,255:red,255;green,255;blue,210}",
    "{rgb,255:red,255;green,210;blue,210}",
];

pub(crate) const PREAMBLE: &str = "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";

/// The TikZ colour of `k`: the style's palette colour, else `defaults[k mod 8]`.
pub(crate) fn tikz_color(
    style: &Style<'_>,
    k: i64,
    defaults: &[&'static str; 8],
) -> Cow<'static, str> {
    match style.color_of(k) {
        Some(c) => Cow::Owned(c.tikz()),
        None => Cow::Borrowed(defaults[k.rem_euclid(8) as usize]),
    }
}

/// The grid line, the row and column labels and the footer.
fn footer(s: &mut String, rows: usize, cols: usize) {
    let _ = writeln!(
        s,
        "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({rows},{cols});\n"
    );
    for m in 0..rows {
        let _ = writeln!(s, "\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};");
    }
    for n in 0..cols {
        let _ = writeln!(s, "\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};");
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
}

/// `layout` padded to rank 2 as CuTe's `print_latex` does (`append<2>(layout, 1:0)`), or with
/// modes `1..R` grouped for rank `R > 2`.
fn rank2(layout: &Layout) -> Result<Layout, LayoutError> {
    let pad = || -> Result<Layout, LayoutError> { Layout::new(IntTuple::int(1), IntTuple::int(0)) };
    match layout.rank() {
        2 => Ok(layout.clone()),
        r if r > 2 => layout.group_modes(1, r),
        _ if layout.is_leaf() => Layout::from_modes([layout.clone(), pad()?]),
        1 => Layout::from_modes([layout.mode(0).unwrap_or_else(|| layout.clone()), pad()?]),
        _ => Layout::from_modes([pad()?, pad()?]),
    }
}

/// CuTe's `print_latex(layout)`: a TikZ picture of the layout's grid, each cell labelled with
/// its value and shaded by value mod 8 (see the [module docs](self) for the exact text).
///
/// The style's post-map is applied to every value; its title, if any, replaces the layout in the
/// `% Layout:` line; its palette, if any, replaces CuTe's colours (`palette[v mod N]`, CuTe's
/// `print_latex(layout, color)`).
///
/// # Errors
/// [`LayoutError::TooLarge`] past [`MAX_PICTURE_CELLS`](super::MAX_PICTURE_CELLS) points (TeX
/// runs out of memory long before).
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, render::{self, Style}};
/// let tex = render::latex(&"3:2".parse::<Layout>()?, &Style::new())?;
/// assert!(tex.starts_with("% Layout: (3,1):(2,0)\n\\documentclass[convert]{standalone}\n"));
/// assert!(tex.contains("\\node[fill=black!20] at (1,0) {2};\n"));
/// assert!(tex.contains("grid (3,1);\n\n\\node at (0,-1) {\\Large{\\texttt{0}}};\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(alias = "print_latex")]
pub fn latex(layout: &Layout, style: &Style<'_>) -> Result<String, LayoutError> {
    check_cells("latex", &format_args!("layout {layout}"), layout.size())?;
    let l2 = rank2(layout)?;
    let rows = l2.mode(0).map_or(1, |m| m.size());
    let cols = l2.mode(1).map_or(1, |m| m.size());
    let name = match style.title {
        Some(t) => String::from(t),
        None => format!("{l2}"),
    };
    let mut s = String::with_capacity(400 + 48 * usize::try_from(layout.size()).unwrap_or(0));
    let _ = writeln!(s, "% Layout: {name}");
    s.push_str(PREAMBLE);
    for m in 0..rows {
        for n in 0..cols {
            let v = style.map(l2.index_1d(m + rows * n).unwrap_or(0));
            let color = tikz_color(style, v, &BW8);
            let _ = writeln!(s, "\\node[fill={color}] at ({m},{n}) {{{v}}};");
        }
    }
    let as_usize = |x: i64| usize::try_from(x).unwrap_or(0);
    footer(&mut s, as_usize(rows), as_usize(cols));
    Ok(s)
}

/// CuTe's `print_latex_tv(tv, tile)`: a TikZ picture of which thread holds which value of a tile,
/// cells labelled `T<t>` over `V<v>` and coloured by thread (see the [module docs](self) and
/// [`svg_tv`](super::svg_tv) for how a TV layout reaches a cell). The style's palette, if any,
/// colours thread `t` with `palette[t mod N]` (CuTe's `print_latex_tv(tv, tile, color)`).
///
/// # Errors
/// As [`svg_tv`](super::svg_tv).
///
/// # Examples
/// ```
/// # use cute_layout::{IntTuple, Layout, render::{self, Style}};
/// let tv: Layout = "((4,8),(2,2)):((16,1),(8,64))".parse()?;
/// let tex = render::latex_tv(&tv, &"(16,8)".parse::<IntTuple>()?, &Style::new())?;
/// assert!(tex.starts_with("% Layout TV: ((4,8),(2,2)):((16,1),(8,64))\n"));
/// assert!(tex.contains("\\node[fill={rgb,255:red,175;green,255;blue,175}] at (0,1) {\\shortstack{T1 \\\\ V0}};\n"));
/// assert_eq!(tex.matches("\\shortstack").count(), 128);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(alias = "print_latex_tv")]
pub fn latex_tv(tv: &Layout, tile: &IntTuple, style: &Style<'_>) -> Result<String, LayoutError> {
    let map = TvMap::new("latex_tv", tv, tile, style, true)?;
    let name = match style.title {
        Some(t) => String::from(t),
        None => format!("{tv}"),
    };
    let mut s = String::with_capacity(400 + 80 * map.order.len());
    let _ = writeln!(s, "% Layout TV: {name}");
    s.push_str(PREAMBLE);
    let mut filled = alloc::vec![false; map.rows * map.cols];
    for &(t, v, m, n) in &map.order {
        if let Some(f) = filled.get_mut(m * map.cols + n) {
            if !*f {
                *f = true;
                let color = tikz_color(style, t, &TV8);
                let _ = writeln!(
                    s,
                    "\\node[fill={color}] at ({m},{n}) {{\\shortstack{{T{t} \\\\ V{v}}}}};"
                );
            }
        }
    }
    for m in 0..map.rows {
        for n in 0..map.cols {
            if map.count.get(m * map.cols + n) == Some(&0) {
                let _ = writeln!(s, "\\node[fill=black!30] at ({m},{n}) {{}};");
            }
        }
    }
    let mut frames = String::new();
    for m in 0..map.rows {
        for n in 0..map.cols {
            if map.count.get(m * map.cols + n).is_some_and(|&c| c > 1) {
                let _ = writeln!(
                    frames,
                    "\\draw[color=red,ultra thick,shift={{(-0.5,-0.5)}}] ({m},{n}) rectangle ({},{});",
                    m + 1,
                    n + 1
                );
            }
        }
    }
    if frames.is_empty() {
        footer(&mut s, map.rows, map.cols);
    } else {
        let mut tail = String::new();
        footer(&mut tail, map.rows, map.cols);
        // The grid line first, then the frames, then the labels.
        if let Some((grid, rest)) = tail.split_once("\n\n") {
            s.push_str(grid);
            s.push('\n');
            s.push_str(&frames);
            s.push('\n');
            s.push_str(rest);
        }
    }
    Ok(s)
}

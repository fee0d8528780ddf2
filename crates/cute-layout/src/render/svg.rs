//! SVG pictures of layouts.
//!
//! # Anatomy of a picture
//!
//! * A title (the layout's text form, or [`Style::title`]) and notes: how a layout that is not
//!   rank 2 was laid out (rank 1 as one row; rank `R > 2` with modes `1..R` grouped as the
//!   columns), legends.
//! * Column headers: the 1-D column index and, when the column mode is a tuple, the natural
//!   coordinate of each column (`(0,0) (1,0) (0,1) ...`); row headers likewise at the left.
//! * The cells: one `<rect>` per cell in `<g class="cells">` and one `<text>` per cell in
//!   `<g class="labels">`, in row-major order. Colours come from CSS classes in one `<style>`
//!   block (`o0`..`o7` by offset mod 8, `t0`..`t31` by thread mod 32, `b0`.. by bank, `none`, `multi`), so
//!   no style is repeated per cell: a 128 x 128 layout is about 1.6 MB (about 100 bytes per
//!   cell) and is written in about 25 ms.
//! * The grid: thin lines between cells, heavier lines where an outer coordinate of a
//!   hierarchical mode changes (for a column mode `(2,(2,2))`, every 2 and every 4 columns).
//! * Highlights (the tile of a divide, the first block of a product): a red outline around the
//!   highlighted cells, `<path class="hl">`.
//!
//! The output is plain SVG 1.1 (no scripts, no external resources), well-formed XML, with the
//! fonts named `DejaVu Sans Mono, monospace`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::grid::{coord_labels, periods, Grid};
use super::panel::{Label, Paint, Panel};
use super::style::{Style, THREAD_COLOR_COUNT};
use crate::layout::error::LayoutError;
use crate::layout::Layout;

/// Pastel colours by offset mod 8.
const OFFSET_COLORS: [&str; 8] = [
    "#cfe2f3", "#fce5cd", "#d9ead3", "#f4cccc", "#d9d2e9", "#fff2cc", "#d0e0e3", "#ead1dc",
];

/// Shades of [`Paint::Range`].
const RANGE_SHADES: i64 = 16;

/// Shade `k` of [`RANGE_SHADES`]: hue from light blue to light orange.
fn range_color(k: i64) -> String {
    let t = k.clamp(0, RANGE_SHADES - 1) as f64 / (RANGE_SHADES - 1) as f64;
    // Interpolate #c6dbef (light blue) -> #fdd0a2 (light orange) through #e5f5e0 (light green).
    let (a, b, u) = if t < 0.5 {
        ((0xc6, 0xdb, 0xef), (0xe5, 0xf5, 0xe0), t * 2.0)
    } else {
        ((0xe5, 0xf5, 0xe0), (0xfd, 0xd0, 0xa2), t * 2.0 - 1.0)
    };
    let mix = |x: i32, y: i32| (x as f64 + (y - x) as f64 * u + 0.5) as u8;
    alloc::format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Thread colours of the SVG pictures, by thread mod 32: one colour per thread of a warp
/// (CuTe's `print_latex` has 8, kept in the TikZ output). Light enough for black labels
/// (CIELAB lightness 72 to 93) and chosen farthest-first, so that any two differ by at least
/// 15 in CIELAB and the first threads differ most.
pub(crate) const THREAD_COLORS: [&str; THREAD_COLOR_COUNT] = [
    "#b4b4f9", "#5ff25f", "#f2ad5f", "#5ff2de", "#f1e6da", "#e8f25f", "#f797b1", "#9bcf81",
    "#f797f7", "#5fcbf2", "#f7ea97", "#5ff29a", "#e6a289", "#fbd0f3", "#b4f4f9", "#abf47b",
    "#bcf1ca", "#bcd1f1", "#cfb581", "#f2d55f", "#eba2dd", "#e0aeb4", "#97f7b7", "#81cfc0",
    "#dde0ae", "#d0f797", "#5fe8f2", "#f9cbb4", "#81cfa0", "#89b5e6", "#d9e170", "#81c0cf",
];

/// Fill of cells reached by no (thread, value) pair.
pub(crate) const UNREACHED_COLOR: &str = "#9e9e9e";
/// Fill of cells reached by several (thread, value) pairs.
pub(crate) const MULTI_COLOR: &str = "#e53935";

/// Width of a character of the 12 px monospace font, in pixels (DejaVu Sans Mono: 0.602 em).
const CHAR_W: f64 = 7.3;
/// Space between panels and around the picture.
const MARGIN: f64 = 12.0;
const GAP: f64 = 36.0;
const TITLE_H: f64 = 20.0;
const NOTE_H: f64 = 15.0;
const HEAD_H: f64 = 16.0;
/// Up to this many columns, cells widen to fit the natural column coordinates; past it the
/// coordinates shrink to fit the cells (and are left out below 6 px).
const WIDEN_COLS: usize = 32;

/// The SVG picture of `layout`: its values on its 2-D grid, coloured by value, with row and
/// column headers showing the 1-D and natural coordinates (see the [module docs](self)).
///
/// Cell `(m, n)` holds `f(L(m + M n))` where `M` is the size of mode 0 and `f` the style's
/// post-map (identity by default).
///
/// # Errors
/// [`LayoutError::TooLarge`] if the layout has more than
/// [`MAX_PICTURE_CELLS`](super::MAX_PICTURE_CELLS) points.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, render::{self, Style}};
/// let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?; // 01_layout.md's example
/// let svg = render::svg(&l, &Style::new())?;
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<rect class=\"o").count(), 8);   // one cell per point
/// assert!(svg.contains(">(1,0)</text>"));                    // natural column coordinates
/// let big: Layout = "(1048576,1048576):(1,1048576)".parse()?;
/// assert!(render::svg(&big, &Style::new()).is_err());       // refused, not attempted
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(alias = "print_svg")]
pub fn svg(layout: &Layout, style: &Style<'_>) -> Result<String, LayoutError> {
    let grid = Grid::of_layout("svg", layout, style)?;
    let title = match style.title {
        Some(t) => String::from(t),
        None => alloc::format!("{layout}"),
    };
    let mut panel = Panel::of_grid(title, grid);
    if style.color_range {
        let values = panel.cells.iter().filter_map(|c| match c.paint {
            Paint::Offset(v) => Some(v),
            _ => None,
        });
        let (lo, hi) = values.fold((i64::MAX, i64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        // The span as i128: values may be anywhere in i64.
        let span = (i128::from(hi) - i128::from(lo) + 1).max(1);
        let shades = style.palette.map_or(RANGE_SHADES, |p| p.len() as i64);
        for c in &mut panel.cells {
            if let Paint::Offset(v) = c.paint {
                let k = (i128::from(v) - i128::from(lo)) * i128::from(shades) / span;
                c.paint = Paint::Range(k as i64);
            }
        }
        panel.notes.push(match style.palette {
            Some(p) => alloc::format!(
                "colour = where the value lies in [{lo}, {hi}] ({} shades of the palette)",
                p.len()
            ),
            None => alloc::format!(
                "colour = where the value lies in [{lo}, {hi}] (light blue: smallest, light orange: largest)"
            ),
        });
    } else if style.color_shift > 0 {
        for c in &mut panel.cells {
            if let Paint::Offset(v) = c.paint {
                c.paint = Paint::Offset(v >> style.color_shift);
            }
        }
        let group = 1i64 << style.color_shift;
        let n = style.palette.map_or(8, <[_]>::len);
        panel.notes.push(alloc::format!(
            "colour = value / {group} mod {n} (groups of {group} consecutive offsets)"
        ));
    }
    Ok(write_svg(&[panel], &[], style))
}

/// Escapes `&`, `<`, `>` and `"` for XML text and attributes.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The smallest height, in pixels on screen, of a cell whose label a fitted picture
/// ([`Style::fit`]) still writes.
pub const MIN_LABEL_PX: f64 = 10.0;

/// The opening of an SVG picture of `width` by `height` user units, shown `scale` times that
/// size (its `width` and `height` attributes; 1 outside [`Style::fit`]), with text of
/// `font_size` pixels, and the style rules every picture shares (centred cell text, `.title`,
/// `.note`); the caller adds its own rules and closes the `<style>` element.
pub(crate) fn open_svg(s: &mut String, width: f64, height: f64, scale: f64, font_size: u32) {
    let (shown_w, shown_h) = if scale < 1.0 {
        (ceil(width * scale), ceil(height * scale))
    } else {
        (width, height)
    };
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{shown_w}\" height=\"{shown_h}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans Mono, monospace\" \
         font-size=\"{font_size}\">\n<style>\n\
         text{{text-anchor:middle;fill:#000}}\n\
         .title{{font-size:13px;font-weight:bold;text-anchor:start}}\n\
         .note{{font-size:11px;fill:#444;text-anchor:start}}\n"
    );
}

/// `x` rounded up to an integer (`f64::ceil` needs `std`).
fn ceil(x: f64) -> f64 {
    let t = x as i64 as f64;
    if t < x {
        t + 1.0
    } else {
        t
    }
}

/// Width of `chars` characters at `font` px, rounded up to whole pixels so that every
/// coordinate in the picture is a multiple of 0.5 and prints exactly.
fn text_w(chars: usize, font: f64) -> f64 {
    ceil(chars as f64 * CHAR_W * font / 12.0)
}

/// Bank colours: hues around the colour wheel (a conflict-free row is a rainbow, a bank
/// conflict repeats a colour), odd banks darker than even ones so that neighbours differ.
fn hue_color(k: i64, n: i64) -> String {
    let n = n.max(1);
    let h = (k.rem_euclid(n) * 360 / n) as f64;
    let (l, s) = (if k % 2 == 1 { 0.70 } else { 0.85 }, 0.75);
    let c = (1.0 - (2.0 * l - 1.0f64).max(1.0 - 2.0 * l)) * s;
    let hp = h / 60.0;
    let frac = hp - 2.0 * ((hp / 2.0) as i64 as f64);
    let x = c * (1.0 - if frac > 1.0 { frac - 1.0 } else { 1.0 - frac });
    let (r, g, b) = match hp as i64 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0 + 0.5) as u8;
    alloc::format!("#{:02x}{:02x}{:02x}", to(r), to(g), to(b))
}

/// How many value and thread colours a picture has: the palette's, else the defaults.
#[derive(Clone, Copy)]
struct Counts {
    offsets: usize,
    threads: usize,
}

impl Counts {
    fn of(style: &Style<'_>) -> Counts {
        match style.palette {
            Some(p) => Counts {
                offsets: p.len(),
                threads: p.len(),
            },
            None => Counts {
                offsets: OFFSET_COLORS.len(),
                threads: THREAD_COLOR_COUNT,
            },
        }
    }
}

/// The CSS class of a paint.
fn class(p: Paint, banks: i64, n: Counts) -> String {
    match p {
        Paint::Offset(v) => alloc::format!("o{}", v.rem_euclid(n.offsets as i64)),
        Paint::Thread(t) => alloc::format!("t{}", t.rem_euclid(n.threads as i64)),
        Paint::Bank(b) => alloc::format!("b{}", b.rem_euclid(banks.max(1))),
        Paint::Unreached => String::from("none"),
        Paint::Multi => String::from("multi"),
        Paint::Range(k) => alloc::format!("r{k}"),
    }
}

/// Geometry of one panel.
struct Geometry {
    cw: f64,
    ch: f64,
    two_lines: bool,
    row_index_w: f64,
    row_coord: Option<(Vec<String>, f64)>,
    col_coord: Option<(Vec<String>, f64)>,
    notes_w: f64,
    head_top: f64,
}

impl Geometry {
    fn of(p: &Panel) -> Geometry {
        let mut max_chars = 1;
        let mut two_lines = false;
        for c in &p.cells {
            let (a, b) = c.label.lines();
            max_chars = max_chars.max(a.len());
            if let Some(b) = b {
                two_lines = true;
                max_chars = max_chars.max(b.len());
            }
        }
        let digits = |n: usize| alloc::format!("{}", n.saturating_sub(1)).len();
        max_chars = max_chars.max(digits(p.cols));
        let mut cw = (text_w(max_chars, 12.0) + 10.0).max(26.0);
        // Widen the cells to fit the natural column coordinates at 11 px (as the "Index
        // Mapping" figure of 01_layout.md does) unless that makes a very wide picture.
        if !p.col_shape.is_int() && p.cols > 1 && p.cols <= WIDEN_COLS {
            let w = coord_labels(&p.col_shape, p.cols)
                .iter()
                .map(String::len)
                .max()
                .unwrap_or(1);
            cw = cw.max(text_w(w, 11.0) + 8.0);
        }
        let ch = if two_lines { 32.0 } else { 22.0 };
        let row_index_w = text_w(digits(p.rows), 11.0) + 10.0;
        let row_coord = (!p.row_shape.is_int() && p.rows > 1).then(|| {
            let labels = coord_labels(&p.row_shape, p.rows);
            let w = labels.iter().map(String::len).max().unwrap_or(1);
            (labels, text_w(w, 11.0) + 10.0)
        });
        let col_coord = (!p.col_shape.is_int() && p.cols > 1)
            .then(|| {
                let labels = coord_labels(&p.col_shape, p.cols);
                let w = labels.iter().map(String::len).max().unwrap_or(1);
                // Shrink the font to fit the cell; leave the line out below 6 px.
                let font = (11.0f64).min((cw - 3.0) / (w as f64 * CHAR_W / 12.0));
                let font = (font * 2.0) as i64 as f64 / 2.0;
                (font >= 6.0).then_some((labels, font))
            })
            .flatten();
        let notes_w = p
            .row_notes
            .iter()
            .map(|s| text_w(s.len(), 11.0) + 12.0)
            .fold(0.0, f64::max);
        let head_top = TITLE_H + NOTE_H * p.notes.len() as f64;
        Geometry {
            cw,
            ch,
            two_lines,
            row_index_w,
            row_coord,
            col_coord,
            notes_w,
            head_top,
        }
    }

    fn left(&self) -> f64 {
        self.row_index_w + self.row_coord.as_ref().map_or(0.0, |(_, w)| *w)
    }

    fn top(&self) -> f64 {
        self.head_top + HEAD_H + self.col_coord.as_ref().map_or(0.0, |(_, f)| f + 6.0)
    }

    fn width(&self, p: &Panel, title_chars: usize) -> f64 {
        (self.left() + p.cols as f64 * self.cw + self.notes_w).max(text_w(title_chars, 13.0))
    }

    fn height(&self, p: &Panel) -> f64 {
        self.top() + p.rows as f64 * self.ch
    }
}

/// Writes panels side by side, then `caption` lines below them, in the style's palette if it has
/// one.
pub(crate) fn write_svg(panels: &[Panel], caption: &[String], style: &Style<'_>) -> String {
    let counts = Counts::of(style);
    let geos: Vec<Geometry> = panels.iter().map(Geometry::of).collect();
    let title_chars = |p: &Panel| {
        p.notes
            .iter()
            .map(|n| n.len() * 11 / 13)
            .fold(p.title.chars().count(), usize::max)
    };
    let mut width = MARGIN;
    let mut xs = Vec::with_capacity(panels.len());
    let mut height: f64 = 0.0;
    for (p, g) in panels.iter().zip(&geos) {
        xs.push(width);
        width += g.width(p, title_chars(p)) + GAP;
        height = height.max(g.height(p));
    }
    width += MARGIN - GAP;
    let cap_w = caption
        .iter()
        .map(|c| text_w(c.chars().count(), 11.0))
        .fold(0.0, f64::max);
    let width = ceil(width.max(cap_w + 2.0 * MARGIN));
    let height = ceil(height + 2.0 * MARGIN + NOTE_H * caption.len() as f64);

    // Classes used.
    let mut used_offset = alloc::vec![false; counts.offsets];
    let mut used_thread = alloc::vec![false; counts.threads];
    let shades = style.palette.map_or(RANGE_SHADES, |p| p.len() as i64);
    let mut used_range = alloc::vec![false; shades as usize];
    let mut bank_count: i64 = 0;
    let (mut unreached, mut multi, mut hl) = (false, false, false);
    for p in panels {
        hl |= p.highlight.iter().any(|&h| h);
        for c in &p.cells {
            match c.paint {
                Paint::Offset(v) => {
                    used_offset[v.rem_euclid(counts.offsets as i64) as usize] = true
                }
                Paint::Thread(t) => {
                    used_thread[t.rem_euclid(counts.threads as i64) as usize] = true
                }
                Paint::Bank(_) => bank_count = bank_count.max(p.banks.max(1)),
                Paint::Unreached => unreached = true,
                Paint::Multi => multi = true,
                Paint::Range(k) => used_range[k.clamp(0, shades - 1) as usize] = true,
            }
        }
    }

    let scale = style.fit_scale(width, height);
    let cells: usize = panels.iter().map(|p| p.cells.len()).sum();
    let mut s = String::with_capacity(1024 + cells * 80);
    open_svg(&mut s, width, height, scale, 12);
    s.push_str(
        ".h{font-size:11px;fill:#555}\n\
         .rn{font-size:11px;fill:#000;text-anchor:start}\n\
         .gl{fill:none;stroke:#333;stroke-width:1}\n\
         .g1{fill:none;stroke:#000;stroke-width:2}\n\
         .g2{fill:none;stroke:#000;stroke-width:3}\n\
         .g3{fill:none;stroke:#000;stroke-width:4}\n",
    );
    if hl {
        s.push_str(".hl{fill:none;stroke:#d50000;stroke-width:4;stroke-linecap:square}\n");
    }
    let fill = |k: usize, default: &dyn Fn(usize) -> String| match style.palette {
        Some(p) => p.get(k).map_or_else(|| default(k), |c| c.hex()),
        None => default(k),
    };
    for (k, used) in used_offset.iter().enumerate() {
        if *used {
            let c = fill(k, &|k| String::from(OFFSET_COLORS[k % 8]));
            let _ = writeln!(s, ".o{k}{{fill:{c}}}");
        }
    }
    for (k, used) in used_range.iter().enumerate() {
        if *used {
            let c = fill(k, &|k| range_color(k as i64));
            let _ = writeln!(s, ".r{k}{{fill:{c}}}");
        }
    }
    for (k, used) in used_thread.iter().enumerate() {
        if *used {
            let c = fill(k, &|k| String::from(THREAD_COLORS[k % THREAD_COLOR_COUNT]));
            let _ = writeln!(s, ".t{k}{{fill:{c}}}");
        }
    }
    if bank_count > 0 {
        for k in 0..bank_count {
            let _ = writeln!(s, ".b{k}{{fill:{}}}", hue_color(k, bank_count));
        }
        s.push_str(".bk{font-size:10px;fill:#333}\n");
    }
    if unreached {
        let _ = writeln!(s, ".none{{fill:{UNREACHED_COLOR}}}");
    }
    if multi {
        let _ = writeln!(s, ".multi{{fill:{MULTI_COLOR}}}");
    }
    s.push_str("</style>\n");
    let _ = writeln!(
        s,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>"
    );

    for ((p, g), &x0) in panels.iter().zip(&geos).zip(&xs) {
        let labels = g.ch * scale >= MIN_LABEL_PX;
        write_panel(&mut s, p, g, x0, MARGIN, bank_count, counts, labels);
    }
    for (k, c) in caption.iter().enumerate() {
        let y = height - MARGIN - NOTE_H * (caption.len() - 1 - k) as f64 - 3.0;
        let _ = writeln!(
            s,
            "<text class=\"note\" x=\"{MARGIN}\" y=\"{y}\">{}</text>",
            esc(c)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Writes one panel at `(x0, y0)`; without `labels` (a fitted picture whose cells are too small
/// to read) the cells' text is left out and each run of equal cells in a row is one `<rect>`.
#[allow(clippy::too_many_arguments)]
fn write_panel(
    s: &mut String,
    p: &Panel,
    g: &Geometry,
    x0: f64,
    y0: f64,
    banks: i64,
    counts: Counts,
    labels: bool,
) {
    let _ = writeln!(
        s,
        "<g class=\"panel\">\n<text class=\"title\" x=\"{x0}\" y=\"{}\">{}</text>",
        y0 + 14.0,
        esc(&p.title)
    );
    for (k, n) in p.notes.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text class=\"note\" x=\"{x0}\" y=\"{}\">{}</text>",
            y0 + TITLE_H + NOTE_H * k as f64 + 11.0,
            esc(n)
        );
    }
    let gx = x0 + g.left();
    let gy = y0 + g.top();
    let (cw, ch) = (g.cw, g.ch);

    // Headers.
    s.push_str("<g class=\"headers\">\n");
    let idx_y = y0 + g.head_top + 12.0;
    for n in 0..p.cols {
        let _ = writeln!(
            s,
            "<text class=\"h\" x=\"{}\" y=\"{idx_y}\">{n}</text>",
            gx + cw * (n as f64 + 0.5)
        );
    }
    if let Some((labels, font)) = &g.col_coord {
        let y = y0 + g.head_top + HEAD_H + font + 1.0;
        let _ = writeln!(s, "<g style=\"font-size:{font:.1}px;fill:#555\">");
        for (n, l) in labels.iter().enumerate() {
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{y}\">{}</text>",
                gx + cw * (n as f64 + 0.5),
                esc(l)
            );
        }
        s.push_str("</g>\n");
    }
    for m in 0..p.rows {
        let y = gy + ch * (m as f64 + 0.5) + 4.0;
        let _ = writeln!(
            s,
            "<text class=\"h\" x=\"{}\" y=\"{y}\">{m}</text>",
            gx - g.row_index_w / 2.0
        );
        if let Some((labels, w)) = &g.row_coord {
            if let Some(l) = labels.get(m) {
                let _ = writeln!(
                    s,
                    "<text class=\"h\" x=\"{}\" y=\"{y}\">{}</text>",
                    gx - g.row_index_w - w / 2.0,
                    esc(l)
                );
            }
        }
    }
    s.push_str("</g>\n");

    // Cells.
    s.push_str("<g class=\"cells\">\n");
    if !labels {
        let cols = p.cols.max(1);
        for (m, row) in p.cells.chunks(cols).enumerate() {
            let mut n = 0;
            while n < row.len() {
                let cls = class(row[n].paint, banks, counts);
                let run = row[n..]
                    .iter()
                    .take_while(|c| class(c.paint, banks, counts) == cls)
                    .count();
                let _ = writeln!(
                    s,
                    "<rect class=\"{cls}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{ch}\"/>",
                    gx + cw * n as f64,
                    gy + ch * m as f64,
                    cw * run as f64
                );
                n += run;
            }
        }
    }
    for (k, c) in p.cells.iter().enumerate().filter(|_| labels) {
        let (m, n) = (k / p.cols.max(1), k % p.cols.max(1));
        let _ = writeln!(
            s,
            "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{cw}\" height=\"{ch}\"/>",
            class(c.paint, banks, counts),
            gx + cw * n as f64,
            gy + ch * m as f64
        );
    }
    s.push_str("</g>\n<g class=\"labels\">\n");
    for (k, c) in p.cells.iter().enumerate().filter(|_| labels) {
        let (m, n) = (k / p.cols.max(1), k % p.cols.max(1));
        let x = gx + cw * (n as f64 + 0.5);
        let (a, b) = c.label.lines();
        match (c.label, b) {
            (Label::Empty, _) => {
                let _ = writeln!(
                    s,
                    "<text x=\"{x}\" y=\"{}\"></text>",
                    gy + ch * m as f64 + ch / 2.0 + 4.0
                );
            }
            (_, Some(b)) => {
                let y = gy + ch * m as f64 + 13.0;
                let _ = writeln!(
                    s,
                    "<text x=\"{x}\" y=\"{y}\">{}<tspan class=\"bk\" x=\"{x}\" dy=\"13\">{}</tspan></text>",
                    esc(&a),
                    esc(&b)
                );
            }
            (_, None) => {
                let y = gy + ch * m as f64 + ch / 2.0 + 4.0;
                let _ = writeln!(s, "<text x=\"{x}\" y=\"{y}\">{}</text>", esc(&a));
            }
        }
    }
    s.push_str("</g>\n");
    let _ = g.two_lines;

    // Grid lines: thin everywhere, heavier at the periods of hierarchical modes.
    let (w, h) = (cw * p.cols as f64, ch * p.rows as f64);
    let mut d = String::new();
    for m in 0..=p.rows {
        let _ = write!(d, "M{gx} {}h{w}", gy + ch * m as f64);
    }
    for n in 0..=p.cols {
        let _ = write!(d, "M{} {gy}v{h}", gx + cw * n as f64);
    }
    let _ = writeln!(s, "<path class=\"gl\" d=\"{d}\"/>");
    let cp = periods(&p.col_shape);
    let rp = periods(&p.row_shape);
    for level in 0..cp.len().max(rp.len()) {
        let mut d = String::new();
        if let Some(&per) = cp.get(level) {
            for n in (per..p.cols).step_by(per) {
                let _ = write!(d, "M{} {gy}v{h}", gx + cw * n as f64);
            }
        }
        if let Some(&per) = rp.get(level) {
            for m in (per..p.rows).step_by(per) {
                let _ = write!(d, "M{gx} {}h{w}", gy + ch * m as f64);
            }
        }
        if !d.is_empty() {
            let _ = writeln!(s, "<path class=\"g{}\" d=\"{d}\"/>", (level + 1).min(3));
        }
    }

    // Highlight: the outline of the highlighted cells.
    if p.highlight.iter().any(|&h| h) {
        let on = |m: usize, n: usize| p.highlight.get(m * p.cols + n).copied().unwrap_or(false);
        let mut d = String::new();
        for m in 0..p.rows {
            for n in 0..p.cols {
                if !on(m, n) {
                    continue;
                }
                let (x, y) = (gx + cw * n as f64, gy + ch * m as f64);
                if m == 0 || !on(m - 1, n) {
                    let _ = write!(d, "M{x} {y}h{cw}");
                }
                if m + 1 == p.rows || !on(m + 1, n) {
                    let _ = write!(d, "M{x} {}h{cw}", y + ch);
                }
                if n == 0 || !on(m, n - 1) {
                    let _ = write!(d, "M{x} {y}v{ch}");
                }
                if n + 1 == p.cols || !on(m, n + 1) {
                    let _ = write!(d, "M{} {y}v{ch}", x + cw);
                }
            }
        }
        let _ = writeln!(s, "<path class=\"hl\" d=\"{d}\"/>");
    }

    // Row notes.
    for (m, note) in p.row_notes.iter().enumerate() {
        let y = gy + ch * (m as f64 + 0.5) + 4.0;
        let _ = writeln!(
            s,
            "<text class=\"rn\" x=\"{}\" y=\"{y}\">{}</text>",
            gx + w + 8.0,
            esc(note)
        );
    }
    s.push_str("</g>\n");
}

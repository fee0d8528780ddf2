//! Options shared by every picture: the offset post-map hook, the title and the colours.

use core::fmt;

use super::color::Color;

/// How many threads have colours of their own before they repeat: a warp.
pub(crate) const THREAD_COLOR_COUNT: usize = 32;

/// The largest number of cells a picture (SVG, LaTeX, bank view, each panel of an operation
/// picture) accepts: 64Ki, four times a 128 x 128 tile. A larger request (say a `2^40`-point
/// layout) is refused with [`LayoutError::TooLarge`](crate::LayoutError::TooLarge) before
/// anything is computed; at this limit an SVG is about 6.5 MB.
pub const MAX_PICTURE_CELLS: i64 = 1 << 16;

/// How to draw: an optional offset post-map and an optional title.
///
/// # The offset post-map hook
///
/// Every picture function draws the values a layout yields. With
/// [`Style::post_map`] each value `x` is replaced by `f(x)` before it is labelled, coloured,
/// assigned a bank or compared: the picture is then the one of `f ∘ L`. This is how composed
/// layouts such as CuTe's `Sw<B,M,S> o 0 o L` (a swizzle after a layout) are drawn and
/// bank-analysed: pass the swizzle as `f`. Thread-value pictures apply `f` to the tile index the
/// layout yields. `f` must not panic; it may return any `i64` (the bank of a negative address is
/// taken with `rem_euclid`).
///
/// Name what you draw with [`Style::title`], since the library cannot print `f`
/// (e.g. `"Sw<3,4,3> o 0 o (8,64):(64,1)"`).
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, render::{self, Style}};
/// let l: Layout = "(4,4):(4,1)".parse()?;
/// // A swizzle-like post-map: xor bit 2 into bit 0 (Sw<1,0,2>).
/// let sw = |x: i64| x ^ ((x & 0b100) >> 2);
/// let svg = render::svg(&l, &Style::new().post_map(&sw).title("Sw<1,0,2> o 0 o (4,4):(4,1)"))?;
/// assert!(svg.contains("Sw&lt;1,0,2&gt; o 0 o (4,4):(4,1)"));
/// assert!(svg.contains(">5</text>")); // L(1,0) = 4 becomes 4 ^ 1 = 5
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Default)]
pub struct Style<'a> {
    pub(crate) post: Option<&'a dyn Fn(i64) -> i64>,
    pub(crate) title: Option<&'a str>,
    pub(crate) color_shift: u32,
    pub(crate) color_range: bool,
    pub(crate) thread: Option<i64>,
    pub(crate) palette: Option<&'a [Color]>,
    pub(crate) fit: Option<(f64, f64)>,
}

impl<'a> Style<'a> {
    /// No post-map, the layout's own text as the title.
    pub fn new() -> Self {
        Style::default()
    }

    /// Applies `f` to every value the layout yields before drawing it (see the type's docs).
    pub fn post_map(self, f: &'a dyn Fn(i64) -> i64) -> Self {
        Style {
            post: Some(f),
            ..self
        }
    }

    /// The name printed above the picture (and in the LaTeX header comment) instead of the
    /// layout's text form.
    pub fn title(self, title: &'a str) -> Self {
        Style {
            title: Some(title),
            ..self
        }
    }

    /// Colours the cells of a layout picture by `(value >> shift) mod 8` instead of
    /// `value mod 8` (shift at most 62). For a swizzle `Sw<B,M,S>`, `shift = M` colours each
    /// group of `2^M` consecutive offsets alike, so the permutation the swizzle makes of the
    /// groups shows (by value mod 8, `Sw<3,4,3>` would look like its unswizzled layout).
    ///
    /// ```
    /// # use cute_layout::{Layout, render::{self, Style}};
    /// let l: Layout = "(4,4):(4,1)".parse()?;
    /// let svg = render::svg(&l, &Style::new().color_by_bits(2))?;
    /// assert_eq!(svg.matches("<rect class=\"o0\"").count(), 4); // values 0..4: one colour
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn color_by_bits(self, shift: u32) -> Self {
        Style {
            color_shift: shift.min(62),
            ..self
        }
    }

    /// Colours the cells of a layout picture by where their value lies between the smallest
    /// and the largest value (16 shades, light blue to light orange) instead of by value mod 8:
    /// a large layout then shows the order of its offsets rather than stripes.
    ///
    /// ```
    /// # use cute_layout::{Layout, render::{self, Style}};
    /// let l: Layout = "(16,16):(16,1)".parse()?;
    /// let svg = render::svg(&l, &Style::new().color_by_range())?;
    /// assert_eq!(svg.matches("<rect class=\"r0\"").count(), 16); // the first row
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn color_by_range(self) -> Self {
        Style {
            color_range: true,
            ..self
        }
    }

    /// Outlines the cells of thread `t` in a thread-value picture ([`svg_tv`](super::svg_tv)).
    pub fn highlight_thread(self, t: i64) -> Self {
        Style {
            thread: Some(t),
            ..self
        }
    }

    /// Paints cells with `palette[k mod N]` instead of the default colours, `k` the value or
    /// the thread a cell is coloured by (CuTe's colour function of `print_latex`); see
    /// [`render::color`](super::color). An empty palette is ignored.
    pub fn palette(self, palette: &'a [Color]) -> Self {
        Style {
            palette: (!palette.is_empty()).then_some(palette),
            ..self
        }
    }

    /// Fits an SVG picture into `width` x `height` pixels: the picture keeps its `viewBox` (its
    /// own units) and its `width` and `height` attributes are scaled down to fit, the aspect
    /// kept (a picture that fits already keeps its size). Where a cell is then shown smaller than
    /// [`MIN_LABEL_PX`](super::svg::MIN_LABEL_PX) pixels high, the cells' labels are left out
    /// (the colours, grid and headers stay), so that a large picture stays light.
    ///
    /// ```
    /// # use cute_layout::{Layout, render::{self, Style}};
    /// let l: Layout = "(64,64):(64,1)".parse()?;
    /// let svg = render::svg(&l, &Style::new().fit(800.0, 600.0))?;
    /// assert!(svg.contains("width=\"800\"") && svg.contains("viewBox=\"0 0 2608 ")); // shown 800 px wide
    /// assert!(!svg.contains(">4095</text>")); // cells of 7 px: no labels
    /// let small: Layout = "(4,8):(8,1)".parse()?;
    /// let fitted = render::svg(&small, &Style::new().fit(800.0, 600.0))?;
    /// assert_eq!(fitted, render::svg(&small, &Style::new())?); // fits already
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fit(self, width: f64, height: f64) -> Self {
        Style {
            fit: Some((width.max(1.0), height.max(1.0))),
            ..self
        }
    }

    /// The factor a picture of `width` x `height` units is shown at: at most 1, and small
    /// enough to fit the box of [`Style::fit`] if one is set.
    pub(crate) fn fit_scale(&self, width: f64, height: f64) -> f64 {
        match self.fit {
            Some((w, h)) => (w / width.max(1.0)).min(h / height.max(1.0)).min(1.0),
            None => 1.0,
        }
    }

    /// How many colours the threads of an SVG picture cycle through: the palette's, else one
    /// per thread of a warp.
    pub(crate) fn thread_colors(&self) -> usize {
        self.palette.map_or(THREAD_COLOR_COUNT, <[_]>::len)
    }

    /// The palette colour of `k`, if a palette is set.
    pub(crate) fn color_of(&self, k: i64) -> Option<Color> {
        let p = self.palette?;
        p.get(k.rem_euclid(p.len() as i64) as usize).copied()
    }

    /// `f(x)` with the post-map, `x` without.
    #[inline]
    pub(crate) fn map(&self, x: i64) -> i64 {
        match self.post {
            Some(f) => f(x),
            None => x,
        }
    }
}

impl fmt::Debug for Style<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Style")
            .field("post_map", &self.post.map(|_| "fn(i64) -> i64"))
            .field("title", &self.title)
            .field("color_shift", &self.color_shift)
            .field("color_range", &self.color_range)
            .field("thread", &self.thread)
            .field("palette", &self.palette)
            .field("fit", &self.fit)
            .finish()
    }
}

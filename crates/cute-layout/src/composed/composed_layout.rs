//! Composed layouts: `swizzle ∘ offset ∘ layout`, CuTe's `ComposedLayout<Swizzle, Offset, Layout>`.
//!
//! A swizzle is not a layout (it is not linear), so `composition(Sw, L)` cannot be folded into
//! a new shape and stride: CuTe keeps the three parts and evaluates `Sw(offset + L(c))`. The
//! inner layout defines the domain (shape, size, rank, modes); the swizzle and the offset only
//! post-process the offsets it produces. Text form, as CuTe prints it:
//! `Sw<3,4,3> o 0 o (8,64):(64,1)`.
//!
//! ```
//! use cute_layout::{ComposedLayout, IntTuple};
//! // An 8 x 64 row-major tile of shared memory, swizzled so that a column spreads over banks.
//! let smem: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
//! assert_eq!(smem.size(), 512);
//! let column: Vec<i64> = (0..8).map(|r| smem.index(&IntTuple::flat([r, 0])).unwrap()).collect();
//! assert_eq!(column, [0, 64, 144, 208, 288, 352, 432, 496]); // 64r: bits 7..9 XORed into 4..6
//! // The inner layout and the per-offset function are available separately.
//! assert_eq!(smem.layout().to_string(), "(8,64):(64,1)");
//! assert_eq!(smem.post(128), Some(144));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Operations that act on the domain (modes, flatten, coalesce, composition with a tiler on the
//! right, divides, products, slicing) act on the inner layout and keep the swizzle and offset, as
//! in CuTe. Composing a layout on the *left* (`L ∘ (Sw ∘ L2)`), and the inverses, move the
//! swizzle through a layout; that is only correct when the layout acts on the bits of the
//! offsets the swizzle sees (see [`Layout::compose_swizzle`]; for negative offsets only a layout
//! `x -> 2^k x` does, see [`Layout::compose_composed`]), which is checked.
//!
//! CuTe nests composed layouts (`(Sw0 o 0 o L) ∘ (Sw1 o 0 o L2)` is `Sw0 o 0 o Sw1' o 0 o L'`);
//! a [`ComposedLayout`] is therefore a chain of (swizzle, offset) layers over one layout, printed
//! outermost first. A chain of no layers is a plain layout and prints as one.

use core::fmt;
use core::str::FromStr;

use smallvec::SmallVec;

use crate::algebra::Tiler;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::{LayoutError, ParseError};
use crate::layout::int_tuple::IntTuple;
use crate::layout::parse::Parser;
use crate::layout::Layout;

/// Inline capacity for the layers of a composed layout.
type Layers = SmallVec<[(Swizzle, i64); 2]>;

/// The shape queries of a layout wrapper whose domain is that of its field `layout` (the inner
/// layout): `shape`, `size`, `cosize` (documented by the attributes given), `rank` and `depth`,
/// each the inner layout's.
macro_rules! inner_layout_queries {
    ($(#[$cosize_doc:meta])*) => {
        /// The shape (of the inner layout).
        pub fn shape(&self) -> $crate::IntTuple {
            self.layout.shape()
        }

        /// Size of the domain.
        pub fn size(&self) -> i64 {
            self.layout.size()
        }

        $(#[$cosize_doc])*
        pub fn cosize(&self) -> u64 {
            self.layout.cosize()
        }

        /// Number of top-level modes.
        pub fn rank(&self) -> usize {
            self.layout.rank()
        }

        /// Nesting depth of the shape.
        pub fn depth(&self) -> usize {
            self.layout.depth()
        }
    };
}
pub(crate) use inner_layout_queries;

/// `Sw ∘ offset ∘ L`, CuTe's `ComposedLayout<Swizzle, Offset, Layout>`: the value at a
/// coordinate `c` is `Sw(offset + L(c))`. Text form as CuTe prints it:
/// `Sw<3,4,3> o 0 o (8,64):(64,1)`.
///
/// A swizzle is not linear, so `composition(Sw, L)` cannot be folded into a new shape and stride;
/// the parts are kept. The inner layout defines the domain (shape, size, rank, modes); the
/// swizzle and offset post-process its offsets ([`ComposedLayout::post`]). Operations on the
/// domain (modes, flatten, coalesce, composition with a tiler on the right, divides, products,
/// slicing) act on the inner layout and keep the layers, as in CuTe. Composing a layout on the
/// left and the inverses move the swizzle through a layout, which is checked
/// ([`Layout::compose_swizzle`]). CuTe nests composed layouts; this type is a chain of
/// (swizzle, offset) layers over one layout, printed outermost first and applied innermost
/// first; a chain of no layers is a plain layout and prints as one.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, Swizzle};
/// let sw: Swizzle = "Sw<1,0,2>".parse()?;
/// let l: Layout = "(4,4):(4,1)".parse()?;
/// let c = sw.compose_layout(&l);
/// assert_eq!(c.to_string(), "Sw<1,0,2> o 0 o (4,4):(4,1)");
/// assert!((0..16).all(|i| c.index_1d(i) == Some(sw.apply(l.index_1d(i).unwrap()))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// Outermost first, as printed.
    layers: Layers,
    layout: Layout,
}

impl From<Layout> for ComposedLayout {
    /// The layout itself (no layers).
    fn from(layout: Layout) -> Self {
        ComposedLayout {
            layers: Layers::new(),
            layout,
        }
    }
}

/// Smallest and largest value of `sw(x)` for `x` in `[lo, hi]`: a swizzle changes only bits below
/// its top toggled bit `t`, so values stay in the same aligned block of `2^t`.
fn swizzle_bounds(sw: &Swizzle, (lo, hi): (i64, i64)) -> (i64, i64) {
    if sw.is_identity() {
        return (lo, hi);
    }
    let z = sw.zzz_mask();
    let t = 64 - i64::from(z.leading_zeros());
    let low = (1i64 << t) - 1;
    (lo & !low, hi | low)
}

impl ComposedLayout {
    /// CuTe `composition(sw, offset, layout)` (`make_composed_layout`): `sw ∘ offset ∘ layout`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if `offset` plus an offset of the layout, or the swizzled
    /// value, leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c = ComposedLayout::new("Sw<3,4,3>".parse()?, 0, "(8,64):(64,1)".parse()?)?;
    /// assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_composed_layout")]
    pub fn new(swizzle: Swizzle, offset: i64, layout: Layout) -> Result<Self, LayoutError> {
        Self::from_layers([(swizzle, offset)], layout)
    }

    /// A chain of layers over `layout`, outermost first: the value is
    /// `sw0(o0 + sw1(o1 + ... L(c)))`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] as in [`ComposedLayout::new`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Swizzle};
    /// let sw = Swizzle::new(2, 0, 3)?;
    /// let c = ComposedLayout::from_layers([(sw, 0), (sw, 0)], "(8,8):(1,8)".parse()?)?;
    /// assert_eq!(c.to_string(), "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)");
    /// assert!((0..64).all(|i| c.index_1d(i) == Some(i))); // a swizzle twice is the identity
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_layers(
        layers: impl IntoIterator<Item = (Swizzle, i64)>,
        layout: Layout,
    ) -> Result<Self, LayoutError> {
        let c = ComposedLayout {
            layers: layers.into_iter().collect(),
            layout,
        };
        c.checked_bounds()?;
        Ok(c)
    }

    fn checked_bounds(&self) -> Result<(i64, i64), LayoutError> {
        let mut b = self.layout.image_bounds();
        for (sw, off) in self.layers.iter().rev() {
            let lo = b.0.checked_add(*off);
            let hi = b.1.checked_add(*off);
            let (Some(lo), Some(hi)) = (lo, hi) else {
                return Err(LayoutError::overflow("make_composed_layout"));
            };
            b = swizzle_bounds(sw, (lo, hi));
        }
        Ok(b)
    }

    /// Bounds `(lo, hi)` with `lo <= self(c) <= hi` for every coordinate `c` of the domain: the
    /// inner layout's [`Layout::image_bounds`], shifted by the offsets and widened to the aligned
    /// blocks the swizzles permute within (exact for the usual power-of-two tiles).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c: ComposedLayout = "Sw<3,4,3> o 512 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.image_bounds(), (512, 1023));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn image_bounds(&self) -> (i64, i64) {
        // Checked on construction.
        self.checked_bounds().unwrap_or((i64::MIN, i64::MAX))
    }

    /// The inner layout (CuTe `layout_b()`): it defines the domain.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The layers, outermost first (CuTe `layout_a()` and `offset()` of each level).
    pub fn layers(&self) -> &[(Swizzle, i64)] {
        &self.layers
    }

    /// The outermost swizzle (the identity for a plain layout).
    pub fn swizzle(&self) -> Swizzle {
        self.layers.first().map_or(Swizzle::IDENTITY, |l| l.0)
    }

    /// The outermost offset (0 for a plain layout).
    pub fn offset(&self) -> i64 {
        self.layers.first().map_or(0, |l| l.1)
    }

    /// CuTe's `get_swizzle_portion`: the outermost swizzle, or `Sw<0,4,3>` (the identity CuTe
    /// returns) for a plain layout.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.swizzle_portion().to_string(), "Sw<3,4,3>");
    /// let l: ComposedLayout = "(8,64):(64,1)".parse()?;
    /// assert_eq!(l.swizzle_portion().to_string(), "Sw<0,4,3>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "get_swizzle_portion")]
    pub fn swizzle_portion(&self) -> Swizzle {
        self.layers
            .first()
            .map_or(Swizzle::CUTE_NO_SWIZZLE, |l| l.0)
    }

    /// CuTe's `get_nonswizzle_portion`: what the outermost swizzle is applied to, without its
    /// offset (CuTe's `layout_b()`); the layout itself for a plain layout.
    ///
    /// # Laws
    /// * For one layer `Sw o O o L`: `self(c) == swizzle_portion()(O + nonswizzle_portion()(c))`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c: ComposedLayout = "Sw<3,4,3> o 2 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.nonswizzle_portion().to_string(), "(8,64):(64,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "get_nonswizzle_portion")]
    pub fn nonswizzle_portion(&self) -> ComposedLayout {
        ComposedLayout {
            layers: self.layers.iter().skip(1).copied().collect(),
            layout: self.layout.clone(),
        }
    }

    /// The inner layout if there are no layers.
    pub fn as_layout(&self) -> Option<&Layout> {
        self.layers.is_empty().then_some(&self.layout)
    }

    /// The function applied to the inner layout's offsets: `post(v) = sw0(o0 + sw1(o1 + ... v))`,
    /// so that `self(c) == post(layout()(c))`. `None` if an addition overflows.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c: ComposedLayout = "Sw<2,0,3> o 8 o (8,8):(8,1)".parse()?;
    /// assert_eq!(c.post(9), "Sw<2,0,3>".parse::<cute_layout::Swizzle>()?.apply(17).into());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn post(&self, v: i64) -> Option<i64> {
        let mut v = v;
        for (sw, off) in self.layers.iter().rev() {
            v = sw.apply(v.checked_add(*off)?);
        }
        Some(v)
    }

    /// `post` for offsets of the inner layout's domain (no overflow, checked on construction).
    #[inline]
    pub(crate) fn post_in_domain(&self, v: i64) -> i64 {
        let mut v = v;
        for (sw, off) in self.layers.iter().rev() {
            v = sw.apply(v.wrapping_add(*off));
        }
        v
    }

    fn with_layout(&self, layout: Layout) -> Result<Self, LayoutError> {
        Self::from_layers(self.layers.iter().copied(), layout)
    }

    fn map(
        &self,
        f: impl FnOnce(&Layout) -> Result<Layout, LayoutError>,
    ) -> Result<Self, LayoutError> {
        self.with_layout(f(&self.layout)?)
    }

    inner_layout_queries! {
        /// CuTe's `cosize` of a composed layout: the inner layout's cosize. With a swizzle or an
        /// offset this is not a bound on the values (a swizzle may move a value past it);
        /// [`ComposedLayout::image_bounds`] is.
    }

    /// The value at any kind of coordinate (1-D, R-D, natural): `post(layout().index(c))`.
    ///
    /// # Errors
    /// As [`Layout::index`]; [`LayoutError::Overflow`] if the value leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// assert_eq!(c.index(&"(1,2)".parse()?)?, 7); // L = 6, bit 2 set: 6 ^ 1
    /// assert_eq!(c.index(&"9".parse()?)?, 7); // the same point as a 1-D index
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "crd2idx")]
    pub fn index(&self, coord: &IntTuple) -> Result<i64, LayoutError> {
        let v = self.layout.index(coord)?;
        self.post(v).ok_or(LayoutError::overflow("crd2idx"))
    }

    /// The 1-D function on the domain: `Some(self(i))` for `0 <= i < size`, else `None`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// assert_eq!(c.index_1d(6), Some(9));
    /// assert_eq!(c.index_1d(16), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn index_1d(&self, i: i64) -> Option<i64> {
        self.layout.index_1d(i).map(|v| self.post_in_domain(v))
    }

    /// The 1-D function at any integer (the last mode runs on past the end).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the value leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// assert_eq!(c.index_any(17)?, 8); // (1,4) with the last mode running on: 8
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index_any(&self, i: i64) -> Result<i64, LayoutError> {
        let v = self.layout.index_any(i)?;
        self.post(v).ok_or(LayoutError::overflow("crd2idx"))
    }

    /// Values of the whole domain in colexicographic order (the inner layout's odometer walk,
    /// post-processed).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 0 o 4:1".parse()?;
    /// assert_eq!(c.offsets().collect::<Vec<_>>(), [0, 1, 3, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn offsets(&self) -> impl Iterator<Item = i64> + '_ {
        self.layout.offsets().map(move |v| self.post_in_domain(v))
    }

    /// Mode `i` (CuTe `get<i>`): the layers over mode `i` of the inner layout.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// assert_eq!(c.mode(1).unwrap().to_string(), "Sw<1,0,2> o 0 o 4:1");
    /// assert!(c.mode(2).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mode(&self, i: usize) -> Option<Self> {
        self.layout.mode(i).and_then(|m| self.with_layout(m).ok())
    }

    /// The sub-layout at a hierarchical index path, with the layers.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,(2,2)):(4,(1,2))".parse()?;
    /// assert_eq!(c.mode_at(&[1, 1]).unwrap().to_string(), "Sw<1,0,2> o 0 o 2:2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mode_at(&self, path: &[usize]) -> Option<Self> {
        self.layout
            .mode_at(path)
            .and_then(|m| self.with_layout(m).ok())
    }

    /// CuTe `flatten` of the inner layout.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o ((2,2),4):((8,4),1)".parse()?;
    /// assert_eq!(c.flatten().to_string(), "Sw<1,0,2> o 0 o (2,2,4):(8,4,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flatten(&self) -> Self {
        ComposedLayout {
            layers: self.layers.clone(),
            layout: self.layout.flatten(),
        }
    }

    /// CuTe `coalesce` of the inner layout (same function).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(1,4)".parse()?;
    /// let k = c.coalesce();
    /// assert_eq!(k.to_string(), "Sw<1,0,2> o 0 o 16:1");
    /// assert!(k.offsets().eq(c.offsets()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce(&self) -> Self {
        ComposedLayout {
            layers: self.layers.clone(),
            layout: self.layout.coalesce(),
        }
    }

    /// CuTe `group<begin,end>` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::group_modes`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (2,2,4):(1,2,4)".parse()?;
    /// assert_eq!(c.group_modes(0, 2)?.to_string(), "Sw<1,0,2> o 0 o ((2,2),4):((1,2),4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group_modes(&self, begin: usize, end: usize) -> Result<Self, LayoutError> {
        self.map(|l| l.group_modes(begin, end))
    }

    /// CuTe `take<begin,end>` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::take_modes`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (2,2,4):(1,2,4)".parse()?;
    /// assert_eq!(c.take_modes(1, 3)?.to_string(), "Sw<1,0,2> o 0 o (2,4):(2,4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn take_modes(&self, begin: usize, end: usize) -> Result<Self, LayoutError> {
        self.map(|l| l.take_modes(begin, end))
    }

    /// CuTe `composition(self, tiler)`: the layers over `layout() ∘ tiler`.
    ///
    /// # Laws
    /// * `R(c) == post(layout() ∘ tiler)(c)`: the tiler re-indexes the domain only.
    ///
    /// # Errors
    /// As [`Layout::compose_tiler`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
    /// let t: Tiler = "(8,8)".parse()?;
    /// assert_eq!(c.compose_tiler(&t)?.to_string(), "Sw<3,4,3> o 0 o (8,8):(64,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_tiler(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.compose_tiler(tiler))
    }

    /// CuTe `composition(self, rhs)` with a layout on the right.
    ///
    /// # Errors
    /// As [`Layout::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Layout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let b: Layout = "4:4".parse()?;
    /// let r = c.compose(&b)?;
    /// assert_eq!(r.to_string(), "Sw<1,0,2> o 0 o 4:1");
    /// assert!((0..4).all(|i| r.index_1d(i) == c.index_any(b.index_1d(i).unwrap()).ok()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose(&self, rhs: &Layout) -> Result<Self, LayoutError> {
        self.map(|l| l.compose(rhs))
    }

    /// CuTe `composition(self, rhs)` with a composed layout on the right:
    /// `layers ∘ (layout() ∘ rhs)`, the chain of both (see [`Layout::compose_composed`]).
    ///
    /// # Errors
    /// As [`Layout::compose_composed`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let a: ComposedLayout = "Sw<2,0,3> o 0 o (8,8):(8,1)".parse()?;
    /// let b: ComposedLayout = "Sw<2,0,-3> o 0 o (8,8):(8,1)".parse()?;
    /// let r = a.compose_composed(&b)?;
    /// assert_eq!(r.to_string(), "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)"); // CuTe unit test
    /// assert!((0..64).all(|i| r.index_1d(i) == a.index_any(b.index_1d(i).unwrap()).ok()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_composed(&self, rhs: &ComposedLayout) -> Result<Self, LayoutError> {
        let inner = self.layout.compose_composed(rhs)?;
        Self::from_layers(
            self.layers.iter().chain(inner.layers.iter()).copied(),
            inner.layout,
        )
    }

    /// CuTe `composition(self, sw)`: the layers over `layout() ∘ sw` (see
    /// [`Layout::compose_swizzle`]).
    ///
    /// # Errors
    /// As [`Layout::compose_swizzle`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Swizzle};
    /// let c: ComposedLayout = "Sw<1,0,4> o 0 o 32:1".parse()?;
    /// let sw = Swizzle::new(1, 1, 2)?;
    /// let r = c.compose_swizzle(&sw)?;
    /// assert_eq!(r.to_string(), "Sw<1,0,4> o 0 o Sw<1,1,2> o 0 o 32:1");
    /// assert!((0..32).all(|i| r.index_1d(i) == c.index_any(sw.apply(i)).ok()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_swizzle(&self, sw: &Swizzle) -> Result<Self, LayoutError> {
        let inner = self.layout.compose_swizzle(sw)?;
        Self::from_layers(
            self.layers.iter().chain(inner.layers.iter()).copied(),
            inner.layout,
        )
    }

    /// CuTe `with_shape`: `self ∘ col_major(shape)`.
    ///
    /// # Errors
    /// As [`Layout::with_shape`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let r = c.with_shape(&"(2,8)".parse()?)?;
    /// assert_eq!(r.shape().to_string(), "(2,(2,4))"); // compatible with (2,8)
    /// assert!(r.offsets().eq(c.offsets()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_shape(&self, shape: &IntTuple) -> Result<Self, LayoutError> {
        self.map(|l| l.with_shape(shape))
    }

    /// CuTe `logical_divide` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::logical_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.logical_divide(&t)?;
    /// assert_eq!(r.layout(), &c.layout().logical_divide(&t)?);
    /// assert_eq!(r.layers(), c.layers());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn logical_divide(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.logical_divide(tiler))
    }

    /// CuTe `zipped_divide` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::zipped_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.zipped_divide(&t)?;
    /// assert_eq!(r.layout(), &c.layout().zipped_divide(&t)?);
    /// assert_eq!(r.layers(), c.layers());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.zipped_divide(tiler))
    }

    /// CuTe `tiled_divide` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::tiled_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.tiled_divide(&t)?;
    /// assert_eq!(r.layout(), &c.layout().tiled_divide(&t)?);
    /// assert_eq!(r.layers(), c.layers());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tiled_divide(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.tiled_divide(tiler))
    }

    /// CuTe `flat_divide` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::flat_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.flat_divide(&t)?;
    /// assert_eq!(r.layout(), &c.layout().flat_divide(&t)?);
    /// assert_eq!(r.layers(), c.layers());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flat_divide(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.flat_divide(tiler))
    }

    /// CuTe `logical_product` of the inner layout (the layers apply to the product's offsets).
    ///
    /// # Errors
    /// As [`Layout::logical_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.logical_product(&t)?;
    /// assert_eq!(r.layout(), &c.layout().logical_product(&t)?);
    /// assert_eq!(r.size(), 64);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn logical_product(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.logical_product(tiler))
    }

    /// CuTe `zipped_product` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::zipped_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.zipped_product(&t)?;
    /// assert_eq!(r.layout(), &c.layout().zipped_product(&t)?);
    /// assert_eq!(r.size(), 64);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zipped_product(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.zipped_product(tiler))
    }

    /// CuTe `tiled_product` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::tiled_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.tiled_product(&t)?;
    /// assert_eq!(r.layout(), &c.layout().tiled_product(&t)?);
    /// assert_eq!(r.size(), 64);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tiled_product(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.tiled_product(tiler))
    }

    /// CuTe `flat_product` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::flat_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Tiler};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let t: Tiler = "(2,2)".parse()?;
    /// let r = c.flat_product(&t)?;
    /// assert_eq!(r.layout(), &c.layout().flat_product(&t)?);
    /// assert_eq!(r.size(), 64);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flat_product(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.flat_product(tiler))
    }

    /// CuTe `blocked_product` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::blocked_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Layout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let b: Layout = "(2,2):(1,2)".parse()?;
    /// let r = c.blocked_product(&b)?;
    /// assert_eq!(r.layout(), &c.layout().blocked_product(&b)?);
    /// assert_eq!(r.swizzle(), c.swizzle());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn blocked_product(&self, tiler: &Layout) -> Result<Self, LayoutError> {
        self.map(|l| l.blocked_product(tiler))
    }

    /// CuTe `raked_product` of the inner layout.
    ///
    /// # Errors
    /// As [`Layout::raked_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Layout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let b: Layout = "(2,2):(1,2)".parse()?;
    /// let r = c.raked_product(&b)?;
    /// assert_eq!(r.layout(), &c.layout().raked_product(&b)?);
    /// assert_eq!(r.swizzle(), c.swizzle());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn raked_product(&self, tiler: &Layout) -> Result<Self, LayoutError> {
        self.map(|l| l.raked_product(tiler))
    }

    /// CuTe `tile_to_shape` of the inner layout: the usual way to build a swizzled shared-memory
    /// layout from a swizzled atom.
    ///
    /// # Errors
    /// As [`Layout::tile_to_shape`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let atom: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// let smem = atom.tile_to_shape(&"(128,64)".parse()?, None)?;
    /// assert_eq!(smem.to_string(), "Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_to_shape(
        &self,
        shape: &IntTuple,
        order: Option<&IntTuple>,
    ) -> Result<Self, LayoutError> {
        self.map(|l| l.tile_to_shape(shape, order))
    }

    /// CuTe `complement(self, cotarget)`: the complement of the inner layout (a plain layout).
    ///
    /// # Errors
    /// As [`Layout::complement`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o 4:2".parse()?;
    /// assert_eq!(c.complement(16)?.to_string(), "(2,2):(1,8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complement(&self, cotarget: i64) -> Result<Layout, LayoutError> {
        self.layout.complement(cotarget)
    }

    /// CuTe `upcast<N>` of a composed layout: every part seen as elements `n` times wider
    /// (swizzles `Sw<B, M - log2 n, S>`, offsets divided by `n`, the inner layout by
    /// [`Layout::upcast`]).
    ///
    /// # Laws
    /// * `n * R(u) == self(u')` as for [`Layout::upcast`]: a swizzle whose bits all lie at or
    ///   above bit `log2 n` commutes with scaling by `n`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `n` is not a power of two (with layers) and the errors
    /// of [`Layout::upcast`]; [`LayoutError::NotRepresentable`] if a swizzle reads or writes bits
    /// inside a wide element (`M < log2 n`: CuTe then drops those bits and changes the function)
    /// or an offset is not a multiple of `n`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, IntTuple};
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
    /// let u = c.upcast(2)?;
    /// assert_eq!(u.to_string(), "Sw<3,3,3> o 0 o (8,32):(32,1)");
    /// for r in 0..8 {
    ///     for k in 0..32 {
    ///         let wide = u.index(&IntTuple::flat([r, k]))?;
    ///         assert_eq!(2 * wide, c.index(&IntTuple::flat([r, 2 * k]))?);
    ///     }
    /// }
    /// assert_eq!(c.upcast(32).unwrap_err().kind(), "NotRepresentable");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn upcast(&self, n: i64) -> Result<Self, LayoutError> {
        let inner = self.layout.upcast(n)?;
        let mut layers = Layers::new();
        for (sw, off) in &self.layers {
            let moved = sw.upcast(n)?;
            if !sw.is_identity() && moved.base() + n.trailing_zeros() as i64 != sw.base() {
                return Err(LayoutError::NotRepresentable {
                    op: "upcast",
                    what: alloc::format!("{sw} touches bits inside an element {n} times wider"),
                });
            }
            if off % n != 0 {
                return Err(LayoutError::NotRepresentable {
                    op: "upcast",
                    what: alloc::format!("offset {off} is not a multiple of {n}"),
                });
            }
            layers.push((if sw.is_identity() { *sw } else { moved }, off / n));
        }
        Self::from_layers(layers, inner)
    }

    /// CuTe `downcast<N>` of a composed layout: every part seen as elements `n` times narrower
    /// (swizzles `Sw<B, M + log2 n, S>`, offsets times `n`, the inner layout by
    /// [`Layout::downcast`]).
    ///
    /// # Laws
    /// * `n * self(c) == R(c')` where `c'` scales the coordinate of the stride-1 leaf by `n`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `n` is not a power of two (with layers) and the errors
    /// of [`Layout::downcast`]; [`LayoutError::InvalidSwizzle`] past 62 bits;
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, IntTuple};
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
    /// let d = c.downcast(2)?;
    /// assert_eq!(d.to_string(), "Sw<3,5,3> o 0 o (8,128):(128,1)");
    /// for r in 0..8 {
    ///     for k in 0..64 {
    ///         let narrow = d.index(&IntTuple::flat([r, 2 * k]))?;
    ///         assert_eq!(narrow, 2 * c.index(&IntTuple::flat([r, k]))?);
    ///     }
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn downcast(&self, n: i64) -> Result<Self, LayoutError> {
        let inner = self.layout.downcast(n)?;
        let mut layers = Layers::new();
        for (sw, off) in &self.layers {
            let moved = if sw.is_identity() {
                *sw
            } else {
                sw.downcast(n)?
            };
            let off = off
                .checked_mul(n)
                .ok_or(LayoutError::overflow("downcast"))?;
            layers.push((moved, off));
        }
        Self::from_layers(layers, inner)
    }

    /// CuTe `right_inverse`: `R` with `self(R(i)) == i` for `0 <= i < size(R)`. For
    /// `Sw ∘ 0 ∘ L` it is `right_inverse(L) ∘ Sw`, a composed layout again (see
    /// [`Layout::compose_swizzle`]).
    ///
    /// # Laws
    /// * `self.index_any(R.index_1d(i)) == i` for `0 <= i < R.size()`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if an offset is not 0 (CuTe then builds a layout
    /// composed with a swizzle on the right, which this type does not hold), if the swizzle
    /// maps indices of `R`'s domain outside it, or the errors of [`Layout::compose_swizzle`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let r = c.right_inverse()?;
    /// assert_eq!(r.to_string(), "Sw<1,0,-2> o 0 o (4,4):(4,1)"); // CuTe unit test
    /// assert!((0..r.size()).all(|i| c.index_any(r.index_1d(i).unwrap()) == Ok(i)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn right_inverse(&self) -> Result<Self, LayoutError> {
        let inv = self.layout.right_inverse();
        let r = self.inverse_through("right_inverse", inv)?;
        // Condition: every swizzle maps [0, size(R)) into itself, so the inner layout's right
        // inverse sees only indices it inverts.
        let n = r.size();
        for (sw, _) in &self.layers {
            if !maps_prefix_into_itself(sw, n) {
                return Err(LayoutError::NotRepresentable {
                    op: "right_inverse",
                    what: alloc::format!(
                        "{sw} maps indices below {n} outside [0,{n}), so right_inverse({}) ∘ {sw} is no right inverse",
                        self.layout
                    ),
                });
            }
        }
        Ok(r)
    }

    /// CuTe `left_inverse`: `R` with `R(self(i)) == i` for `0 <= i < size` when `self` is
    /// injective. For `Sw ∘ 0 ∘ L` it is `left_inverse(L) ∘ Sw`.
    ///
    /// # Laws
    /// * Injective `self`: `R.index_any(self.index_1d(i)) == i` for `0 <= i < size`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if an offset is not 0, and the errors of
    /// [`Layout::left_inverse`] and [`Layout::compose_swizzle`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 0 o (4,4):(8,1)".parse()?;
    /// let r = c.left_inverse()?;
    /// assert_eq!(r.to_string(), "Sw<1,2,1> o 0 o (8,4):(4,1)"); // CuTe unit test
    /// assert!((0..16).all(|i| r.index_any(c.index_1d(i).unwrap()) == Ok(i)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn left_inverse(&self) -> Result<Self, LayoutError> {
        let inv = self.layout.left_inverse()?;
        self.inverse_through("left_inverse", inv)
    }

    /// `inv ∘ swk ∘ ... ∘ sw0` for the layers `sw0 ∘ ... ∘ swk`, each swizzle moved through `inv`.
    fn inverse_through(&self, op: &'static str, inv: Layout) -> Result<Self, LayoutError> {
        if let Some((_, off)) = self.layers.iter().find(|l| l.1 != 0) {
            return Err(LayoutError::NotRepresentable {
                op,
                what: alloc::format!(
                    "{self} has offset {off}; its inverse composes a swizzle after a layout"
                ),
            });
        }
        // Values the swizzles are applied to: the domain of the inverse, and for a left inverse
        // the image of self (negative where self's strides are).
        let (lo, hi) = self.image_bounds();
        let lo = if op == "left_inverse" { lo.min(0) } else { 0 };
        let reach = hi.max(inv.size() - 1).max(0);
        // R(y) = inv(sw_k(...(sw_0(y)))): the outermost swizzle of self is applied first, so it
        // becomes R's innermost layer.
        let mut layers = Layers::new();
        let mut bounds = (lo, reach);
        for (sw, _) in self.layers.iter() {
            let moved = inv.swizzle_through(op, sw, bounds)?;
            bounds = swizzle_bounds(sw, bounds);
            if !moved.is_identity() {
                layers.push((moved, 0));
            }
        }
        layers.reverse();
        Self::from_layers(layers, inv)
    }
}

/// The number of trailing zero bits that every offset of `l` has (64 if all are 0): the
/// smallest over the strides of modes of extent > 1 (a sum of multiples of `2^z`, of either
/// sign, is one).
fn offsets_trailing_zeros(l: &Layout) -> u32 {
    l.shape
        .iter()
        .zip(l.stride.iter())
        .filter(|&(&s, &d)| s > 1 && d != 0)
        .map(|(_, &d)| d.trailing_zeros())
        .min()
        .unwrap_or(64)
}

/// Whether `sw` maps every `x` in `[0, n)` into `[0, n)` (exact).
///
/// `[0, n)` is the union, over the set bits `k` of `n`, of the blocks `X_k` of the `x` that agree
/// with `n` above bit `k` and have bit `k` clear. As `sw` is an involution, `sw(X_k)` is the set
/// of `y` with `sw(y)` in `X_k`: bit `b` of `sw(y)` is `y_b`, or `y_z ^ y_r` for a toggled bit
/// `z` and the bit `r = z + S` that toggles it. Each constraint involves one bit or one pair
/// `(z, r)`, and pairs are disjoint, so the largest such `y` is found greedily from the top bit
/// down (a free bit is 1; in a pair whose xor is fixed, the higher bit is 1 and the lower one
/// follows). `sw` maps `[0, n)` into itself iff that largest `y` is below `n` for every block.
fn maps_prefix_into_itself(sw: &Swizzle, n: i64) -> bool {
    if sw.is_identity() || n <= 1 {
        return true;
    }
    let (y, z, s) = (sw.yyy_mask(), sw.zzz_mask(), sw.shift());
    let bit = |v: i64, b: i64| (v >> b) & 1;
    for k in (0..63).filter(|&k| bit(n, k) == 1) {
        // Required value of bit b of sw(y) (None: free).
        let need = |b: i64| -> Option<i64> {
            match b.cmp(&k) {
                core::cmp::Ordering::Greater => Some(bit(n, b)),
                core::cmp::Ordering::Equal => Some(0),
                core::cmp::Ordering::Less => None,
            }
        };
        let mut best = 0i64;
        for b in 0..63 {
            let v = if bit(z, b) == 1 {
                // b is toggled by r = b + S: sw(y)_b = y_b ^ y_r, sw(y)_r = y_r.
                let r = b + s;
                let yr = need(r).unwrap_or(1);
                match need(b) {
                    Some(t) if need(r).is_some() => t ^ yr,
                    // y_r free: the higher of b and r is 1, the other follows.
                    Some(t) if r > b => t ^ 1,
                    _ => 1,
                }
            } else if bit(y, b) == 1 {
                let zb = b - s;
                match (need(b), need(zb)) {
                    (Some(t), _) => t,
                    (None, Some(t)) if zb > b => t ^ 1, // y_z is 1, so y_b = t ^ 1
                    _ => 1,
                }
            } else {
                need(b).unwrap_or(1)
            };
            best |= v << b;
        }
        if best >= n {
            return false;
        }
    }
    true
}

impl Swizzle {
    /// CuTe `composition(sw, layout)`: `sw ∘ 0 ∘ layout`; the identity swizzle (`B == 0`) gives
    /// the layout itself (no layer), as in CuTe.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Swizzle};
    /// let l: Layout = "(8,8):(1,8)".parse()?;
    /// assert_eq!(Swizzle::new(1, 2, 3)?.compose_layout(&l).to_string(), "Sw<1,2,3> o 0 o (8,8):(1,8)");
    /// assert_eq!(Swizzle::new(0, 2, 3)?.compose_layout(&l).to_string(), "(8,8):(1,8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_layout(&self, layout: &Layout) -> ComposedLayout {
        let mut layers = Layers::new();
        if !self.is_identity() {
            layers.push((*self, 0));
        }
        // A swizzle keeps a non-negative value within its aligned block; the bounds of a valid
        // layout plus a swizzle of at most 62 bits cannot overflow.
        ComposedLayout {
            layers,
            layout: layout.clone(),
        }
    }
}

impl Swizzle {
    /// CuTe `composition(sw, c)` with a composed layout: `sw ∘ 0 ∘ c`, one more layer (none if
    /// `sw` is the identity).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] as in [`ComposedLayout::new`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Swizzle};
    /// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
    /// let sw = Swizzle::new(1, 2, 1)?;
    /// let r = sw.compose_composed(&c)?;
    /// assert_eq!(r.to_string(), "Sw<1,2,1> o 0 o Sw<1,0,2> o 0 o (4,4):(4,1)");
    /// assert!((0..16).all(|i| r.index_1d(i) == Some(sw.apply(c.index_1d(i).unwrap()))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_composed(&self, c: &ComposedLayout) -> Result<ComposedLayout, LayoutError> {
        let outer = (!self.is_identity()).then_some((*self, 0));
        ComposedLayout::from_layers(
            outer.into_iter().chain(c.layers.iter().copied()),
            c.layout.clone(),
        )
    }
}

impl Layout {
    /// CuTe `composition(layout, sw)`: `R = Sw' ∘ 0 ∘ layout` with `R(x) == layout(sw(x))`,
    /// where `Sw'` is `make_swizzle(layout(yyy), layout(zzz))` (the swizzle moved through the
    /// layout).
    ///
    /// This is only right when the layout acts on bits: it must map the sum of distinct bits
    /// to the combination of their images without carries (extents other than the last powers of
    /// two, the images of single bits non-negative and pairwise disjoint), and move `sw`'s
    /// read and toggled bits to a swizzle's. Both are checked on the bits of the domain and of
    /// the swizzle (at most 62 evaluations), so a returned layout satisfies the law.
    ///
    /// # Laws
    /// * `R.index_1d(i) == self.index_any(sw.apply(i))` for `0 <= i < size`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if the layout does not act on bits as above or moves the
    /// swizzle's bit fields to something that is not a swizzle; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Swizzle};
    /// let l: Layout = "(8,8):(8,1)".parse()?;
    /// let sw = Swizzle::new(2, 0, -3)?;
    /// let r = l.compose_swizzle(&sw)?;
    /// assert_eq!(r.to_string(), "Sw<2,0,3> o 0 o (8,8):(8,1)");
    /// assert!((0..64).all(|i| r.index_1d(i) == l.index_any(sw.apply(i)).ok()));
    /// assert!("(3,4):(1,3)".parse::<Layout>()?.compose_swizzle(&sw).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_swizzle(&self, sw: &Swizzle) -> Result<ComposedLayout, LayoutError> {
        let moved = self.swizzle_through("composition", sw, (0, self.size() - 1))?;
        Ok(moved.compose_layout(self))
    }

    /// CuTe `composition(layout, sw ∘ 0 ∘ inner)` = `(layout ∘ sw) ∘ inner`: the chain of the
    /// swizzles moved through `self`, over `self ∘ inner`.
    ///
    /// # Laws
    /// * `R.index_1d(i) == self.index_any(rhs.index_1d(i))` for `0 <= i < rhs.size()`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if an offset of `rhs` is not 0 (CuTe: "Require
    /// offset == 0."), if a swizzle of `rhs` cannot be moved through `self` (see
    /// `swizzle_through`'s conditions: in particular, where `rhs`'s inner layout has negative
    /// offsets, a swizzle that reads a bit of them moves only through a layout `x -> 2^k x`;
    /// one that reads none of their bits is the identity there and is dropped), and the errors
    /// of [`Layout::compose`].
    ///
    /// CuTe moves the swizzle through `self` without these checks and prints wrong layouts, e.g.
    /// `(4,4):(4,1) ∘ (Sw<1,0,2> o 0 o 4:-1)` as `Sw<1,0,-2> o 0 o 4:-4` (values 0,-4,-8,-12;
    /// `A(B(i))` is 0,-8,-4,-1): refused here.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, Layout};
    /// let l: Layout = "(8,8):(8,1)".parse()?;
    /// let b: ComposedLayout = "Sw<2,0,-3> o 0 o (8,8):(8,1)".parse()?;
    /// let r = l.compose_composed(&b)?;
    /// assert_eq!(r.to_string(), "Sw<2,0,3> o 0 o (8,8):(1,8)"); // CuTe unit test
    /// assert!((0..64).all(|i| r.index_1d(i) == l.index_any(b.index_1d(i).unwrap()).ok()));
    /// // Negative offsets: Sw<1,0,-1> reads bit 0, which no offset of (4,8):(-16,-2) has.
    /// let a: Layout = "(2,(8,4)):(16,(32,1))".parse()?;
    /// let b: ComposedLayout = "Sw<1,0,-1> o 0 o (4,8):(-16,-2)".parse()?;
    /// assert_eq!(a.compose_composed(&b)?.to_string(), "(4,8):(-1,-32)");
    /// let b: ComposedLayout = "Sw<1,0,2> o 0 o 4:-1".parse()?;
    /// assert!("(4,4):(4,1)".parse::<Layout>()?.compose_composed(&b).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_composed(&self, rhs: &ComposedLayout) -> Result<ComposedLayout, LayoutError> {
        if let Some((_, off)) = rhs.layers.iter().find(|l| l.1 != 0) {
            return Err(LayoutError::NotRepresentable {
                op: "composition",
                what: alloc::format!("{rhs} has offset {off}; composition requires offset 0"),
            });
        }
        let inner = self.compose(&rhs.layout)?;
        let (lo, hi) = rhs.layout.image_bounds();
        let mut layers = Layers::new();
        if lo >= 0 {
            // The swizzles see non-negative offsets, up to rhs's image bound.
            let reach = rhs.image_bounds().1.max(0);
            for (sw, _) in &rhs.layers {
                let moved = self.swizzle_through("composition", sw, (0, reach))?;
                if !moved.is_identity() {
                    layers.push((moved, 0));
                }
            }
        } else {
            // Some offsets the swizzles see are negative. A swizzle that reads no bit of any of
            // them is the identity there and is dropped (the offsets are unchanged for the next
            // one); any other must move through self for negative offsets too (see
            // `swizzle_through`, condition 0).
            let mut zeros = offsets_trailing_zeros(&rhs.layout);
            let mut bounds = (lo, hi);
            for (sw, _) in rhs.layers.iter().rev() {
                if sw.yyy_mask() >> zeros == 0 {
                    continue;
                }
                let moved = self.swizzle_through("composition", sw, bounds)?;
                bounds = swizzle_bounds(sw, bounds);
                // The offsets it toggles may now have their low bits set.
                zeros = zeros.min(sw.zzz_mask().trailing_zeros());
                if !moved.is_identity() {
                    layers.push((moved, 0));
                }
            }
            layers.reverse();
        }
        ComposedLayout::from_layers(layers, inner)
    }

    /// The swizzle `Sw'` with `self(sw(x)) == Sw'(self(x))` for every integer `x` in `bounds`
    /// (`lo <= x <= hi`), or the reason there is none that this can prove.
    ///
    /// # The condition, and why it suffices
    /// Let `n` be the number of bits of `max(hi, |lo|)`, and at least `sw`'s top bit, so that `x`
    /// and `sw(x)` lie in `[0, 2^n)` when `x >= 0` (a swizzle only changes bits below its top
    /// bit, and keeps the sign).
    ///
    /// 0. If `lo < 0` (the swizzle is applied to negative offsets), `self` must be `x -> d x` on
    ///    all integers: its modes coalesce (with the last one running on) to one, `d`. For
    ///    negative `x`, truncating division makes `self(x) = -self(-x)`, and a swizzle does not
    ///    commute with negation (`Sw<1,0,2>` maps `-1` to `-2` but `1` to `1`), so no other
    ///    layout is known to move it. With `d = 2^k` (checked by 2 and 3 below), `self` is a left
    ///    shift by `k` in two's complement, and `Sw<B,M,S>` moves to `Sw<B,M+k,S>` for every `x`.
    /// 1. The extents other than the last are powers of two, so for `0 <= x < 2^n`, `self(x)` is
    ///    the sum of `self(2^b)` over the set bits `b` of `x` (each mode reads a field of bits; the
    ///    last mode runs on).
    /// 2. The images `I_b = self(2^b)`, `b < n`, are non-negative and pairwise disjoint as bit
    ///    sets, so that sum is an xor: `self` is GF(2)-linear on `[0, 2^n)`.
    /// 3. `Sw' = make_swizzle(self(yyy), self(zzz))` exists, and for every bit `b < n`,
    ///    `shiftr'(I_b & yyy', S') == I_{b - S}` if `b` is a read bit of `sw`, else 0: `Sw'` toggles
    ///    in `self(x)` exactly the images of the bits `sw` toggles in `x`.
    ///
    /// Then for `0 <= x <= hi`: `sw(x) = x ^ t(x)` with `t(x)` the toggled bits, so by 1-2
    /// `self(sw(x)) = self(x) ^ self(t(x))`, and by 3 (linearity of `x -> shiftr'(self(x) & yyy', S')`)
    /// `Sw'(self(x)) = self(x) ^ self(t(x))`. Conditions 1-3 are checked on the `n <= 62` bits,
    /// never on the points.
    pub(crate) fn swizzle_through(
        &self,
        op: &'static str,
        sw: &Swizzle,
        bounds: (i64, i64),
    ) -> Result<Swizzle, LayoutError> {
        if sw.is_identity() {
            return Ok(Swizzle::IDENTITY);
        }
        let (lo, reach) = bounds;
        let fail = |why: alloc::string::String| LayoutError::NotRepresentable {
            op,
            what: alloc::format!("{self} does not commute {sw} into a swizzle: {why}"),
        };
        // Condition 0: negative offsets only through x -> d x.
        if lo < 0 && crate::algebra::linear_stride_x(&self.shape, &self.stride).is_none() {
            return Err(fail(alloc::format!(
                "the swizzle is applied to negative offsets (down to {lo}), and only a layout x -> 2^k x moves a swizzle there"
            )));
        }
        // Condition 1: extents other than the last are powers of two, so self(x) is the sum of
        // the images of x's bits (the last mode runs on).
        let n = self.shape.len();
        for (k, &s) in self.shape.iter().enumerate() {
            if k + 1 < n && s & (s - 1) != 0 {
                return Err(fail(alloc::format!("extent {s} is not a power of two")));
            }
        }
        let far = reach.max(0).max(lo.checked_neg().unwrap_or(i64::MAX));
        let bits = (64 - i64::from(far.leading_zeros())).max(sw.top_bit());
        if bits > 62 {
            return Err(LayoutError::overflow(op));
        }
        // Condition 2: the images of single bits are non-negative and disjoint, so the sum is an
        // XOR and self is linear over bits.
        let mut images: SmallVec<[i64; 64]> = SmallVec::new();
        let mut seen = 0i64;
        for b in 0..bits {
            let v = self.index_any(1i64 << b)?;
            if v < 0 || v & seen != 0 {
                return Err(fail(alloc::format!(
                    "the image {v} of bit {b} is negative or overlaps another bit's"
                )));
            }
            seen |= v;
            images.push(v);
        }
        let y = self.index_any(sw.yyy_mask())?;
        let z = self.index_any(sw.zzz_mask())?;
        let moved = Swizzle::from_masks(y, z).map_err(|e| fail(alloc::format!("{e}")))?;
        // Condition 3: bit by bit, what sw toggles in the image equals what the moved swizzle
        // toggles: shiftr'(image(b) & Y') == image(b - S) for a read bit b, 0 otherwise.
        let shiftr = |v: i64, s: i64| if s >= 0 { v >> s } else { v << -s };
        for b in 0..bits {
            let want = if sw.yyy_mask() >> b & 1 == 1 {
                images[usize::try_from(b - sw.shift()).map_err(|_| LayoutError::overflow(op))?]
            } else {
                0
            };
            let got = shiftr(images[b as usize] & moved.yyy_mask(), moved.shift());
            if got != want {
                return Err(fail(alloc::format!(
                    "bit {b} toggles {got} after moving, {want} before"
                )));
            }
        }
        Ok(moved)
    }
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (sw, off) in &self.layers {
            write!(f, "{sw} o {off} o ")?;
        }
        write!(f, "{}", self.layout)
    }
}

impl fmt::Debug for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ComposedLayout({self})")
    }
}

impl FromStr for ComposedLayout {
    type Err = ParseError;
    /// Parse `Sw<B,M,S> o OFFSET o LAYOUT` (any number of `Sw<..> o OFFSET o` layers, none for a
    /// plain layout), e.g. CuTe's `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let mut layers = Layers::new();
        while p.at_swizzle() {
            let sw = p.swizzle()?;
            p.eat(b'o', "'o'")?;
            let off = p.int()?;
            p.eat(b'o', "'o'")?;
            layers.push((sw, off));
        }
        let at = {
            p.skip_ws();
            p.pos
        };
        let layout = p.layout()?;
        p.finish()?;
        ComposedLayout::from_layers(layers, layout).map_err(|e| ParseError {
            offset: at,
            kind: crate::layout::error::ParseErrorKind::Invalid(e),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact test of [`maps_prefix_into_itself`] against enumeration, for every swizzle of
    /// up to 7 bits and every `n` up to 2^7 + 3.
    #[test]
    fn maps_prefix_into_itself_is_exact() {
        let mut checked = 0;
        for b in 0..4i64 {
            for m in 0..4i64 {
                for s in -7..=7i64 {
                    let Ok(sw) = Swizzle::new(b, m, s) else {
                        continue;
                    };
                    if sw.top_bit() > 7 {
                        continue;
                    }
                    for n in 1..=131i64 {
                        let want = (0..n).all(|x| sw.apply(x) < n);
                        assert_eq!(maps_prefix_into_itself(&sw, n), want, "{sw} on [0,{n})");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}

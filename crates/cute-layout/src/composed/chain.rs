//! General composed layouts: CuTe's `ComposedLayout<A, Offset, B>` with any layout-like outer
//! function `A` (a layout, a swizzle, or another composed layout), e.g. `16:2 o 0 o Sw<2,0,2> o
//! 0 o 16:1` or `32:2 o 3 o (2,4):(1,2)`.
//!
//! [`ComposedLayout`] keeps swizzle layers only (the common shared-memory case, with its fast
//! paths and the algebra that moves a swizzle through a layout). A [`LayoutChain`] allows a
//! layout at any outer level. As in CuTe, the value at a coordinate `c` is
//! `A0(o0 + A1(o1 + ... + L(c)))`: the innermost layout `L` defines the domain (shape, size, rank,
//! depth, modes, cosize), and every operation on the domain (modes, flatten, coalesce, a tiler on
//! the right, divides, products, slicing) acts on `L` and keeps the outer functions. An outer
//! layout is evaluated at an integer with CuTe's 1-D semantics ([`Layout::index_any`]: past its
//! size the last mode runs on).
//!
//! ```
//! use cute_layout::LayoutChain;
//! let c: LayoutChain = "32:2 o 3 o (2,4):(1,2)".parse()?;
//! assert_eq!((c.size(), c.rank(), c.cosize()), (8, 2, 8));
//! assert_eq!(c.index(&"(1,2)".parse()?)?, 16); // 32:2 at 3 + (1 + 4)
//! assert_eq!(c.to_string(), "32:2 o 3 o (2,4):(1,2)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::algebra::Tiler;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::{LayoutError, ParseError};
use crate::layout::int_tuple::IntTuple;
use crate::layout::parse::Parser;
use crate::layout::slice::SliceCoord;
use crate::layout::Layout;
use crate::ComposedLayout;

/// One outer function of a [`LayoutChain`]: a layout (evaluated at an integer) or a swizzle.
// A layout is a small inline value by design (no heap); chains are short.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum OuterFn {
    /// A layout, evaluated with [`Layout::index_any`].
    Layout(Layout),
    /// A swizzle, [`Swizzle::apply`].
    Swizzle(Swizzle),
}

impl OuterFn {
    /// The function at the integer `x`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the value leaves `i64`.
    pub fn apply(&self, x: i64) -> Result<i64, LayoutError> {
        match self {
            OuterFn::Layout(l) => l.index_any(x),
            OuterFn::Swizzle(s) => Ok(s.apply(x)),
        }
    }
}

impl fmt::Display for OuterFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OuterFn::Layout(l) => write!(f, "{l}"),
            OuterFn::Swizzle(s) => write!(f, "{s}"),
        }
    }
}

/// `A0 o o0 o A1 o o1 o ... o L`: CuTe's general `ComposedLayout`, a chain of outer functions
/// (layouts or swizzles, [`OuterFn`]) with offsets over one layout `L`, printed outermost first.
/// The value at `c` is `A0(o0 + A1(o1 + ... + L(c)))`; `L` is the domain.
///
/// # Laws
/// * `self(c) == post(L(c))` for every coordinate `c` (1-D, R-D or natural) of `L`, where
///   `post(v) = A0(o0 + A1(o1 + ... v))` ([`LayoutChain::post`]).
/// * `size`, `shape`, `rank`, `depth`, `cosize` are those of `L` (CuTe).
/// * Operations on the domain act on `L` only: `mode_at(p)(c) == post(L.mode_at(p)(c))`.
///
/// # Examples
/// ```
/// # use cute_layout::LayoutChain;
/// let c: LayoutChain = "16:2 o 0 o Sw<2,0,2> o 0 o 16:1".parse()?;
/// let v: Vec<i64> = c.values()?;
/// assert_eq!(v[..8], [0, 2, 4, 6, 10, 8, 14, 12]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct LayoutChain {
    layers: Vec<(OuterFn, i64)>,
    layout: Layout,
}

impl From<Layout> for LayoutChain {
    fn from(layout: Layout) -> Self {
        LayoutChain {
            layers: Vec::new(),
            layout,
        }
    }
}

impl From<ComposedLayout> for LayoutChain {
    fn from(c: ComposedLayout) -> Self {
        LayoutChain {
            layers: c
                .layers()
                .iter()
                .map(|&(s, o)| (OuterFn::Swizzle(s), o))
                .collect(),
            layout: c.layout().clone(),
        }
    }
}

impl LayoutChain {
    /// CuTe `make_composed_layout(outer, offset, inner)`: `outer o offset o inner`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{LayoutChain, OuterFn};
    /// let c = LayoutChain::new(OuterFn::Layout("32:2".parse()?), 3, "(2,4):(1,2)".parse()?);
    /// assert_eq!(c.to_string(), "32:2 o 3 o (2,4):(1,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_composed_layout")]
    pub fn new(outer: OuterFn, offset: i64, inner: Layout) -> Self {
        Self::from_layers([(outer, offset)], inner)
    }

    /// A chain of layers over `layout`, outermost first.
    pub fn from_layers(layers: impl IntoIterator<Item = (OuterFn, i64)>, layout: Layout) -> Self {
        LayoutChain {
            layers: layers.into_iter().collect(),
            layout,
        }
    }

    /// `outer o offset o inner` for a layout-like `inner`: its layers go under `(outer, offset)`.
    pub fn over(outer: OuterFn, offset: i64, inner: &LayoutChain) -> Self {
        let mut layers = Vec::with_capacity(inner.layers.len() + 1);
        layers.push((outer, offset));
        layers.extend(inner.layers.iter().cloned());
        LayoutChain {
            layers,
            layout: inner.layout.clone(),
        }
    }

    /// The outer functions with their offsets, outermost first.
    pub fn layers(&self) -> &[(OuterFn, i64)] {
        &self.layers
    }

    /// The inner layout `L` (CuTe's innermost `layout_b()`).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The chain as a swizzle-only [`ComposedLayout`] if every outer function is a swizzle.
    pub fn to_composed(&self) -> Option<ComposedLayout> {
        let mut layers = Vec::with_capacity(self.layers.len());
        for (f, o) in &self.layers {
            match f {
                OuterFn::Swizzle(s) => layers.push((*s, *o)),
                OuterFn::Layout(_) => return None,
            }
        }
        ComposedLayout::from_layers(layers, self.layout.clone()).ok()
    }

    /// The function applied to the inner layout's values: `post(v) = A0(o0 + A1(o1 + ... v))`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if a value leaves `i64`.
    pub fn post(&self, v: i64) -> Result<i64, LayoutError> {
        let mut v = v;
        for (f, off) in self.layers.iter().rev() {
            let x = v
                .checked_add(*off)
                .ok_or(LayoutError::overflow("crd2idx"))?;
            v = f.apply(x)?;
        }
        Ok(v)
    }

    crate::composed::composed_layout::inner_layout_queries! {
        /// CuTe's `cosize` of a composed layout: the inner layout's cosize.
    }

    /// The value at any coordinate (1-D, R-D, natural): `post(L(c))`.
    ///
    /// # Errors
    /// As [`Layout::index`]; [`LayoutError::Overflow`] if a value leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)".parse()?;
    /// // L(1,1) = 9; Sw<3,0,3>(9) = 9 ^ 1 = 8; (4,4):(4,1) at 8 = (0,2) -> 2
    /// assert_eq!(c.index(&"(1,1)".parse()?)?, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "crd2idx")]
    pub fn index(&self, coord: &IntTuple) -> Result<i64, LayoutError> {
        self.post(self.layout.index(coord)?)
    }

    /// The values of the whole domain in colexicographic order.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if a value leaves `i64`.
    pub fn values(&self) -> Result<Vec<i64>, LayoutError> {
        self.layout.offsets().map(|v| self.post(v)).collect()
    }

    fn with_layout(&self, layout: Layout) -> Self {
        LayoutChain {
            layers: self.layers.clone(),
            layout,
        }
    }

    /// Applies `f` to the inner layout, keeping the outer functions (CuTe's overloads of the
    /// domain operations for `ComposedLayout`: divides, products, `composition` with a tiler on
    /// the right, `coalesce`, `flatten`, `group`, `take`, ...).
    ///
    /// # Errors
    /// Whatever `f` returns.
    pub fn map(
        &self,
        f: impl FnOnce(&Layout) -> Result<Layout, LayoutError>,
    ) -> Result<Self, LayoutError> {
        Ok(self.with_layout(f(&self.layout)?))
    }

    /// The sub-layout at a hierarchical index path, with the outer functions (CuTe `layout<I...>`).
    pub fn mode_at(&self, path: &[usize]) -> Option<Self> {
        self.layout.mode_at(path).map(|m| self.with_layout(m))
    }

    /// CuTe `composition(self, tiler)`: the outer functions over `L ∘ tiler`.
    ///
    /// # Errors
    /// As [`Layout::compose_tiler`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "16:2 o 0 o Sw<2,0,2> o 0 o 16:1".parse()?;
    /// assert_eq!(c.compose_tiler(&"4".parse()?)?.to_string(), "16:2 o 0 o Sw<2,0,2> o 0 o 4:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_tiler(&self, tiler: &Tiler) -> Result<Self, LayoutError> {
        self.map(|l| l.compose_tiler(tiler))
    }

    /// CuTe `slice_and_offset` of a composed layout: the slice of `L` with its offset moved into
    /// the innermost offset (so the returned offset is 0, as in CuTe).
    ///
    /// # Errors
    /// As [`Layout::slice_and_offset`]; [`LayoutError::Overflow`] for the new offset.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)".parse()?;
    /// let (s, off) = c.slice_and_offset(&"(2,_)".parse()?)?;
    /// assert_eq!((s.to_string(), off), ("(4,4):(4,1) o 0 o Sw<3,0,3> o 16 o (8):(1)".into(), 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice_and_offset(&self, c: &SliceCoord) -> Result<(Self, i64), LayoutError> {
        let (l, off) = self.layout.slice_and_offset(c)?;
        if self.layers.is_empty() {
            return Ok((LayoutChain::from(l), off));
        }
        let mut out = self.with_layout(l);
        let last = out.layers.len() - 1;
        out.layers[last].1 = out.layers[last]
            .1
            .checked_add(off)
            .ok_or(LayoutError::overflow("slice_and_offset"))?;
        Ok((out, 0))
    }

    /// CuTe `domain_offset(coord, layout)`. A plain layout gives `(L, L(c))`; a composed layout
    /// `A o O o B` gives `(A o (O + B(c)) o B, 0)`: the offset of the coordinate moves into the
    /// outermost offset, `B` evaluated whole (its own layers included), as CuTe writes it.
    ///
    /// # Laws
    /// * For a plain layout, `R.1 == L(c)` and `R.0 == L`; for a composed one `R.1 == 0` and
    ///   `R.0(x) == A(O + B(c) + B(x))`.
    ///
    /// # Errors
    /// The errors of [`Layout::index`]; [`LayoutError::Overflow`] if the new offset leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "32:2 o 3 o (2,4):(1,2)".parse()?;
    /// let (r, off) = c.domain_offset(&"(1,2)".parse()?)?;
    /// assert_eq!((r.to_string(), off), ("32:2 o 8 o (2,4):(1,2)".to_string(), 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn domain_offset(&self, coord: &IntTuple) -> Result<(Self, i64), LayoutError> {
        let Some(((outer, off), below)) = self.layers.split_first() else {
            return Ok((self.clone(), self.layout.index(coord)?));
        };
        let inner = LayoutChain::from_layers(below.iter().cloned(), self.layout.clone());
        let shift = inner.index(coord)?;
        let off = off
            .checked_add(shift)
            .ok_or(LayoutError::overflow("domain_offset"))?;
        let mut layers = Vec::with_capacity(self.layers.len());
        layers.push((outer.clone(), off));
        layers.extend(below.iter().cloned());
        Ok((LayoutChain::from_layers(layers, self.layout.clone()), 0))
    }

    /// Whether both are the same function on the same domain size (compared point by point,
    /// at most `limit` points).
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past `limit` points; [`LayoutError::Overflow`] from evaluation.
    pub fn equal_values(&self, other: &LayoutChain, limit: i64) -> Result<bool, LayoutError> {
        if self.size() != other.size() {
            return Ok(false);
        }
        self.check_limit("equal", limit)?;
        Ok(self.values()? == other.values()?)
    }

    /// Fails with [`LayoutError::TooLarge`] if the domain has more than `limit` points.
    ///
    /// # Errors
    /// As said.
    pub fn check_limit(&self, op: &'static str, limit: i64) -> Result<(), LayoutError> {
        if self.size() > limit {
            return Err(LayoutError::TooLarge {
                op,
                what: alloc::format!("{} points to evaluate", self.size()),
                limit,
            });
        }
        Ok(())
    }
}

/// `(swizzle, inner)` of a chain of at most one swizzle layer (CuTe's
/// `ComposedLayout<Swizzle, Offset, Layout>` or a plain layout); `None` otherwise.
fn single_swizzle(c: &LayoutChain) -> Option<(Option<Swizzle>, &Layout)> {
    match c.layers.as_slice() {
        [] => Some((None, &c.layout)),
        [(OuterFn::Swizzle(s), _)] => Some((Some(*s), &c.layout)),
        _ => None,
    }
}

fn swizzle_base(s: &Swizzle) -> i64 {
    1i64 << s.base()
}

impl LayoutChain {
    /// Whether no two points of the domain share a value (by enumeration).
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past [`MAX_ENUMERATED`](crate::analysis::MAX_ENUMERATED)
    /// points; [`LayoutError::Overflow`] from evaluation.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "8:2 o 0 o Sw<2,0,2> o 0 o 8:1".parse()?;
    /// assert!(c.is_injective()?);
    /// assert!(!"2:0 o 0 o 4:1".parse::<LayoutChain>()?.is_injective()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_injective(&self) -> Result<bool, LayoutError> {
        self.check_limit("injective", crate::layout::coord::MAX_ENUMERATED)?;
        let mut v = self.values()?;
        v.sort_unstable();
        Ok(v.windows(2).all(|w| w[0] != w[1]))
    }

    /// Whether every integer between the smallest and the largest value is reached (by
    /// enumeration).
    ///
    /// # Errors
    /// As [`LayoutChain::is_injective`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert!("Sw<3,0,3> o 0 o (8,8):(8,1)".parse::<LayoutChain>()?.is_surjective()?);
    /// assert!(!"8:2 o 0 o 8:1".parse::<LayoutChain>()?.is_surjective()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_surjective(&self) -> Result<bool, LayoutError> {
        self.check_limit("surjective", crate::layout::coord::MAX_ENUMERATED)?;
        let mut v = self.values()?;
        v.sort_unstable();
        v.dedup();
        Ok(v.windows(2).all(|w| w[1] - w[0] == 1))
    }

    /// Whether the chain is a bijection from its domain onto the integers between its smallest
    /// and largest value: injective and surjective.
    ///
    /// # Errors
    /// As [`LayoutChain::is_injective`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert!("Sw<3,0,3> o 0 o (8,8):(8,1)".parse::<LayoutChain>()?.is_bijective()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_bijective(&self) -> Result<bool, LayoutError> {
        Ok(self.is_injective()? && self.is_surjective()?)
    }

    /// CuTe `max_common_vector(a, b)` for layouts and swizzled layouts
    /// (`ComposedLayout<Swizzle, Offset, Layout>`): the plain layouts' common vector, capped at
    /// `2^M` of each swizzle unless both have the same swizzle (CuTe assumes the offset is in
    /// the swizzle's YZ domain). `None` for chains CuTe does not define it on (a layout as an
    /// outer function, or more than one layer).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let a: LayoutChain = "Sw<2,1,3> o 0 o 32:1".parse()?;
    /// assert_eq!(a.max_common_vector(&"32:1".parse()?), Some(2));
    /// assert_eq!(a.max_common_vector(&a), Some(32));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_common_vector(&self, other: &LayoutChain) -> Option<i64> {
        let (sa, la) = single_swizzle(self)?;
        let (sb, lb) = single_swizzle(other)?;
        let vec = la.max_common_vector(lb);
        if sa == sb {
            return Some(vec);
        }
        let cap = |s: Option<Swizzle>| s.map_or(i64::MAX, |s| swizzle_base(&s));
        Some(vec.min(cap(sa)).min(cap(sb)))
    }

    /// CuTe `max_common_layout(a, b)` where one side is a swizzled layout
    /// (`ComposedLayout<Swizzle, Offset, Layout>`) and the other a layout: the plain layouts'
    /// common layout, truncated to `2^M` elements. `None` where CuTe does not define it (two
    /// composed layouts, a layout as an outer function, more than one layer).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let a: LayoutChain = "Sw<2,1,3> o 0 o 32:1".parse()?;
    /// assert_eq!(a.max_common_layout(&"32:1".parse()?).unwrap().to_string(), "2:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_common_layout(&self, other: &LayoutChain) -> Option<Layout> {
        let (sa, la) = single_swizzle(self)?;
        let (sb, lb) = single_swizzle(other)?;
        let common = la.max_common_layout(lb);
        let base = match (sa, sb) {
            (None, None) => return Some(common),
            (Some(s), None) | (None, Some(s)) => swizzle_base(&s),
            (Some(_), Some(_)) => return None,
        };
        if base < common.size() {
            let t = Tiler::from_shape(&IntTuple::int(base))?;
            return common.compose_tiler(&t).ok();
        }
        Some(common)
    }
}

/// Which inverse [`LayoutChain::inverse_cute`] builds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inverse {
    Right,
    Left,
}

impl Inverse {
    fn op(self) -> &'static str {
        match self {
            Inverse::Right => "right_inverse",
            Inverse::Left => "left_inverse",
        }
    }

    fn of(self, l: &Layout) -> Result<Layout, LayoutError> {
        match self {
            Inverse::Right => Ok(l.right_inverse()),
            Inverse::Left => l.left_inverse(),
        }
    }
}

impl LayoutChain {
    /// The value at any integer of the domain with CuTe's 1-D semantics (the inner layout's
    /// last mode runs on past its size, as [`Layout::index_any`]).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if a value leaves `i64`.
    pub fn index_any(&self, i: i64) -> Result<i64, LayoutError> {
        self.post(self.layout.index_any(i)?)
    }

    /// CuTe `composition(self, sw)` with a swizzle on the right: the outer functions over
    /// `L ∘ sw` (CuTe's `composition(ComposedLayout, Tiler)` recurses into the inner layout, and
    /// `composition(Layout, Swizzle)` moves the swizzle out of the layout,
    /// [`Layout::compose_swizzle`]).
    ///
    /// # Laws
    /// * `R.index_any(i) == self.index_any(sw.apply(i))` wherever [`Layout::compose_swizzle`]
    ///   answers (it checks its own law on the inner layout's domain).
    ///
    /// # Errors
    /// As [`Layout::compose_swizzle`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{LayoutChain, Swizzle};
    /// let c: LayoutChain = "32:2 o 3 o (8,8):(8,1)".parse()?;
    /// let r = c.compose_swizzle(&Swizzle::new(3, 0, 3)?)?;
    /// assert_eq!(r.to_string(), "32:2 o 3 o Sw<3,0,-3> o 0 o (8,8):(8,1)"); // CuTe 4.2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_swizzle(&self, sw: &Swizzle) -> Result<Self, LayoutError> {
        let inner = self.layout.compose_swizzle(sw)?;
        let mut layers = self.layers.clone();
        layers.extend(
            inner
                .layers()
                .iter()
                .map(|&(s, o)| (OuterFn::Swizzle(s), o)),
        );
        Ok(LayoutChain::from_layers(layers, inner.layout().clone()))
    }

    /// CuTe `composition(self, rhs)` with a composed layout on the right: the outer functions
    /// of `self` over `self.layout() ∘ rhs` ([`Layout::compose_chain`]; CuTe's
    /// `composition(ComposedLayout, B)` recurses into the inner layout).
    ///
    /// # Laws
    /// * `R(i) == self.index_any(rhs(i))` for `0 <= i < rhs.size()`, and `R`'s shape refines
    ///   `rhs`'s.
    ///
    /// # Errors
    /// As [`Layout::compose_chain`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let a: LayoutChain = "32:2 o 3 o (4,4):(1,16)".parse()?;
    /// let b: LayoutChain = "4:1 o 0 o 8:1".parse()?;
    /// assert_eq!(a.compose_chain(&b)?.to_string(), "32:2 o 3 o (4,2):(1,16)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_chain(&self, rhs: &LayoutChain) -> Result<Self, LayoutError> {
        let inner = self.layout.compose_chain(rhs)?;
        let mut layers = self.layers.clone();
        layers.extend(inner.layers);
        Ok(LayoutChain::from_layers(layers, inner.layout))
    }

    /// CuTe's inverse of `A o O o B` (`layout_composed.hpp`): `inv(B) o -O o inv(A)`, a
    /// composed layout whose domain is that of `inv(A)` (for a swizzle `A`, `inv(A) = A`). The
    /// chain `A0 o o0 o ... o Ak o ok o L` is CuTe's right-nested `ComposedLayout<A0, o0,
    /// ComposedLayout<..., L>>`, inverted from the inside: `inv(L) o -ok o inv(Ak) o ... o -o0 o
    /// inv(A0)`. With `move_swizzles`, a swizzle with offset 0 over a layout is moved through
    /// it as CuTe's `swizzle_layout.hpp` does (`inv(B) ∘ Sw`, [`Layout::compose_swizzle`]),
    /// where that answers; otherwise it stays a layer.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if the innermost function of the answer is a swizzle
    /// (the outermost function of `self` is a swizzle that does not move: a swizzle has no
    /// domain); the errors of [`Layout::left_inverse`]; [`LayoutError::Overflow`].
    fn inverse_cute(&self, which: Inverse, move_swizzles: bool) -> Result<Self, LayoutError> {
        let op = which.op();
        let mut layers: Vec<(OuterFn, i64)> = Vec::with_capacity(self.layers.len());
        let mut inner = OuterFn::Layout(which.of(&self.layout)?);
        for (f, off) in self.layers.iter().rev() {
            if let (OuterFn::Swizzle(sw), OuterFn::Layout(l), true) = (f, &inner, move_swizzles) {
                if *off == 0 {
                    if let Ok(c) = l.compose_swizzle(sw) {
                        layers.extend(c.layers().iter().map(|&(s, o)| (OuterFn::Swizzle(s), o)));
                        inner = OuterFn::Layout(c.layout().clone());
                        continue;
                    }
                }
            }
            let neg = off.checked_neg().ok_or(LayoutError::overflow(op))?;
            let next = match f {
                OuterFn::Layout(a) => OuterFn::Layout(which.of(a)?),
                OuterFn::Swizzle(sw) => OuterFn::Swizzle(*sw),
            };
            layers.push((core::mem::replace(&mut inner, next), neg));
        }
        match inner {
            OuterFn::Layout(l) => Ok(LayoutChain::from_layers(layers, l)),
            OuterFn::Swizzle(sw) => Err(LayoutError::NotRepresentable {
                op,
                what: alloc::format!(
                    "CuTe's {op} of {self} is a composed layout over the swizzle {sw} (its \
                     outermost function, inverted), which has no domain"
                ),
            }),
        }
    }

    /// The first of CuTe's answer (swizzles moved through layouts where they move) and the
    /// answer that keeps every swizzle as a layer that passes `law`; the first one's error if
    /// neither does.
    fn lawful_inverse(
        &self,
        which: Inverse,
        law: impl Fn(&LayoutChain) -> Result<(), LayoutError>,
    ) -> Result<Self, LayoutError> {
        let first = self.inverse_cute(which, true)?;
        let err = match law(&first) {
            Ok(()) => return Ok(first),
            Err(e) => e,
        };
        match self.inverse_cute(which, false) {
            Ok(kept) if kept != first && law(&kept).is_ok() => Ok(kept),
            _ => Err(err),
        }
    }

    /// CuTe `right_inverse` of a composed layout: for `A o O o B`, `right_inverse(B) o -O o
    /// right_inverse(A)` (CuTe `layout_composed.hpp`), and `right_inverse(B) ∘ Sw` for a swizzle
    /// `Sw` with offset 0 (`swizzle_layout.hpp`), applied level by level from the inner layout
    /// out; a swizzle with a non-zero offset stays a layer, and the outer layout's inverse gives
    /// the answer its domain. The answer is CuTe's, checked point by point before it is
    /// returned; where it breaks the law and moving a swizzle was the cause, the answer that
    /// keeps the swizzles as layers is returned if it obeys the law.
    ///
    /// # Laws
    /// * `self.index_any(R.index_any(i)) == i` for `0 <= i < R.size()`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if CuTe's answer breaks the law here (the inner inverse
    /// sees a value outside the domain it inverts: CuTe's composed inverse holds only where
    /// `inv(A)(i) - O` stays in the domain of `inv(B)`), or the outermost function is a swizzle
    /// that does not move into a layout (CuTe's answer is then a composed layout over a
    /// swizzle, with no domain); [`LayoutError::TooLarge`] past
    /// [`MAX_ENUMERATED`](crate::analysis::MAX_ENUMERATED) points to check.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "(4,4):(4,1) o 0 o (2,8):(8,1)".parse()?;
    /// let r = c.right_inverse()?;
    /// assert_eq!(r.to_string(), "(8,2):(2,1) o 0 o (4,4):(4,1)"); // CuTe 4.2
    /// assert!((0..r.size()).all(|i| c.index_any(r.index_any(i).unwrap()) == Ok(i)));
    /// let c: LayoutChain = "32:2 o 3 o (2,4):(1,2)".parse()?;
    /// assert_eq!(c.right_inverse()?.to_string(), "8:1 o -3 o 1:0"); // CuTe 4.2
    /// let c: LayoutChain = "10:1 o 0 o Sw<2,0,2> o 2 o (12,4):(4,1)".parse()?;
    /// let r = c.right_inverse()?;
    /// assert_eq!(r.to_string(), "(4,12):(12,1) o -2 o Sw<2,0,2> o 0 o 10:1"); // CuTe 4.2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn right_inverse(&self) -> Result<Self, LayoutError> {
        self.lawful_inverse(Inverse::Right, |r| {
            r.check_limit("right_inverse", crate::layout::coord::MAX_ENUMERATED)?;
            for i in 0..r.size() {
                let v = self.index_any(r.index_any(i)?)?;
                if v != i {
                    return Err(not_an_inverse("right_inverse", self, r, i, v, i));
                }
            }
            Ok(())
        })
    }

    /// CuTe `left_inverse` of a composed layout: for `A o O o B`, `left_inverse(B) o -O o
    /// left_inverse(A)` (CuTe `layout_composed.hpp`), and `left_inverse(B) ∘ Sw` for a swizzle
    /// `Sw` with offset 0, applied level by level from the inner layout out; a swizzle with a
    /// non-zero offset stays a layer. The answer is CuTe's, checked point by point before it is
    /// returned (with the same fallback as [`LayoutChain::right_inverse`]).
    ///
    /// # Laws
    /// * `self(R(self(i))) == self(i)` for `0 <= i < size` (a quasi-inverse), and
    ///   `R(self(i)) == i` when `self` is injective (`R` evaluated with
    ///   [`LayoutChain::index_any`]).
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if CuTe's answer breaks the law here or the outermost
    /// function is a swizzle that does not move into a layout; the errors of
    /// [`Layout::left_inverse`]; [`LayoutError::TooLarge`] past
    /// [`MAX_ENUMERATED`](crate::analysis::MAX_ENUMERATED) points.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "32:2 o 3 o (2,4):(1,2)".parse()?;
    /// let r = c.left_inverse()?;
    /// assert_eq!(r.to_string(), "8:1 o -3 o (2,32):(0,1)"); // CuTe 4.2
    /// assert!((0..8).all(|i| r.index_any(c.index_any(i).unwrap()) == Ok(i)));
    /// let c: LayoutChain = "12:1 o -4 o Sw<2,2,-2> o 8 o (4):(1)".parse()?;
    /// let r = c.left_inverse()?;
    /// assert_eq!(r.to_string(), "4:1 o -8 o Sw<2,2,-2> o 4 o 12:1"); // CuTe 4.2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn left_inverse(&self) -> Result<Self, LayoutError> {
        let injective = self.is_injective()?;
        self.lawful_inverse(Inverse::Left, |r| {
            for i in 0..self.size() {
                let y = self.index_any(i)?;
                let x = r.index_any(y)?;
                if injective && x != i {
                    return Err(not_an_inverse("left_inverse", self, r, i, x, i));
                }
                let back = self.index_any(x)?;
                if back != y {
                    return Err(not_an_inverse("left_inverse", self, r, i, back, y));
                }
            }
            Ok(())
        })
    }

    /// CuTe `complement(self, cotarget)` of a composed layout: the complement of the inner
    /// layout (CuTe `layout_composed.hpp`); the outer functions do not take part.
    ///
    /// # Laws
    /// * `R == self.layout().complement_shape(cotarget)`: the laws of [`Layout::complement`]
    ///   hold for the inner layout `L` (`R` strictly increasing, `R(i) ∉ image(L)` for
    ///   `i >= 1`).
    ///
    /// # Errors
    /// As [`Layout::complement_shape`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "32:2 o 3 o (2,4):(2,4)".parse()?;
    /// assert_eq!(c.complement(&"64".parse()?)?.to_string(), "(2,4):(1,16)"); // CuTe 4.2
    /// assert_eq!(c.complement_cosize()?.to_string(), "2:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complement(&self, cotarget: &IntTuple) -> Result<Layout, LayoutError> {
        self.layout.complement_shape(cotarget)
    }

    /// CuTe `complement(self)`: the complement of the inner layout up to its cosize (CuTe's
    /// `cosize` of a composed layout is the inner layout's).
    ///
    /// # Errors
    /// As [`Layout::complement_cosize`].
    pub fn complement_cosize(&self) -> Result<Layout, LayoutError> {
        self.layout.complement_cosize()
    }

    /// CuTe `nullspace` of a composed layout: `1:0` whenever there is an outer function (CuTe
    /// does not attempt general composed layouts), the inner layout's nullspace otherwise.
    ///
    /// # Laws
    /// * `size(R) == 1` and `R(0) == 0` with outer functions, so `self(R(i)) == self(0)` for
    ///   `i < size(R)` (the offsets make `self(0)` non-zero in general); without outer
    ///   functions the laws of [`Layout::nullspace`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "32:2 o 3 o (2,4):(0,4)".parse()?;
    /// assert_eq!(c.nullspace().to_string(), "1:0"); // CuTe 4.2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nullspace(&self) -> Layout {
        if self.layers.is_empty() {
            self.layout.nullspace()
        } else {
            crate::algebra::from_flat_unchecked(&[])
        }
    }
}

/// The error for a composed inverse that CuTe's construction gets wrong at point `i`.
fn not_an_inverse(
    op: &'static str,
    c: &LayoutChain,
    r: &LayoutChain,
    i: i64,
    got: i64,
    want: i64,
) -> LayoutError {
    let law = if op == "right_inverse" {
        "C(R(i))"
    } else if got == i && want == i {
        "R(C(i))"
    } else {
        "C(R(C(i)))"
    };
    LayoutError::NotRepresentable {
        op,
        what: alloc::format!(
            "CuTe's {op} of {c} is {r}, which breaks the law at i = {i}: {law} = {got}, not {want}"
        ),
    }
}

impl Layout {
    /// CuTe `composition(self, rhs)` with a composed layout on the right, answered with a
    /// function that equals `self(rhs(i))` at every point of `rhs`'s domain.
    ///
    /// CuTe folds `L ∘ (F o 0 o B)` into `(L ∘ F) ∘ B` (recursively, and moving swizzles
    /// through `L ∘ F`). That is right only while the values `B` feeds `F` stay in `F`'s
    /// domain: past `F`'s size `F` runs on, and `L ∘ F` (a layout of `F`'s size) runs on
    /// differently from `L(F(x))`. So, in order:
    /// 1. a chain of swizzles only: [`Layout::compose_composed`] (it checks its own law);
    /// 2. CuTe's fold, when every offset is 0 and the fold provably equals `self ∘ rhs` on the
    ///    domain: every layer's inputs (the image of the layers below it, folded) lie in
    ///    `[0, size)` of that layer, or, failing that, the fold agrees with `self(rhs(i))` at
    ///    every point (at most [`MAX_ENUMERATED`](crate::analysis::MAX_ENUMERATED));
    /// 3. the fold from the inside, `self ∘ (A0 ∘ (A1 ∘ ... ∘ L))`, when every layer is a
    ///    layout with offset 0 (each [`Layout::compose`] holds on the whole domain below it);
    /// 4. otherwise the chain `self o 0 o rhs`, the same function.
    ///
    /// # Laws
    /// * `R(i) == self.index_any(rhs.index_any(i))` for `0 <= i < rhs.size()`; `R`'s shape
    ///   refines `rhs`'s.
    ///
    /// # Errors
    /// The errors of [`Layout::compose`] for a chain without layers (with layers, the chain
    /// `self o 0 o rhs` is always an answer).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, LayoutChain};
    /// let a: Layout = "(4,4):(1,16)".parse()?;
    /// // CuTe's (a ∘ 4:1) ∘ 8:1 is 8:1; a(i) for i < 8 is 0,1,2,3,16,17,18,19.
    /// let b: LayoutChain = "4:1 o 0 o 8:1".parse()?;
    /// assert_eq!(a.compose_chain(&b)?.to_string(), "(4,2):(1,16)");
    /// // The image of 4:2 stays in 8:1's domain: CuTe's fold.
    /// let b: LayoutChain = "8:1 o 0 o 4:2".parse()?;
    /// assert_eq!(a.compose_chain(&b)?.to_string(), "(2,2):(2,16)");
    /// // An offset: kept as a chain.
    /// let b: LayoutChain = "8:1 o 3 o 4:1".parse()?;
    /// assert_eq!(a.compose_chain(&b)?.to_string(), "(4,4):(1,16) o 0 o 8:1 o 3 o 4:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_chain(&self, rhs: &LayoutChain) -> Result<LayoutChain, LayoutError> {
        if rhs.layers.is_empty() {
            return Ok(self.compose(&rhs.layout)?.into());
        }
        if let Some(c) = rhs.to_composed() {
            if let Ok(r) = self.compose_composed(&c) {
                return Ok(r.into());
            }
        } else if let Some(r) = self.cute_fold(rhs) {
            return Ok(r);
        } else if let Some(r) = self.fold_inside_out(rhs) {
            return Ok(r.into());
        }
        Ok(LayoutChain::over(OuterFn::Layout(self.clone()), 0, rhs))
    }

    /// CuTe's `composition(composition(self, A), B)` for `rhs = A o 0 o B`, recursively, if
    /// every offset is 0, every step answers, and the answer is `self ∘ rhs` on the domain
    /// (see [`Layout::compose_chain`]); `None` otherwise.
    fn cute_fold(&self, rhs: &LayoutChain) -> Option<LayoutChain> {
        if rhs.layers.iter().any(|(_, off)| *off != 0) {
            return None;
        }
        let mut cur = LayoutChain::from(self.clone());
        for (f, _) in &rhs.layers {
            let next = match f {
                OuterFn::Layout(a) => cur.map(|l| l.compose(a)),
                OuterFn::Swizzle(sw) => cur.compose_swizzle(sw),
            };
            cur = next.ok()?;
        }
        let r = cur.map(|l| l.compose(&rhs.layout)).ok()?;
        (inputs_in_domains(rhs) || agrees_with(self, rhs, &r)).then_some(r)
    }

    /// `self ∘ (A0 ∘ (A1 ∘ ... ∘ L))` when every layer of `rhs` is a layout with offset 0 and
    /// every composition answers; `None` otherwise.
    fn fold_inside_out(&self, rhs: &LayoutChain) -> Option<Layout> {
        self.compose(&fold_layers(&rhs.layers, &rhs.layout)?).ok()
    }
}

/// `A0 ∘ (A1 ∘ ... ∘ l)` for layers that are all layouts with offset 0 (by [`Layout::compose`]'s
/// law, equal to `A0(A1(... l(i)))` for every `i` of `l`'s domain); `None` if a layer is not
/// such a layout or a composition refuses.
fn fold_layers(layers: &[(OuterFn, i64)], l: &Layout) -> Option<Layout> {
    let mut cur = l.clone();
    for (f, off) in layers.iter().rev() {
        match (f, off) {
            (OuterFn::Layout(a), 0) => cur = a.compose(&cur).ok()?,
            _ => return None,
        }
    }
    Some(cur)
}

/// Whether every layer of `rhs` (all layouts with offset 0) sees only inputs in `[0, size)` of
/// its layout: the image of the layers below it, folded from the inside ([`fold_layers`]), lies
/// there. Then CuTe's fold `((X ∘ A0) ∘ A1) ∘ ... ∘ L` equals `X(A0(A1(... L(i))))` on `L`'s
/// domain: by induction, `X ∘ A0 ∘ ... ∘ Ak` is evaluated only inside its domain, where
/// [`Layout::compose`]'s law holds.
fn inputs_in_domains(rhs: &LayoutChain) -> bool {
    let mut below = rhs.layout.clone();
    for (f, off) in rhs.layers.iter().rev() {
        let (OuterFn::Layout(a), 0) = (f, off) else {
            return false;
        };
        let (lo, hi) = below.image_bounds();
        if lo < 0 || hi >= a.size() {
            return false;
        }
        below = match a.compose(&below) {
            Ok(l) => l,
            Err(_) => return false,
        };
    }
    true
}

/// Whether `r(i) == x(rhs(i))` at every point of `rhs`'s domain (`false` past
/// [`MAX_ENUMERATED`](crate::analysis::MAX_ENUMERATED) points or on overflow).
fn agrees_with(x: &Layout, rhs: &LayoutChain, r: &LayoutChain) -> bool {
    if rhs.size() > crate::layout::coord::MAX_ENUMERATED || r.size() != rhs.size() {
        return false;
    }
    rhs.layout
        .offsets()
        .zip(r.layout.offsets())
        .all(|(v, w)| match (rhs.post(v), r.post(w)) {
            (Ok(v), Ok(w)) => x.index_any(v) == Ok(w),
            _ => false,
        })
}

impl fmt::Display for LayoutChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (a, off) in &self.layers {
            write!(f, "{a} o {off} o ")?;
        }
        write!(f, "{}", self.layout)
    }
}

impl fmt::Debug for LayoutChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LayoutChain({self})")
    }
}

impl FromStr for LayoutChain {
    type Err = ParseError;
    /// Parse `A o OFFSET o ... o LAYOUT` where each `A` is a layout or `Sw<B,M,S>` (no layers for
    /// a plain layout).
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let mut layers: Vec<(OuterFn, i64)> = Vec::new();
        loop {
            if p.at_swizzle() {
                let sw = p.swizzle()?;
                p.eat(b'o', "'o'")?;
                let off = p.int()?;
                p.eat(b'o', "'o'")?;
                layers.push((OuterFn::Swizzle(sw), off));
                continue;
            }
            let l = p.layout()?;
            if p.peek() == Some(b'o') {
                p.eat(b'o', "'o'")?;
                let off = p.int()?;
                p.eat(b'o', "'o'")?;
                layers.push((OuterFn::Layout(l), off));
                continue;
            }
            p.finish()?;
            return Ok(LayoutChain::from_layers(layers, l));
        }
    }
}

/// Whether `s` is the text of a composed layout with at least one layer (` o ` outside
/// parentheses), as opposed to a plain layout.
pub fn is_composed_text(s: &str) -> bool {
    let t = s.trim_start();
    if t.starts_with("Sw") {
        return true;
    }
    let mut depth = 0i32;
    let b = t.as_bytes();
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'o' if depth == 0 => {
                let before = k == 0 || b[k - 1].is_ascii_whitespace() || b[k - 1] == b')';
                let after = k + 1 >= b.len() || b[k + 1].is_ascii_whitespace();
                if before && after {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn chain(s: &str) -> LayoutChain {
        s.parse().unwrap()
    }

    #[test]
    fn parse_print_round_trip() {
        for s in [
            "32:2 o 3 o (2,4):(1,2)",
            "16:2 o 0 o Sw<2,0,2> o 0 o 16:1",
            "(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)",
            "Sw<3,4,3> o 0 o (8,64):(64,1)",
            "(8,8):(8,1)",
        ] {
            assert_eq!(chain(s).to_string(), s);
        }
        assert!("32:2 o 3".parse::<LayoutChain>().is_err());
        assert!("32:2 o o 3:1".parse::<LayoutChain>().is_err());
        assert!(is_composed_text("32:2 o 3 o 4:1"));
        assert!(!is_composed_text("(2,4):(1,2)"));
    }

    /// Law over a small domain: the value at every coordinate of every inner layout is the
    /// outer function at the offset plus the inner value, for every outer layout and swizzle.
    #[test]
    fn index_law_small_domain() {
        let inners = [
            "(2,4):(1,2)",
            "(4,2):(2,1)",
            "8:1",
            "(2,2,2):(4,1,2)",
            "4:3",
        ];
        let outers = ["32:2", "(4,8):(8,1)", "8:1", "(2,(2,4)):(16,(1,4))"];
        for i in inners {
            let li: Layout = i.parse().unwrap();
            for o in outers {
                let lo: Layout = o.parse().unwrap();
                for off in 0..4 {
                    let c = LayoutChain::new(OuterFn::Layout(lo.clone()), off, li.clone());
                    let c2 = chain(&c.to_string());
                    assert_eq!(c, c2);
                    for k in 0..li.size() {
                        let want = lo.index_any(off + li.index_1d(k).unwrap()).unwrap();
                        assert_eq!(c.index(&IntTuple::int(k)).unwrap(), want);
                        let nat = li.shape().idx2crd(&IntTuple::int(k)).unwrap();
                        assert_eq!(c.index(&nat).unwrap(), want);
                    }
                    let sw = Swizzle::new(1, 0, 2).unwrap();
                    let c3 = LayoutChain::over(OuterFn::Swizzle(sw), 0, &c);
                    for k in 0..li.size() {
                        let want = sw.apply(c.index(&IntTuple::int(k)).unwrap());
                        assert_eq!(c3.index(&IntTuple::int(k)).unwrap(), want);
                    }
                }
            }
        }
    }

    #[test]
    fn domain_ops_keep_layers() {
        let c = chain("16:2 o 0 o Sw<2,0,2> o 0 o 16:1");
        let t: Tiler = "4".parse().unwrap();
        let d = c.map(|l| l.logical_divide(&t)).unwrap();
        assert_eq!(d.to_string(), "16:2 o 0 o Sw<2,0,2> o 0 o (4,4):(1,4)");
        assert_eq!(d.values().unwrap(), c.values().unwrap());
        let m = chain("(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)");
        assert_eq!(
            m.mode_at(&[0]).unwrap().to_string(),
            "(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o 8:8"
        );
        assert!(chain("32:2 o 3 o 4:1").to_composed().is_none());
        assert!(chain("Sw<1,0,1> o 3 o 4:1").to_composed().is_some());
    }

    #[test]
    fn overflow_is_an_error() {
        let c = chain("2:4611686018427387904 o 0 o 4:1");
        assert!(matches!(
            c.index(&IntTuple::int(3)),
            Err(LayoutError::Overflow { .. })
        ));
    }
}

//! coalesce, coalesce by profile, filter_zeros, filter.

use super::flat::{Few, Flat, ResultModes};
use super::merge::Merger;
pub(crate) use super::merge::{
    bw_coalesce, bw_coalesce_x, coalesce_leaves_into, coalesce_x_leaves_into, merged, push_merged,
};
use super::{by_mode, Rest};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// The fast path of [`Layout::coalesce`] (see [`super::flat`]): the same merge pass, written to
/// the modes `R` that become the result; `None` past their capacity.
#[inline(always)]
pub(super) fn coalesce_small<R: ResultModes>(l: &Layout) -> Option<Layout> {
    let mut r = R::empty();
    let mut m = Merger::new();
    for (&s, &d) in l.shape.iter().zip(l.stride.iter()) {
        if let Some((s, d)) = m.feed(s, d) {
            r.push(s, d)?;
        }
    }
    if let Some((s, d)) = m.finish() {
        r.push(s, d)?;
    }
    Some(r.layout())
}

impl Layout {
    /// Coalesce: the layout with the fewest modes that has the same 1-D function on the domain.
    ///
    /// Flattens, drops extent-1 modes and merges neighbours `(s0,s1):(d0,s0*d0)` into `s0*s1:d0`.
    /// The result is an integer layout when one mode is left, `1:0` when none is.
    ///
    /// # Laws
    /// * `r.size() == self.size()`, `r.depth() <= 1`.
    /// * `r.index_1d(i) == self.index_1d(i)` for all `0 <= i < size`.
    ///
    /// # Errors
    /// None: coalesce is total.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,(1,6)):(1,(6,2))".parse()?; // 02_layout_algebra.md, Coalesce
    /// assert_eq!(l.coalesce().to_string(), "12:1");
    /// let m: Layout = "((2,4),(2,8)):((1,2),(16,32))".parse()?;
    /// let c = m.coalesce();
    /// assert_eq!(c.to_string(), "(8,16):(1,16)");
    /// assert!((0..m.size()).all(|i| c.index_1d(i) == m.index_1d(i)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn coalesce(&self) -> Layout {
        // Results of up to four modes in registers, then of up to the inline capacity.
        if let Some(l) = coalesce_small::<Few>(self) {
            return l;
        }
        if let Some(l) = coalesce_small::<Flat>(self) {
            return l;
        }
        let mut out = Layout::building();
        let pairs = self.shape.iter().copied().zip(self.stride.iter().copied());
        super::view::push_flat_merged(&mut out, pairs);
        out
    }

    /// Coalesce within a profile (CuTe `coalesce(layout, profile)`): for a tuple profile, mode `i`
    /// is coalesced by `profile[i]` and modes past the profile are kept; an integer profile
    /// coalesces the whole layout.
    ///
    /// # Laws
    /// * Same function as `self`; the result has `max(rank(profile), rank(self))` modes when the
    ///   profile is a tuple, and each profiled mode is coalesced on its own.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] if the profile has more modes than `self`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,(1,6)):(1,(6,2))".parse()?;
    /// assert_eq!(l.coalesce_by_mode(&"(1,1)".parse()?)?.to_string(), "(2,6):(1,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "coalesce")]
    pub fn coalesce_by_mode(&self, profile: &IntTuple) -> Result<Layout, LayoutError> {
        if profile.is_int() {
            return Ok(self.coalesce());
        }
        by_mode(
            "coalesce",
            self,
            profile
                .elements()
                .collect::<alloc::vec::Vec<_>>()
                .into_iter(),
            Rest::Keep,
            |m, p| m.coalesce_by_mode(&p),
        )
    }

    /// CuTe `filter_zeros`: every stride-0 mode gets extent 1 (same tree).
    ///
    /// # Laws
    /// * Same tree as `self`; the function agrees with `self` wherever the removed coordinates
    ///   are 0.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,(2,3)):(0,(1,0))".parse()?;
    /// assert_eq!(l.filter_zeros().to_string(), "(1,(2,1)):(0,(1,0))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn filter_zeros(&self) -> Layout {
        let mut out = self.clone();
        for (s, &d) in out.shape.iter_mut().zip(self.stride.iter()) {
            if d == 0 {
                *s = 1;
            }
        }
        out
    }

    /// CuTe `filter`: `coalesce(filter_zeros(self))`, the layout without stride-0 and extent-1
    /// modes (`1:0` if nothing is left).
    ///
    /// # Laws
    /// * No stride-0 mode is left (unless the result is `1:0`).
    /// * The image of the result equals the image of `self`, and the function equals `self`
    ///   restricted to the coordinates whose stride-0 components are 0.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,(2,3)):(0,(1,2))".parse()?;
    /// assert_eq!(l.filter().to_string(), "6:1");
    /// assert_eq!("(4,2):(0,0)".parse::<Layout>()?.filter().to_string(), "1:0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn filter(&self) -> Layout {
        self.filter_zeros().coalesce()
    }
}

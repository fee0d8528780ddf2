//! coalesce, coalesce by profile, filter_zeros, filter.

use super::flat::{Few, Flat, ResultModes};
use super::lists::List;
use super::{by_mode, Modes, Rest};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// CuTe's `bw_coalesce` of the leaves of a layout, appended to `out`: skip extent-1 modes and
/// merge a mode into its left neighbour when the neighbour's `extent * stride` equals its
/// stride. `last` replaces the extent of the final mode
/// (CuTe's `coalesce_x` passes 2 for an extent-1 last mode so that its stride survives for
/// indices past the end).
///
/// CuTe walks from the right; this walks from the left, which gives the same modes: whether two
/// neighbours merge depends only on them (a merged run `(s_a...s_i):d_a` has
/// `s_a...s_i * d_a == s_i * d_i`), and an extent-1 last mode is dropped as soon as any other
/// mode is left, as in CuTe. One pass, no reversal. (An out-parameter, because returning a
/// `Modes` by value copies its whole inline buffer.) Inlined into every caller: composition's
/// fast path calls it once per mode.
#[inline(always)]
pub(crate) fn coalesce_leaves_into<L: List<(i64, i64)>>(
    shape: &[i64],
    stride: &[i64],
    last: Option<i64>,
    out: &mut L,
) -> Result<(), L::Full> {
    let n = shape.len().min(stride.len());
    if n == 0 {
        return Ok(());
    }
    if !out.is_empty() {
        for k in 0..n - 1 {
            push_merged(out, shape[k], stride[k])?;
        }
        return push_merged(out, last.unwrap_or(shape[n - 1]), stride[n - 1]);
    }
    // Into an empty `out`: the same merges with the mode being merged kept in registers (one
    // push per finished mode rather than a look at `out`'s last mode per leaf).
    let mut m = Merger::new();
    for (&s, &d) in shape[..n - 1].iter().zip(&stride[..n - 1]) {
        if let Some(done) = m.feed(s, d) {
            out.put(done)?;
        }
    }
    if let Some(done) = m.feed(last.unwrap_or(shape[n - 1]), stride[n - 1]) {
        out.put(done)?;
    }
    match m.finish() {
        Some(done) => out.put(done),
        None => Ok(()),
    }
}

/// CuTe's `bw_coalesce` of flat modes, returned by value (for callers off the hot paths; see
/// [`coalesce_leaves_into`] for the semantics).
pub(crate) fn bw_coalesce(modes: &[(i64, i64)], last: Option<i64>) -> Modes {
    let mut out = Modes::new();
    if let Some((&(ls, ld), init)) = modes.split_last() {
        for &(s, d) in init {
            let Ok(()) = push_merged(&mut out, s, d);
        }
        let Ok(()) = push_merged(&mut out, last.unwrap_or(ls), ld);
    }
    out
}

/// CuTe's `coalesce_x` of a layout: as coalesce, but an extent-1 last leaf counts as extent 2,
/// so that its stride survives for indices past the end.
pub(crate) fn bw_coalesce_x(l: &Layout) -> Modes {
    let mut out = Modes::new();
    let Ok(()) = coalesce_x_leaves_into(&l.shape, &l.stride, &mut out);
    out
}

/// [`bw_coalesce_x`] of a layout's leaves, appended to `out`; never empty: a layout without
/// leaves (`():()`) gives `1:0`.
#[inline(always)]
pub(crate) fn coalesce_x_leaves_into<L: List<(i64, i64)>>(
    shape: &[i64],
    stride: &[i64],
    out: &mut L,
) -> Result<(), L::Full> {
    let last = match shape.last() {
        Some(&1) => Some(2),
        _ => None,
    };
    let start = out.len();
    coalesce_leaves_into(shape, stride, last, out)?;
    if out.len() == start {
        out.put((1, 0))?;
    }
    Ok(())
}

/// The one merge rule of coalesce: the extent of `prev` followed by the mode `s:d` merged into
/// one mode, if `prev`'s `extent * stride == d`. The product of extents of a valid layout fits,
/// but `coalesce_x`'s substitute last extent (2) may not: then `None`, and the modes stay apart
/// (the same function).
#[inline(always)]
pub(crate) fn merged(prev: (i64, i64), s: i64, d: i64) -> Option<i64> {
    if prev.0.checked_mul(prev.1) == Some(d) {
        prev.0.checked_mul(s)
    } else {
        None
    }
}

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

/// Coalescing a stream of modes with the mode being merged kept in registers: [`Merger::feed`]
/// gives back each mode as it is finished, [`Merger::finish`] the last one. Extent-1 modes are
/// dropped and neighbours merged by [`merged`], as [`push_merged`] does on a list.
#[derive(Clone, Copy)]
pub(crate) struct Merger {
    cs: i64,
    cd: i64,
}

impl Merger {
    #[inline(always)]
    pub fn new() -> Self {
        Merger { cs: 1, cd: 0 }
    }

    /// Take the mode `s:d`; the mode it finishes, if any.
    #[inline(always)]
    pub fn feed(&mut self, s: i64, d: i64) -> Option<(i64, i64)> {
        if s == 1 {
            return None;
        }
        if self.cs == 1 {
            (self.cs, self.cd) = (s, d);
            return None;
        }
        if let Some(e) = merged((self.cs, self.cd), s, d) {
            self.cs = e;
            return None;
        }
        let done = (self.cs, self.cd);
        (self.cs, self.cd) = (s, d);
        Some(done)
    }

    /// The mode still open; `None` if every mode fed had extent 1.
    #[inline(always)]
    pub fn finish(self) -> Option<(i64, i64)> {
        (self.cs != 1).then_some((self.cs, self.cd))
    }
}

/// Append `(s, d)` to coalesced modes: dropped if `s == 1`, merged into the last mode by
/// [`merged`].
#[inline]
pub(crate) fn push_merged<L: List<(i64, i64)>>(out: &mut L, s: i64, d: i64) -> Result<(), L::Full> {
    if s == 1 {
        return Ok(());
    }
    if let Some(front) = out.last_mut() {
        if let Some(e) = merged(*front, s, d) {
            front.0 = e;
            return Ok(());
        }
    }
    out.put((s, d))
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

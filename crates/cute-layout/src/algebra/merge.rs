//! Coalescing flat modes: the merge rule of two neighbouring modes, CuTe's `bw_coalesce` on a
//! list of leaves, and the streaming [`Merger`] the fast paths use.

use super::lists::List;
use super::lists::Modes;
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

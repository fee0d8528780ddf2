//! The layout algebra: coalesce, composition, complement, inverses, divides and products.
//!
//! Every operation follows CuTe's algorithm with all integers static, so that where CuTe's answer
//! is right ours has the same text. Where CuTe's answer would break the operation's law, the
//! operation returns the [`LayoutError`] that names the failed condition instead; the decision is
//! made algebraically (from the shapes and strides), never by enumerating the domain.

mod build;
mod cast;
mod coalesce;
mod complement;
mod composition;
pub(crate) mod construct;
mod divide;
mod flat;
mod inverse;
mod kernels;
pub(crate) mod layout_like;
mod linear_product;
mod lists;
mod product;
mod shape_divide;
#[cfg(test)]
pub(crate) mod testing;
mod tiler;
mod view;

pub use tiler::Tiler;

/// CuTe `tile_unzip(layout, tiler)`, for [`Layout::tile_unzip`].
pub(crate) fn tile_unzip_public(l: &Layout, tiler: &Tiler) -> Result<Layout, LayoutError> {
    divide::tile_unzip("tile_unzip", l, tiler)
}

pub(crate) use coalesce::{bw_coalesce, bw_coalesce_x};
pub(crate) use composition::{linear_stride_x, weak_step, WeakStep};

use crate::layout::error::LayoutError;
use crate::layout::tree::{Leaves, Tok, Toks};
use crate::layout::Layout;

/// A flat list of modes `(extent, stride)` (the working form of most algorithms).
pub(crate) type Modes = Leaves<(i64, i64)>;

/// The flat leaves of a layout as `(extent, stride)` pairs.
pub(crate) fn flat_modes(l: &Layout) -> Modes {
    l.shape
        .iter()
        .copied()
        .zip(l.stride.iter().copied())
        .collect()
}

/// Whether modes beyond the profile are kept or dropped by [`by_mode`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rest {
    /// Append the remaining modes of the layout unchanged (CuTe `transform_layout`).
    Keep,
    /// Drop them (CuTe's composition with a tiler).
    Drop,
}

/// The one tiler dispatch of composition, divides and products: `_` keeps the layout, an integer
/// `n` stands for the layout [`Tiler::int_layout`]`(n, one_is_zero)`, a layout tiler goes to `f`,
/// and a tuple of tilers recurses mode by mode through [`by_mode`] (`rest` says whether modes past
/// the tiler are kept).
pub(crate) fn by_tiler<F>(
    op: &'static str,
    layout: &Layout,
    tiler: &Tiler,
    one_is_zero: bool,
    rest: Rest,
    f: &F,
) -> Result<Layout, LayoutError>
where
    F: Fn(&Layout, &Layout) -> Result<Layout, LayoutError>,
{
    match tiler {
        Tiler::Layout(t) => f(layout, t),
        Tiler::Int(n) => f(layout, &Tiler::int_layout(*n, one_is_zero)),
        Tiler::Skip => Ok(layout.clone()),
        Tiler::Modes(ts) => by_mode(op, layout, ts.iter(), rest, |m, t| {
            by_tiler(op, m, t, one_is_zero, rest, f)
        }),
    }
}

/// Apply `f` to each top-level mode of `layout` paired with the matching element of `profile`,
/// and concatenate the results (CuTe `transform_layout`). A layout with an integer shape counts as
/// the 1-tuple of itself. This is the one place where operations recurse along a profile or tiler.
///
/// # Errors
/// [`LayoutError::RankMismatch`] if `profile` has more elements than `layout` has modes, and
/// whatever `f` returns.
pub(crate) fn by_mode<T>(
    op: &'static str,
    layout: &Layout,
    profile: impl ExactSizeIterator<Item = T>,
    rest: Rest,
    mut f: impl FnMut(&Layout, T) -> Result<Layout, LayoutError>,
) -> Result<Layout, LayoutError> {
    let rank = layout.rank();
    let n = profile.len();
    if n > rank {
        return Err(LayoutError::RankMismatch {
            op,
            expected: rank,
            found: n,
        });
    }
    let mut out = build::LayoutBuilder::new();
    out.open();
    let whole = crate::layout::tree::Span::whole(layout);
    let mut modes = crate::layout::tree::modes(&layout.toks);
    // `n <= rank`: every profile element meets a mode.
    for (p, m) in profile.zip(&mut modes) {
        out.push(&f(&layout.sub(m.offset(whole)), p)?);
    }
    if rest == Rest::Keep {
        for m in modes {
            out.push_span(layout, m.offset(whole));
        }
    }
    out.close();
    out.finish(op)
}

/// The result of `fill` run on an empty layout that lives in the returned `Result` itself: with
/// the public operations `#[inline]` wrappers around `fill`, the result is built in the caller's
/// frame instead of being moved out of each function that builds it (a `Layout` is over 300
/// bytes of inline storage, and returning a named local copies all of it). One copy remains
/// where `fill` is out of line: LLVM cannot then merge this `Result` with the caller's
/// destination (the call may keep the pointer), and moves the finished value once.
#[inline(always)]
pub(crate) fn in_place(
    fill: impl FnOnce(&mut Layout) -> Result<(), LayoutError>,
) -> Result<Layout, LayoutError> {
    in_place_with(Layout::building(), fill)
}

/// [`in_place`] for any value: `fill` run on `empty` where it lives in the returned `Result`.
#[inline(always)]
pub(crate) fn in_place_with<T>(
    empty: T,
    fill: impl FnOnce(&mut T) -> Result<(), LayoutError>,
) -> Result<T, LayoutError> {
    let mut r: Result<T, LayoutError> = Ok(empty);
    if let Ok(out) = &mut r {
        if let Err(e) = fill(out) {
            r = Err(e);
        }
    }
    r
}

/// Build a layout from flat modes: an integer layout for one mode, a flat tuple otherwise, and
/// `1:0` for none.
pub(crate) fn from_flat(op: &'static str, modes: &[(i64, i64)]) -> Result<Layout, LayoutError> {
    check_flat(op, modes)?;
    Ok(from_flat_unchecked(modes))
}

/// The checks of [`Layout::checked`] for flat modes: extents >= 1, size and cosize in `i64`.
#[inline]
pub(crate) fn check_flat(op: &'static str, modes: &[(i64, i64)]) -> Result<(), LayoutError> {
    flat_fault(modes.iter().copied()).map_err(|fault| match fault {
        Some(extent) => LayoutError::InvalidExtent { op, extent },
        None => LayoutError::Overflow { op },
    })
}

/// What [`check_flat`] finds wrong with flat modes, as a plain value for the fast paths:
/// `Err(Some(extent))` for an extent below 1, `Err(None)` when the size or the cosize (1 + the
/// largest offset magnitude) leaves `i64`.
#[inline(always)]
pub(crate) fn flat_fault(modes: impl Iterator<Item = (i64, i64)>) -> Result<(), Option<i64>> {
    let mut size = 1i64;
    let mut span = 0i64;
    for (s, d) in modes {
        if s < 1 {
            return Err(Some(s));
        }
        let reach = d.checked_abs().and_then(|m| m.checked_mul(s - 1));
        match (size.checked_mul(s), reach.and_then(|r| span.checked_add(r))) {
            (Some(a), Some(b)) => (size, span) = (a, b),
            _ => return Err(None),
        }
    }
    if span == i64::MAX {
        return Err(None);
    }
    Ok(())
}

/// [`from_flat`] for modes known to pass its checks (e.g. a coalesced valid layout), built in
/// place.
#[inline]
pub(crate) fn from_flat_unchecked(modes: &[(i64, i64)]) -> Layout {
    let mut l = Layout::building();
    view::push_flat(&mut l, modes);
    l
}

pub(crate) fn leaf_toks() -> Toks {
    let mut t = Toks::new();
    t.push(Tok::Leaf);
    t
}

/// `a * b`, checked.
#[inline]
pub(crate) fn mul(op: &'static str, a: i64, b: i64) -> Result<i64, LayoutError> {
    a.checked_mul(b).ok_or_else(|| LayoutError::Overflow { op })
}

/// `ceil(a / b)` for `a >= 0`, `b > 0`.
#[inline]
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + i64::from(a % b != 0)
}

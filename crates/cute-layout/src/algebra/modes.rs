//! Flat modes `(extent, stride)`, the working form of most algorithms, and building layouts from them.

use super::lists::Modes;
use super::view;
use crate::layout::error::LayoutError;
use crate::layout::tree::{Tok, Toks};
use crate::layout::Layout;

/// The flat leaves of a layout as `(extent, stride)` pairs.
pub(crate) fn flat_modes(l: &Layout) -> Modes {
    l.shape
        .iter()
        .copied()
        .zip(l.stride.iter().copied())
        .collect()
}

/// Build a layout from flat modes: an integer layout for one mode, a flat tuple otherwise, and
/// `1:0` for none.
pub(crate) fn from_flat(op: &'static str, modes: &[(i64, i64)]) -> Result<Layout, LayoutError> {
    check_flat(op, modes)?;
    Ok(from_flat_unchecked(modes))
}

/// The checks of [`Layout::checked`] for flat modes: extents >= 1, size and span in `i64`.
#[inline]
pub(crate) fn check_flat(op: &'static str, modes: &[(i64, i64)]) -> Result<(), LayoutError> {
    flat_fault(modes.iter().copied()).map_err(|fault| match fault {
        Some(extent) => LayoutError::InvalidExtent { op, extent },
        None => LayoutError::Overflow { op },
    })
}

/// What [`check_flat`] finds wrong with flat modes, as a plain value for the fast paths:
/// `Err(Some(extent))` for an extent below 1, `Err(None)` when the size or the span
/// `Σ (s - 1) |d|` (the cosize less 1) leaves `i64`.
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

//! coalesce, coalesce by profile, filter_zeros, filter.

use super::{by_mode, flat_modes, from_flat, Modes, Rest};
use crate::error::LayoutError;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// CuTe's `bw_coalesce`: walk the flat modes from the right, skipping extent-1 modes and merging a
/// mode into the front of the result when `extent * stride` equals the front's stride.
/// `last` replaces the extent of the final mode (CuTe's `coalesce_x` passes 2 for an extent-1 last
/// mode so that its stride survives for indices past the end).
pub(crate) fn bw_coalesce(modes: &[(i64, i64)], last: Option<i64>) -> Modes {
    let mut out = Modes::new(); // built reversed: out.last() is the front
    let Some(&(ls, ld)) = modes.last() else {
        return out;
    };
    out.push((last.unwrap_or(ls), ld));
    for &(s, d) in modes[..modes.len() - 1].iter().rev() {
        if s == 1 {
            continue;
        }
        let single = out.len() == 1;
        // `out` holds the last mode from before the loop and never shrinks in it.
        let Some(front) = out.last_mut() else {
            continue;
        };
        if single && front.0 == 1 {
            *front = (s, d);
        } else if let Some(e) = s
            .checked_mul(front.0)
            .filter(|_| s.checked_mul(d) == Some(front.1))
        {
            // The product of extents of a valid layout fits, but `bw_coalesce_x`'s substitute
            // last extent (2) may not: then the modes stay apart (the same function).
            *front = (e, d);
        } else {
            out.push((s, d));
        }
    }
    out.reverse();
    if out.len() == 1 && out[0].0 == 1 {
        out.clear();
    }
    out
}

/// CuTe's `coalesce_x`: coalesce, but keep the last mode's stride even when its extent is 1, so
/// that the function is preserved past the end of the domain too. Never empty.
pub(crate) fn bw_coalesce_x(l: &Layout) -> Modes {
    let m = flat_modes(l);
    if m.is_empty() {
        // The empty layout `():()` maps every index to 0, as `1:0` does.
        return bw_coalesce(&[(1, 0)], Some(2));
    }
    let last = match m.last() {
        Some(&(1, _)) => Some(2),
        _ => None,
    };
    bw_coalesce(&m, last)
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
    pub fn coalesce(&self) -> Layout {
        let modes = bw_coalesce(&flat_modes(self), None);
        from_flat("coalesce", &modes).expect("coalesce keeps size and span")
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

//! Fast paths on plain arrays.
//!
//! The general algorithms work on growable lists (`SmallVec`) and build their results leaf by
//! leaf, which costs more than the arithmetic for the small layouts of everyday use. A fast path
//! redoes the success path of an operation on fixed arrays of [`LEAVES_INLINE`] modes and hands
//! the arrays to the result whole; anything unusual (more leaves, an error, an overflow, a case
//! the fast path does not cover) makes it return `None`, and the caller runs the general
//! algorithm, which gives the same result or the typed error. The tests compare both paths.
//!
//! A fast path is kept only where it saves time, not just instructions: zero-initialising the
//! arrays (a `memset` call) and moving them into the result cost cycles that callgrind counts as
//! few instructions. Coalesce has none: its general path (one merge pass in registers, straight
//! into the result) ran 24.9 ns where an array fast path ran 30.3 ns (349 instead of 391 Ir).

use crate::layout::Layout;
use crate::tree::{Leaves, Tok, Toks, LEAVES_INLINE, TOKS_INLINE};

/// Flat modes `(extent, stride)` in two fixed arrays.
#[derive(Clone, Copy)]
pub(crate) struct Flat {
    pub s: [i64; LEAVES_INLINE],
    pub d: [i64; LEAVES_INLINE],
    pub n: usize,
}

impl Flat {
    #[inline(always)]
    pub fn new() -> Self {
        Flat {
            s: [0; LEAVES_INLINE],
            d: [0; LEAVES_INLINE],
            n: 0,
        }
    }

    /// Append a mode; `None` when full.
    #[inline(always)]
    pub fn push(&mut self, s: i64, d: i64) -> Option<()> {
        if self.n >= LEAVES_INLINE {
            return None;
        }
        self.s[self.n] = s;
        self.d[self.n] = d;
        self.n += 1;
        Some(())
    }

    /// Append a mode as coalesce does ([`super::coalesce::push_merged`]); `None` when full.
    #[inline(always)]
    pub fn push_merged(&mut self, s: i64, d: i64) -> Option<()> {
        if s == 1 {
            return Some(());
        }
        if let Some(k) = self.n.checked_sub(1) {
            if let Some(e) = super::coalesce::merged((self.s[k], self.d[k]), s, d) {
                self.s[k] = e;
                return Some(());
            }
        }
        self.push(s, d)
    }

    /// The modes as `(extent, stride)` pairs.
    #[inline(always)]
    pub fn modes(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        let n = self.n.min(LEAVES_INLINE);
        self.s[..n].iter().copied().zip(self.d[..n].iter().copied())
    }

    /// Whether the modes form a valid layout: extents >= 1, and size and cosize in `i64`.
    #[inline(always)]
    pub fn valid(&self) -> bool {
        super::flat_fault(self.modes()).is_ok()
    }

    /// The layout of these modes as `from_flat` shapes them (an integer layout for one mode,
    /// a flat tuple for more, `1:0` for none). The caller has checked [`Flat::valid`].
    #[inline(always)]
    pub fn layout(mut self) -> Layout {
        if self.n == 0 {
            self.s[0] = 1;
            self.d[0] = 0;
            self.n = 1;
        }
        let n = self.n.min(LEAVES_INLINE);
        let mut toks = [Tok::Leaf; TOKS_INLINE];
        let nt = if n == 1 {
            1
        } else {
            toks[0] = Tok::Open;
            toks[n + 1] = Tok::Close;
            n + 2
        };
        Layout::from_parts_unchecked(
            Toks::from_buf_and_len(toks, nt),
            Leaves::from_buf_and_len(self.s, n),
            Leaves::from_buf_and_len(self.d, n),
        )
    }
}

/// Every fast path against the general algorithm it shortcuts: the same layout (text and
/// tree), or `None` from the fast path, on every flat layout of up to three leaves over small
/// extents and strides (both signs, zero) and on random layouts of up to seventeen leaves (one
/// past the arrays, so that the capacity check is exercised).
#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use super::super::testing::{layout_of, small_modes, Rng};
    use super::super::{complement, inverse, Modes};
    use crate::layout::Layout;

    fn flat_layout(modes: &[(i64, i64)]) -> Layout {
        layout_of(modes, 0)
    }

    fn same(fast: Option<Layout>, slow: Option<Layout>, what: &str, l: &Layout, used: &mut usize) {
        if let Some(f) = fast {
            *used += 1;
            let s =
                slow.unwrap_or_else(|| panic!("{what} of {l}: fast path {f}, general path error"));
            assert_eq!(f.to_string(), s.to_string(), "{what} of {l}");
            assert!(f == s, "{what} of {l}: same text, different tree");
        }
    }

    fn check(l: &Layout, used: &mut [usize; 3]) {
        if l.check("test").is_err() {
            return;
        }
        let mut slow = Layout::building();
        inverse::right_inverse_into(l, &mut slow);
        same(
            inverse::right_inverse_small(l),
            Some(slow),
            "right_inverse",
            l,
            &mut used[0],
        );

        let mut slow = Layout::building();
        let ok = inverse::left_inverse_into(l, &mut slow).is_ok();
        same(
            inverse::left_inverse_small(l),
            ok.then_some(slow),
            "left_inverse",
            l,
            &mut used[1],
        );

        for m in [1, 2, 5, 12, 24, 64, 4096] {
            let mut f = Modes::new();
            complement::filter_modes(l, &mut f);
            let slow = complement::complement_filtered(&f, &[m]).ok();
            let fast = complement::complement_small(&l.shape, &l.stride, m);
            same(fast, slow, "complement", l, &mut used[2]);
        }
    }

    #[test]
    fn fast_paths_agree_with_the_general_algorithms() {
        let modes = small_modes();
        let mut used = [0usize; 3];
        for &a in &modes {
            check(&flat_layout(&[a]), &mut used);
            for &b in &modes {
                check(&flat_layout(&[a, b]), &mut used);
                for &c in modes.iter().step_by(3) {
                    check(&flat_layout(&[a, b, c]), &mut used);
                }
            }
        }
        // Random layouts up to the inline capacity and one past it.
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            check(&flat_layout(&rng.modes(17, 1 << 40)), &mut used);
        }
        assert!(used.iter().all(|&u| u > 1000), "fast paths taken: {used:?}");
    }
}

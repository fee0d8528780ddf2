//! Test inputs shared by the algebra's unit tests: layouts built straight from their modes, and a
//! small deterministic generator of random ones.

use alloc::vec::Vec;

use crate::layout::tree::Tok;
use crate::layout::Layout;

/// The layout of the flat `modes` (an integer layout for one mode), with its first `nest` modes
/// grouped into a sub-tuple when `nest > 1`. Not checked: the caller keeps extents >= 1 and the
/// cosize within `i64`.
pub(crate) fn layout_of(modes: &[(i64, i64)], nest: usize) -> Layout {
    let mut l = Layout::building();
    if modes.len() == 1 {
        l.toks.push(Tok::Leaf);
    } else {
        l.toks.push(Tok::Open);
        for k in 0..modes.len() {
            if nest > 1 && k == 0 {
                l.toks.push(Tok::Open);
            }
            l.toks.push(Tok::Leaf);
            if nest > 1 && k + 1 == nest {
                l.toks.push(Tok::Close);
            }
        }
        l.toks.push(Tok::Close);
    }
    for &(s, d) in modes {
        l.shape.push(s);
        l.stride.push(d);
    }
    l
}

/// Every mode of extent 1-4 and stride -2..12 (a sample: -2, -1, 0, 1, 2, 3, 4, 6, 8, 12).
pub(crate) fn small_modes() -> Vec<(i64, i64)> {
    let strides = [-2i64, -1, 0, 1, 2, 3, 4, 6, 8, 12];
    (1..=4i64)
        .flat_map(|s| strides.iter().map(move |&d| (s, d)))
        .collect()
}

/// A xorshift generator (fixed seeds: the tests are deterministic).
pub(crate) struct Rng(pub u64);

impl Rng {
    /// A number in `0..n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// 1 to `max` modes of extents 1-4, with mostly compact strides (so that the algebra and
    /// its fast paths succeed often) and some arbitrary ones (-2..6); the span used for the
    /// compact strides stops growing at `cap`.
    pub fn modes(&mut self, max: u64, cap: i64) -> Vec<(i64, i64)> {
        let len = 1 + self.next(max) as usize;
        let mut ms = Vec::with_capacity(len);
        let mut span = 1i64;
        for _ in 0..len {
            let s = 1 + self.next(4) as i64;
            let d = match self.next(4) {
                0 => self.next(9) as i64 - 2,
                1 => span * (1 + self.next(2) as i64),
                _ => span,
            };
            span = span.saturating_mul(s).min(cap);
            ms.push((s, d));
        }
        ms
    }

    /// A layout of [`Rng::modes`], flat or with its first modes grouped.
    pub fn layout(&mut self, max: u64, cap: i64) -> Layout {
        let ms = self.modes(max, cap);
        let nest = self.next(ms.len() as u64 + 1) as usize;
        layout_of(&ms, nest)
    }
}

//! Fast path of the commonest divide: a flat layout (a matrix, a 3-D tensor) divided by a shape
//! tiler (`(32,16)`) whose extents divide the layout's.
//!
//! For one mode `a:d` and an integer tile `n` with `n | a`, CuTe's
//! `a:d ∘ (n:1, complement(n:1, a))` is `(n:d, (a/n):(n*d))`, a reshaping of `a:d` (a mode of
//! extent 1 has stride 0, as the general path writes it: `1:0` for `n == 1`, `(a/n) == 1`); the
//! logical divide is these pairs in place of the divided modes, the zipped divide their first
//! elements then their second elements and the modes past the tiler. Being reshapings, the
//! results have the layout's size and cosize, so they are valid whenever the layout is; only the
//! products `n*d` are computed (checked, although they cannot overflow: `n*|d|` is at most
//! `(a-1)*|d|`, a term of the cosize).
//!
//! Anything else (a nested layout, a layout tiler or `_` in the tiler, an extent that does not
//! divide, more than [`MAX_RANK`] modes) returns `None`, and the kernels (`algebra::kernels`)
//! compute the same result or the error. The tests compare both paths.
//!
//! Cost: the general kernels spend about 950 instructions on
//! `logical_divide (128,64):(64,1) (32,16)` reading the operands through views, building the
//! complement and composing; this path reads the leaves, divides and writes the result.

use super::Tiler;
use crate::layout::tree::{Leaves, Tok, Toks, LEAVES_INLINE, TOKS_INLINE};
use crate::layout::Layout;

const _: () = assert!(2 * MAX_RANK <= LEAVES_INLINE && 2 + 4 * MAX_RANK <= TOKS_INLINE);

/// The most modes the fast path takes: the logical divide's tree of seven divided modes has 30
/// tokens, of eight 34, past the inline capacity of a layout's tokens (32).
pub(crate) const MAX_RANK: usize = 7;

/// A token tree of a result: its tokens (the first `.1` of them).
type TokTree = ([Tok; TOKS_INLINE], usize);

/// Token trees of the results by rank `r` and tiler length `k` (`1 <= k <= r <= MAX_RANK`):
/// `[logical, zipped][r][k]`, each with its token count.
const TOKS: [[[TokTree; MAX_RANK + 1]; MAX_RANK + 1]; 2] = {
    let mut t = [[[([Tok::Leaf; TOKS_INLINE], 0); MAX_RANK + 1]; MAX_RANK + 1]; 2];
    let mut r = 1;
    while r <= MAX_RANK {
        let mut k = 1;
        while k <= r {
            // Logical: ( (L L) x k, L x (r - k) ).
            let mut toks = [Tok::Leaf; TOKS_INLINE];
            let mut n = 0;
            toks[n] = Tok::Open;
            n += 1;
            let mut i = 0;
            while i < r {
                if i < k {
                    toks[n] = Tok::Open;
                    toks[n + 1] = Tok::Leaf;
                    toks[n + 2] = Tok::Leaf;
                    toks[n + 3] = Tok::Close;
                    n += 4;
                } else {
                    toks[n] = Tok::Leaf;
                    n += 1;
                }
                i += 1;
            }
            toks[n] = Tok::Close;
            n += 1;
            t[0][r][k] = (toks, n);
            // Zipped: ( (L x k), (L x r) ).
            let mut toks = [Tok::Leaf; TOKS_INLINE];
            toks[0] = Tok::Open;
            toks[1] = Tok::Open;
            toks[k + 2] = Tok::Close;
            toks[k + 3] = Tok::Open;
            toks[k + r + 4] = Tok::Close;
            toks[k + r + 5] = Tok::Close;
            t[1][r][k] = (toks, k + r + 6);
            k += 1;
        }
        r += 1;
    }
    t
};

/// The tokens of `((L, L), ..., (L, L))`, `n` pairs (`1 <= n <= MAX_RANK`), and their number:
/// the logical divide's tree where every mode is divided, also the blocked and raked products'.
#[inline(always)]
pub(crate) fn paired_toks(n: usize) -> Option<TokTree> {
    (1..=MAX_RANK).contains(&n).then(|| TOKS[0][n][n])
}

/// `a ⊘ ts` (logical divide, or with `zipped` the zipped divide) for a flat tuple `a` of at most
/// [`MAX_RANK`] modes and a tiler of integers, one per mode of `a` or fewer, each dividing its
/// mode's extent; `None` otherwise (the caller runs the general path).
#[inline(always)]
pub(crate) fn divide_by_shape(a: &Layout, ts: &[Tiler], zipped: bool) -> Option<Layout> {
    let r = a.shape.len();
    let k = ts.len();
    // A flat tuple: its r leaves in r + 2 tokens (`Open`, the leaves, `Close`).
    if a.toks.len() != r + 2 || k == 0 || k > r || r > MAX_RANK {
        return None;
    }
    let (shape, stride) = (&a.shape[..r], &a.stride[..r]);
    // Ones, not zeros (see `algebra::flat`): no call to `memset`.
    let mut s = [1i64; LEAVES_INLINE];
    let mut d = [1i64; LEAVES_INLINE];
    for (i, t) in ts.iter().enumerate() {
        let Tiler::Int(n) = *t else {
            return None;
        };
        let (e, st) = (shape[i], stride[i]);
        if n < 1 || e % n != 0 {
            return None;
        }
        let q = e / n;
        let tile = (n, if n == 1 { 0 } else { st });
        let rest = (q, if q == 1 { 0 } else { n.checked_mul(st)? });
        let (p0, p1) = if zipped {
            (i, k + i)
        } else {
            (2 * i, 2 * i + 1)
        };
        (s[p0], d[p0]) = tile;
        (s[p1], d[p1]) = rest;
    }
    for j in k..r {
        // Past the tiler: the mode as it is.
        (s[k + j], d[k + j]) = (shape[j], stride[j]);
    }
    // Built in the last expression, where it is returned.
    let (toks, nt) = TOKS[usize::from(zipped)][r][k];
    Some(Layout::from_parts_unchecked(
        Toks::from_buf_and_len(toks, nt),
        Leaves::from_buf_and_len(s, r + k),
        Leaves::from_buf_and_len(d, r + k),
    ))
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use super::*;
    use crate::algebra::kernels;

    fn lay(s: &str) -> Layout {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// The general path's answer (the kernels into a layout), for comparison.
    fn general(a: &Layout, t: &Tiler, zipped: bool) -> Result<Layout, crate::LayoutError> {
        let mut out = Layout::building();
        if zipped {
            super::super::divide::zipped_into(
                "zipped_divide",
                kernels::Kernel::Divide,
                a,
                t,
                &mut out,
            )?;
        } else {
            kernels::run(kernels::Kernel::Divide, a, t, &mut out)?;
        }
        Ok(out)
    }

    #[test]
    fn token_tables_are_the_trees_of_the_results() {
        for (r, (logicals, zippeds)) in TOKS[0].iter().zip(&TOKS[1]).enumerate().skip(1) {
            for (k, (&(toks, n), &zipped)) in
                logicals.iter().zip(zippeds).enumerate().take(r + 1).skip(1)
            {
                let logical: Layout = Layout::from_parts_unchecked(
                    Toks::from_slice(&toks[..n]),
                    (0..r + k).map(|_| 1).collect(),
                    (0..r + k).map(|_| 0).collect(),
                );
                assert_eq!(logical.rank(), r, "r {r} k {k}");
                let (toks, n) = zipped;
                let zipped: Layout = Layout::from_parts_unchecked(
                    Toks::from_slice(&toks[..n]),
                    (0..r + k).map(|_| 1).collect(),
                    (0..r + k).map(|_| 0).collect(),
                );
                assert_eq!(zipped.rank(), 2, "r {r} k {k}");
                assert!(crate::layout::tree::is_well_formed(&zipped.toks));
                assert!(crate::layout::tree::is_well_formed(&logical.toks));
            }
        }
    }

    /// Every flat layout of up to three modes over small extents and strides (negative and zero
    /// included), divided by every integer tiler of up to its rank over small extents: where the
    /// fast path answers, the general path gives the same layout; where the extents divide and
    /// the layout is a flat tuple, the fast path answers.
    #[test]
    fn agrees_with_the_general_path() {
        let extents = [1i64, 2, 3, 4, 6, 8];
        let strides = [-3i64, 0, 1, 2, 5];
        let tiles = [1i64, 2, 3, 4, 5, 8];
        let mut answered = 0usize;
        for r in 1..=3usize {
            let combos = (extents.len() * strides.len()).pow(r as u32);
            for c in 0..combos {
                let mut c2 = c;
                let mut modes = Vec::new();
                for _ in 0..r {
                    let m = c2 % (extents.len() * strides.len());
                    c2 /= extents.len() * strides.len();
                    modes.push((extents[m % extents.len()], strides[m / extents.len()]));
                }
                let text = format!(
                    "({}):({})",
                    modes
                        .iter()
                        .map(|m| m.0.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                    modes
                        .iter()
                        .map(|m| m.1.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                );
                let a = lay(&text);
                for k in 1..=r {
                    for tc in 0..tiles.len().pow(k as u32) {
                        let mut tc2 = tc;
                        let ts: Vec<Tiler> = (0..k)
                            .map(|_| {
                                let n = tiles[tc2 % tiles.len()];
                                tc2 /= tiles.len();
                                Tiler::Int(n)
                            })
                            .collect();
                        let divides = ts
                            .iter()
                            .zip(&modes)
                            .all(|(t, m)| matches!(t, Tiler::Int(n) if m.0 % n == 0));
                        let tiler = Tiler::Modes(ts.clone());
                        for zipped in [false, true] {
                            let fast = divide_by_shape(&a, &ts, zipped);
                            assert_eq!(fast.is_some(), divides, "{text} / {tiler:?}");
                            if let Some(f) = fast {
                                let g = general(&a, &tiler, zipped)
                                    .unwrap_or_else(|e| panic!("{text} / {tiler:?}: {e}"));
                                assert_eq!(f, g, "{text} / {tiler:?} zipped {zipped}");
                                answered += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(answered > 100_000, "{answered}");
    }

    #[test]
    fn declines_what_it_does_not_cover() {
        let ts = [Tiler::Int(2), Tiler::Int(2)];
        // Nested, a leaf, too many tiles, an extent that does not divide, `_`, a layout tile.
        for a in ["((4,2),4):((1,4),8)", "8:1", "(4):(1)", "(3,4):(1,3)"] {
            assert!(divide_by_shape(&lay(a), &ts, false).is_none(), "{a}");
        }
        let a = lay("(4,4):(1,4)");
        assert!(divide_by_shape(&a, &[Tiler::Int(2), Tiler::Skip], false).is_none());
        assert!(divide_by_shape(&a, &[Tiler::Layout(lay("2:1"))], false).is_none());
        assert!(divide_by_shape(&a, &[], false).is_none());
        let wide = lay("(2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128)");
        assert!(divide_by_shape(&wide, &ts, true).is_none());
        let seven = lay("(2,2,2,2,2,2,4):(1,2,4,8,16,32,64)");
        let all: Vec<Tiler> = (0..7).map(|_| Tiler::Int(2)).collect();
        for (zipped, want) in [
            (
                false,
                "((2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,2)):\
                 ((1,0),(2,0),(4,0),(8,0),(16,0),(32,0),(64,128))",
            ),
            (
                true,
                "((2,2,2,2,2,2,2),(1,1,1,1,1,1,2)):((1,2,4,8,16,32,64),(0,0,0,0,0,0,128))",
            ),
        ] {
            let f = divide_by_shape(&seven, &all, zipped);
            assert_eq!(f.as_ref().map(|l| l.to_string()).as_deref(), Some(want));
            assert_eq!(
                f.as_ref(),
                general(&seven, &Tiler::Modes(all.clone()), zipped)
                    .ok()
                    .as_ref()
            );
        }
    }
}

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
pub(crate) const TOKS: [[[TokTree; MAX_RANK + 1]; MAX_RANK + 1]; 2] = {
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

//! Fast path of the products whose complement is one mode: `a ⊗ b = (a, A* ∘ b)` with
//! `A* = complement(a, size(a) * cosize(b))`. Where `a` is compact once filtered (the usual
//! case: a row- or column-major tile), `A*` is one mode `rest:d` or none
//! ([`compact_complement`]), and `A* ∘ b` is `b` with its strides multiplied by `d` (`0` for
//! none), as in the kernels' `product_into`. The logical product is then `(a, b d)`, the blocked
//! product of two flat tuples of one rank `((a_0, b_0 d), (a_1, b_1 d), ...)` and the raked
//! product `((b_0 d, a_0), ...)`: written here straight into the returned layout.
//!
//! Anything else (a complement of more modes, operands of other forms, a result past the
//! inline capacities, an overflow) returns `None`, and the kernels (`algebra::kernels`) compute
//! the same result or the error. The tests compare both paths.
//!
//! Cost: the general kernels spend about 920 to 1010 instructions on the three products of
//! the benchmark, most of them finding the complement (filter, sort, chain) and going through
//! their views and bounded lists.

use super::complement::compact_complement;
use super::shape_divide::paired_toks;
use crate::layout::tree::{Leaves, Tok, Toks, LEAVES_INLINE, TOKS_INLINE};
use crate::layout::Layout;

/// The size and span (largest offset magnitude, `cosize - 1`) of the modes `shape:stride` of
/// a valid layout (so both fit in `i64`).
#[inline(always)]
fn size_span(shape: &[i64], stride: &[i64]) -> (i64, i64) {
    // One pass (two cost 10-20 instructions more per product).
    let (mut size, mut span) = (1i64, 0i64);
    for (&e, &d) in shape.iter().zip(stride) {
        size = size.wrapping_mul(e);
        span = span.wrapping_add(crate::layout::layout_type::span_term(e, d));
    }
    (size, span)
}

/// The stride `d` by which `A* ∘ b` scales `b`'s strides, where `A*` (the product complement of
/// `a` and `b`, in `size(a) * cosize(b)`) is one mode (its stride) or none (`0`), and the
/// product `(a, b d)` is a valid layout (size and span in `i64`); `None` elsewhere.
#[inline(always)]
fn scale(a: (&[i64], &[i64]), b: (&[i64], &[i64])) -> Option<i64> {
    let (size_a, span_a) = size_span(a.0, a.1);
    let (size_b, span_b) = size_span(b.0, b.1);
    let m = size_a.checked_mul(span_b.checked_add(1)?)?;
    let d = compact_complement(a.0, a.1, m)?.map_or(0, |(_, d)| d);
    // The result's size and span; every stride `b_k d` is at most `span_b d` in magnitude.
    size_a.checked_mul(size_b)?;
    span_a.checked_add(span_b.checked_mul(d)?)?;
    Some(d)
}

/// `a ⊗ b` (CuTe `logical_product` with a layout tiler) where the complement is one mode:
/// `(a, b d)`, the trees of `a` and `b` side by side; `None` where the general path must run.
#[inline(always)]
pub(crate) fn logical_product(a: &Layout, b: &Layout) -> Option<Layout> {
    let (ash, ast, atk) = (a.shape.as_slice(), a.stride.as_slice(), a.toks.as_slice());
    let (bsh, bst, btk) = (b.shape.as_slice(), b.stride.as_slice(), b.toks.as_slice());
    let (na, nb) = (ash.len(), bsh.len());
    let (ta, tb) = (atk.len(), btk.len());
    if na + nb > LEAVES_INLINE || ta + tb + 2 > TOKS_INLINE {
        return None;
    }
    let d = scale((ash, ast), (bsh, bst))?;
    // Ones, not zeros (see `algebra::flat`): no call to `memset`.
    let mut s = [1i64; LEAVES_INLINE];
    let mut r = [1i64; LEAVES_INLINE];
    let (sa, sb) = s.split_at_mut(na);
    let (ra, rb) = r.split_at_mut(na);
    for ((s, r), (&e, &st)) in sa.iter_mut().zip(ra).zip(ash.iter().zip(ast)) {
        (*s, *r) = (e, st);
    }
    for ((s, r), (&e, &st)) in sb.iter_mut().zip(rb).zip(bsh.iter().zip(bst)) {
        (*s, *r) = (e, st.wrapping_mul(d));
    }
    let mut toks = [Tok::Close; TOKS_INLINE];
    toks[0] = Tok::Open;
    for (t, &u) in toks[1..].iter_mut().zip(atk.iter().chain(btk)) {
        *t = u;
    }
    Some(Layout::from_parts_unchecked(
        Toks::from_buf_and_len(toks, ta + tb + 2),
        Leaves::from_buf_and_len(s, na + nb),
        Leaves::from_buf_and_len(r, na + nb),
    ))
}

/// CuTe's blocked (`raked == false`) or raked product of two flat tuples of one rank where the
/// complement is one mode: `((a_k, b_k d))_k` (raked: `((b_k d, a_k))_k`); `None` where the
/// general path must run.
#[inline(always)]
pub(crate) fn rank_product(a: &Layout, b: &Layout, raked: bool) -> Option<Layout> {
    let (ash, ast) = (a.shape.as_slice(), a.stride.as_slice());
    let (bsh, bst) = (b.shape.as_slice(), b.stride.as_slice());
    let n = ash.len();
    // Two flat tuples (n leaves in n + 2 tokens) of n modes.
    if a.toks.len() != n + 2 || b.toks.len() != n + 2 || bsh.len() != n {
        return None;
    }
    let (toks, nt) = paired_toks(n)?;
    let d = scale((ash, ast), (bsh, bst))?;
    let mut s = [1i64; LEAVES_INLINE];
    let mut r = [1i64; LEAVES_INLINE];
    let (pa, pb) = if raked { (1, 0) } else { (0, 1) };
    for k in 0..n {
        (s[2 * k + pa], r[2 * k + pa]) = (ash[k], ast[k]);
        (s[2 * k + pb], r[2 * k + pb]) = (bsh[k], bst[k].wrapping_mul(d));
    }
    Some(Layout::from_parts_unchecked(
        Toks::from_buf_and_len(toks, nt),
        Leaves::from_buf_and_len(s, 2 * n),
        Leaves::from_buf_and_len(r, 2 * n),
    ))
}

//! right_inverse, left_inverse, nullspace, max_common_vector, max_common_layout.

use super::flat::{Few, Flat, ResultModes, WORK};
use super::view::{push_flat, push_flat_merged};
use super::{flat_modes, from_flat, from_flat_unchecked, Modes};
use crate::layout::coord::div_rem;
use crate::layout::error::LayoutError;
use crate::layout::tree::Leaves;
use crate::layout::Layout;

/// The flat modes of `coalesce(l)` (`[(1, 0)]` for `1:0`), without building that layout.
fn coalesced_modes(l: &Layout, out: &mut Modes) {
    let Ok(()) = super::coalesce::coalesce_leaves_into(&l.shape, &l.stride, None, out);
    if out.is_empty() {
        out.push((1, 0));
    }
}

/// The coalesced modes of `l` with their exclusive prefix products (colexicographic weights),
/// in CuTe's stride order ([`exchange_sort`]): `(extent, stride, weight)`.
fn sorted_with_weights(l: &Layout, v: &mut Leaves<(i64, i64, i64)>) {
    let mut c = Modes::new();
    coalesced_modes(l, &mut c);
    let mut acc = 1i64;
    for &(s, d) in &c {
        v.push((s, d, acc));
        acc *= s; // cannot overflow: a product of extents of a valid layout
    }
    exchange_sort(v, |m| m.1);
}

/// Sorts by `key` the way CuTe's inverses do: an exchange sort (`for i, for j > i: if key(j) <
/// key(i) swap`), which is not stable. Equal strides keep CuTe's order, so that, e.g.,
/// `right_inverse((3,5,2):(2,2,1))` is CuTe's `(2,5):(15,3)` and not `(2,3):(15,1)`. Quadratic,
/// but over at most a layout's (coalesced) rank.
fn exchange_sort<T>(v: &mut [T], key: impl Fn(&T) -> i64) {
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if key(&v[j]) < key(&v[i]) {
                v.swap(i, j);
            }
        }
    }
}

impl Layout {
    /// The largest right inverse (CuTe `right_inverse`): the layout `R` with
    /// `self(R(i)) == i` for all `i < size(R)`, as large as the chain of modes with strides
    /// `1, s_0, s_0 s_1, ...` (in stride order) allows.
    ///
    /// # Laws
    /// * `self.index_any(R.index_1d(i)) == i` for all `0 <= i < R.size()`.
    /// * `R` is as large as a contiguous chain starting at stride 1 allows (`1:0` if `self` never
    ///   produces 1).
    ///
    /// # Errors
    /// None: every layout has a right inverse (possibly the trivial `1:0`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(8,16,4):(64,1,16)".parse()?;
    /// let r = l.right_inverse();
    /// assert_eq!(r.to_string(), "(64,8):(8,1)");
    /// assert!((0..r.size()).all(|i| l.index_any(r.index_1d(i).unwrap()).unwrap() == i));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn right_inverse(&self) -> Layout {
        // Results of up to four modes in registers, then of up to the inline capacity.
        if let Some(l) = right_inverse_small::<Few>(self) {
            return l;
        }
        right_inverse_rest(self)
    }

    /// A left inverse (CuTe `left_inverse`, a quasi-inverse for non-injective layouts): `R` with
    /// `R(self(i)) == i` for all `i < size` when `self` is injective, and
    /// `self(R(self(i))) == self(i)` otherwise.
    ///
    /// Built from the strides in increasing order: each stride must be a multiple of the one
    /// before it (CuTe's "left inverse divisibility condition").
    ///
    /// # Laws
    /// * Injective `self`: `R.index_any(self.index_1d(i)) == i` for `0 <= i < size`.
    /// * Otherwise: `self.index_any(R.index_any(self.index_1d(i))) == self.index_1d(i)`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if a stride is not a multiple of the previous one in
    /// stride order.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(8,(2,4)):(2,(1,32))".parse()?;
    /// let r = l.left_inverse()?;
    /// assert!((0..l.size()).all(|i| r.index_any(l.index_1d(i).unwrap()).unwrap() == i));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn left_inverse(&self) -> Result<Layout, LayoutError> {
        // On arrays only: on `Few` (see `right_inverse`) this case measured 3 ns slower.
        if let Some(l) = left_inverse_small(self) {
            return Ok(l);
        }
        super::in_place(|out| left_inverse_into(self, out))
    }

    /// The nullspace (kernel) of `self` (CuTe `nullspace`): the layout over the stride-0 leaves,
    /// with the colexicographic weights of those leaves, so that `self(R(i)) == 0`.
    ///
    /// # Laws
    /// * `self.index_any(R.index_1d(i)) == 0` for `i < size(R)`.
    /// * `size(R)` is the product of the stride-0 extents; `R` is injective.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,3,4):(0,1,0)".parse()?;
    /// assert_eq!(l.nullspace().to_string(), "(2,4):(1,6)");
    /// assert_eq!("(2,3):(1,2)".parse::<Layout>()?.nullspace().to_string(), "1:0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nullspace(&self) -> Layout {
        let mut out = Modes::new();
        let mut acc = 1i64;
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            if d == 0 {
                out.push((s, if s == 1 { 0 } else { acc }));
            }
            acc *= s;
        }
        // A sub-layout of a compact layout: extents >= 1, size and span fit.
        from_flat_unchecked(&out)
    }

    /// CuTe `max_common_layout(self, other)`: a layout `R` of the largest contiguous run of
    /// indices on which both layouts agree: `self(R(i)) == other(R(i)) == i`.
    ///
    /// # Laws
    /// * `self.index_any(R(i)) == i` and `other.index_any(R(i)) == i` for `i < size(R)`.
    ///
    /// # Errors
    /// None: when `self ∘ right_inverse(other)` is not a layout, the common part is taken from
    /// its largest valid prefix; the result is `1:0` when nothing is shared.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(4,8):(1,4)".parse()?;
    /// let b: Layout = "(4,8):(1,32)".parse()?;
    /// assert_eq!(a.max_common_layout(&b).to_string(), "4:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_common_layout(&self, other: &Layout) -> Layout {
        let inv = other.right_inverse();
        // The run of max_common_vector: bounded by both domains, so every R(i) is a coordinate
        // of both layouts.
        let n = self.max_common_vector(other);
        if n <= 1 {
            return from_flat_unchecked(&[]); // 1:0
        }
        // inv ∘ n:1, always exact: a prefix of inv's modes (n >= 2 is a size, so n:1 is valid).
        let prefix = from_flat_unchecked(&[(n, 1)]);
        inv.compose(&prefix)
            .unwrap_or_else(|_| from_flat_unchecked(&[]))
    }

    /// CuTe `max_common_vector(self, other)`: the number of contiguous elements, from index 0,
    /// that the two layouts map identically (`self(c) == other(c) == n` for `n < N`), at least 1.
    ///
    /// # Laws
    /// * For every `n < N` some coordinate `c` has `self(c) == n` and `other(c) == n`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(4,8):(1,4)".parse()?;
    /// assert_eq!(a.max_common_vector(&a), 32);
    /// assert_eq!(a.max_common_vector(&"(4,8):(1,32)".parse()?), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_common_vector(&self, other: &Layout) -> i64 {
        // Both domains bound the run (`5:1` and `8:1` share 5 elements, not 8): the witnesses
        // `R(i)` (R the right inverse of `other`, in other's domain) must be in self's domain too.
        let inv = other.right_inverse();
        let (n, k) = self.common_prefix(&inv);
        let modes = flat_modes(&inv);
        n.min(below(&modes[..k.min(modes.len())], self.size()))
            .min(self.size())
            .min(other.size())
            .max(1)
    }

    /// The extent of the leading stride-1 mode of `coalesce(self ∘ inv)` (CuTe's
    /// `max_common_vector`), where `inv` is a right inverse. If that composition is refused, the
    /// longest prefix of `inv`'s modes that composes is used instead (the common vector only
    /// depends on a prefix).
    /// Also returns how many of `inv`'s flat modes were used.
    fn common_prefix(&self, inv: &Layout) -> (i64, usize) {
        let modes = flat_modes(inv);
        for k in (1..=modes.len()).rev() {
            let Ok(sub) = from_flat("max_common_vector", &modes[..k]) else {
                continue;
            };
            if let Ok(c) = self.compose(&sub) {
                let m = flat_modes(&c.coalesce());
                return match m.first() {
                    Some(&(s, 1)) => (s, k),
                    _ => (1, k),
                };
            }
        }
        (1, 0)
    }
}

/// `coalesce(l)`'s modes (written to the empty `c`) with their colexicographic weights (to `w`)
/// in CuTe's stride order, on arrays; `None` past the inline capacity.
#[inline(always)]
fn sorted_small(l: &Layout, c: &mut Flat<WORK>, w: &mut [i64; WORK]) -> Option<()> {
    for (&s, &d) in l.shape.iter().zip(l.stride.iter()) {
        c.push_merged(s, d)?;
    }
    if c.n == 0 {
        c.push(1, 0)?;
    }
    let n = c.n.min(WORK);
    let mut acc = 1i64;
    for (wk, &s) in w.iter_mut().zip(&c.s[..n]) {
        *wk = acc;
        acc *= s; // a product of extents of a valid layout
    }
    // `exchange_sort` by stride, on the three arrays.
    for i in 0..n {
        for j in i + 1..n {
            if c.d[j] < c.d[i] {
                c.s.swap(i, j);
                c.d.swap(i, j);
                w.swap(i, j);
            }
        }
    }
    Some(())
}

/// The fast path of [`Layout::right_inverse`] (see [`super::flat`]); `None` also where the
/// result has more modes than `R` holds.
#[inline(always)]
pub(super) fn right_inverse_small<R: ResultModes>(l: &Layout) -> Option<Layout> {
    let (mut c, mut w) = (Flat::<WORK>::new(), [0i64; WORK]);
    sorted_small(l, &mut c, &mut w)?;
    let mut r = R::empty();
    let mut curr = 1i64;
    for (k, (s, d)) in c.modes().enumerate() {
        if d == curr {
            curr = s * d;
            r.push_merged(s, w[k])?;
        }
    }
    Some(r.layout())
}

/// The fast path of [`Layout::left_inverse`] (see [`super::flat`]): non-negative strides, each
/// nonzero stride a multiple of the one before it and no overlaps; `None` for everything else.
#[inline(always)]
pub(super) fn left_inverse_small(l: &Layout) -> Option<Layout> {
    // `left_inverse_into` keeps the colexicographic position of each mode only to know whether
    // it is the last one; the fast path gives up wherever that would matter.
    let (mut c, mut w) = (Flat::<WORK>::new(), [0i64; WORK]);
    sorted_small(l, &mut c, &mut w)?;
    let n = c.n.min(WORK);
    let z = c.d[..n].iter().take_while(|&&d| d == 0).count();
    if c.d[..n].iter().any(|&d| d < 0) {
        return None;
    }
    let mut r = Flat::new();
    let (mut prev_w, mut covered, mut low) = (0i64, 1i64, 0i64);
    // The size and span of the result as its modes come (a merge keeps both): extents
    // `q >= 1` and weights `>= 0`, so these are `Flat::valid`'s checks without a second pass.
    let (mut size, mut span) = (1i64, 0i64);
    // An index loop: the iterator form clippy suggests costs 10 % more here (measured).
    #[allow(clippy::needless_range_loop)]
    for t in z..n {
        let (s, d) = (c.s[t], c.d[t]);
        let (q, rem) = div_rem(d, covered);
        if rem != 0 {
            return None;
        }
        let wide = t + 1 == n || div_rem(c.d[t + 1], d).0 > s;
        if wide && low >= d {
            return None; // the general path decides with the colexicographic position
        }
        low = low.checked_add((s - 1).checked_mul(d)?)?;
        size = size.checked_mul(q)?;
        span = span.checked_add((q - 1).checked_mul(prev_w)?)?;
        r.push_merged(q, prev_w)?;
        prev_w = w[t];
        covered = d;
    }
    // `sorted_small` gives at least one mode (`1:0` for a layout that coalesces to nothing).
    let last = if n > 0 { c.s[n - 1] } else { 1 };
    size.checked_mul(last)?;
    span = span.checked_add((last - 1).checked_mul(prev_w)?)?;
    r.push_merged(last, prev_w)?;
    debug_assert!(r.valid() == (span < i64::MAX));
    (span < i64::MAX).then(|| r.layout())
}

/// [`Layout::right_inverse`] past its fast path on [`Few`]: on [`Flat`], then the general path
/// (out of line, so that the first fast path is inlined into callers).
#[inline(never)]
fn right_inverse_rest(l: &Layout) -> Layout {
    if let Some(r) = right_inverse_small::<Flat>(l) {
        return r;
    }
    let mut out = Layout::building();
    right_inverse_into(l, &mut out);
    out
}

/// [`Layout::right_inverse`] written to `out` (an empty layout).
pub(super) fn right_inverse_into(l: &Layout, out: &mut Layout) {
    let mut sorted = Leaves::new();
    sorted_with_weights(l, &mut sorted);
    // The chain of strides 1, s_0, s_0 s_1, ..., coalesced as it is found.
    let mut curr = 1i64;
    let chain = sorted.iter().filter_map(|&(s, d, w)| {
        if d == curr {
            curr = s * d;
            Some((s, w))
        } else {
            None
        }
    });
    push_flat_merged(out, chain);
}

/// [`Layout::left_inverse`] written to `out` (an empty layout).
pub(super) fn left_inverse_into(l: &Layout, out: &mut Layout) -> Result<(), LayoutError> {
    let mut c = Modes::new();
    coalesced_modes(l, &mut c);
    // The last mode runs on past the end only if self's own last leaf is not extent 1
    // (coalesce drops such a leaf, but self's extension follows it).
    let runs_on = l.shape.last().is_some_and(|&s| s > 1);
    let last_colex = if runs_on { c.len() - 1 } else { usize::MAX };
    // (extent, stride, weight, colex position), in CuTe's stride order
    let mut sorted: Leaves<(i64, i64, i64, usize)> = Leaves::new();
    let mut acc = 1i64;
    for (k, &(s, d)) in c.iter().enumerate() {
        sorted.push((s, d, acc, k));
        acc *= s;
    }
    exchange_sort(&mut sorted, |m| m.1);
    if sorted.iter().any(|m| m.1 < 0) {
        if sorted.iter().any(|m| m.1 > 0) {
            return Err(LayoutError::NotRepresentable {
                    op: "left_inverse",
                    what: alloc::format!(
                        "{l} has strides of both signs, so its offsets do not determine its coordinates digit by digit"
                    ),
                });
        }
        // All strides <= 0: self(i) = -self'(i) with self' = |self|, and R(y) = R'(-y) is R'
        // with its strides negated (truncating division is odd-symmetric).
        let mut pos = l.clone();
        pos.stride.iter_mut().for_each(|d| *d = -*d);
        left_inverse_into(&pos, out)?;
        out.stride.iter_mut().for_each(|d| *d = -*d);
        return Ok(());
    }
    // Strides are >= 0 here and sorted: the nonzero ones are a suffix.
    let nz = &sorted[sorted.iter().take_while(|m| m.1 == 0).count()..];
    // The modes of R, coalesced as they come: (d / covered, weight of the mode before).
    let mut modes = Modes::new();
    let mut prev_w = 0i64;
    let mut covered = 1i64; // the previous stride in the chain
    let mut low = 0i64; // largest offset of the modes below (Σ (s_j - 1) d_j)
    for (t, &(s, d, w, k)) in nz.iter().enumerate() {
        if d % covered != 0 {
            return Err(LayoutError::NotRepresentable {
                    op: "left_inverse",
                    what: alloc::format!(
                        "stride {d} of {l} is not a multiple of {covered}, the stride before it (left inverse divisibility condition)"
                    ),
                });
        }
        // The digit R reads for this mode is floor(y / d) mod (next / d) (unbounded for the
        // top mode). It stays a valid coordinate of the mode unless the modes below can carry
        // into it while its digit range exceeds its extent; a wrapped coordinate moves to the
        // next mode of self in colexicographic order and changes the value, unless this is
        // self's last mode (which runs on).
        let q = nz.get(t + 1).map(|m| m.1 / d);
        let wide = q.is_none_or(|q| q > s);
        if wide && k != last_colex && low >= d {
            return Err(LayoutError::NotRepresentable {
                    op: "left_inverse",
                    what: alloc::format!(
                        "the modes of {l} below stride {d} overlap it, so no layout recovers their coordinates"
                    ),
                });
        }
        low = low.saturating_add((s - 1).saturating_mul(d));
        let Ok(()) = super::coalesce::push_merged(&mut modes, d / covered, prev_w);
        prev_w = w;
        covered = d;
    }
    let last = sorted.last().map_or(1, |m| m.0);
    let Ok(()) = super::coalesce::push_merged(&mut modes, last, prev_w);
    super::check_flat("left_inverse", &modes)?;
    push_flat(out, &modes);
    Ok(())
}

/// The largest `n` with `R(i) < bound` for every `i < n`, where `R` is the layout of the flat
/// `modes` (non-negative strides, as a right inverse has; `bound >= 1`). With non-negative
/// strides the largest value over `i < P_k * c` (all of the first `k` modes, `c` values of mode
/// `k`) is the sum of the full reaches of the first `k` modes plus `(c - 1) * w_k`.
fn below(modes: &[(i64, i64)], bound: i64) -> i64 {
    let mut reach = 0i64; // the largest value over the modes taken so far, < bound
    let mut count = 1i64; // the product of their extents
    for &(s, w) in modes {
        if w < 0 {
            return count;
        }
        let c = if w == 0 {
            s
        } else {
            ((bound - 1 - reach) / w + 1).min(s)
        };
        if c < s {
            return count * c;
        }
        // Both stay within the size and cosize of a valid layout.
        reach += (s - 1) * w;
        count *= s;
    }
    i64::MAX
}

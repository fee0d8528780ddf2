//! complement(A, M): the layout that fills the gaps of A's image up to M.

use super::coalesce::{merged, push_merged};
use super::flat::{Few, Flat, ResultModes, WORK};
use super::lists::{growable, List, Stop};
use super::{ceil_div, from_flat, from_flat_unchecked, mul, Modes};
use crate::layout::coord::div_rem;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

const OP: &str = "complement";

impl Layout {
    /// The complement of `self` with respect to `cotarget` (CuTe `complement(layout, cotarget)`).
    ///
    /// Definition (02_layout_algebra.md, "Complement"): the modes of `filter(self)` are sorted by
    /// stride, `(s_0,...,s_k):(d_0,...,d_k)`; the result is
    /// `coalesce((d_0, d_1/(s_0 d_0), ..., d_k/(s_{k-1} d_{k-1}), ceil(M/(s_k d_k))) : (1, s_0 d_0, ..., s_k d_k))`,
    /// i.e. the strictly increasing layout that enumerates the gaps of the image and then repeats
    /// the whole span until `cotarget` is covered. A `filter(self)` of `1:0` gives `M:1`.
    ///
    /// # Laws
    /// * `R` is strictly increasing: `R(i-1) < R(i)`.
    /// * `R(i) != self(j)` for `i >= 1` and every `j`; `(filter(self), R)` is injective.
    /// * `size(R) >= M / size(filter(self))` and `cosize((self, R)) >= M`.
    ///
    /// # Errors
    /// * [`LayoutError::NotInjective`]: two modes of `filter(self)` collide (CuTe: "Non-injective
    ///   Layout detected in complement", pycute returns a size-0 layout), e.g.
    ///   `complement((2,2):(1,1), 8)`.
    /// * [`LayoutError::NotComplementable`]: a sorted stride is not a multiple of the span of the
    ///   previous mode, so the gaps are not a layout (CuTe returns a layout that breaks the laws).
    /// * [`LayoutError::InvalidArgument`]: negative strides, or `cotarget < 1`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// // 02_layout_algebra.md, Complement examples
    /// let c = |l: &str, m: i64| l.parse::<Layout>().unwrap().complement(m).unwrap().to_string();
    /// assert_eq!(c("4:1", 24), "6:4");
    /// assert_eq!(c("6:4", 24), "4:1");
    /// assert_eq!(c("(4,6):(1,4)", 24), "1:0");
    /// assert_eq!(c("4:2", 24), "(2,3):(1,8)");
    /// assert_eq!(c("(2,4):(1,6)", 24), "3:2");
    /// assert_eq!(c("(2,2):(1,6)", 24), "(3,2):(2,12)");
    /// // the law: (A, R) is a bijection onto [0, 24) here
    /// let a: Layout = "(2,2):(1,6)".parse()?;
    /// let r = a.complement(24)?;
    /// let mut seen: Vec<i64> = a.offsets().flat_map(|x| r.offsets().map(move |y| x + y)).collect();
    /// seen.sort();
    /// assert_eq!(seen, (0..24).collect::<Vec<_>>());
    /// assert!("(2,2):(1,1)".parse::<Layout>()?.complement(8).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complement(&self, cotarget: i64) -> Result<Layout, LayoutError> {
        if cotarget < 1 {
            return Err(LayoutError::InvalidArgument {
                op: OP,
                what: alloc::format!("cotarget {cotarget} is not positive"),
            });
        }
        // Results of up to four modes in registers, then of up to the inline capacity.
        if let Some(r) = complement_small::<Few>(&self.shape, &self.stride, cotarget) {
            return Ok(r);
        }
        if let Some(r) = complement_small::<Flat>(&self.shape, &self.stride, cotarget) {
            return Ok(r);
        }
        let mut f = Modes::new();
        filter_modes(self, &mut f);
        complement_filtered(&f, &[cotarget])
    }

    /// [`Layout::complement`] with a shape as cotarget (CuTe accepts any `IntTuple`): the
    /// repetition extent is CuTe's `ceil_div(cotarget, span)` taken element by element.
    ///
    /// # Errors
    /// As [`Layout::complement`]; [`LayoutError::InvalidArgument`] for an extent below 1.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "64:1".parse()?;
    /// assert_eq!(a.complement_shape(&"(32,4,4)".parse()?)?.to_string(), "8:64");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "complement")]
    pub fn complement_shape(&self, cotarget: &IntTuple) -> Result<Layout, LayoutError> {
        if let Some(&c) = cotarget.leaves().iter().find(|&&c| c < 1) {
            return Err(LayoutError::InvalidArgument {
                op: OP,
                what: alloc::format!("cotarget {cotarget} has extent {c} below 1"),
            });
        }
        let mut f = Modes::new();
        filter_modes(self, &mut f);
        complement_filtered(&f, cotarget.leaves())
    }

    /// `complement(self, cosize(filter(self)))`: CuTe's one-argument complement. The cosize may
    /// be `2^63`, one past `i64` (a span of `i64::MAX`); the complement is then taken up to it.
    ///
    /// # Errors
    /// As [`Layout::complement`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(2,2):(1,6)".parse()?;
    /// assert_eq!(a.complement_cosize()?.to_string(), "3:2");
    /// let b: Layout = "2:9223372036854775807".parse()?; // cosize 2^63
    /// assert_eq!(b.complement_cosize()?.to_string(), "9223372036854775807:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "complement")]
    pub fn complement_cosize(&self) -> Result<Layout, LayoutError> {
        let mut f = Modes::new();
        filter_modes(self, &mut f);
        // cosize(filter(self)) is self's: filtering drops leaves that add nothing to the span
        // and merges `(s0,s1):(d0,s0 d0)` into `s0 s1:d0`, of the same span.
        let cosize = self.cosize();
        match i64::try_from(cosize) {
            Ok(m) => complement_filtered(&f, &[m]),
            Err(_) => {
                // 2^63: the general path, which takes the cotarget's size in i128 (the last
                // span is at least the cosize, so no rest mode follows and the extents of the
                // stand-in cotarget `i64::MAX` are never used).
                let mut r = Modes::new();
                growable(complement_modes_with(
                    &f,
                    &[i64::MAX],
                    i128::from(cosize),
                    &mut r,
                    true,
                    false,
                ))?;
                from_flat(OP, &r)
            }
        }
    }
}

/// [`Layout::complement_shape`] with the cotarget given by its leaves, known to be >= 1 (the
/// divides pass a coalesced layout's shape).
#[inline]
pub(crate) fn complement_leaves(l: &Layout, cotarget: &[i64]) -> Result<Layout, LayoutError> {
    let mut f = Modes::new();
    filter_modes(l, &mut f);
    complement_filtered(&f, cotarget)
}

/// The fast path of [`Layout::complement`] (see [`super::flat`]): an integer cotarget `m >= 1`,
/// filtered modes sorted by stride with no gaps (each stride a multiple of the span below it).
/// `None` sends everything else to the general path, and results of more modes than `R` holds
/// to the caller's next attempt.
#[inline(always)]
pub(super) fn complement_small<R: ResultModes>(
    shape: &[i64],
    stride: &[i64],
    m: i64,
) -> Option<Layout> {
    let mut r = R::empty();
    let mut span = 1i64;
    // filter(self) on the fly (`filter_leaves`: stride-0 leaves count as extent 1, extent-1
    // leaves are dropped, neighbours merged), each filtered mode handed to the chain once it is
    // complete (at the leaf that does not merge into it, or at the end): no array of filtered
    // modes, and one place that steps the chain.
    let mut pending: Option<(i64, i64)> = None;
    let mut leaves = shape.iter().zip(stride);
    loop {
        let done = match leaves.next() {
            Some((&s, &d)) => {
                let s = if d == 0 { 1 } else { s };
                if s == 1 {
                    continue;
                }
                match pending {
                    None => {
                        pending = Some((s, d));
                        continue;
                    }
                    Some(p) => match merged(p, s, d) {
                        Some(e) => {
                            pending = Some((e, p.1));
                            continue;
                        }
                        None => pending.replace((s, d)),
                    },
                }
            }
            None => pending.take(),
        };
        // One filtered mode of the chain: sorted, no gap.
        let Some((s, d)) = done else { break };
        if d < span {
            return None; // unsorted, negative or overlapping
        }
        let (g, gap) = div_rem(d, span);
        if gap != 0 {
            return None; // a gap: the general path checks coverage
        }
        // Never merges with the mode before (`g_j:S_{j-1}` reaches `d_j < S_{i-1}`): a push.
        if g != 1 {
            r.push(g, span)?;
        }
        span = d.checked_mul(s)?;
    }
    let rest = ceil_div(m, span);
    if rest != 1 {
        r.push(rest, span)?;
    }
    // Valid without a pass over the modes: every extent is at least 1 (`g = d / span >= 1`,
    // `rest >= 1`), and the result is strictly increasing with its last offset
    // `Σ (g_i - 1) S_{i-1} + (rest - 1) span = Σ (d_i - S_{i-1}) + (rest - 1) span
    // <= Σ (S_i - S_{i-1}) + (rest - 1) span < rest * span`, so its size and cosize are at most
    // `rest * span`, which must fit in `i64`.
    rest.checked_mul(span)?;
    debug_assert!(r.valid());
    Some(r.layout())
}

/// The complement of a compact layout, one mode, without the general chain: where the leaves
/// `shape:stride` left after filtering (stride-0 and extent-1 leaves out), sorted by stride,
/// each have the product of the extents below them as stride (the compact chain `s_0:1,
/// s_1:s_0, ...`), every `g_i` of [`complement_filtered`] is 1 and `complement(l, m)` is
/// `ceil(m / span):span` (`span` the product of those extents), no mode where that extent is 1,
/// and `m:1` where no leaf is left (`1:0` for `m == 1`). Gives that mode (`Some(None)` for
/// none), or `None` elsewhere (not compact, more than [`WORK`] leaves, an overflow: the general
/// path then gives the same layout or the error). The products use it for their complement
/// `complement(a, size(a) * cosize(b))`.
#[inline(always)]
pub(crate) fn compact_complement(
    shape: &[i64],
    stride: &[i64],
    m: i64,
) -> Option<Option<(i64, i64)>> {
    if shape.len() > WORK || m < 1 {
        return None;
    }
    // The kept leaves `(stride, extent)` sorted by stride (insertion as they come).
    let mut sorted = [(0i64, 0i64); WORK];
    let mut n = 0;
    for (&e, &d) in shape.iter().zip(stride) {
        if e == 1 || d == 0 {
            continue;
        }
        let mut k = n;
        while k > 0 && sorted[k - 1].0 > d {
            sorted[k] = sorted[k - 1];
            k -= 1;
        }
        sorted[k] = (d, e);
        n += 1;
    }
    // The compact chain: each stride the span below it (so positive, and no two alike).
    let mut span = 1i64;
    for &(d, e) in &sorted[..n] {
        if d != span {
            return None;
        }
        span = span.checked_mul(e)?;
    }
    if span == 1 {
        // Nothing kept: CuTe's `make_layout(m)`, written `1:0` for `m == 1`.
        return Some(Some((m, i64::from(m != 1))));
    }
    let rest = ceil_div(m, span);
    // The complement's cosize `(rest - 1) * span + 1` fits when `rest * span` does.
    rest.checked_mul(span)?;
    Some((rest != 1).then_some((rest, span)))
}

/// CuTe's `ceil_div(cotarget, d)` for a tuple cotarget: divide the elements left to right, each
/// by what is left of `d`; the result's size (CuTe then coalesces it to one static extent).
fn ceil_div_shape(cotarget: &[i64], d: i64) -> Result<i64, LayoutError> {
    let mut rest = d;
    let mut out = 1i64;
    for &c in cotarget {
        out = mul(OP, out, ceil_div(c, rest))?;
        rest = ceil_div(rest, c);
    }
    Ok(out)
}

/// The modes of `filter(l)`: `l`'s leaves coalesced, stride-0 and extent-1 leaves left out
/// (none at all for `1:0`), without building the filtered layout.
pub(super) fn filter_modes(l: &Layout, out: &mut Modes) {
    let Ok(()) = filter_leaves(&l.shape, &l.stride, out);
}

/// [`filter_modes`] of a layout given by its leaves.
pub(crate) fn filter_leaves<L: List<(i64, i64)>>(
    shape: &[i64],
    stride: &[i64],
    out: &mut L,
) -> Result<(), L::Full> {
    for (&s, &d) in shape.iter().zip(stride.iter()) {
        push_merged(out, if d == 0 { 1 } else { s }, d)?;
    }
    Ok(())
}

/// Complement of an already filtered layout given by its modes (flat, coalesced, no stride-0
/// or extent-1 modes; none for `1:0`).
///
/// Condition checked (and why it is exact): sort the modes by stride, let `S_i = s_i d_i` and
/// `g_i = floor(d_i / S_{i-1})` (`S_{-1} = 1`). CuTe's result is
/// `(g_0, ..., g_k, rest):(1, S_0, ..., S_k)`. Interleaving it with A by stride gives the chain
/// `g_0:1, s_0:d_0, g_1:S_0, s_1:d_1, ...` in which every stride is at least the span of all
/// smaller ones as soon as every `g_i >= 1`: so `(A, R)` is injective, `R` is strictly increasing
/// and misses A's image. What can still fail is coverage: with `r_i = d_i mod S_{i-1}`,
/// `cosize((A, R)) = rest * S_k - Σ r_i` must reach `M`, and `size(R) = Π g_i * rest` must reach
/// `M / size(A)` (integer division, CuTe's post-condition). Both are checked directly.
pub(super) fn complement_filtered(
    f: &[(i64, i64)],
    cotarget: &[i64],
) -> Result<Layout, LayoutError> {
    let mut r = Modes::new();
    growable(complement_modes(f, cotarget, &mut r))?;
    from_flat(OP, &r)
}

/// [`complement_filtered`]'s flat modes (appended to `result`, coalesced), for kernels that
/// build the complement into a larger layout. The caller checks them ([`super::check_flat`]).
pub(crate) fn complement_modes<L: List<(i64, i64)>>(
    f: &[(i64, i64)],
    cotarget: &[i64],
    result: &mut L,
) -> Result<(), Stop<L::Full>> {
    if let [m] = *cotarget {
        if f.len() <= WORK {
            if f.windows(2).all(|w| w[0].1 <= w[1].1) {
                if let Some(r) = complement_gapless(f.iter().copied(), m, result) {
                    return r;
                }
            } else {
                // Stable insertion sort by stride, as the general path's `sort_by_key`.
                let mut sorted = Flat::<WORK>::new();
                for (k, &(s, d)) in f.iter().enumerate() {
                    let mut j = k;
                    while j > 0 && sorted.d[j - 1] > d {
                        sorted.s[j] = sorted.s[j - 1];
                        sorted.d[j] = sorted.d[j - 1];
                        j -= 1;
                    }
                    sorted.s[j] = s;
                    sorted.d[j] = d;
                }
                sorted.n = f.len();
                if let Some(r) = complement_gapless(sorted.modes(), m, result) {
                    return r;
                }
            }
        }
    }
    complement_modes_general(f, cotarget, result)
}

/// The complement chain that a product uses, `complement(a, m)` for `m = size(a) * cosize(b)`
/// (appended to `result`, coalesced): CuTe's chain `(g_0, ..., g_k, rest):(1, S_0, ..., S_k)`
/// without the coverage check of [`complement_modes`]. Where `a` has holes that no layout fills
/// (`(4,6):(1,6)` skips 4 and 5: `g_1 = floor(6 / 4)`), the chain falls short of `m`, but it is
/// still strictly increasing, misses `a`'s image and makes `(a, R)` injective, which is all that
/// the product `(a, R ∘ b)` needs (CuTe's logical_product.cpp expects
/// `(4,6):(1,6) ⊗ 3:1 = (((4,6)),(3)):(((1,6)),(36))`). `m_is_floor`: `m` stands for a larger
/// value past `i64` (saturated); the chain is the same unless its span reaches `i64::MAX`,
/// which is then an overflow.
pub(crate) fn product_complement_modes<L: List<(i64, i64)>>(
    f: &[(i64, i64)],
    m: i64,
    m_is_floor: bool,
    result: &mut L,
) -> Result<(), Stop<L::Full>> {
    if !m_is_floor && f.len() <= WORK && f.windows(2).all(|w| w[0].1 <= w[1].1) {
        if let Some(r) = complement_gapless(f.iter().copied(), m, result) {
            return r;
        }
    }
    complement_modes_with(f, &[m], i128::from(m), result, false, m_is_floor)
}

/// `complement(a, m)` as a layout, the product's chain ([`product_complement_modes`]).
pub(crate) fn product_complement(
    a: &Layout,
    m: i64,
    m_is_floor: bool,
) -> Result<Layout, LayoutError> {
    let mut f = Modes::new();
    filter_modes(a, &mut f);
    let mut r = Modes::new();
    growable(product_complement_modes(&f, m, m_is_floor, &mut r))?;
    from_flat(OP, &r)
}

/// [`complement_modes_general`] for the modes `f` (sorted by stride) and a cotarget of one
/// extent `m`, where it succeeds without a gap: the same pushes, `(d_i / S_{i-1}, S_{i-1})` for
/// each mode and then `(rest, span)`, with no error path. `None`, with nothing pushed, wherever
/// the general path could do anything else (no modes, an overlap or a negative stride, a gap,
/// an overflow), which then runs.
#[inline(always)]
fn complement_gapless<L: List<(i64, i64)>>(
    f: impl Iterator<Item = (i64, i64)> + Clone,
    m: i64,
    result: &mut L,
) -> Option<Result<(), Stop<L::Full>>> {
    let mut span = 1i64;
    let mut any = false;
    for (s, d) in f.clone() {
        if d < span || div_rem(d, span).1 != 0 {
            return None;
        }
        span = d.checked_mul(s)?;
        any = true;
    }
    let rest = ceil_div(m, span);
    // The general path computes `rest * span` (and reports its overflow).
    if !any || rest.checked_mul(span).is_none() {
        return None;
    }
    let push = || -> Result<(), L::Full> {
        let mut span = 1i64;
        for (s, d) in f {
            push_merged(result, div_rem(d, span).0, span)?;
            span = d * s; // checked above
        }
        push_merged(result, rest, if rest == 1 { 0 } else { span })
    };
    Some(push().map_err(Stop::Full))
}

/// [`complement_modes`] for any modes and cotarget.
fn complement_modes_general<L: List<(i64, i64)>>(
    f: &[(i64, i64)],
    cotarget: &[i64],
    result: &mut L,
) -> Result<(), Stop<L::Full>> {
    let m = cotarget
        .iter()
        .fold(1i128, |acc, &c| acc.saturating_mul(i128::from(c)));
    complement_modes_with(f, cotarget, m, result, true, false)
}

/// [`complement_modes_general`], with the coverage check (`cover`) or without (the products'
/// chain, see [`product_complement_modes`]), for a cotarget of size `m` (in `i128`, saturated:
/// it only bounds the coverage checks, so a size past `i64` is no overflow by itself). The
/// spans `S_i` are computed in `i128`: only the result has to fit in `i64`. A last span past `i64` needs no rest mode (`ceil(M / S_k) = 1`),
/// so `complement((9,7):(2,18), i64::MAX)` is `(2,73201365371863301):(1,126)` although
/// `rest * S_k` is past `i64`.
fn complement_modes_with<L: List<(i64, i64)>>(
    f: &[(i64, i64)],
    cotarget: &[i64],
    m: i128,
    result: &mut L,
    cover: bool,
    m_is_floor: bool,
) -> Result<(), Stop<L::Full>> {
    // `f` as the layout filter() returns, for error messages only.
    let f_layout = || from_flat_unchecked(f);
    if f.is_empty() {
        // CuTe: make_layout(coalesce(cotarget)); a compact extent-1 mode has stride 0.
        let m = i64::try_from(m).map_err(|_| LayoutError::overflow(OP))?;
        let d = if m == 1 { 0 } else { 1 };
        return result.add((m, d));
    }
    if let Some(&(_, d)) = f.iter().find(|m| m.1 < 0) {
        return Err(LayoutError::InvalidArgument {
            op: OP,
            what: alloc::format!(
                "stride {d} of {} is negative; complement needs non-negative strides",
                f_layout()
            ),
        }
        .into());
    }
    // Stable sort by stride (CuTe picks the first minimum each step); `f` usually is sorted.
    // (The copy is filled where it lives: moving a filled list costs more than the sort.)
    let mut sorted_copy = L::empty();
    let modes: &[(i64, i64)] = if f.windows(2).all(|w| w[0].1 <= w[1].1) {
        f
    } else {
        for &m in f {
            sorted_copy.add(m)?;
        }
        sorted_copy.sort_by_key(|m| m.1);
        &sorted_copy
    };
    let mut span = 1i128; // S_{i-1}
    let mut prev_stride = 0i64;
    let mut gap_sum = 0i128; // Σ r_i
    let mut first_gap: Option<(i64, i64)> = None;
    let mut size_a = 1i64;
    let mut size_r = Some(1i64); // Π g_i (only needed, and only checked, with a gap)
    for &(s, d) in modes {
        if i128::from(d) < span {
            // (So a span past i64 stops here: no stride reaches it.)
            let span = i64::try_from(span).unwrap_or(i64::MAX);
            // g_i == 0: the modes overlap (CuTe: "Non-injective Layout detected in complement").
            return Err(
                if d == prev_stride || (prev_stride != 0 && d % prev_stride == 0) {
                    LayoutError::NotInjective {
                        op: OP,
                        layout: f_layout().into(),
                    }
                } else {
                    LayoutError::NotComplementable {
                        op: OP,
                        layout: f_layout().into(),
                        stride: d,
                        span,
                    }
                }
                .into(),
            );
        }
        // d >= span here, so span fits in i64.
        let span64 = span as i64;
        let r = d % span64;
        if r != 0 && first_gap.is_none() {
            first_gap = Some((d, span64));
        }
        gap_sum += i128::from(r);
        let g = d / span64;
        size_r = size_r.and_then(|x| x.checked_mul(g));
        push_merged(result, g, span64).map_err(Stop::Full)?;
        prev_stride = d;
        span = i128::from(d) * i128::from(s);
        size_a = mul(OP, size_a, s)?;
    }
    if m_is_floor && span >= i128::from(i64::MAX) {
        // The true cotarget is past i64: it may need a rest mode of stride S_k past i64.
        return Err(LayoutError::overflow(OP).into());
    }
    let mut rest = match i64::try_from(span) {
        Ok(span) => ceil_div_shape(cotarget, span)?,
        Err(_) => 1, // every extent of the cotarget is below S_k
    };
    if i128::from(rest) * span - gap_sum < m {
        // CuTe's element-wise ceil_div of a tuple cotarget can fall short of its size
        // (`complement(6:3, (5,3,5))` would be `(3,3):(1,18)`, cosize 54 < 75): take the
        // integer one, which reaches it (the coverage check below still applies).
        let up = m / span + i128::from(m % span != 0);
        rest = i64::try_from(up).map_err(|_| LayoutError::overflow(OP))?;
    }
    if !cover && first_gap.is_some() && rest == 1 {
        // The product's chain with a gap falls short of m, so b's offsets may pass its last
        // g-mode, which would run on into a's image (`(2,5):(6,16) ⊗ 8:-1` would give
        // `C = 6:1`, and copies of a that overlap): keep the mode of stride S_k, which runs on
        // above everything (CuTe drops it, and its product is not injective).
        rest = 2;
    }
    // rest > 1 only where S_k < m (or S_k covers a gap short of m <= i64::MAX), so S_k fits.
    push_merged(result, rest, if rest == 1 { 0 } else { span as i64 }).map_err(Stop::Full)?;
    if let (true, Some((stride, span_before))) = (cover, first_gap) {
        let size_r = size_r
            .and_then(|x| x.checked_mul(rest))
            .ok_or_else(|| LayoutError::overflow(OP))?;
        let cosize = i128::from(rest) * span - gap_sum;
        if cosize < m || i128::from(size_r) < m / i128::from(size_a) {
            return Err(LayoutError::NotComplementable {
                op: OP,
                layout: f_layout().into(),
                stride,
                span: span_before,
            }
            .into());
        }
    }
    Ok(())
}

/// The gapless fast path of [`complement_modes`] against the general loop: the same modes pushed
/// (onto a list that already holds a mode, so that merging with it is exercised too) or the same
/// error, for random modes (sorted and not, overlapping, with gaps, negative strides, up to one
/// past [`WORK`]) and cotargets from 1 to `i64::MAX`.
#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::super::testing::Rng;
    use super::*;
    use crate::algebra::lists::growable;

    #[test]
    fn array_fast_path_agrees_with_the_general_loop() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut used = 0usize;
        for _ in 0..50_000 {
            let n = rng.next(WORK as u64 + 2) as usize;
            let mut f: Vec<(i64, i64)> = Vec::new();
            let mut span = 1i64;
            for _ in 0..n {
                let s = 2 + rng.next(4) as i64;
                let d = match rng.next(6) {
                    0 => rng.next(40) as i64 - 4,
                    1 => span.saturating_mul(1 + rng.next(3) as i64),
                    2 => span.saturating_mul(1 << 40),
                    _ => span,
                };
                span = d.saturating_mul(s).clamp(1, i64::MAX / 2);
                f.push((s, d));
            }
            if rng.next(3) == 0 && n > 1 {
                let (i, j) = (rng.next(n as u64) as usize, rng.next(n as u64) as usize);
                f.swap(i, j);
            }
            let m = match rng.next(5) {
                0 => 1,
                1 => i64::MAX - rng.next(3) as i64,
                2 => span.saturating_mul(1 + rng.next(4) as i64),
                _ => 1 + rng.next(1 << 20) as i64,
            };
            let prefix = (3i64, 1i64);
            let mut fast = Modes::new();
            fast.push(prefix);
            let got = growable(complement_modes(&f, &[m], &mut fast)).map(|()| fast);
            let mut slow = Modes::new();
            slow.push(prefix);
            let want = growable(complement_modes_general(&f, &[m], &mut slow)).map(|()| slow);
            assert_eq!(got, want, "complement of {f:?} for {m}");
            let mut sorted = f.clone();
            sorted.sort_by_key(|m| m.1);
            let mut scratch = Modes::new();
            let fast = complement_gapless(sorted.iter().copied(), m, &mut scratch).is_some();
            used += usize::from(f.len() <= WORK && fast);
        }
        assert!(used > 10_000, "fast path taken {used} times");
    }

    /// [`compact_complement`] against the general complement of the filtered leaves, on every
    /// layout of up to three leaves over small extents and strides (both signs, zero) and on
    /// compact layouts of up to WORK + 1 leaves in shuffled order, for several cotargets.
    #[test]
    fn compact_complement_agrees_with_the_general_path() {
        let general = |shape: &[i64], stride: &[i64], m: i64| {
            let mut f = Modes::new();
            let Ok(()) = filter_leaves(shape, stride, &mut f);
            let mut r = Modes::new();
            growable(complement_modes(&f, &[m], &mut r)).map(|()| r)
        };
        let modes = super::super::testing::small_modes();
        let mut answered = 0usize;
        let mut check = |shape: &[i64], stride: &[i64]| {
            for m in [1i64, 2, 7, 16, 64, 1000, i64::MAX] {
                if let Some(c) = compact_complement(shape, stride, m) {
                    let want = general(shape, stride, m);
                    assert_eq!(
                        Ok(c.into_iter().collect::<Modes>()),
                        want,
                        "{shape:?}:{stride:?} in {m}"
                    );
                    answered += 1;
                }
            }
        };
        for &a in &modes {
            check(&[a.0], &[a.1]);
            for &b in &modes {
                check(&[a.0, b.0], &[a.1, b.1]);
                for &c in &modes {
                    check(&[a.0, b.0, c.0], &[a.1, b.1, c.1]);
                }
            }
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let n = 1 + rng.next(WORK as u64 + 1) as usize;
            let mut shape: Vec<i64> = (0..n).map(|_| 1 + rng.next(4) as i64).collect();
            let mut stride = Vec::new();
            let mut span = 1i64;
            for &s in &shape {
                stride.push(if rng.next(8) == 0 { 0 } else { span });
                span *= s;
            }
            for _ in 0..rng.next(4) {
                let (i, j) = (rng.next(n as u64) as usize, rng.next(n as u64) as usize);
                shape.swap(i, j);
                stride.swap(i, j);
            }
            if rng.next(4) == 0 {
                let i = rng.next(n as u64) as usize;
                stride[i] += 1;
            }
            check(&shape, &stride);
        }
        assert!(answered > 50_000, "{answered}");
    }
}

//! Composition `A ∘ B`, with B a layout, a tiler or a shape.
//!
//! CuTe computes `A ∘ B` by left-distributing over B's leaves: for each leaf `N:r` of B it
//! "divides out" the stride `r` from A's (coalesced, flat) extents, then "mods out" the extent `N`,
//! and concatenates the per-leaf results in B's tree. Two things can make that silently wrong:
//!
//! 1. *Within one leaf* (weak divisibility): CuTe admits a stride `r` smaller than, but not
//!    dividing, an extent `s` of A; the walk is then only right if the whole leaf stays inside that
//!    mode (`N <= ceil(s / r)`), or if that mode has stride 0 and the carries out of it still
//!    match CuTe's (see `compose_leaf`).
//! 2. *Across leaves* (disjoint intervals): `A(Σ B_k(x_k)) == Σ A(B_k(x_k))` needs the
//!    leaves' images to add without carries in A's mixed-radix coordinates. Each exact per-leaf
//!    result occupies, in every mode `j` of A it touches, the digits `0, ρ, ..., (q-1)ρ`; the sum
//!    is carry-free exactly when, for every mode `j` but the last (which is unbounded), the largest
//!    digits of all leaves add up to at most `s_j - 1`. When they add up to more, a carry happens
//!    at some point and changes the value by `d_{j+1} - s_j d_j`, which is never 0 in a coalesced
//!    layout: so this test is exact, not just sufficient.
//!
//! Both checks use only the extents and strides, so they cost O(leaves × modes), like the walk.

use super::flat::{Buf, Sink, WORK};
use super::lists::{bounded_first, growable, Bounded, Full, Growable, List, Lists, Stop, BOUNDED};
use super::view::View;
use super::{mul, Tiler};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::Tok;
use crate::layout::Layout;
use arrayvec::ArrayVec;

pub(crate) const OP: &str = "composition";

/// The results of composing A with every leaf of B, stored flat (one buffer for all leaves, so
/// that nothing large is moved per leaf), in the working lists `S`.
struct Leaves2<S: Lists> {
    /// Flat modes of all per-leaf results, leaf after leaf.
    modes: S::Modes,
    /// Per leaf: the end of its modes in `modes`, whether the result is an integer layout
    /// (rather than a tuple), and the sign of the leaf's stride (0 for stride 0 or extent 1).
    info: S::Info,
    /// Largest digit each leaf uses in each non-last mode of A: `(leaf, mode, max digit)`.
    footprint: S::Footprint,
    /// The first leaf's "right only if no other leaf of B moves" (see [`WeakStep::RightAlone`]):
    /// the mode of A and the stride, for the error message.
    alone: Option<(i64, i64)>,
}

impl<S: Lists> Leaves2<S> {
    #[inline(always)]
    fn new() -> Self {
        Leaves2 {
            modes: List::empty(),
            info: List::empty(),
            footprint: List::empty(),
            alone: None,
        }
    }
}

/// Verdict on CuTe's walk at a weakly divisible mode: the stride `abs` left at mode `j` of `a` is
/// below that mode's extent `s`, does not divide it, and the leaf's `rest` elements run past it
/// (`ns = ceil(s / abs) < rest`).
///
/// Write `i = k ns + i0` (`i0 < ns`). The true index `abs i` has digit `abs i0 + k e - delta s`
/// in mode `j` (`e = abs ns - s`, `0 < e < abs`) and carries `k + delta` into the modes past `j`,
/// `delta = floor((abs i0 + k e) / s)`; CuTe assumes digit `abs i0` and carry `k`. So:
/// * a mode with a nonzero stride sees the wrong digit from group 1 on: wrong;
/// * in a stride-0 mode the digit does not matter; `delta > 0` first happens in group
///   `k* = ceil((abs - e) / e)`. No group reaches it: right. Two or more groups do: then the
///   modes past `j` (whose first stride is nonzero, `a` being coalesced) would have to take
///   equal values at `k*`, `k* + 1` and `k* + 2`, impossible: wrong. Only the last group does:
///   right exactly when the modes past `j` take the same value at `k*` and `k* + 1` (`delta <= 1`
///   as `abs (ns - 1) + k* e < 2 s`); the leaf then uses coordinates CuTe's footprint does not
///   record, so the answer is only right if no other leaf of B moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WeakStep {
    /// CuTe's answer is wrong.
    Wrong,
    /// CuTe's answer is right; the largest digit the leaf uses in mode `j`.
    Right(i64),
    /// CuTe's answer is right if this is the only leaf of B that moves.
    RightAlone,
}

pub(crate) fn weak_step(a: &[(i64, i64)], j: usize, abs: i64, ns: i64, rest: i64) -> WeakStep {
    let Some(&(s, d)) = a.get(j) else {
        return WeakStep::Wrong;
    };
    if d != 0 || abs <= 0 || ns <= 0 {
        return WeakStep::Wrong;
    }
    // abs < s and abs * ns < s + abs: no overflow below.
    let e = abs * ns - s;
    if e <= 0 {
        return WeakStep::Wrong; // abs divides s: not a weak step
    }
    let groups = rest / ns;
    let k_star = super::ceil_div(abs - e, e);
    if groups <= k_star {
        return WeakStep::Right(abs * (ns - 1) + (groups - 1) * e);
    }
    if groups - k_star >= 2 {
        return WeakStep::Wrong;
    }
    let tail = &a[j + 1..];
    match (tail_value(tail, k_star), tail_value(tail, k_star + 1)) {
        (Some(x), Some(y)) if x == y => WeakStep::RightAlone,
        _ => WeakStep::Wrong,
    }
}

/// The value of the flat modes `t` (the last one unbounded) at the 1-D index `x`.
fn tail_value(t: &[(i64, i64)], mut x: i64) -> Option<i64> {
    let mut v = 0i64;
    for (m, &(s, d)) in t.iter().enumerate() {
        let digit = if m + 1 == t.len() { x } else { x % s };
        v = v.checked_add(digit.checked_mul(d)?)?;
        x /= s;
    }
    Some(v)
}

/// One mode `s` of A in CuTe's walk for a leaf of B with `rest_shape` elements left at stride
/// `rest_stride` (nonzero): what [`compose_leaf`] and [`compose_fast`] both do first.
#[derive(Clone, Copy)]
enum Walk {
    /// The stride passes the extent and is not a multiple of it (CuTe's weak form of stride
    /// divisibility fails): the stride.
    StrideNotDivisible(i64),
    /// Nothing of this mode is used: the stride left for the next mode.
    Pass(i64),
    /// The leaf takes elements of this mode.
    Take(Take),
}

/// The leaf takes `new_shape` elements of a mode at stride `abs` (`s_rem = s mod abs`, nonzero
/// for a weakly divisible step); `next_stride` is left for the next mode.
#[derive(Clone, Copy)]
struct Take {
    abs: i64,
    new_shape: i64,
    s_rem: i64,
    next_stride: i64,
}

/// [`Walk`] for the mode of extent `s`. CuTe's `ceil_div(s, abs)` (the extent left in the mode)
/// and `ceil_div(abs, s)` (the stride left for the next) with one division: a stride past the
/// extent must be a multiple of it, and `abs >= 1`.
#[inline(always)]
fn walk_step(s: i64, rest_shape: i64, rest_stride: i64) -> Walk {
    let abs = rest_stride.abs();
    if abs >= s {
        if abs % s != 0 {
            return Walk::StrideNotDivisible(abs);
        }
        return Walk::Pass(abs / s * rest_stride.signum());
    }
    let (q, s_rem) = (s / abs, s % abs);
    let next_shape = q + i64::from(s_rem != 0);
    let next_stride = rest_stride.signum();
    if next_shape == 1 || rest_shape == 1 {
        return Walk::Pass(next_stride);
    }
    Walk::Take(Take {
        abs,
        new_shape: next_shape.min(rest_shape),
        s_rem,
        next_stride,
    })
}

/// The error for a stride `abs` of B that meets the extent `s` of `lhs` (coalesced) and divides
/// neither way, or only weakly where that goes wrong.
#[inline(never)]
fn stride_not_divisible(lhs: View<'_>, abs: i64, s: i64) -> LayoutError {
    LayoutError::StrideNotDivisible {
        op: OP,
        lhs: lhs.to_layout().into(),
        stride: abs,
        extent: s,
    }
}

/// CuTe's `composition_impl` for one leaf `n:r` of B against the flat, coalesced `a`, plus the
/// soundness bookkeeping, appended to `out` as leaf number `k`. `a` has at least one mode; its
/// last mode is unbounded.
#[inline(always)]
fn compose_leaf<S: Lists>(
    a: &[(i64, i64)],
    lhs: View<'_>,
    n: i64,
    r: i64,
    k: usize,
    out: &mut Leaves2<S>,
) -> Result<(), Stop<S::Full>> {
    let sign = if n == 1 { 0 } else { r.signum() };
    let start = out.modes.len();
    let mut alone: Option<(i64, i64)> = None;
    if r == 0 {
        // CuTe: static stride-0 shortcut.
        out.modes.add((n, 0))?;
        out.info.add((out.modes.len(), true, sign))?;
        return Ok(());
    }
    if a.len() == 1 {
        // CuTe: integral left-hand side shortcut; A is linear, so this is always exact.
        out.modes.add((n, mul(OP, r, a[0].1)?))?;
        out.info.add((out.modes.len(), true, sign))?;
        return Ok(());
    }
    if n == 1 {
        // An extent-1 leaf takes only the value 0, so any stride is lawful: CuTe's, whose walk
        // divides the stride by each extent it passes, rounding up (`ceil_div`), and needs no
        // divisibility (`(6,1):(8,-2) ∘ (1,3):(-2048,0)` is `(1,3):(684,0)`).
        let mut abs = r.unsigned_abs();
        for &(s, _) in &a[..a.len() - 1] {
            abs = abs.div_ceil(s.unsigned_abs().max(1));
        }
        let stride = i64::try_from(abs).map_err(|_| LayoutError::overflow(OP))? * r.signum();
        out.modes.add((1, mul(OP, stride, a[a.len() - 1].1)?))?;
        out.info.add((out.modes.len(), true, sign))?;
        return Ok(());
    }
    let (mut rest_shape, mut rest_stride) = (n, r);
    for (j, &(s, d)) in a[..a.len() - 1].iter().enumerate() {
        let t = match walk_step(s, rest_shape, rest_stride) {
            Walk::Take(t) => t,
            Walk::Pass(next) => {
                rest_stride = next;
                continue; // nothing of this mode is used
            }
            Walk::StrideNotDivisible(abs) => return Err(stride_not_divisible(lhs, abs, s).into()),
        };
        let (abs, new_shape, s_rem, next_stride) = (t.abs, t.new_shape, t.s_rem, t.next_stride);
        // Shape divisibility (no division where the leaf ends in this mode).
        let (rest_q, rest_rem) = if new_shape == rest_shape {
            (1, 0)
        } else {
            (rest_shape / new_shape, rest_shape % new_shape)
        };
        if rest_rem != 0 {
            return Err(LayoutError::ShapeNotDivisible {
                op: OP,
                lhs: lhs.to_layout().into(),
                shape: rest_shape,
                extent: new_shape,
            }
            .into());
        }
        let mut top_digit = mul(OP, new_shape - 1, abs)?;
        if s_rem != 0 && new_shape < rest_shape {
            // Weak divisibility: the walk continues into the next mode as if `abs` divided `s`.
            match weak_step(a, j, abs, new_shape, rest_shape) {
                WeakStep::Right(top) => top_digit = top,
                WeakStep::RightAlone => alone = Some((s, abs)),
                WeakStep::Wrong => return Err(stride_not_divisible(lhs, abs, s).into()),
            }
        }
        out.modes.add((new_shape, mul(OP, rest_stride, d)?))?;
        out.footprint.add((k, j, top_digit))?;
        rest_shape = rest_q;
        rest_stride = next_stride;
    }
    let last = a[a.len() - 1].1;
    let mut is_int = true;
    let count = out.modes.len() - start;
    if count == 0 {
        out.modes.add((rest_shape, mul(OP, rest_stride, last)?))?;
    } else if rest_shape == 1 {
        is_int = count == 1;
    } else {
        out.modes.add((rest_shape, mul(OP, rest_stride, last)?))?;
        is_int = false;
    }
    out.info.add((out.modes.len(), is_int, sign))?;
    if alone.is_some() && out.alone.is_none() {
        out.alone = alone;
    }
    Ok(())
}

impl Layout {
    /// Composition `self ∘ rhs`: the layout `R` with `R(c) == self(rhs(c))` for every coordinate
    /// `c` of `rhs`, in `rhs`'s shape (each leaf of `rhs` may become a tuple).
    ///
    /// Computed as CuTe does: `self` is coalesced, then for each leaf `N:r` of `rhs` the stride `r`
    /// is divided out of `self`'s extents from the left and the extent `N` modded out of what
    /// remains; the per-leaf results are put in `rhs`'s tree.
    ///
    /// # Laws
    /// * The result's shape refines `rhs.shape()`: each leaf of `rhs` becomes a sub-tree of the
    ///   same size (CuTe: `compatible(rhs, R)`).
    /// * `R.index_1d(i) == self.index_any(rhs.index_1d(i))` for all `0 <= i < rhs.size()`.
    ///
    /// # Errors
    /// * [`LayoutError::StrideNotDivisible`]: a stride of `rhs` and an extent of `self` divide
    ///   neither way (or the stride is smaller than the extent, does not divide it, and the leaf
    ///   runs past it), e.g. `(4,6,8):(2,3,5) ∘ 6:3`.
    /// * [`LayoutError::ShapeNotDivisible`]: an extent of `rhs` is not a multiple of the extents
    ///   it must cover.
    /// * [`LayoutError::ModesOverlap`]: two leaves of `rhs` reach overlapping coordinates of
    ///   `self` (e.g. `(10,2):(16,4) ∘ (4,5):(5,2)`).
    /// * [`LayoutError::NotRepresentable`]: leaves with strides of opposite signs meet in a
    ///   multi-mode `self`, and one of them uses a digit of a mode other than the last (with
    ///   truncating division, `A(y - z)` then borrows). Where every leaf only reaches the last
    ///   mode (its offsets are multiples of the other extents' product `P`), `A(x) = (x / P) d`
    ///   for `x` of either sign, and the leaves add: `(2,(1,5)):(12,(6,-1)) ∘ (2,4):(-2,128)`
    ///   is `(2,4):(1,-64)`.
    /// * [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(6,2):(8,2)".parse()?;
    /// let b: Layout = "(4,3):(3,1)".parse()?;
    /// let r = a.compose(&b)?;
    /// assert_eq!(r.to_string(), "((2,2),3):((24,2),8)"); // 02_layout_algebra.md, Example 1
    /// assert!((0..b.size()).all(|i| r.index_1d(i) == Some(a.index_any(b.index_1d(i).unwrap()).unwrap())));
    ///
    /// let bad: Layout = "(4,5):(5,2)".parse()?;
    /// let err = "(10,2):(16,4)".parse::<Layout>()?.compose(&bad).unwrap_err();
    /// assert_eq!(err.to_string(), "composition: modes 0 and 1 of (4,5):(5,2) overlap in the coordinate space of (10,2):(16,4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    #[inline]
    pub fn compose(&self, rhs: &Layout) -> Result<Layout, LayoutError> {
        if self.shape.len() <= BOUNDED && rhs.shape.len() <= BOUNDED {
            // Written out here and in `kernels::run_value`, not in a helper: a helper returns
            // the layout wrapped (`Option<Result<..>>`), which moves it once more.
            let mut buf = Buf::new();
            // `compose_with`, written out: a result of the fast path needs only its span checked.
            if compose_fast(self.view(), rhs.view(), &mut buf).is_some() {
                buf.check_span(OP)?;
                return Ok(buf.layout());
            }
            buf.reset((0, 0));
            match compose_walk::<Bounded<BOUNDED>, Buf>(self.view(), rhs.view(), &mut buf) {
                Ok(()) => {
                    Sink::check(&buf, OP)?;
                    return Ok(buf.layout());
                }
                Err(Stop::Err(e)) => return Err(e),
                Err(Stop::Full(Full)) => {} // a list or the result's arrays: start over
            }
        }
        super::in_place(|out| compose_checked(self, rhs, out))
    }

    /// CuTe `with_shape`/`composition(layout, shape)`: `self ∘ col_major(shape)`, i.e. the same
    /// function re-indexed by a new shape.
    ///
    /// # Errors
    /// As [`Layout::compose`], plus the errors of [`Layout::col_major`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(8,4):(4,1)".parse()?;
    /// assert_eq!(a.with_shape(&"(2,4,4)".parse()?)?.to_string(), "(2,4,4):(4,8,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_shape(&self, shape: &IntTuple) -> Result<Layout, LayoutError> {
        self.compose(&Layout::col_major(shape.clone())?)
    }
}

/// [`Layout::compose`] written to `out` (an empty layout).
fn compose_checked(lhs: &Layout, rhs: &Layout, out: &mut Layout) -> Result<(), LayoutError> {
    compose_into(lhs.view(), rhs.view(), out)?;
    out.check(OP)
}

/// `lhs ∘ rhs` appended to `out` (its tree in place of `rhs`'s), see [`Layout::compose`]. The
/// caller checks `out` when it is complete. Runs on bounded working lists first (operands of up
/// to [`BOUNDED`] leaves), and again on growable ones if a list was full.
pub(crate) fn compose_into(
    lhs: View<'_>,
    rhs: View<'_>,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    compose_lists::<BOUNDED>(lhs, rhs, out)
}

/// [`compose_into`] with bounded lists of capacity `N` first (`N` is [`BOUNDED`] but in tests,
/// which make the lists small so that the bounded run fills up and starts over).
#[inline]
fn compose_lists<const N: usize>(
    lhs: View<'_>,
    rhs: View<'_>,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    if lhs.shape.len() > BOUNDED || rhs.shape.len() > BOUNDED {
        return growable(compose_with::<Growable, Layout>(lhs, rhs, out));
    }
    let marks = (out.toks.len(), out.shape.len(), out.stride.len());
    bounded_first(
        out,
        |out| compose_with::<Bounded<N>, Layout>(lhs, rhs, out),
        |out| {
            out.toks.truncate(marks.0);
            out.shape.truncate(marks.1);
            out.stride.truncate(marks.2);
        },
        |out| compose_with::<Growable, Layout>(lhs, rhs, out),
    )
}

/// [`compose_into`] on the working lists `S`.
#[inline(always)]
pub(crate) fn compose_with<S: Lists, O: Sink>(
    lhs: View<'_>,
    rhs: View<'_>,
    out: &mut O,
) -> Result<(), Stop<S::Full>>
where
    O::Full: Into<S::Full>,
{
    let mark = out.mark();
    if compose_fast(lhs, rhs, out).is_some() {
        return Ok(());
    }
    out.reset(mark);
    compose_walk::<S, O>(lhs, rhs, out)
}

/// [`compose_with`] without its fast path: the per-leaf walk on the lists `S` with every check,
/// which decides every case.
#[inline(always)]
fn compose_walk<S: Lists, O: Sink>(
    lhs: View<'_>,
    rhs: View<'_>,
    out: &mut O,
) -> Result<(), Stop<S::Full>>
where
    O::Full: Into<S::Full>,
{
    let full = |f: O::Full| Stop::Full(f.into());
    let mut a = S::Modes::empty();
    super::coalesce::coalesce_x_leaves_into(lhs.shape, lhs.stride, &mut a).map_err(Stop::Full)?;
    if let [(_, d)] = a[..] {
        // A linear lhs (one mode after coalesce_x): every leaf n:r of rhs becomes n:(r d),
        // in rhs's tree; no leaf is split and no two leaves can collide (CuTe's integral
        // shortcut, see `compose_leaf`).
        for &t in rhs.toks {
            out.tok(t).map_err(full)?;
        }
        for (&n, &r) in rhs.shape.iter().zip(rhs.stride) {
            out.leaf(n, mul(OP, r, d)?).map_err(full)?;
        }
        return Ok(());
    }
    let mut leaves = Leaves2::<S>::new();
    for (k, (&n, &r)) in rhs.shape.iter().zip(rhs.stride.iter()).enumerate() {
        compose_leaf(&a, lhs, n, r, k, &mut leaves)?;
    }
    if let Some((s, abs)) = leaves.alone {
        let moving = rhs
            .shape
            .iter()
            .zip(rhs.stride.iter())
            .filter(|&(&n, &r)| n > 1 && r != 0)
            .count();
        if moving > 1 {
            return Err(LayoutError::StrideNotDivisible {
                op: OP,
                lhs: lhs.to_layout().into(),
                stride: abs,
                extent: s,
            }
            .into());
        }
    }
    check_disjoint(lhs, rhs, &a, &leaves)?;
    // Put the per-leaf results in rhs's tree.
    let mut k = 0usize;
    let mut start = 0usize;
    for &t in rhs.toks {
        if t != Tok::Leaf {
            out.tok(t).map_err(full)?;
            continue;
        }
        let (end, is_int, _) = leaves.info[k];
        k += 1;
        if is_int {
            out.tok(Tok::Leaf).map_err(full)?;
        } else {
            out.tok(Tok::Open).map_err(full)?;
            for _ in start..end {
                out.tok(Tok::Leaf).map_err(full)?;
            }
            out.tok(Tok::Close).map_err(full)?;
        }
        for &(s, d) in &leaves.modes[start..end] {
            out.leaf(s, d).map_err(full)?;
        }
        start = end;
    }
    Ok(())
}

/// The stride of `coalesce_x(l)` (see `coalesce::coalesce_x_leaves_into`) when it has exactly one mode, from
/// `l`'s leaves, without building the modes; `None` when it has more (or an extent overflows).
#[inline]
pub(crate) fn linear_stride_x(shape: &[i64], stride: &[i64]) -> Option<i64> {
    let n = shape.len().min(stride.len());
    let mut cur: Option<(i64, i64)> = None;
    for k in 0..n {
        let s = if k + 1 == n && shape[k] == 1 {
            2
        } else {
            shape[k]
        };
        let d = stride[k];
        if s == 1 {
            continue;
        }
        cur = match cur {
            None => Some((s, d)),
            Some((cs, cd)) if cs.checked_mul(cd) == Some(d) => Some((cs.checked_mul(s)?, cd)),
            Some(_) => return None,
        };
    }
    cur.map(|m| m.1)
}

/// The across-leaves condition: the leaves' digits in every bounded mode of `a` must add up
/// without a carry, and leaves touching a multi-mode `a` must not have opposite signs.
#[inline(always)]
fn check_disjoint<S: Lists>(
    lhs: View<'_>,
    rhs: View<'_>,
    a: &[(i64, i64)],
    leaves: &Leaves2<S>,
) -> Result<(), Stop<S::Full>> {
    if a.len() <= 1 || leaves.info.len() <= 1 {
        return Ok(());
    }
    // Opposite signs: A(y - z) is not A(y) - A(z) across a mode boundary (with truncating
    // division, the digits of y - z borrow). Unless no leaf uses a digit of a bounded mode:
    // then every offset of rhs is a multiple of P, the product of A's bounded extents, and
    // `A(x) = (x / P) d_last` for every such x of either sign, which adds.
    let mut first_sign: Option<(usize, i64)> = None;
    let signed = if leaves.footprint.is_empty() {
        &[][..]
    } else {
        &leaves.info[..]
    };
    for (k, &(_, _, sign)) in signed.iter().enumerate() {
        if sign == 0 {
            continue;
        }
        match first_sign {
            None => first_sign = Some((k, sign)),
            Some((k0, s0)) if s0 != sign => {
                return Err(LayoutError::NotRepresentable {
                    op: OP,
                    what: alloc::format!(
                        "modes {k0} and {k} of {} have strides of opposite signs, so {} does not add their images",
                        rhs.to_layout(),
                        lhs.to_layout()
                    ),
                }
                .into())
            }
            _ => {}
        }
    }
    for (j, &(s, _)) in a[..a.len() - 1].iter().enumerate() {
        let mut total = 0i64;
        // The first two leaves that use mode j (the second is the first if only one does).
        let mut users: Option<(usize, usize)> = None;
        for &(k, jj, m) in leaves.footprint.iter() {
            if jj == j && m > 0 {
                total = total.saturating_add(m);
                users = Some(match users {
                    None => (k, k),
                    Some((k0, k1)) if k0 == k1 => (k0, k),
                    Some(u) => u,
                });
            }
        }
        if let (true, Some(modes)) = (total > s - 1, users) {
            return Err(LayoutError::ModesOverlap {
                op: OP,
                lhs: lhs.to_layout().into(),
                rhs: rhs.to_layout().into(),
                modes,
            }
            .into());
        }
    }
    Ok(())
}

/// The fast path of [`compose_with`] (see [`super::flat`]): CuTe's walk of [`compose_leaf`] and
/// the checks of [`check_disjoint`] on fixed arrays, the result appended to `out` as it is found,
/// token by token and leaf by leaf, in `rhs`'s tree. It covers the success path of the strictly
/// divisible walk for an lhs of up to [`WORK`] coalesced modes; `None` for everything else (an
/// error of any kind, a weakly divisible step, a full `out`), and the caller undoes what it
/// wrote and runs the general path, which decides. What it writes has extents >= 1 whose
/// product is `size(rhs)` (each leaf of `rhs` is split into factors of its extent), so only
/// the span of the result is left to check ([`Buf::check_span`]).
#[inline(always)]
fn compose_fast<O: Sink>(lhs: View<'_>, rhs: View<'_>, out: &mut O) -> Option<()> {
    // `coalesce_x(lhs)`: never empty.
    let mut a = ArrayVec::<(i64, i64), WORK>::new();
    super::coalesce::coalesce_x_leaves_into(lhs.shape, lhs.stride, &mut a).ok()?;
    let (&(_, last_d), bounded) = a.split_last()?;
    if bounded.is_empty() {
        let d = last_d;
        // A linear lhs: every leaf `n:r` of rhs becomes `n:(r d)`, in rhs's tree.
        for &t in rhs.toks {
            out.tok(t).ok()?;
        }
        for (&n, &r) in rhs.shape.iter().zip(rhs.stride) {
            out.leaf(n, r.checked_mul(d)?).ok()?;
        }
        return Some(());
    }
    // The largest digits the leaves use in each bounded mode of `a`, added up.
    let mut total = [0i64; WORK];
    let mut leaves = rhs.shape.iter().zip(rhs.stride);
    for &t in rhs.toks {
        if t != Tok::Leaf {
            out.tok(t).ok()?;
            continue;
        }
        let (&n, &r) = leaves.next()?;
        if r == 0 {
            out.tok(Tok::Leaf).ok()?;
            out.leaf(n, 0).ok()?;
            continue;
        }
        if r < 0 {
            // Negative strides (rare) take the walk, which also checks that the leaves of a
            // multi-mode lhs do not have opposite signs.
            return None;
        }
        let mut count = 0usize;
        // `walk_step` for a positive stride, its signs folded away.
        let (mut rest_shape, mut rest_stride) = (n, r);
        for (j, &(s, d)) in bounded.iter().enumerate() {
            if rest_stride >= s {
                // The stride passes the mode: it must be a multiple of the extent.
                let (q, rem) = (rest_stride / s, rest_stride % s);
                if rem != 0 {
                    return None;
                }
                rest_stride = q;
                continue;
            }
            let abs = rest_stride;
            let (q, s_rem) = (s / abs, s % abs);
            let next_shape = q + i64::from(s_rem != 0);
            if next_shape == 1 || rest_shape == 1 {
                rest_stride = 1;
                continue;
            }
            let new_shape = next_shape.min(rest_shape);
            let rest_q = if new_shape == rest_shape {
                1
            } else if s_rem != 0 || rest_shape % new_shape != 0 {
                return None; // weakly divisible, or not divisible
            } else {
                rest_shape / new_shape
            };
            let slot = total.get_mut(j)?;
            *slot = slot.saturating_add((new_shape - 1).checked_mul(abs)?);
            out.leaf(new_shape, abs.checked_mul(d)?).ok()?;
            count += 1;
            rest_shape = rest_q;
            rest_stride = 1;
        }
        if count == 0 || rest_shape != 1 {
            out.leaf(rest_shape, rest_stride.checked_mul(last_d)?)
                .ok()?;
            count += 1;
        }
        // One mode (the last one, or the only one of the walk) is an integer result.
        if count == 1 {
            out.tok(Tok::Leaf).ok()?;
        } else {
            out.tok(Tok::Open).ok()?;
            for _ in 0..count {
                out.tok(Tok::Leaf).ok()?;
            }
            out.tok(Tok::Close).ok()?;
        }
    }
    // Carry-free: in every bounded mode the leaves' largest digits fit together.
    if total.iter().zip(bounded).any(|(&t, &(s, _))| t > s - 1) {
        return None;
    }
    Some(())
}

/// The fast path of [`Layout::compose_tiler`] for a tuple tiler: mode `i` of `a` composed with
/// element `i` by [`compose_fast`], straight into `out`, in a tuple (the modes of `a` past the
/// tiler dropped). `None` wherever [`compose_fast`] declines a mode, for a nested tiler element
/// and for a tiler longer than `a`'s rank; the caller then runs the kernels (which try
/// [`compose_fast`] on each mode first, so an answer here is theirs) or the generic path, which
/// decide. Written out rather than through the kernels' per-mode dispatch: that dispatch, its
/// rank test and the out-of-line kernel call per mode cost about as much as the walks.
#[inline(always)]
pub(crate) fn compose_modes_fast(a: &Layout, ts: &[Tiler], out: &mut Buf) -> Option<()> {
    let (toks, shape, stride) = (&a.toks[..], &a.shape[..], &a.stride[..]);
    // The top-level modes of `a` lie in `toks[ti..end]` (an integer is its own only mode).
    let (mut ti, end) = if toks.len() == 1 {
        (0, 1)
    } else {
        (1, toks.len().checked_sub(1)?)
    };
    let mut li = 0usize;
    out.tok(Tok::Open).ok()?;
    for t in ts {
        if ti >= end {
            return None; // a tiler longer than the rank of `a`
        }
        let (stop, n) = if *toks.get(ti)? == Tok::Leaf {
            (ti + 1, 1)
        } else {
            crate::layout::tree::subtree_end_and_leaves(toks, ti)
        };
        let m = View {
            toks: toks.get(ti..stop)?,
            shape: shape.get(li..li + n)?,
            stride: stride.get(li..li + n)?,
        };
        match t {
            Tiler::Layout(b) => compose_fast(m, b.view(), out)?,
            Tiler::Int(k) => {
                let b = View {
                    toks: super::view::LEAF,
                    shape: &[*k],
                    stride: &[1],
                };
                compose_fast(m, b, out)?
            }
            Tiler::Skip => out.view(m).ok()?,
            Tiler::Modes(_) => return None,
        }
        (ti, li) = (stop, li + n);
    }
    out.tok(Tok::Close).ok()
}

/// The bounded working lists and the result arrays against the growable lists and a growing
/// layout: the same layout (text and tree) or the same error, whether the bounded run finishes
/// or fills up and starts over. On every pair of
/// flat layouts of up to two modes (extents 1-4, strides -2..12) against a sample of such
/// right-hand sides, and on random nested layouts of up to 40 leaves (past the bounded
/// threshold of 32, so that the growable-only path runs too).
#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use super::super::testing::{layout_of, small_modes, Rng};
    use super::*;

    /// Compare every bounded capacity, and the result arrays, with the growable run; counts
    /// (bounded runs that finished, bounded runs that filled up, results that are layouts,
    /// runs on the result arrays that finished, that filled up).
    fn same(lhs: &Layout, rhs: &Layout, counts: &mut (usize, usize, usize, usize, usize)) {
        let mut want = Layout::building();
        let want_r = growable(compose_with::<Growable, Layout>(
            lhs.view(),
            rhs.view(),
            &mut want,
        ));
        let check =
            |got_r: Result<(), LayoutError>, got: &Layout, cap: usize| match (&want_r, got_r) {
                (Ok(()), Ok(())) => {
                    assert_eq!(got.to_string(), want.to_string(), "{lhs} o {rhs}, {cap}");
                    assert!(
                        *got == want,
                        "{lhs} o {rhs}, {cap}: same text, different tree"
                    );
                }
                (Err(w), Err(g)) => assert_eq!(g, *w, "{lhs} o {rhs}, {cap}"),
                (w, g) => panic!("{lhs} o {rhs}, capacity {cap}: growable {w:?}, bounded {g:?}"),
            };
        // Into a layout that already holds something, as the kernels append: the restart must
        // keep what was there.
        let prefix = |l: &mut Layout| {
            l.toks.push(Tok::Open);
            l.toks.push(Tok::Leaf);
            l.shape.push(7);
            l.stride.push(3);
        };
        let mut got = Layout::building();
        check(
            compose_lists::<1>(lhs.view(), rhs.view(), &mut got),
            &got,
            1,
        );
        let mut got = Layout::building();
        check(
            compose_lists::<3>(lhs.view(), rhs.view(), &mut got),
            &got,
            3,
        );
        let mut got = Layout::building();
        check(
            compose_into(lhs.view(), rhs.view(), &mut got),
            &got,
            BOUNDED,
        );
        let mut got = Layout::building();
        prefix(&mut got);
        let r = compose_lists::<2>(lhs.view(), rhs.view(), &mut got);
        if r.is_ok() {
            assert_eq!(&got.toks[..2], &[Tok::Open, Tok::Leaf]);
            assert_eq!((got.shape[0], got.stride[0]), (7, 3));
            let mut rest = Layout::building();
            rest.toks.extend_from_slice(&got.toks[2..]);
            rest.shape.extend_from_slice(&got.shape[1..]);
            rest.stride.extend_from_slice(&got.stride[1..]);
            check(r, &rest, 2);
        } else {
            check(r, &got, 2);
        }
        let mut b = Layout::building();
        match compose_with::<Bounded<2>, Layout>(lhs.view(), rhs.view(), &mut b) {
            Err(Stop::Full(_)) => counts.1 += 1,
            _ => counts.0 += 1,
        }
        if want_r.is_ok() {
            counts.2 += 1;
        }
        // The result's arrays (`Buf`) in place of a layout: the same result or error, or full.
        let mut buf = Buf::new();
        match compose_with::<Bounded<BOUNDED>, Buf>(lhs.view(), rhs.view(), &mut buf) {
            Ok(()) => {
                counts.3 += 1;
                check(Ok(()), &buf.layout(), 0);
            }
            Err(Stop::Err(e)) => check(Err(e), &want, 0),
            Err(Stop::Full(Full)) => counts.4 += 1,
        }
        // `compose` (arrays first, then a layout) against a layout throughout, with the check.
        let mut out = Layout::building();
        let slow = compose_checked(lhs, rhs, &mut out).map(|()| out);
        match (lhs.compose(rhs), slow) {
            (Ok(f), Ok(s)) => {
                assert_eq!(f.to_string(), s.to_string(), "{lhs} o {rhs}");
                assert!(f == s, "{lhs} o {rhs}: same text, different tree");
            }
            (f, s) => assert_eq!(f.err(), s.err(), "{lhs} o {rhs}"),
        }
    }

    /// The fast path against the walk: where it answers, the walk gives the same layout (text
    /// and tree); counts the answers.
    fn fast_agrees(lhs: &Layout, rhs: &Layout, answered: &mut usize) {
        let mut fast = Layout::building();
        if compose_fast(lhs.view(), rhs.view(), &mut fast).is_none() {
            return;
        }
        *answered += 1;
        let mut walk = Layout::building();
        let r = growable(compose_walk::<Growable, Layout>(
            lhs.view(),
            rhs.view(),
            &mut walk,
        ));
        assert_eq!(r, Ok(()), "{lhs} o {rhs}: fast path {fast}, walk error");
        assert_eq!(fast.to_string(), walk.to_string(), "{lhs} o {rhs}");
        assert!(fast == walk, "{lhs} o {rhs}: same text, different tree");
    }

    #[test]
    fn fast_path_agrees_with_the_walk() {
        let modes = small_modes();
        let mut answered = 0usize;
        let mut two: Vec<Layout> = Vec::new();
        for &a in &modes {
            for &b in &modes {
                two.push(layout_of(&[a, b], 0));
            }
        }
        // Every two-mode lhs against every one- and two-mode rhs of a sample; three-mode lhs.
        for l in &two {
            for &b in modes.iter().step_by(3) {
                fast_agrees(l, &layout_of(&[b], 0), &mut answered);
            }
            for r in two.iter().step_by(53) {
                fast_agrees(l, r, &mut answered);
            }
        }
        for &a in modes.iter().step_by(2) {
            for &b in modes.iter().step_by(3) {
                let l = layout_of(&[a, b, (4, 16)], 2);
                for r in two.iter().step_by(97) {
                    fast_agrees(&l, r, &mut answered);
                }
            }
        }
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        for _ in 0..20_000 {
            let l = rng.layout(10, 1 << 30);
            let r = rng.layout(10, 1 << 30);
            fast_agrees(&l, &r, &mut answered);
        }
        assert!(answered > 40_000, "fast path answered {answered} times");
    }

    /// Each mode's composition has a size that fits, and the span can fit too, while the
    /// product of the sizes does not: refused (the by-mode fast path checks the whole result).
    #[test]
    fn by_mode_sizes_whose_product_overflows() {
        let a: Layout = "(2,4):(1,2)".parse().unwrap();
        for t in ["<4611686018427387904:0,4:0>", "<4611686018427387904:0,_>"] {
            let t: Tiler = t.parse().unwrap();
            assert_eq!(
                a.compose_tiler(&t),
                Err(LayoutError::overflow(OP)),
                "{a} o {t}"
            );
        }
        // One composition's size is its right operand's: a stride-0 operand of any valid size.
        let b: Layout = "4611686018427387904:0".parse().unwrap();
        assert_eq!(a.compose(&b).unwrap().to_string(), "4611686018427387904:0");
    }

    #[test]
    fn bounded_lists_agree_with_growable_lists() {
        let modes = small_modes();
        let mut lhs: Vec<Layout> = Vec::new();
        for &a in &modes {
            lhs.push(layout_of(&[a], 0));
            for &b in &modes {
                lhs.push(layout_of(&[a, b], 0));
            }
        }
        let rhs: Vec<Layout> = lhs.iter().step_by(37).cloned().collect();
        let mut counts = (0, 0, 0, 0, 0);
        for l in &lhs {
            for r in &rhs {
                same(l, r, &mut counts);
            }
        }
        // Random nested layouts up to 40 leaves.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..5_000 {
            let l = rng.layout(40, 1 << 30);
            let r = rng.layout(40, 1 << 30);
            same(&l, &r, &mut counts);
        }
        assert!(
            counts.0 > 1000 && counts.1 > 1000 && counts.2 > 10_000,
            "bounded runs finished / filled up, results: {counts:?}"
        );
        assert!(
            counts.3 > 10_000 && counts.4 > 100,
            "runs on the result arrays finished / filled up: {counts:?}"
        );
    }
}

//! NVlabs PyCuTe's extras (NVlabs/CuTe, `pycute/algebra.py`, `pycute/shape.py`): operations
//! that PyCuTe defines and **CuTe C++ does not have**.
//!
//! * [`IntTuple::common_refinement`] / [`IntTuple::common_coarsening`]: the join and the meet of
//!   two shapes in the order "`a` is compatible with `b`" (CuTe's `compatible`, the whitepaper's
//!   `a ≼ b`).
//! * [`IntTuple::greatest_common_domain`]: the largest set of sub-modes that two shapes share in
//!   order, as a flat layout of 1-D index positions.
//! * [`Layout::coalesce_z`]: coalesce that keeps the function for **every** integer index (the
//!   last mode runs on past the end, [`Layout::index_any`]), so an extent-1 last mode is kept
//!   when its stride matters there.
//! * [`Layout::layout_add`]: the layout whose value at `i` is `A(i) + B(i)`.
//!
//! Each follows PyCuTe's definition where PyCuTe answers, with two documented differences:
//! `layout_add` answers where PyCuTe raises although a layout with the sums exists (it finds it
//! from the values), and its errors are typed ([`LayoutError::SizeMismatch`],
//! [`LayoutError::NotALayout`], [`LayoutError::NotRepresentable`]).

use alloc::vec::Vec;

use crate::algebra::from_flat_unchecked;
use crate::basis::ScaledBasis;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::{Leaves, Tok, Toks};
use crate::layout::{Layout, StrideValue};
use crate::pycute::basis_sum::BasisSum;
use crate::pycute::f2::F2;

/// Most values [`Layout::layout_add`] computes one by one when the shapes share no refinement of
/// the full size (`2^22`).
pub const MAX_ADD_VALUES: i64 = 1 << 22;

/// One common sub-mode found by [`common_domain`]: `extent` index steps of `offset`, lying in
/// leaf `leaf.0` of the first shape (whose leaf starts at index `start.0`) and leaf `leaf.1` of
/// the second.
#[derive(Clone, Copy, Debug)]
struct Chunk {
    extent: i64,
    offset: i64,
    leaf: (usize, usize),
    start: (i64, i64),
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The walk of [`IntTuple::greatest_common_domain`] over the leaves of two shapes.
fn common_domain(a: &[i64], b: &[i64]) -> Vec<Chunk> {
    let mut out = Vec::new();
    // Position (in 1-D index space) where the unused rest of the current leaf begins, the
    // unused extent of that leaf, and where the leaf itself began; for each shape.
    let (mut i, mut j) = (0usize, 0usize);
    let (mut pa, mut pb) = (1i128, 1i128);
    let (mut ra, mut rb) = (0i128, 0i128);
    let (mut sa, mut sb) = (1i128, 1i128);
    if let Some(&x) = a.first() {
        ra = i128::from(x);
    }
    if let Some(&x) = b.first() {
        rb = i128::from(x);
    }
    while i < a.len() && j < b.len() {
        if ra == 1 {
            i += 1;
            if let Some(&x) = a.get(i) {
                (ra, sa) = (i128::from(x), pa);
            }
            continue;
        }
        if rb == 1 {
            j += 1;
            if let Some(&x) = b.get(j) {
                (rb, sb) = (i128::from(x), pb);
            }
            continue;
        }
        // The first position both shapes can start a sub-mode at.
        let l = pa / gcd(pa, pb) * pb;
        let (qa, qb) = (l / pa, l / pb);
        if ra % qa == 0 && rb % qb == 0 {
            let g = gcd(ra / qa, rb / qb);
            if g != 1 {
                // Within both leaves, so below both sizes: fits in i64.
                out.push(Chunk {
                    extent: g as i64,
                    offset: l as i64,
                    leaf: (i, j),
                    start: (sa as i64, sb as i64),
                });
                ra /= qa * g;
                rb /= qb * g;
                pa = l * g;
                pb = pa;
                continue;
            }
        }
        // Step past the leaf that ends first; past both where neither end divides the other.
        let (ea, eb) = (pa * ra, pb * rb);
        let (adv_a, adv_b) = (eb % ea == 0, ea % eb == 0);
        if adv_a || !adv_b {
            pa = ea;
            i += 1;
            if let Some(&x) = a.get(i) {
                (ra, sa) = (i128::from(x), pa);
            }
        }
        if adv_b || !adv_a {
            pb = eb;
            j += 1;
            if let Some(&x) = b.get(j) {
                (rb, sb) = (i128::from(x), pb);
            }
        }
    }
    out
}

fn size_of(op: &'static str, leaves: &[i64]) -> Result<i64, LayoutError> {
    leaves
        .iter()
        .try_fold(1i64, |acc, &v| acc.checked_mul(v))
        .ok_or(LayoutError::Overflow { op })
}

impl IntTuple {
    /// PyCuTe's `common_refinement(a, b)` (not CuTe C++): the least shape that both `a` and `b`
    /// are compatible with, the join of the order `x ≼ y` = `compatible(x, y)`.
    ///
    /// Definition: two integers must be equal (the result is that integer); an integer and a
    /// tuple must have the same size (the result is the tuple); two tuples must have the same
    /// rank, and the result is the tuple of the elements' common refinements.
    ///
    /// # Laws
    /// * `a.compatible(R)` and `b.compatible(R)`.
    /// * For every `c` with `a.compatible(c)` and `b.compatible(c)`: `R.compatible(c)`; and such
    ///   a `c` exists only if `R` does.
    /// * Symmetric; `a.common_refinement(a) == a`.
    ///
    /// # Errors
    /// [`LayoutError::NoCommonRefinement`] naming the first pair of elements that disagree (two
    /// different integers, an integer and a tuple of another size, or tuples of different
    /// ranks); [`LayoutError::InvalidExtent`] for an extent below 1.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(4,(3,5))").common_refinement(&t("((2,2),15)"))?, t("((2,2),(3,5))"));
    /// assert_eq!(t("30").common_refinement(&t("(2,15)"))?, t("(2,15)"));
    /// let e = t("(2,(3,5))").common_refinement(&t("((3,2),5)")).unwrap_err();
    /// assert_eq!(e.kind(), "NoCommonRefinement");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn common_refinement(&self, other: &IntTuple) -> Result<IntTuple, LayoutError> {
        const OP: &str = "common_refinement";
        let fail = |a: &IntTuple, b: &IntTuple| LayoutError::NoCommonRefinement {
            op: OP,
            left: a.clone().into(),
            right: b.clone().into(),
        };
        self.check_extents(OP)?;
        other.check_extents(OP)?;
        match (self.as_int(), other.as_int()) {
            (Some(x), Some(y)) => {
                if x == y {
                    Ok(self.clone())
                } else {
                    Err(fail(self, other))
                }
            }
            // A size past i64 is not the integer's: no common refinement.
            (Some(x), None) => {
                if size_of(OP, other.leaves()).ok() == Some(x) {
                    Ok(other.clone())
                } else {
                    Err(fail(self, other))
                }
            }
            (None, Some(y)) => {
                if size_of(OP, self.leaves()).ok() == Some(y) {
                    Ok(self.clone())
                } else {
                    Err(fail(self, other))
                }
            }
            (None, None) => {
                if self.rank() != other.rank() {
                    return Err(fail(self, other));
                }
                let elems = self
                    .elements()
                    .zip(other.elements())
                    .map(|(x, y)| x.common_refinement(&y))
                    .collect::<Result<Vec<_>, _>>()?;
                IntTuple::tuple(elems)
            }
        }
    }

    /// PyCuTe's `common_coarsening(a, b)` (not CuTe C++): the greatest shape compatible with
    /// both `a` and `b`, the meet of the order `x ≼ y` = `compatible(x, y)`.
    ///
    /// Definition: if both are tuples of the same rank and every pair of elements has a common
    /// coarsening, the tuple of those; otherwise the integer `size(a)`, which needs
    /// `size(a) == size(b)`.
    ///
    /// # Laws
    /// * `R.compatible(a)` and `R.compatible(b)`.
    /// * For every `c` with `c.compatible(a)` and `c.compatible(b)`: `c.compatible(R)`.
    /// * Exists exactly when `size(a) == size(b)`; symmetric; `a.common_coarsening(a) == a`.
    ///
    /// # Errors
    /// [`LayoutError::SizeMismatch`] if the sizes differ; [`LayoutError::InvalidExtent`] for an
    /// extent below 1; [`LayoutError::Overflow`] if a size leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(4,(3,5))").common_coarsening(&t("((2,2),15)"))?, t("(4,15)"));
    /// assert_eq!(t("((2,3),4)").common_coarsening(&t("((3,2),4)"))?, t("(6,4)"));
    /// assert_eq!(t("(2,(3,5))").common_coarsening(&t("((3,2),5)"))?, t("30"));
    /// assert_eq!(t("(2,3)").common_coarsening(&t("(4,5)")).unwrap_err().kind(), "SizeMismatch");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn common_coarsening(&self, other: &IntTuple) -> Result<IntTuple, LayoutError> {
        const OP: &str = "common_coarsening";
        self.check_extents(OP)?;
        other.check_extents(OP)?;
        let (sa, sb) = (size_of(OP, self.leaves())?, size_of(OP, other.leaves())?);
        if sa != sb {
            return Err(LayoutError::SizeMismatch {
                op: OP,
                left: sa,
                right: sb,
            });
        }
        if !self.is_int() && !other.is_int() && self.rank() == other.rank() {
            let elems: Result<Vec<_>, _> = self
                .elements()
                .zip(other.elements())
                .map(|(x, y)| x.common_coarsening(&y))
                .collect();
            if let Ok(elems) = elems {
                return IntTuple::tuple(elems);
            }
        }
        Ok(IntTuple::int(sa))
    }

    /// PyCuTe's `greatest_common_domain(a, b)` (not CuTe C++): the sub-modes that the shapes `a`
    /// and `b` share in order, as a flat layout `(s_0,s_1,...):(d_0,d_1,...)` of 1-D index
    /// positions: mode `k` is `s_k` steps of `d_k` through the column-major index space of both
    /// shapes, and lies inside one leaf of each. `(1):(0)` when they share none.
    ///
    /// Definition (PyCuTe's walk over the leaves of both, extent-1 leaves skipped): keep, for
    /// each shape, the position `p` where the unused rest `r` of its current leaf begins (so
    /// the leaf ends at `p * r`). Let `l = lcm(p_a, p_b)`, the first position both can start
    /// a sub-mode at. If `l / p_a` divides `r_a`, `l / p_b` divides `r_b`, and
    /// `g = gcd(r_a / (l / p_a), r_b / (l / p_b)) > 1`, record the mode `g:l` and continue both
    /// from `l * g`. Otherwise step past the leaf that ends first (whose end divides the
    /// other's), or past both when neither end divides the other.
    ///
    /// # Laws
    /// * Depth 1; symmetric; depends only on the leaves of `a` and `b`.
    /// * `size(R)` divides `gcd(size(a), size(b))`; `d_{k+1} >= s_k d_k`.
    /// * `col_major(a) ∘ R` and `col_major(b) ∘ R` are admissible compositions (each mode of
    ///   `R` is a whole sub-mode of one leaf of each shape).
    /// * When `size(R) == size(a) == size(b)`, `R` is `col_major(shape(R))` and refines both:
    ///   every leaf of `a` and of `b` is a product of consecutive modes of `R`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidExtent`] for an extent below 1; [`LayoutError::Overflow`] if a size
    /// leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(5,3,4)").greatest_common_domain(&t("(10,6)"))?.to_string(), "(5,2):(1,30)");
    /// assert_eq!(t("(6,35)").greatest_common_domain(&t("(15,14)"))?.to_string(), "(3,7):(1,30)");
    /// assert_eq!(t("(5,3)").greatest_common_domain(&t("(3,5)"))?.to_string(), "(1):(0)");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn greatest_common_domain(&self, other: &IntTuple) -> Result<Layout, LayoutError> {
        const OP: &str = "greatest_common_domain";
        self.check_extents(OP)?;
        other.check_extents(OP)?;
        size_of(OP, self.leaves())?;
        size_of(OP, other.leaves())?;
        let chunks = common_domain(self.leaves(), other.leaves());
        if chunks.is_empty() {
            return Layout::new(IntTuple::flat([1]), IntTuple::flat([0]));
        }
        Layout::new(
            IntTuple::flat(chunks.iter().map(|c| c.extent)),
            IntTuple::flat(chunks.iter().map(|c| c.offset)),
        )
    }
}

/// The flat layout of `modes` with a generic stride: one mode as an integer layout, `1:0`-like
/// `1:zero` for none.
fn flat_layout<D: StrideValue>(
    op: &'static str,
    modes: &[(i64, D)],
    zero: D,
) -> Result<Layout<D>, LayoutError> {
    let mut toks = Toks::new();
    let mut shape = Leaves::new();
    let mut stride = Leaves::new();
    match modes {
        [] => {
            toks.push(Tok::Leaf);
            shape.push(1);
            stride.push(zero);
        }
        [(s, d)] => {
            toks.push(Tok::Leaf);
            shape.push(*s);
            stride.push(*d);
        }
        _ => {
            toks.push(Tok::Open);
            for &(s, d) in modes {
                toks.push(Tok::Leaf);
                shape.push(s);
                stride.push(d);
            }
            toks.push(Tok::Close);
        }
    }
    Layout::checked(op, toks, shape, stride)
}

/// The stride arithmetic `coalesce_z` and `layout_add` need.
pub(crate) trait AddStride: StrideValue + core::fmt::Display {
    const ZERO: Self;
    fn scale(self, k: i64) -> Option<Self>;
    /// `None` on overflow; `Some(Err)` where the sum has no form of this type.
    fn plus(self, other: Self) -> Option<Result<Self, ()>>;
    /// Whether a leaf's stride scaled by `k` is the stride of its sub-mode that starts at
    /// position `k` (always for integers; for F2 strides only at powers of two, where the
    /// sub-modes' bit fields are disjoint).
    fn splits_at(k: i64) -> bool {
        let _ = k;
        true
    }
}

impl AddStride for F2 {
    const ZERO: Self = F2::ZERO;
    fn scale(self, k: i64) -> Option<Self> {
        self.times(u64::try_from(k).ok()?)
    }
    fn plus(self, other: Self) -> Option<Result<Self, ()>> {
        Some(Ok(self.xor(other)))
    }
    fn splits_at(k: i64) -> bool {
        k > 0 && (k & (k - 1)) == 0
    }
}

impl AddStride for i64 {
    const ZERO: Self = 0;
    fn scale(self, k: i64) -> Option<Self> {
        self.checked_mul(k)
    }
    fn plus(self, other: Self) -> Option<Result<Self, ()>> {
        self.checked_add(other).map(Ok)
    }
}

impl AddStride for ScaledBasis {
    const ZERO: Self = ScaledBasis::ZERO;
    fn scale(self, k: i64) -> Option<Self> {
        Some(self.with_value(self.value().checked_mul(k)?))
    }
    fn plus(self, other: Self) -> Option<Result<Self, ()>> {
        if other.value() == 0 {
            return Some(Ok(self));
        }
        if self.value() == 0 {
            return Some(Ok(other));
        }
        if self.path().eq(other.path()) {
            return Some(Ok(self.with_value(self.value().checked_add(other.value())?)));
        }
        Some(Err(()))
    }
}

impl AddStride for BasisSum {
    const ZERO: Self = BasisSum::ZERO;
    fn scale(self, k: i64) -> Option<Self> {
        self.scaled(k).ok()
    }
    fn plus(self, other: Self) -> Option<Result<Self, ()>> {
        match BasisSum::plus(&self, &other) {
            Ok(r) => Some(Ok(r)),
            Err(LayoutError::Overflow { .. }) => None,
            Err(_) => Some(Err(())),
        }
    }
}

/// `coalesce` of a layout whose strides are sums of bases: `coalesce_z`'s merge pass, then an
/// extent-1 last mode dropped.
fn coalesce_sums(l: &Layout<BasisSum>) -> Result<Layout<BasisSum>, LayoutError> {
    let mut modes = coalesce_z_modes(l.shape_leaves(), l.stride_leaves());
    while modes.len() > 1 && modes.last().is_some_and(|m| m.0 == 1) {
        modes.pop();
    }
    if modes.len() == 1 && modes[0].0 == 1 {
        modes[0].1 = BasisSum::ZERO;
    }
    flat_layout("coalesce", &modes, BasisSum::ZERO)
}

/// [`Layout::<BasisSum>::layout_add`].
pub(crate) fn layout_add_sums(
    a: &Layout<BasisSum>,
    b: &Layout<BasisSum>,
) -> Result<Layout<BasisSum>, LayoutError> {
    layout_add_impl(a, b, coalesce_sums)?.ok_or_else(|| LayoutError::NotRepresentable {
        op: "layout_add",
        what: alloc::format!(
            "{a} and {b} share no refinement of size {}; with basis strides the values are not searched",
            a.size()
        ),
    })
}

/// Equal as coordinate steps: the same value along the same mode, or both zero.
fn same_step<D: AddStride>(a: D, b: D) -> bool {
    a == b || (a.magnitude() == Some(0) && b.magnitude() == Some(0))
}

/// The merge pass of `coalesce_z` over flat leaves.
fn coalesce_z_modes<D: AddStride>(shape: &[i64], stride: &[D]) -> Vec<(i64, D)> {
    let mut out: Vec<(i64, D)> = Vec::new();
    for (&s, &d) in shape.iter().zip(stride) {
        while out.last().is_some_and(|m| m.0 == 1) {
            out.pop();
        }
        if let Some(last) = out.last_mut() {
            if last.1.scale(last.0).is_some_and(|e| same_step(e, d)) {
                // The merged extent is a product of extents of a valid layout: it fits.
                last.0 *= s;
                continue;
            }
        }
        out.push((s, d));
    }
    out
}

pub(crate) fn layout_add_impl<D: AddStride>(
    a: &Layout<D>,
    b: &Layout<D>,
    coalesce: fn(&Layout<D>) -> Result<Layout<D>, LayoutError>,
) -> Result<Option<Layout<D>>, LayoutError> {
    const OP: &str = "layout_add";
    let (na, nb) = (a.size(), b.size());
    if na != nb {
        return Err(LayoutError::SizeMismatch {
            op: OP,
            left: na,
            right: nb,
        });
    }
    let (ca, cb) = (coalesce(a)?, coalesce(b)?);
    let chunks = common_domain(ca.shape_leaves(), cb.shape_leaves());
    let covered = chunks.iter().map(|c| c.extent).product::<i64>() == na;
    if !covered && na > 1 {
        return Ok(None);
    }
    let mut modes = Vec::with_capacity(chunks.len());
    for c in &chunks {
        for (offset, start) in [(c.offset, c.start.0), (c.offset, c.start.1)] {
            if !D::splits_at(offset / start) {
                return Err(LayoutError::NotRepresentable {
                    op: OP,
                    what: alloc::format!(
                        "{a} and {b} share a sub-mode at position {} of a leaf, no power of two: the F2 values of the leaf are not the XOR of its parts",
                        offset / start
                    ),
                });
            }
        }
        let at = |l: &Layout<D>, leaf: usize, start: i64| {
            l.stride_leaves()[leaf].scale(c.offset / start)
        };
        let da = at(&ca, c.leaf.0, c.start.0).ok_or(LayoutError::Overflow { op: OP })?;
        let db = at(&cb, c.leaf.1, c.start.1).ok_or(LayoutError::Overflow { op: OP })?;
        let d = da
            .plus(db)
            .ok_or(LayoutError::Overflow { op: OP })?
            .map_err(|()| LayoutError::NotRepresentable {
                op: OP,
                what: alloc::format!(
                    "the strides {da} and {db} have no sum of this stride kind (basis strides along different coordinate modes add only as a sum of bases; a plain number and a basis stride never do)"
                ),
            })?;
        modes.push((c.extent, d));
    }
    let r = flat_layout(OP, &modes, D::ZERO)?;
    coalesce(&r).map(Some)
}

impl Layout {
    /// PyCuTe's `coalesce_z` (not CuTe C++): coalesce that keeps the layout's function on
    /// **every** integer index, not only on `[0, size)`: past the end the last mode runs on
    /// ([`Layout::index_any`]), so an extent-1 last mode stays where its stride is not the
    /// continuation of the mode before it.
    ///
    /// Definition: walk the leaves left to right; before each leaf drop the extent-1 modes at
    /// the end of the result; merge the leaf `s:d` into the last mode `s0:d0` when
    /// `s0 * d0 == d`, else append it. `1:0` if nothing is left; an integer layout for one
    /// mode. [`Layout::coalesce`] is this with an extent-1 last mode dropped as well.
    ///
    /// # Laws
    /// * `R.index_any(i) == self.index_any(i)` for every integer `i`; `R.size() == self.size()`.
    /// * `R.depth() <= 1`; `R.coalesce_z() == R`; `R.coalesce() == self.coalesce()`.
    ///
    /// # Errors
    /// None: total.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,1,6,1):(1,7,8,0)".parse()?;
    /// assert_eq!(l.coalesce_z().to_string(), "(2,6,1):(1,8,0)");
    /// assert_eq!(l.coalesce().to_string(), "(2,6):(1,8)");
    /// assert!((0..40).all(|i| l.coalesce_z().index_any(i).ok() == l.index_any(i).ok()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce_z(&self) -> Layout {
        let modes = coalesce_z_modes(self.shape_leaves(), self.stride_leaves());
        // The modes are merged leaves of a valid layout: the same size and span.
        from_flat_unchecked(&modes)
    }

    /// `coalesce_z` within a profile, as [`Layout::coalesce_by_mode`]: for a tuple profile,
    /// mode `i` is coalesced by `profile[i]` and modes past the profile are kept; an integer
    /// profile coalesces the whole layout.
    ///
    /// # Laws
    /// * Same function as `self` on every integer index when the profile is an integer; each
    ///   profiled mode keeps its own function on every integer index.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] if the profile has more modes than `self`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "((2,(1,6)),(3,4,1)):((1,(6,2)),(100,300,0))".parse()?;
    /// assert_eq!(l.coalesce_z_by_mode(&"(1,1)".parse()?)?.to_string(), "(12,(12,1)):(1,(100,0))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce_z_by_mode(&self, profile: &IntTuple) -> Result<Layout, LayoutError> {
        if profile.is_int() {
            return Ok(self.coalesce_z());
        }
        if profile.rank() > self.rank() {
            return Err(LayoutError::RankMismatch {
                op: "coalesce_z",
                expected: self.rank(),
                found: profile.rank(),
            });
        }
        let mut modes = Vec::with_capacity(self.rank());
        for (k, m) in self.modes().enumerate() {
            modes.push(match profile.get(k) {
                Some(p) => m.coalesce_z_by_mode(&p)?,
                None => m,
            });
        }
        Layout::from_modes(modes)
    }

    /// PyCuTe's `layout_add(A, B)` (not CuTe C++): the layout `R` with `R(i) == A(i) + B(i)`
    /// for every `i` in `[0, size)`, in canonical (coalesced) form.
    ///
    /// Definition: with `G = greatest_common_domain(coalesce(A), coalesce(B))` of full size,
    /// both layouts are linear on `G`'s modes, so `R = coalesce(shape(G) : (A(d_k) + B(d_k)))`
    /// (PyCuTe's construction). Where `G` is smaller than the size (PyCuTe raises), the sums
    /// are computed one by one (up to [`MAX_ADD_VALUES`]) and `R` is the layout that has them
    /// ([`crate::analysis::find_layout`]), if one exists.
    ///
    /// # Laws
    /// * `R.size() == A.size()` and `R.index_1d(i) == Some(A(i) + B(i))` for every `i`.
    /// * `R == R.coalesce()`; symmetric; `A + size(A):0 == coalesce(A)`; associative where
    ///   defined.
    ///
    /// # Errors
    /// * [`LayoutError::SizeMismatch`]: the sizes differ.
    /// * [`LayoutError::NotALayout`]: no layout has the values `A(i) + B(i)`.
    /// * [`LayoutError::TooLarge`]: no common refinement and more than [`MAX_ADD_VALUES`]
    ///   values to search.
    /// * [`LayoutError::Overflow`]: a sum leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = |s: &str| s.parse::<Layout>().unwrap();
    /// assert_eq!(l("(4,3):(1,4)").layout_add(&l("(4,3):(3,1)"))?.to_string(), "(4,3):(4,5)");
    /// assert_eq!(l("(5,3,4):(1,5,15)").layout_add(&l("(10,6):(1,10)"))?.to_string(), "60:2");
    /// assert_eq!(l("6:1").layout_add(&l("8:1")).unwrap_err().kind(), "SizeMismatch");
    /// assert_eq!(l("(5,3):(3,1)").layout_add(&l("(3,5):(5,1)")).unwrap_err().kind(), "NotALayout");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn layout_add(&self, other: &Layout) -> Result<Layout, LayoutError> {
        const OP: &str = "layout_add";
        if let Some(r) = layout_add_impl(self, other, |l| Ok(l.coalesce()))? {
            return Ok(r);
        }
        let n = self.size();
        if n > MAX_ADD_VALUES {
            return Err(LayoutError::TooLarge {
                op: OP,
                what: alloc::format!(
                    "{self} and {other} share no refinement of size {n}, and that many values are too many to search"
                ),
                limit: MAX_ADD_VALUES,
            });
        }
        let (a, b) = (self.coalesce(), other.coalesce());
        let mut values = Vec::with_capacity(n as usize);
        for i in 0..n {
            let (x, y) = (a.index_1d(i), b.index_1d(i));
            let v = x.zip(y).and_then(|(x, y)| x.checked_add(y));
            values.push(v.ok_or(LayoutError::Overflow { op: OP })?);
        }
        crate::analysis::find_layout(&values).map_err(|e| match e {
            LayoutError::NotALayout {
                index,
                found,
                expected,
                modes,
                ..
            } => LayoutError::NotALayout {
                op: OP,
                index,
                found,
                expected,
                modes,
            },
            LayoutError::Overflow { .. } => LayoutError::Overflow { op: OP },
            other => other,
        })
    }
}

impl Layout<ScaledBasis> {
    /// [`Layout::coalesce_z`] of a layout with basis strides: a leaf merges into the mode before
    /// it when it continues it along the same coordinate mode (`s0 * d0 == d`).
    ///
    /// # Laws
    /// * `R.value(i) == self.value(i)` for every integer index `i >= 0` (the last mode runs on).
    ///
    /// # Errors
    /// None in practice: the result's checks are those its input passed.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, ScaledBasis};
    /// let l: Layout<ScaledBasis> = "(2,1,6,1):(1@1,1@3@2,2@1,1@3@2)".parse()?;
    /// assert_eq!(l.coalesce_z()?.to_string(), "(12,1):(1@1,1@3@2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce_z(&self) -> Result<Layout<ScaledBasis>, LayoutError> {
        let modes = coalesce_z_modes(self.shape_leaves(), self.stride_leaves());
        flat_layout("coalesce_z", &modes, ScaledBasis::ZERO)
    }

    /// [`Layout::layout_add`] of layouts with basis strides, where both share a refinement of
    /// the full size (PyCuTe's construction; the values are not searched otherwise).
    ///
    /// # Laws
    /// * `R.value_1d(i) == A(i) + B(i)` (coordinate sum) for every `i` in `[0, size)`.
    ///
    /// # Errors
    /// * [`LayoutError::SizeMismatch`]: the sizes differ.
    /// * [`LayoutError::NotRepresentable`]: a stride of the sum steps along two coordinate
    ///   modes (PyCuTe's `ArithTuple`, which has no single basis form), a plain nonzero stride
    ///   meets a basis stride, or the shapes share no refinement of the full size.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, ScaledBasis};
    /// let l = |s: &str| s.parse::<Layout<ScaledBasis>>().unwrap();
    /// assert_eq!(l("8:2@0").layout_add(&l("8:3@0"))?.to_string(), "8:5@0");
    /// assert_eq!(l("8:1@0").layout_add(&l("8:1@1")).unwrap_err().kind(), "NotRepresentable");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn layout_add(
        &self,
        other: &Layout<ScaledBasis>,
    ) -> Result<Layout<ScaledBasis>, LayoutError> {
        layout_add_impl(self, other, Layout::<ScaledBasis>::coalesce)?.ok_or_else(|| {
            LayoutError::NotRepresentable {
                op: "layout_add",
                what: alloc::format!(
                    "{self} and {other} share no refinement of size {}; with basis strides the values are not searched",
                    self.size()
                ),
            }
        })
    }
}

impl Layout<F2> {
    /// PyCuTe's `layout_add` of F2 layouts: `R(i) == A(i) ^ B(i)` for every `i < size`, in
    /// coalesced form. With `G = greatest_common_domain(coalesce(A), coalesce(B))` of the full
    /// size, `R = coalesce(shape(G) : (A(g_k) ^ B(g_k)))`, where every sub-mode must start at a
    /// power-of-two position of its leaf (so the leaf's values are the XOR of its parts).
    ///
    /// # Laws
    /// * `R.index_1d(i) == A(i) ^ B(i)`; symmetric; `A + A` is 0 everywhere; `A + size:0 ==
    ///   coalesce(A)`.
    ///
    /// # Errors
    /// [`LayoutError::SizeMismatch`]; [`LayoutError::NotRepresentable`] where the shapes share
    /// no such refinement.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l = |s: &str| s.parse::<Layout<F2>>().unwrap();
    /// assert_eq!(l("8:F2(1)").layout_add(&l("8:F2(2)"))?.to_string(), "8:F2(3)");
    /// assert_eq!(l("16:F2(1)").layout_add(&l("(4,4):(F2(2),F2(8))"))?.to_string(), "16:F2(3)");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn layout_add(&self, other: &Layout<F2>) -> Result<Layout<F2>, LayoutError> {
        layout_add_impl(self, other, Layout::<F2>::coalesce)?.ok_or_else(|| {
            LayoutError::NotRepresentable {
                op: "layout_add",
                what: alloc::format!(
                    "{self} and {other} share no refinement of size {}",
                    self.size()
                ),
            }
        })
    }
}

impl Layout<BasisSum> {
    /// NVlabs PyCuTe's `layout_add` with strides that are sums of basis elements (PyCuTe's
    /// `ArithTuple`), where both layouts share a refinement of the full size.
    ///
    /// # Laws
    /// * `R.value(i) == A.value(i) + B.value(i)` (coordinate sum) for every `i < size`.
    ///
    /// # Errors
    /// As [`Layout::<ScaledBasis>::layout_add`], but two strides along different modes add.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{BasisSum, Layout};
    /// let l = |s: &str| s.parse::<Layout<BasisSum>>().unwrap();
    /// assert_eq!(l("12:1@0").layout_add(&l("(4,3):(1@1,1@2)"))?.to_string(), "(4,3):(1@0+1@1,4@0+1@2)");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn layout_add(&self, other: &Layout<BasisSum>) -> Result<Layout<BasisSum>, LayoutError> {
        crate::pycute::extras::layout_add_sums(self, other)
    }
}

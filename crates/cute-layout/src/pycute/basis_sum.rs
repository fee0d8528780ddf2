//! Strides that are a sum of basis elements: CuTe's `ArithmeticTuple` stride, NVlabs PyCuTe's
//! `ArithTuple(1,1)` or `4*E(2)+2*E(3)`. Text form: the terms joined by `+`, one stride leaf
//! (`(4,4):(1@0+1@1,3@0+1@1)`).

use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::basis::ScaledBasis;
use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};
use crate::layout::int_tuple::IntTuple;
use crate::layout::parse::Parser;
use crate::layout::tree::{Leaves, Tok, Toks};
use crate::layout::{Layout, StrideValue};

/// Most terms a [`BasisSum`] holds.
pub const MAX_BASIS_TERMS: usize = 4;

/// A sum of basis strides `v0@p0 + v1@p1 + ...` (CuTe's `ArithmeticTuple` used as a stride):
/// one coordinate step along several coordinate modes at once. Kept canonical: one term per
/// mode path, sorted by path, no zero term (the empty sum is the stride 0).
///
/// # Examples
/// ```
/// # use cute_layout::BasisSum;
/// let d: BasisSum = "2@3+4@2".parse()?;
/// assert_eq!(d.to_string(), "4@2+2@3");
/// assert_eq!(d.terms().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BasisSum {
    len: u8,
    terms: [ScaledBasis; MAX_BASIS_TERMS],
}

impl BasisSum {
    /// The stride 0 (no term).
    pub const ZERO: BasisSum = BasisSum {
        len: 0,
        terms: [ScaledBasis::ZERO; MAX_BASIS_TERMS],
    };

    /// The canonical sum of `terms`: terms along one mode path added, zero terms dropped.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for more than [`MAX_BASIS_TERMS`] mode paths, or a
    /// plain number beside a basis stride (CuTe's `int + ScaledBasis` does not compile);
    /// [`LayoutError::Overflow`].
    pub fn new(terms: &[ScaledBasis]) -> Result<Self, LayoutError> {
        let op = "basis_sum";
        let mut acc: Vec<ScaledBasis> = Vec::with_capacity(terms.len());
        for t in terms {
            match acc.iter_mut().find(|a| a.path().eq(t.path())) {
                Some(a) => {
                    let v = a
                        .value()
                        .checked_add(t.value())
                        .ok_or(LayoutError::overflow(op))?;
                    *a = a.with_value(v);
                }
                None => acc.push(*t),
            }
        }
        acc.retain(|t| t.value() != 0);
        acc.sort_by(|a, b| a.path().cmp(b.path()));
        if acc.len() > 1 && acc[0].path().next().is_none() {
            return Err(LayoutError::InvalidArgument {
                op,
                what: alloc::format!(
                    "the plain number {} and a basis stride do not add (as in CuTe)",
                    acc[0]
                ),
            });
        }
        if acc.len() > MAX_BASIS_TERMS {
            return Err(LayoutError::InvalidArgument {
                op,
                what: alloc::format!("more than {MAX_BASIS_TERMS} terms"),
            });
        }
        let mut out = BasisSum::ZERO;
        out.terms[..acc.len()].copy_from_slice(&acc);
        out.len = acc.len() as u8;
        Ok(out)
    }

    /// The terms, sorted by mode path (empty for the stride 0).
    pub fn terms(&self) -> &[ScaledBasis] {
        &self.terms[..usize::from(self.len)]
    }

    /// `k` times this stride.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    pub fn scaled(&self, k: i64) -> Result<Self, LayoutError> {
        let t: Vec<ScaledBasis> = self
            .terms()
            .iter()
            .map(|t| {
                t.value()
                    .checked_mul(k)
                    .map(|v| t.with_value(v))
                    .ok_or(LayoutError::overflow("basis_sum"))
            })
            .collect::<Result<_, _>>()?;
        BasisSum::new(&t)
    }

    /// The sum of two strides.
    ///
    /// # Errors
    /// As [`BasisSum::new`].
    pub fn plus(&self, other: &BasisSum) -> Result<Self, LayoutError> {
        let mut t: Vec<ScaledBasis> = self.terms().to_vec();
        t.extend_from_slice(other.terms());
        BasisSum::new(&t)
    }
}

impl From<ScaledBasis> for BasisSum {
    fn from(b: ScaledBasis) -> Self {
        let mut out = BasisSum::ZERO;
        if b.value() != 0 {
            out.terms[0] = b;
            out.len = 1;
        }
        out
    }
}

impl StrideValue for BasisSum {
    fn magnitude(&self) -> Option<i64> {
        self.terms()
            .iter()
            .try_fold(0i64, |acc, t| acc.checked_add(t.value().checked_abs()?))
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len == 0 {
            return f.write_str("0");
        }
        for (k, t) in self.terms().iter().enumerate() {
            if k > 0 {
                f.write_str("+")?;
            }
            StrideValue::write(t, f)?;
        }
        Ok(())
    }
}

impl fmt::Display for BasisSum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        StrideValue::write(self, f)
    }
}

impl Parser<'_> {
    /// `d0+d1+...`, each term a basis stride or a plain number.
    fn basis_sum(&mut self) -> Result<BasisSum, ParseError> {
        let start = {
            self.skip_ws();
            self.pos
        };
        let mut terms = alloc::vec![self.basis()?];
        loop {
            self.skip_ws();
            if self.peek() != Some(b'+') {
                break;
            }
            self.pos += 1;
            terms.push(self.basis()?);
        }
        BasisSum::new(&terms).map_err(|e| ParseError {
            offset: start,
            kind: ParseErrorKind::Invalid(e),
        })
    }
}

impl FromStr for BasisSum {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let b = p.basis_sum()?;
        p.finish()?;
        Ok(b)
    }
}

impl FromStr for Layout<BasisSum> {
    type Err = ParseError;
    /// Parse `shape:stride` whose stride leaves are sums of basis strides,
    /// `(4,4):(1@0+1@1,3@0+1@1)` (a layout with basis or integer strides parses too).
    fn from_str(s: &str) -> Result<Self, ParseError> {
        crate::basis::scaled_basis::parse_layout_with(s, "basis", |p| p.basis_sum())
    }
}

/// Per leaf of `rhs`, the sum over its stride's terms `v@p` of `mode(p) ∘ (s:v)`, placed into
/// `rhs`'s tree: the composition of a layout with a layout whose strides are sums of bases.
fn compose_terms<D: StrideValue, R: StrideValue>(
    rhs: &Layout<BasisSum>,
    zero: R,
    term: impl Fn(&[usize], i64, i64) -> Result<Layout<D>, LayoutError>,
    add: impl Fn(R, D) -> Result<R, LayoutError>,
) -> Result<Layout<R>, LayoutError> {
    let op = "composition";
    let mut per_leaf: Vec<Layout<R>> = Vec::with_capacity(rhs.shape.len());
    for (k, (&s, d)) in rhs.shape.iter().zip(rhs.stride.iter()).enumerate() {
        let mut acc: Option<Layout<R>> = None;
        for t in d.terms() {
            let path: Vec<usize> = t.path().collect();
            let r = term(&path, s, t.value())?;
            let acc_l = acc.get_or_insert_with(|| {
                Layout::from_parts_unchecked(
                    r.toks.clone(),
                    r.shape.clone(),
                    r.shape.iter().map(|_| zero).collect(),
                )
            });
            if acc_l.toks != r.toks || acc_l.shape != r.shape {
                return Err(LayoutError::NotRepresentable {
                    op,
                    what: alloc::format!(
                        "leaf {k} of {rhs}: its terms split the modes they step along differently"
                    ),
                });
            }
            for (a, &b) in acc_l.stride.iter_mut().zip(r.stride.iter()) {
                *a = add(*a, b)?;
            }
        }
        per_leaf.push(match acc {
            Some(l) => l,
            None => Layout::from_parts_unchecked(
                Toks::from_slice(&[Tok::Leaf]),
                Leaves::from_slice(&[s]),
                Leaves::from_slice(&[zero]),
            ),
        });
    }
    let mut toks = Toks::new();
    let mut shape: Leaves<i64> = Leaves::new();
    let mut stride: Leaves<R> = Leaves::new();
    let mut leaves = per_leaf.into_iter();
    for &t in &rhs.toks {
        if t != Tok::Leaf {
            toks.push(t);
            continue;
        }
        let r = leaves.next().ok_or(LayoutError::overflow(op))?;
        toks.extend_from_slice(&r.toks);
        shape.extend_from_slice(&r.shape);
        stride.extend_from_slice(&r.stride);
    }
    Layout::checked(op, toks, shape, stride)
}

/// The mode of `l` at `path` (`l` itself for the empty path).
fn mode_of<D: Copy>(l: &Layout<D>, path: &[usize]) -> Result<Layout<D>, LayoutError> {
    l.mode_at(path).ok_or(LayoutError::ModeOutOfRange {
        op: "composition",
        index: path.last().copied().unwrap_or(0),
        rank: l.rank(),
    })
}

fn single(s: i64, v: i64) -> Result<Layout, LayoutError> {
    Layout::new(IntTuple::int(s), IntTuple::int(v))
}

impl Layout<BasisSum> {
    /// The coordinate at any kind of coordinate of the domain: the sum over the leaves of the
    /// leaf's coordinate times its stride, each term `v@p` adding to coordinate mode `p`.
    ///
    /// # Laws
    /// * For a layout whose strides are single basis strides, the value of the same
    ///   `Layout<ScaledBasis>`.
    ///
    /// # Errors
    /// As [`IntTuple::idx2crd`]; [`LayoutError::Overflow`]; [`LayoutError::InvalidArgument`] if
    /// a plain number and a basis stride add at one position.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{BasisSum, Layout};
    /// let l: Layout<BasisSum> = "(4,3):(1@0+1@1,4@0+1@2)".parse()?;
    /// assert_eq!(l.value(&"7".parse()?)?.to_string(), "(7,3,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(&self, coord: &IntTuple) -> Result<IntTuple, LayoutError> {
        let natural = self.shape().idx2crd(coord)?;
        let mut terms: Vec<ScaledBasis> = Vec::new();
        for (&c, d) in natural.leaves().iter().zip(self.stride.iter()) {
            for t in d.terms() {
                let v = t
                    .value()
                    .checked_mul(c)
                    .ok_or(LayoutError::overflow("basis_sum"))?;
                terms.push(t.with_value(v));
            }
        }
        crate::basis::scaled_basis::sum_of("basis_sum", &terms)
    }

    /// CuTe `composition(self, rhs)` for strides that are sums of basis elements:
    /// `R(c) == self(rhs(c))`. Computed along each coordinate mode `p` as `self_p ∘ rhs`
    /// (`self_p` keeps each stride's term along `p`) and summed leaf by leaf.
    ///
    /// # Laws
    /// * `R.value(i) == self.value(rhs(i))` for `i < size(rhs)`; `R`'s shape is compatible with
    ///   `rhs`'s.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if the per-mode compositions split `rhs` differently;
    /// the errors of [`Layout::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{BasisSum, Layout};
    /// let a: Layout<BasisSum> = "(4,4):(1@0+1@1,3@0+1@1)".parse()?;
    /// let r = a.compose(&"(4,2):(2,1)".parse()?)?;
    /// assert_eq!(r.to_string(), "((2,2),2):((2@0+2@1,3@0+1@1),1@0+1@1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose(&self, rhs: &Layout) -> Result<Layout<BasisSum>, LayoutError> {
        let op = "composition";
        let mut paths: Vec<Vec<usize>> = self
            .stride
            .iter()
            .flat_map(|d| d.terms().iter().map(|t| t.path().collect()))
            .collect();
        paths.sort();
        paths.dedup();
        let mut acc: Option<Layout<BasisSum>> = None;
        for p in &paths {
            let st: Leaves<i64> = self
                .stride
                .iter()
                .map(|d| {
                    d.terms()
                        .iter()
                        .find(|t| t.path().eq(p.iter().copied()))
                        .map_or(0, |t| t.value())
                })
                .collect();
            let ap = Layout::checked(op, self.toks.clone(), self.shape.clone(), st)?;
            let r = ap.compose(rhs)?;
            let acc_l = acc.get_or_insert_with(|| {
                Layout::from_parts_unchecked(
                    r.toks.clone(),
                    r.shape.clone(),
                    r.shape.iter().map(|_| BasisSum::ZERO).collect(),
                )
            });
            if acc_l.toks != r.toks || acc_l.shape != r.shape {
                return Err(LayoutError::NotRepresentable {
                    op,
                    what: alloc::format!(
                        "{self} o {rhs}: the coordinate modes split {rhs} differently"
                    ),
                });
            }
            for (a, &v) in acc_l.stride.iter_mut().zip(r.stride.iter()) {
                *a = a.plus(&BasisSum::from(ScaledBasis::new(v, p)?))?;
            }
        }
        match acc {
            Some(l) => Layout::checked(op, l.toks, l.shape, l.stride),
            // Every stride is 0: so is every stride of the composition.
            None => {
                let shape = self.shape();
                let zeros = if shape.is_int() {
                    IntTuple::int(0)
                } else {
                    IntTuple::flat(alloc::vec![0; self.shape.len()]).unflatten(&shape)?
                };
                let zero = Layout::new(shape, zeros)?;
                let r = zero.compose(rhs)?;
                let stride = r.stride.iter().map(|_| BasisSum::ZERO).collect();
                Layout::checked(op, r.toks, r.shape, stride)
            }
        }
    }
}

impl Layout {
    /// CuTe `composition(self, rhs)` where `rhs`'s strides are sums of basis elements that
    /// select modes of `self`: a leaf `s : Σ v_p@p` of `rhs` gives `Σ_p mode(p) ∘ (s:v_p)`.
    ///
    /// # Laws
    /// * `R(i) == self.index(rhs.value(i))` for `i < size(rhs)`.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if a path names no mode of `self`;
    /// [`LayoutError::NotRepresentable`] if a leaf's terms split it differently; those of
    /// [`Layout::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(4,8):(3,42)".parse()?;
    /// assert_eq!(a.compose_sum(&"4:1@0+2@1".parse()?)?.to_string(), "4:87");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_sum(&self, rhs: &Layout<BasisSum>) -> Result<Layout, LayoutError> {
        compose_terms(
            rhs,
            0i64,
            |p, s, v| mode_of(self, p)?.compose(&single(s, v)?),
            |a, b| a.checked_add(b).ok_or(LayoutError::overflow("composition")),
        )
    }
}

impl Layout<ScaledBasis> {
    /// CuTe `composition(self, rhs)` of a basis-strided layout with a layout whose strides are
    /// sums of basis elements: a leaf `s : Σ v_p@p` of `rhs` gives `Σ_p mode(p) ∘ (s:v_p)`.
    ///
    /// # Laws
    /// * `R.value(i) == self.value(rhs.value(i))` for `i < size(rhs)`.
    ///
    /// # Errors
    /// As [`Layout::compose_sum`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let id = Layout::identity("(3,5,7,11)".parse()?)?;
    /// assert_eq!(id.compose_sum(&"3:4@2+2@3".parse()?)?.to_string(), "3:4@2+2@3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_sum(&self, rhs: &Layout<BasisSum>) -> Result<Layout<BasisSum>, LayoutError> {
        compose_terms(
            rhs,
            BasisSum::ZERO,
            |p, s, v| mode_of(self, p)?.compose(&single(s, v)?),
            |a, b| a.plus(&BasisSum::from(b)),
        )
    }
}

//! Basis strides and identity layouts: CuTe's `ScaledBasis` and `make_identity_layout`.
//!
//! An integer stride sends a coordinate step to an offset. A *basis* stride `v@i` sends it to `v`
//! steps along mode `i` of a coordinate instead, so a layout with basis strides maps coordinates
//! to coordinates. The identity layout of a shape gives every leaf the unit basis of its own
//! position: `make_identity_layout((4,8))` is `(4,8):(1@0,1@1)` and maps every coordinate to
//! itself, as a natural coordinate. Tiled and partitioned like the data, it tells each thread
//! which global coordinates its elements have, for bounds predication.
//!
//! ```
//! use cute_layout::Layout;
//! let id = Layout::identity("(4,(2,3))".parse()?)?;
//! assert_eq!(id.to_string(), "(4,(2,3)):(1@0,(1@0@1,1@1@1))");
//! assert_eq!(id.value_1d(13).unwrap().to_string(), "(1,(1,1))");
//! assert_eq!(id.value(&"(3,4)".parse()?)?.to_string(), "(3,(0,2))");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Text form: `v@i0@...` as CuTe prints `ScaledBasis`, the mode path **reversed**: `1@0@1` is
//! `E<1,0>`, mode 0 of mode 1. A stride without `@` is a plain number (CuTe's `E<>`).

use core::fmt;
use core::str::FromStr;

use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};
use crate::layout::int_tuple::IntTuple;
use crate::layout::parse::Parser;
use crate::layout::tree::{Leaves, Tok, Toks, TupleBuilder};
use crate::layout::{Layout, StrideValue};

/// Deepest mode path a [`ScaledBasis`] holds.
pub const MAX_BASIS_DEPTH: usize = 8;

/// CuTe's `ScaledBasis<v, i0, i1, ...>`: `v` steps along the coordinate mode at path
/// `(i0, i1, ...)` (mode `i1` of mode `i0`). Printed `v@ik@...@i0`.
///
/// # Examples
/// ```
/// # use cute_layout::ScaledBasis;
/// let e = ScaledBasis::new(3, &[1, 0])?;
/// assert_eq!(e.to_string(), "3@0@1");
/// assert_eq!(e.path().collect::<Vec<_>>(), [1, 0]);
/// # Ok::<(), cute_layout::LayoutError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ScaledBasis {
    value: i64,
    len: u8,
    path: [u8; MAX_BASIS_DEPTH],
}

impl ScaledBasis {
    /// `value` steps along the mode at `path` (outermost index first).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the path is deeper than [`MAX_BASIS_DEPTH`] or an
    /// index exceeds 255.
    pub fn new(value: i64, path: &[usize]) -> Result<Self, LayoutError> {
        let bad = || LayoutError::InvalidArgument {
            op: "scaled_basis",
            what: alloc::format!(
                "mode path {path:?} is deeper than {MAX_BASIS_DEPTH} or has an index above 255"
            ),
        };
        if path.len() > MAX_BASIS_DEPTH {
            return Err(bad());
        }
        let mut p = [0u8; MAX_BASIS_DEPTH];
        for (k, &i) in path.iter().enumerate() {
            p[k] = u8::try_from(i).map_err(|_| bad())?;
        }
        Ok(ScaledBasis {
            value,
            len: path.len() as u8,
            path: p,
        })
    }

    /// The plain number `value` (CuTe's `E<>` scaled by `value`).
    pub fn scalar(value: i64) -> Self {
        ScaledBasis {
            value,
            len: 0,
            path: [0; MAX_BASIS_DEPTH],
        }
    }

    /// The scale `v`.
    pub fn value(&self) -> i64 {
        self.value
    }

    /// The plain number 0.
    pub(crate) const ZERO: ScaledBasis = ScaledBasis {
        value: 0,
        len: 0,
        path: [0; MAX_BASIS_DEPTH],
    };

    /// The same mode path with scale `value`.
    pub(crate) fn with_value(self, value: i64) -> Self {
        ScaledBasis { value, ..self }
    }

    /// The mode path, outermost index first.
    pub fn path(&self) -> impl Iterator<Item = usize> + '_ {
        self.path[..usize::from(self.len)]
            .iter()
            .map(|&i| usize::from(i))
    }

    fn path_slice(&self) -> &[u8] {
        &self.path[..usize::from(self.len)]
    }
}

impl StrideValue for ScaledBasis {
    fn magnitude(&self) -> Option<i64> {
        self.value.checked_abs()
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)?;
        for i in self.path_slice().iter().rev() {
            write!(f, "@{i}")?;
        }
        Ok(())
    }
}

impl fmt::Display for ScaledBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        StrideValue::write(self, f)
    }
}

/// Sum of `value` at `path` over the entries: the coordinate (an `IntTuple`) they add up to.
/// Tuples are as wide as the largest index used; missing entries are 0.
fn assemble(entries: &[(&[u8], i64)]) -> Result<IntTuple, LayoutError> {
    if entries.iter().all(|e| e.0.is_empty()) {
        let mut acc = 0i64;
        for e in entries {
            acc = acc.checked_add(e.1).ok_or(LayoutError::overflow("basis"))?;
        }
        return Ok(IntTuple::int(acc));
    }
    if entries.iter().any(|e| e.0.is_empty()) {
        return Err(LayoutError::InvalidArgument {
            op: "basis",
            what: "a plain stride and a basis stride add up to no coordinate".into(),
        });
    }
    let rank = entries
        .iter()
        .map(|e| usize::from(e.0[0]) + 1)
        .max()
        .unwrap_or(0);
    let mut elems = alloc::vec::Vec::with_capacity(rank);
    for k in 0..rank {
        let sub: Leaves<(&[u8], i64)> = entries
            .iter()
            .filter(|e| usize::from(e.0[0]) == k)
            .map(|e| (&e.0[1..], e.1))
            .collect();
        elems.push(if sub.is_empty() {
            IntTuple::int(0)
        } else {
            assemble(&sub)?
        });
    }
    IntTuple::tuple(elems)
}

/// The coordinate that the basis values `terms` add up to (CuTe's `as_arithmetic_tuple` of
/// their sum): tuples as wide as the largest mode index used, missing entries 0.
///
/// # Errors
/// [`LayoutError::InvalidArgument`] if a plain value and a basis value meet at one position.
pub(crate) fn sum_of(op: &'static str, terms: &[ScaledBasis]) -> Result<IntTuple, LayoutError> {
    let entries: Leaves<(&[u8], i64)> = terms.iter().map(|d| (d.path_slice(), d.value)).collect();
    assemble(&entries).map_err(|e| match e {
        LayoutError::InvalidArgument { what, .. } => LayoutError::InvalidArgument { op, what },
        e => e,
    })
}

impl Layout<ScaledBasis> {
    /// CuTe `make_identity_layout(shape)`: `shape` with the unit basis stride of every leaf's
    /// position (`E<>`, a plain `1`, for an integer shape), so the layout maps each coordinate to
    /// itself as a natural coordinate.
    ///
    /// # Laws
    /// * `value_1d(i) == shape.idx2crd(i)` for `0 <= i < size`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidExtent`] for an extent < 1; [`LayoutError::InvalidArgument`] past
    /// [`MAX_BASIS_DEPTH`] levels or 256 modes.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// assert_eq!(Layout::identity("(4,8)".parse()?)?.to_string(), "(4,8):(1@0,1@1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_identity_layout")]
    pub fn identity(shape: IntTuple) -> Result<Self, LayoutError> {
        let mut stride: Leaves<ScaledBasis> = Leaves::new();
        let mut path: alloc::vec::Vec<usize> = alloc::vec::Vec::new();
        let mut next: alloc::vec::Vec<usize> = alloc::vec::Vec::new(); // index of the next child
        for t in &shape.toks {
            match t {
                Tok::Open => {
                    if let Some(n) = next.last_mut() {
                        path.push(*n);
                        *n += 1;
                    }
                    next.push(0);
                }
                Tok::Close => {
                    next.pop();
                    path.pop();
                }
                Tok::Leaf => {
                    if let Some(n) = next.last_mut() {
                        path.push(*n);
                        *n += 1;
                        stride.push(ScaledBasis::new(1, &path)?);
                        path.pop();
                    } else {
                        stride.push(ScaledBasis::scalar(1));
                    }
                }
            }
        }
        Layout::checked("make_identity_layout", shape.toks, shape.leaves, stride)
    }

    /// The coordinate at any kind of coordinate (1-D, R-D, natural): the sum of every leaf's
    /// coordinate times its basis stride.
    ///
    /// # Errors
    /// As [`IntTuple::idx2crd`]; [`LayoutError::Overflow`]; [`LayoutError::InvalidArgument`] if
    /// plain and basis strides are mixed at one position.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout};
    /// let id = Layout::identity("(4,8)".parse()?)?;
    /// assert_eq!(id.value(&"(3,5)".parse()?)?.to_string(), "(3,5)");
    /// assert_eq!(id.value(&"13".parse()?)?.to_string(), "(1,3)");
    /// let t: cute_layout::Layout<cute_layout::ScaledBasis> = "(2,3):(2@1,1@0)".parse()?;
    /// assert_eq!(t.value(&"(1,2)".parse()?)?.to_string(), "(2,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(&self, coord: &IntTuple) -> Result<IntTuple, LayoutError> {
        let natural = self.shape().idx2crd(coord)?;
        self.value_of_leaves(&natural.leaves)
    }

    /// The coordinate at 1-D index `i` of the domain, `None` outside it.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout};
    /// let id = Layout::identity("(4,8)".parse()?)?;
    /// assert_eq!(id.value_1d(31).unwrap().to_string(), "(3,7)");
    /// assert_eq!(id.value_1d(32), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_1d(&self, i: i64) -> Option<IntTuple> {
        if i < 0 || i >= self.size() {
            return None;
        }
        self.value(&IntTuple::int(i)).ok()
    }

    fn value_of_leaves(&self, c: &[i64]) -> Result<IntTuple, LayoutError> {
        let mut entries: Leaves<(&[u8], i64)> = Leaves::new();
        for (k, d) in self.stride.iter().enumerate() {
            if d.len == 0 && d.value == 0 {
                // A plain stride 0 adds nothing, at no position.
                continue;
            }
            let v = c[k]
                .checked_mul(d.value)
                .ok_or(LayoutError::overflow("basis"))?;
            entries.push((d.path_slice(), v));
        }
        assemble(&entries)
    }

    /// CuTe `composition(self, rhs)` for a layout with basis strides: `R(c) == self(rhs(c))`,
    /// again with basis strides. Computed per coordinate mode `p` as `self_p ∘ rhs` (where
    /// `self_p` keeps the strides along `p` and zeroes the others) and recombined.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if the per-mode compositions split `rhs` differently or
    /// one leaf of the result steps along two coordinate modes (no single basis stride); the
    /// errors of [`Layout::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let id = Layout::identity("(2,2)".parse()?)?;
    /// let r = id.compose(&"(2,2):(2,1)".parse()?)?;
    /// assert_eq!(r.to_string(), "(2,2):(1@1,1@0)");
    /// let id = Layout::identity("(8,8)".parse()?)?;
    /// let tile = id.compose(&"(4,2):(2,16)".parse()?)?;
    /// assert_eq!(tile.to_string(), "(4,2):(2@0,2@1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose(&self, rhs: &Layout) -> Result<Layout<ScaledBasis>, LayoutError> {
        let mut paths: alloc::vec::Vec<&[u8]> =
            self.stride.iter().map(|d| d.path_slice()).collect();
        paths.sort();
        paths.dedup();
        let mut parts: alloc::vec::Vec<(&[u8], Layout)> = alloc::vec::Vec::new();
        for p in paths {
            let st: Leaves<i64> = self
                .stride
                .iter()
                .map(|d| if d.path_slice() == p { d.value } else { 0 })
                .collect();
            let ap = Layout::checked("composition", self.toks.clone(), self.shape.clone(), st)?;
            parts.push((p, ap.compose(rhs)?));
        }
        let Some((_, first)) = parts.first() else {
            return Err(LayoutError::overflow("composition"));
        };
        let (toks, shape) = (first.toks.clone(), first.shape.clone());
        let fail = |what: alloc::string::String| LayoutError::NotRepresentable {
            op: "composition",
            what,
        };
        if let Some((_, r)) = parts
            .iter()
            .find(|(_, r)| r.toks != toks || r.shape != shape)
        {
            return Err(fail(alloc::format!(
                "{self} o {rhs}: the coordinate modes split {rhs} differently ({} and {})",
                first,
                r
            )));
        }
        let mut stride: Leaves<ScaledBasis> = Leaves::new();
        for k in 0..shape.len() {
            let nz: Leaves<(&[u8], i64)> = parts
                .iter()
                .filter(|(_, r)| r.stride[k] != 0)
                .map(|(p, r)| (*p, r.stride[k]))
                .collect();
            // A leaf that steps along no mode has the plain stride 0, as CuTe's.
            stride.push(match nz.as_slice() {
                [] => ScaledBasis::ZERO,
                [(p, v)] => ScaledBasis {
                    value: *v,
                    len: p.len() as u8,
                    path: {
                        let mut a = [0u8; MAX_BASIS_DEPTH];
                        a[..p.len()].copy_from_slice(p);
                        a
                    },
                },
                _ => {
                    return Err(fail(alloc::format!(
                    "{self} o {rhs}: leaf {k} of the result steps along several coordinate modes"
                )))
                }
            });
        }
        Layout::checked("composition", toks, shape, stride)
    }
}

impl Layout {
    /// CuTe `composition(self, rhs)` with basis strides on the right: a stride `v@p` selects
    /// the sub-layout of `self` at mode path `p` (CuTe `get<p...>`) and composes it with `n:v`.
    /// The leaves of `rhs` that select the same mode are composed together (so their common
    /// soundness conditions are checked).
    ///
    /// # Laws
    /// * `R.index_1d(i) == self.index(rhs.value_1d(i))` for `0 <= i < size(rhs)`.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if a path does not name a mode of `self`;
    /// [`LayoutError::NotRepresentable`] if one selected mode contains another; the errors of
    /// [`Layout::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(4,(2,3)):(6,(3,1))".parse()?;
    /// let b = "(2,4):(1@1@1,1@0)".parse()?;
    /// assert_eq!(a.compose_basis(&b)?.to_string(), "(2,4):(1,6)"); // CuTe unit test
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_basis(&self, rhs: &Layout<ScaledBasis>) -> Result<Layout, LayoutError> {
        // A plain stride 0 selects no mode: its leaf is `s:0`.
        let plain_zero = |d: &ScaledBasis| d.len == 0 && d.value == 0;
        let mut paths: alloc::vec::Vec<&[u8]> = rhs
            .stride
            .iter()
            .filter(|d| !plain_zero(d))
            .map(|d| d.path_slice())
            .collect();
        paths.sort();
        paths.dedup();
        for w in paths.windows(2) {
            if w[1].starts_with(w[0]) {
                return Err(LayoutError::NotRepresentable {
                    op: "composition",
                    what: alloc::format!(
                        "{rhs} selects mode {:?} of {self} and a mode inside it",
                        w[0]
                    ),
                });
            }
        }
        // Per leaf of rhs: its result (tokens, shape, stride).
        let mut per_leaf: alloc::vec::Vec<Option<Layout>> = alloc::vec![None; rhs.shape.len()];
        for (k, d) in rhs.stride.iter().enumerate() {
            if plain_zero(d) {
                per_leaf[k] = Some(Layout::new(IntTuple::int(rhs.shape[k]), IntTuple::int(0))?);
            }
        }
        for p in &paths {
            let path: alloc::vec::Vec<usize> = p.iter().map(|&i| usize::from(i)).collect();
            let sub = self.mode_at(&path).ok_or(LayoutError::ModeOutOfRange {
                op: "composition",
                index: path.last().copied().unwrap_or(0),
                rank: self.rank(),
            })?;
            let idx: alloc::vec::Vec<usize> = (0..rhs.shape.len())
                .filter(|&k| !plain_zero(&rhs.stride[k]) && rhs.stride[k].path_slice() == *p)
                .collect();
            let mut b = TupleBuilder::open();
            let mut st: Leaves<i64> = Leaves::new();
            for &k in &idx {
                b.push_leaf(rhs.shape[k]);
                st.push(rhs.stride[k].value);
            }
            let (toks, shape) = b.close();
            let r = sub.compose(&Layout::checked("composition", toks, shape, st)?)?;
            for (j, &k) in idx.iter().enumerate() {
                per_leaf[k] = r.mode(j);
            }
        }
        let mut toks = Toks::new();
        let mut shape: Leaves<i64> = Leaves::new();
        let mut stride: Leaves<i64> = Leaves::new();
        let mut k = 0usize;
        for &t in &rhs.toks {
            if t != Tok::Leaf {
                toks.push(t);
                continue;
            }
            let r = per_leaf[k]
                .take()
                .ok_or(LayoutError::overflow("composition"))?;
            k += 1;
            toks.extend_from_slice(&r.toks);
            shape.extend_from_slice(&r.shape);
            stride.extend_from_slice(&r.stride);
        }
        Layout::checked("composition", toks, shape, stride)
    }
}

impl Parser<'_> {
    /// `v` or `v@i@j...` (indices reversed, as CuTe prints).
    pub(crate) fn basis(&mut self) -> Result<ScaledBasis, ParseError> {
        let start = {
            self.skip_ws();
            self.pos
        };
        let v = self.int()?;
        let mut rev: Leaves<usize> = Leaves::new();
        while self.peek() == Some(b'@') {
            self.pos += 1;
            let i = self.int()?;
            rev.push(usize::try_from(i).map_err(|_| self.error("a mode index >= 0"))?);
        }
        rev.reverse();
        ScaledBasis::new(v, &rev).map_err(|e| ParseError {
            offset: start,
            kind: ParseErrorKind::Invalid(e),
        })
    }
}

impl FromStr for ScaledBasis {
    type Err = ParseError;
    /// Parse one basis stride `v@i0@...` (CuTe's print order, the mode path reversed) or a plain
    /// number `v`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let b = p.basis()?;
        p.finish()?;
        Ok(b)
    }
}

impl FromStr for Layout<ScaledBasis> {
    type Err = ParseError;
    /// Parse `shape:stride` with basis strides, e.g. `(4,8):(1@0,1@1)` or CuTe's
    /// `(_4,_8):(_1@0,_1@1)`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        parse_layout_with(s, "basis", |p| p.basis())
    }
}

/// Parse `shape:stride` whose stride leaves `leaf` reads (basis strides, sums of them, F2
/// strides); `kind` names the stride kind in the congruence error.
pub(crate) fn parse_layout_with<D: StrideValue>(
    s: &str,
    kind: &str,
    leaf: impl FnMut(&mut Parser<'_>) -> Result<D, ParseError>,
) -> Result<Layout<D>, ParseError> {
    let mut p = Parser::new(s);
    let shape = p.int_tuple()?;
    p.eat(b':', "':'")?;
    let at = {
        p.skip_ws();
        p.pos
    };
    let (toks, stride) = p.tree(leaf)?;
    p.finish()?;
    let invalid = |e| ParseError {
        offset: at,
        kind: ParseErrorKind::Invalid(e),
    };
    if toks != shape.toks {
        return Err(invalid(LayoutError::InvalidArgument {
            op: "parse",
            what: alloc::format!("the {kind} stride is not congruent to shape {shape}"),
        }));
    }
    Layout::checked("parse", shape.toks, shape.leaves, stride).map_err(invalid)
}

//! F2 (XOR) strides: NVlabs PyCuTe's `F2` stride scalar, **not CuTe C++'s** (CuTe C++ has no
//! such stride; it writes the same functions as a [`Swizzle`] composed with an integer layout).
//!
//! An `F2` stride `d` adds by XOR and scales by carry-less multiplication: a coordinate `c`
//! contributes `clmul(d, c)` (the XOR of `d << j` over the set bits `j` of `c`), and the modes'
//! contributions are XORed. So `(4,8):(F2(1),F2(8))` is `c0 ^ 8*c1`, and
//! `(8,8):(F2(1),F2(9))` is `c0 ^ 9*c1` in carry-less arithmetic, `c0 ^ c1 ^ (c1 << 3)`: the
//! swizzle `Sw<3,0,3> o 0 o (8,8):(1,8)`. For a power of two `d` (or `c < 2`) the carry-less
//! product is the integer product, so `F2(5) * 3 == 15` as in PyCuTe's test, but
//! `Layout(8, F2(3))` maps 3 to `3 ^ 6 == 5`.
//!
//! Text form: a stride leaf `F2(v)` with `v >= 0`, or `0` (the zero stride, which every kind of
//! stride shares; it prints as `0`). A nonzero plain integer stride beside F2 strides is refused:
//! XOR and integer addition do not mix (PyCuTe raises `TypeError` when it evaluates one).
//!
//! ```
//! use cute_layout::{F2, Layout};
//! let l: Layout<F2> = "(4,8):(F2(1),F2(8))".parse()?;
//! assert_eq!(l.to_string(), "(4,8):(F2(1),F2(8))");
//! assert_eq!(l.value(&"(3,5)".parse()?)?, 3 ^ 40);
//! let sw: Layout<F2> = "(8,8):(F2(1),F2(9))".parse()?;
//! assert_eq!(sw.to_swizzle()?.to_string(), "Sw<3,0,3> o 0 o (8,8):(1,8)");
//! assert_eq!(sw.right_inverse()?.to_string(), "(8,8):(F2(1),F2(9))"); // its own inverse
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A basis stride may carry an F2 value, PyCuTe's `ScaledBasis(F2(v), (i,))`: written
//! `F2(v)@i` ([`F2Basis`]), it steps along coordinate mode `i` by XOR, so
//! `(8,8):(F2(1)@0,F2(9)@0)` maps to a coordinate whose mode 0 is swizzled. Only mode paths of
//! one level, and no plain F2 stride beside them.
//!
//! The operations follow PyCuTe (NVlabs/CuTe `pycute/swizzle.py`, `stride.py`, `algebra.py`):
//! coalesce merges two modes only where that keeps every value (the left extent a power of two,
//! or both strides 0), `right_inverse` follows the chain of strides and lets a stride carry a
//! component the covered modes already span (so swizzles invert), `left_inverse` needs every gap
//! of the chain to be 1, and `layout_add` XORs the strides on a common refinement whose
//! sub-modes start at power-of-two positions.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::basis::ScaledBasis;
use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};
use crate::layout::int_tuple::IntTuple;
use crate::layout::parse::Parser;
use crate::layout::tree::{Leaves, Tok, Toks};
use crate::layout::{Layout, StrideValue};

/// Most points the F2 predicates ([`Layout::<F2>::is_injective`] and friends) enumerate when
/// an extent is not a power of two (`2^22`); with power-of-two extents they decide by linear
/// algebra over GF(2), for any size.
pub const MAX_F2_POINTS: i64 = 1 << 22;

/// Most point checks the search of [`Layout::<F2>::right_inverse`] makes (`2^24`), where an
/// extent is no power of two and PyCuTe's chain falls short.
pub const MAX_F2_SEARCH: i64 = 1 << 24;

/// A value that is no index of the domain, in the inverses' tables of values.
const NOT_AN_INDEX: u64 = u64::MAX;

/// A left inverse of an F2 layout ([`Layout::<F2>::left_inverse`]): an integer layout, or an F2
/// layout where a GF(2)-linear map of the value bits is the inverse. Printed as the layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum F2LeftInverse {
    /// An integer layout.
    Layout(Layout),
    /// A layout with F2 strides.
    F2(Layout<F2>),
}

impl F2LeftInverse {
    /// The inverse at the 1-D index `x` of its domain; `None` outside it.
    pub fn index_1d(&self, x: i64) -> Option<i64> {
        match self {
            F2LeftInverse::Layout(l) => l.index_1d(x),
            F2LeftInverse::F2(l) => l.index_1d(x),
        }
    }
}

impl fmt::Display for F2LeftInverse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            F2LeftInverse::Layout(l) => l.fmt(f),
            F2LeftInverse::F2(l) => l.fmt(f),
        }
    }
}

/// `v` (standing for the index `idx`) reduced by a basis of `(value, index)` pairs keyed by the
/// value's leading bit: the basis pair of each leading bit XORed out in turn. Gives what is left
/// (0 where `v` is in the span) and the index XORed along.
fn reduce(basis: &[Option<(u128, u64)>; 128], mut v: u128, mut idx: u64) -> (u128, u64) {
    while v != 0 {
        match basis[127 - v.leading_zeros() as usize] {
            Some((bv, bi)) => {
                v ^= bv;
                idx ^= bi;
            }
            None => break,
        }
    }
    (v, idx)
}

/// The search of [`Layout::<F2>::right_inverse`] for an F2 layout with an extent that is no
/// power of two: prefixes `R` of `P` points (`R(i)` for `i < P`, all lawful), extended mode by
/// mode.
struct RightInverseSearch<'a> {
    layout: &'a Layout<F2>,
    /// `L(x)` for each index `x` of the domain (`NOT_AN_INDEX` where it is none).
    values: &'a [u64],
    /// The preimages of `t`: `pre[start[t]..start[t + 1]]`.
    start: &'a [usize],
    pre: &'a [u64],
    /// The first integer that is no value: no right inverse is larger.
    bound: usize,
    /// Whether every `t < bound` has one preimage: then a prefix of `P` points is the same
    /// function whichever way it was reached, and each `P` is explored once.
    unique: bool,
    explored: Vec<bool>,
    checks: i64,
    /// The largest size found, and its modes (`None`: the chain's).
    best: (usize, Option<Vec<(i64, F2)>>),
}

impl RightInverseSearch<'_> {
    /// Extends the prefix `r` (its modes `modes`) by every lawful next mode, recursively.
    fn extend(&mut self, r: &mut Vec<u64>, modes: &mut Vec<(i64, F2)>) -> Result<(), LayoutError> {
        let p = r.len();
        if p > self.best.0 {
            self.best = (p, Some(modes.clone()));
        }
        if self.best.0 >= self.bound || p >= self.bound {
            return Ok(());
        }
        if self.unique {
            if self.explored[p] {
                return Ok(());
            }
            self.explored[p] = true;
        }
        let n = self.values.len() as u128;
        for k in self.start[p]..self.start[p + 1] {
            let d = self.pre[k];
            // The largest extent whose every column c keeps the law: R(j + p c) = R(j) ^
            // clmul(d, c) must be an index with that value.
            let mut top = 1usize;
            while p * (top + 1) <= self.bound {
                let col = clmul(d, top as u64);
                self.checks += p as i64;
                if self.checks > MAX_F2_SEARCH {
                    return Err(LayoutError::TooLarge {
                        op: "right_inverse",
                        what: alloc::format!(
                            "the search for the largest right inverse of {} checks more points",
                            self.layout
                        ),
                        limit: MAX_F2_SEARCH,
                    });
                }
                let lawful = (0..p).all(|j| {
                    let x = u128::from(r[j]) ^ col;
                    x < n && self.values[x as usize] == (j + p * top) as u64
                });
                if !lawful {
                    break;
                }
                top += 1;
            }
            for e in (2..=top).rev() {
                for c in 1..e {
                    // Below the domain's size (checked above), so in u64.
                    let col = clmul(d, c as u64) as u64;
                    for j in 0..p {
                        r.push(r[j] ^ col);
                    }
                }
                modes.push((e as i64, F2(d)));
                self.extend(r, modes)?;
                modes.pop();
                r.truncate(p);
                if self.best.0 >= self.bound {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// NVlabs PyCuTe's `F2` stride scalar: a bit pattern whose sum is XOR and whose product with a
/// coordinate is carry-less. Printed `F2(v)` (PyCuTe's constructor), `0` for zero.
///
/// # Laws
/// * `a.xor(a) == F2::ZERO`; `a.xor(F2::ZERO) == a`; XOR is associative and commutative.
/// * `a.times(c)` is the carry-less product; `a.times(2^k) == a << k`; it distributes over XOR.
///
/// # Examples
/// ```
/// # use cute_layout::F2;
/// assert_eq!(F2::new(0b1010).xor(F2::new(0b1100)), F2::new(0b0110));
/// assert_eq!(F2::new(5).times(3), Some(F2::new(15)));
/// assert_eq!(F2::new(3).times(3), Some(F2::new(5))); // 3 ^ 6
/// assert_eq!(F2::new(9).to_string(), "F2(9)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct F2(u64);

/// The carry-less product of `a` and `b` (exact: at most 127 bits).
pub(crate) fn clmul(a: u64, b: u64) -> u128 {
    let (mut r, mut a, mut b) = (0u128, u128::from(a), b);
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        a <<= 1;
        b >>= 1;
    }
    r
}

impl F2 {
    /// The zero stride.
    pub const ZERO: F2 = F2(0);

    /// The F2 value with bit pattern `v`.
    pub const fn new(v: u64) -> Self {
        F2(v)
    }

    /// The bit pattern.
    pub const fn value(self) -> u64 {
        self.0
    }

    /// The F2 sum: bitwise XOR.
    pub const fn xor(self, other: F2) -> F2 {
        F2(self.0 ^ other.0)
    }

    /// The carry-less product with the integer (bit pattern) `k`; `None` past 64 bits.
    pub fn times(self, k: u64) -> Option<F2> {
        u64::try_from(clmul(self.0, k)).ok().map(F2)
    }
}

impl StrideValue for F2 {
    fn magnitude(&self) -> Option<i64> {
        i64::try_from(self.0).ok()
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            f.write_str("0")
        } else {
            write!(f, "F2({})", self.0)
        }
    }
}

impl fmt::Display for F2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        StrideValue::write(self, f)
    }
}

/// NVlabs PyCuTe's `ScaledBasis(F2(v), (i,))`: the F2 value `v` along top-level coordinate
/// mode `i`, printed `F2(v)@i` (`0` for zero).
///
/// # Examples
/// ```
/// # use cute_layout::{F2Basis, Layout};
/// let l: Layout<F2Basis> = "(8,8):(F2(1)@0,F2(9)@0)".parse()?;
/// assert_eq!(l.to_string(), "(8,8):(F2(1)@0,F2(9)@0)");
/// assert_eq!(l.value(&"(1,1)".parse()?)?.to_string(), "(8)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct F2Basis {
    value: F2,
    axis: ScaledBasis,
}

impl F2Basis {
    /// The F2 value.
    pub fn value(&self) -> F2 {
        self.value
    }

    /// The coordinate mode it steps along (`None` for the zero stride).
    pub fn axis(&self) -> Option<usize> {
        self.axis.path().next()
    }
}

impl StrideValue for F2Basis {
    fn magnitude(&self) -> Option<i64> {
        self.value.magnitude()
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.write(f)?;
        match self.axis() {
            Some(i) if self.value != F2::ZERO => write!(f, "@{i}"),
            _ => Ok(()),
        }
    }
}

impl Parser<'_> {
    /// One F2 stride leaf: `F2(v)` with `v >= 0`, or `0`.
    fn f2(&mut self) -> Result<F2, ParseError> {
        self.skip_ws();
        let start = self.pos;
        if self.s[self.pos..].starts_with(b"F2") {
            self.pos += 2;
            self.eat(b'(', "'(' after F2")?;
            let at = {
                self.skip_ws();
                self.pos
            };
            let v = self.int()?;
            self.eat(b')', "')'")?;
            return u64::try_from(v).map(F2).map_err(|_| ParseError {
                offset: at,
                kind: ParseErrorKind::Invalid(LayoutError::InvalidArgument {
                    op: "parse",
                    what: alloc::format!(
                        "F2({v}): an F2 stride is a bit pattern, so it is not negative"
                    ),
                }),
            });
        }
        let v = self.int()?;
        if v != 0 {
            return Err(ParseError {
                offset: start,
                kind: ParseErrorKind::Invalid(LayoutError::InvalidArgument {
                    op: "parse",
                    what: alloc::format!(
                        "the plain stride {v} beside F2 strides: XOR and integer addition do not mix (only 0 is both)"
                    ),
                }),
            });
        }
        Ok(F2::ZERO)
    }
}

impl Parser<'_> {
    /// One F2 basis leaf: `F2(v)@i` or `0`.
    fn f2_basis(&mut self) -> Result<F2Basis, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let value = self.f2()?;
        let mut path: Leaves<usize> = Leaves::new();
        while self.peek() == Some(b'@') {
            self.pos += 1;
            let i = self.int()?;
            path.push(usize::try_from(i).map_err(|_| self.error("a mode index >= 0"))?);
        }
        path.reverse();
        let bad = |what: alloc::string::String| ParseError {
            offset: start,
            kind: ParseErrorKind::Invalid(LayoutError::InvalidArgument { op: "parse", what }),
        };
        if path.len() > 1 {
            return Err(bad(alloc::format!(
                "{value}: an F2 basis stride steps along a top-level coordinate mode (one @ index)"
            )));
        }
        if path.is_empty() && value != F2::ZERO {
            return Err(bad(alloc::format!(
                "{value} beside F2 basis strides: every nonzero stride steps along a coordinate mode"
            )));
        }
        // The zero stride is one value whatever mode it names (`F2(0)@1` prints as `0`).
        if value == F2::ZERO {
            path.clear();
        }
        let axis = ScaledBasis::new(1, &path).map_err(|e| ParseError {
            offset: start,
            kind: ParseErrorKind::Invalid(e),
        })?;
        Ok(F2Basis { value, axis })
    }
}

impl FromStr for Layout<F2Basis> {
    type Err = ParseError;
    /// Parse `shape:stride` with F2 basis strides, e.g. `(8,8):(F2(1)@0,F2(1)@1)`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        crate::basis::scaled_basis::parse_layout_with(s, "F2 basis", |p| p.f2_basis())
    }
}

impl FromStr for Layout<F2> {
    type Err = ParseError;
    /// Parse `shape:stride` with F2 strides, e.g. `(4,8):(F2(1),F2(8))` or `(4,8):(F2(1),0)`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        crate::basis::scaled_basis::parse_layout_with(s, "F2", |p| p.f2())
    }
}

/// Whether an F2 text names a layout with F2 strides (it holds `F2(`): how front ends pick the
/// parser.
pub fn is_f2_text(s: &str) -> bool {
    s.contains("F2(")
}

fn to_i64(op: &'static str, v: u128) -> Result<i64, LayoutError> {
    i64::try_from(v).map_err(|_| LayoutError::overflow(op))
}

fn pow2(s: i64) -> bool {
    s > 0 && (s & (s - 1)) == 0
}

fn log2(s: i64) -> u32 {
    63 - s.leading_zeros()
}

/// A flat F2 layout of `modes` (`1:0` for none, an integer shape for one).
fn flat(op: &'static str, modes: &[(i64, F2)]) -> Result<Layout<F2>, LayoutError> {
    let mut toks = Toks::new();
    let mut shape = Leaves::new();
    let mut stride = Leaves::new();
    if modes.len() != 1 {
        toks.push(Tok::Open);
    }
    for &(s, d) in modes {
        toks.push(Tok::Leaf);
        shape.push(s);
        stride.push(d);
    }
    if modes.is_empty() {
        toks = Toks::from_slice(&[Tok::Leaf]);
        shape.push(1);
        stride.push(F2::ZERO);
    } else if modes.len() != 1 {
        toks.push(Tok::Close);
    }
    Layout::checked(op, toks, shape, stride)
}

/// PyCuTe's merge test for `s_a:d_a` followed by `d_b`: `s_a * d_a == d_b` and
/// `(s_a - 1) * d_a + d_b == (2 s_a - 1) * d_a` (carry-less), which holds exactly where the
/// merged mode has the same values (`s_a` a power of two, or both strides 0).
fn merges(sa: i64, da: F2, db: F2) -> bool {
    let (sa, d) = (sa as u64, da.0);
    clmul(d, sa) == u128::from(db.0)
        && (clmul(d, sa - 1) ^ u128::from(db.0)) == clmul(d, 2 * sa - 1)
}

impl Layout<F2> {
    /// The F2 layout with the shape of `l` and all strides 0 (the zero layout every stride kind
    /// shares; PyCuTe's universal additive identity `Layout(n, 0)`).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if a stride of `l` is not 0.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let z = Layout::<F2>::from_zero_layout(&"(4,2):(0,0)".parse()?)?;
    /// assert_eq!(z.to_string(), "(4,2):(0,0)");
    /// assert!(Layout::<F2>::from_zero_layout(&"4:1".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_zero_layout(l: &Layout) -> Result<Self, LayoutError> {
        if l.stride_leaves().iter().any(|&d| d != 0) {
            return Err(LayoutError::InvalidArgument {
                op: "f2",
                what: alloc::format!(
                    "{l} has a nonzero integer stride: XOR and integer addition do not mix"
                ),
            });
        }
        let stride = l.stride_leaves().iter().map(|_| F2::ZERO).collect();
        Layout::checked("f2", l.toks.clone(), l.shape.clone(), stride)
    }

    fn xor_of(&self, op: &'static str, c: &[i64]) -> Result<i64, LayoutError> {
        let mut acc = 0u128;
        for (&ck, d) in c.iter().zip(self.stride.iter()) {
            let ck = u64::try_from(ck).map_err(|_| LayoutError::InvalidArgument {
                op,
                what: alloc::format!(
                    "coordinate {ck}: F2 strides act through a coordinate's bits, and a negative one has no finite bits"
                ),
            })?;
            acc ^= clmul(d.0, ck);
        }
        to_i64(op, acc)
    }

    /// The value at a 1-D, R-D or natural coordinate: the XOR over the leaves of the carry-less
    /// product of each leaf's coordinate and stride.
    ///
    /// # Laws
    /// * `value(c) == XOR_k clmul(d_k, c_k)` for the natural coordinate `c` of the input.
    /// * `value(a) ^ value(b) == value(a ^ b)` leaf by leaf (linear over GF(2)).
    ///
    /// # Errors
    /// As [`IntTuple::idx2crd`]; [`LayoutError::InvalidArgument`] for a negative coordinate;
    /// [`LayoutError::Overflow`] past `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(2,2):(F2(10),F2(12))".parse()?;
    /// assert_eq!(l.value(&"(1,1)".parse()?)?, 6); // F2(10) + F2(12)
    /// assert_eq!(l.value(&"3".parse()?)?, 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(&self, coord: &IntTuple) -> Result<i64, LayoutError> {
        let natural = self.shape().idx2crd(coord)?;
        self.xor_of("crd2idx", &natural.leaves)
    }

    /// PyCuTe's bound on the codomain of an F2 layout: the smallest power of two above every
    /// mode's largest contribution `clmul(d, s - 1)` (XOR cancels bits, so the values are
    /// bounded by their bit span, not by a sum); 1 when every stride is 0.
    ///
    /// # Laws
    /// * `0 <= L(i) < cosize` for every `i < size`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] past `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// assert_eq!("4:F2(3)".parse::<Layout<F2>>()?.cosize()?, 8); // reaches 6
    /// assert_eq!("(8,8):(F2(1),F2(9))".parse::<Layout<F2>>()?.cosize()?, 64);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cosize(&self) -> Result<i64, LayoutError> {
        let bits = self
            .stride
            .iter()
            .zip(self.shape.iter())
            .map(|(d, &s)| 128 - clmul(d.0, (s - 1) as u64).leading_zeros())
            .max()
            .unwrap_or(0);
        1i64.checked_shl(bits)
            .filter(|&v| v > 0)
            .ok_or_else(|| LayoutError::overflow("cosize"))
    }

    /// The 1-D function on the domain: `Some(L(i))` for `0 <= i < size`, else `None` (and `None`
    /// past `i64`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "8:F2(3)".parse()?;
    /// let v: Vec<i64> = (0..8).filter_map(|i| l.index_1d(i)).collect();
    /// assert_eq!(v, [0, 3, 6, 5, 12, 15, 10, 9]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index_1d(&self, i: i64) -> Option<i64> {
        if i < 0 || i >= self.size() {
            return None;
        }
        self.index_any(i).ok()
    }

    /// The 1-D function at any index `i >= 0`: past the end the last mode's coordinate runs on
    /// (as [`Layout::index_any`] for integer strides).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for `i < 0` (PyCuTe refuses a negative F2 factor);
    /// [`LayoutError::Overflow`] past `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(4,2):(F2(1),F2(4))".parse()?;
    /// assert_eq!(l.index_any(9)?, 9); // (1, 2): the last mode runs on, 1 ^ 4*2
    /// assert!(l.index_any(-1).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index_any(&self, i: i64) -> Result<i64, LayoutError> {
        if i < 0 {
            return self.xor_of("crd2idx", &[i]);
        }
        let mut c: Leaves<i64> = Leaves::new();
        let mut rest = i;
        let n = self.shape.len();
        for (k, &s) in self.shape.iter().enumerate() {
            if k + 1 == n {
                c.push(rest);
            } else {
                c.push(rest % s);
                rest /= s;
            }
        }
        self.xor_of("crd2idx", &c)
    }

    /// The values at `0..size`, or [`LayoutError::TooLarge`] past `limit` points.
    pub(crate) fn values(&self, op: &'static str, limit: i64) -> Result<Vec<i64>, LayoutError> {
        let n = self.size();
        if n > limit {
            return Err(LayoutError::TooLarge {
                op,
                what: alloc::format!("{self} has {n} points to enumerate"),
                limit,
            });
        }
        (0..n)
            .map(|i| self.index_any(i))
            .collect::<Result<Vec<_>, _>>()
    }

    fn merged_modes(&self) -> Vec<(i64, F2)> {
        let mut out: Vec<(i64, F2)> = Vec::new();
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            while out.last().is_some_and(|m| m.0 == 1) {
                out.pop();
            }
            if let Some(last) = out.last_mut() {
                if merges(last.0, last.1, d) {
                    // A product of extents of a valid layout: it fits.
                    last.0 *= s;
                    continue;
                }
            }
            out.push((s, d));
        }
        out
    }

    /// PyCuTe's `coalesce_z` of an F2 layout: walk the leaves; before each one drop the extent-1
    /// modes at the end; merge leaf `s_b:d_b` into the last mode `s_a:d_a` when
    /// `clmul(d_a, s_a) == d_b` and `clmul(d_a, s_a - 1) ^ d_b == clmul(d_a, 2 s_a - 1)`
    /// (exactly: `s_a` is a power of two, or both strides are 0), else append it.
    ///
    /// # Laws
    /// * `R.index_any(i) == self.index_any(i)` for every `i >= 0`; same size; depth <= 1;
    ///   idempotent.
    ///
    /// # Errors
    /// None in practice (the result's checks are those its input passed).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(2,2,3,1):(F2(1),F2(2),F2(4),F2(7))".parse()?;
    /// assert_eq!(l.coalesce_z()?.to_string(), "(12,1):(F2(1),F2(7))");
    /// let l: Layout<F2> = "(3,2):(F2(1),F2(3))".parse()?;
    /// assert_eq!(l.coalesce_z()?.to_string(), "(3,2):(F2(1),F2(3))"); // 3 is no power of two
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce_z(&self) -> Result<Layout<F2>, LayoutError> {
        flat("coalesce_z", &self.merged_modes())
    }

    /// PyCuTe's (and CuTe's) `coalesce` of an F2 layout: [`Layout::<F2>::coalesce_z`], then an
    /// extent-1 last mode dropped; `1:0` if nothing is left.
    ///
    /// # Laws
    /// * `R.index_1d(i) == self.index_1d(i)` for `0 <= i < size`; same size; depth <= 1.
    ///
    /// # Errors
    /// None in practice.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(2,2,2,2):(F2(1),F2(2),F2(4),F2(8))".parse()?;
    /// assert_eq!(l.coalesce()?.to_string(), "16:F2(1)");
    /// let l: Layout<F2> = "(4,4):(F2(3),F2(12))".parse()?;
    /// assert_eq!(l.coalesce()?.to_string(), "16:F2(3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce(&self) -> Result<Layout<F2>, LayoutError> {
        let mut modes = self.merged_modes();
        while modes.last().is_some_and(|m| m.0 == 1) {
            modes.pop();
        }
        flat("coalesce", &modes)
    }

    /// The largest right inverse of an F2 layout: `R` with `L(R(i)) == i` for every
    /// `i < size(R)`, where `R` is an F2 layout whose value is an index of `L`'s domain (F2
    /// strides: the indices' bit fields are XORed), and no F2 layout obeying that law is larger.
    ///
    /// Definition: PyCuTe's chain where it is the largest, else the largest found as follows.
    /// The chain follows the strides in increasing order from `n = 1`: a leaf `s:d` continues
    /// it when `n` is a power of two, `d = n ^ r` with `r < n` (the carried component lies in
    /// what the covered modes span), `clmul(r, c) < n` for every `c < s` (it does not leak out
    /// of the covered range) and the leaf's position in the domain is a power of two; then
    /// `n *= s`.
    /// * Every extent a power of two: `L` is linear in the bits of the index (column `j` is
    ///   `L(2^j)`), and `R` takes the largest `k` with `1, 2, ..., 2^(k-1)` in the span of the
    ///   columns, mapping bit `t` of `i` to an index `x_t` with `L(x_t) = 2^t`
    ///   (`R = (2,...,2):(F2(x_0),...)`, coalesced). A linear `L`'s values are a subspace: if
    ///   `2^k` is not one, no index past `2^k - 1` has a preimage, so no right inverse is larger.
    /// * Otherwise (unless the chain already covers the whole domain): a search over the
    ///   domain's values (at most [`MAX_F2_POINTS`] points). A flat F2 layout `R` of modes
    ///   `s_k:d_k` (extents >= 2) obeys the law exactly when each `d_k` is an index with
    ///   `L(d_k) = P_k` (`P_k` the product of the extents before it) and every point checks; the
    ///   search extends such prefixes mode by mode (each preimage of `P_k`, each extent that
    ///   keeps the law), remembering the sizes already explored where every value has one
    ///   preimage, and stops at the bound `n`, the first integer that is no value of `L`.
    ///   It checks at most [`MAX_F2_SEARCH`] points.
    ///
    /// The result is coalesced; `1:0` when no index maps to 1.
    ///
    /// # Laws
    /// * `L.index_any(R(i)) == i` and `0 <= R(i) < size(L)` for `0 <= i < size(R)`.
    /// * No F2 layout obeying that law has a larger size.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] where an extent is no power of two, the chain falls short of
    /// the domain, and the domain has more than [`MAX_F2_POINTS`] points or the search more
    /// than [`MAX_F2_SEARCH`] point checks; [`LayoutError::Overflow`] where the largest right
    /// inverse's strides leave the layout invariant (their sum times the extents past `i64`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(8,8):(F2(9),F2(1))".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "(8,8):(F2(8),F2(9))");
    /// let l: Layout<F2> = "(8,8):(F2(1),F2(13))".parse()?; // the chain stops at 8
    /// assert_eq!(l.right_inverse()?.to_string(), "(8,2,2,2):(F2(1),F2(13),F2(31),F2(59))");
    /// let l: Layout<F2> = "(4,2):(F2(2),F2(3))".parse()?; // a permutation of [0, 8)
    /// assert_eq!(l.right_inverse()?.to_string(), "(2,4):(F2(5),F2(1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn right_inverse(&self) -> Result<Layout<F2>, LayoutError> {
        let chain = self.chain_right_inverse();
        if self.is_f2_linear() {
            return self.linear_right_inverse(chain);
        }
        if chain.size() == self.size() {
            // No right inverse is larger than the domain.
            return Ok(chain);
        }
        self.searched_right_inverse(chain)
    }

    /// The value at the index `i` (past the size the last leaf's coordinate runs on), exact in
    /// `u128` (a carry-less product of two 64-bit numbers has at most 127 bits).
    fn value_wide(&self, i: u64) -> u128 {
        let n = self.shape.len();
        let mut rest = i;
        let mut acc = 0u128;
        for (k, (&s, d)) in self.shape.iter().zip(self.stride.iter()).enumerate() {
            let c = if k + 1 == n {
                rest
            } else {
                let s = s.unsigned_abs();
                let c = rest % s;
                rest /= s;
                c
            };
            acc ^= clmul(d.0, c);
        }
        acc
    }

    /// The columns `L(2^j)` of a layout whose extents are powers of two, reduced to a basis by
    /// leading bit: `(value, index with that value)`; a column that reduces to 0 gives a
    /// nonzero index that `L` maps to 0.
    fn column_basis(&self) -> ([Option<(u128, u64)>; 128], Option<u64>) {
        let mut basis: [Option<(u128, u64)>; 128] = [None; 128];
        let mut kernel = None;
        for j in 0..log2(self.size()) {
            let x = 1u64 << j;
            let (v, idx) = reduce(&basis, self.value_wide(x), x);
            if v == 0 {
                kernel.get_or_insert(idx);
            } else {
                basis[127 - v.leading_zeros() as usize] = Some((v, idx));
            }
        }
        (basis, kernel)
    }

    /// [`Layout::<F2>::right_inverse`] where every extent is a power of two: the chain, or the
    /// larger linear one.
    fn linear_right_inverse(&self, chain: Layout<F2>) -> Result<Layout<F2>, LayoutError> {
        let (basis, _) = self.column_basis();
        let solve = |t: u128| -> Option<u64> {
            let (v, idx) = reduce(&basis, t, 0);
            (v == 0).then_some(idx)
        };
        let modes: Vec<(i64, F2)> = (0..log2(self.size()))
            .map_while(|t| solve(1u128 << t).map(|x| (2, F2(x))))
            .collect();
        if chain.size() >= 1i64 << modes.len() {
            return Ok(chain);
        }
        flat("right_inverse", &modes)?.coalesce()
    }

    /// The values at `0..size` for the inverses' searches, each as an index when it is below
    /// the size (the only values those searches look up) and `NOT_AN_INDEX` otherwise;
    /// [`LayoutError::TooLarge`] past [`MAX_F2_POINTS`] points.
    fn index_values(&self, op: &'static str) -> Result<Vec<u64>, LayoutError> {
        let n = self.size();
        if n > MAX_F2_POINTS {
            return Err(LayoutError::TooLarge {
                op,
                what: alloc::format!("{self} has {n} points to enumerate"),
                limit: MAX_F2_POINTS,
            });
        }
        let n = n.unsigned_abs();
        Ok((0..n)
            .map(|i| {
                let v = self.value_wide(i);
                if v < u128::from(n) {
                    v as u64
                } else {
                    NOT_AN_INDEX
                }
            })
            .collect())
    }

    /// [`Layout::<F2>::right_inverse`] by search (see there), from the chain's answer.
    fn searched_right_inverse(&self, chain: Layout<F2>) -> Result<Layout<F2>, LayoutError> {
        const OP: &str = "right_inverse";
        let values = self.index_values(OP)?;
        let n = values.len();
        // The preimages of each index t < n: pre[start[t]..start[t + 1]], ascending.
        let mut start = alloc::vec![0usize; n + 1];
        for &v in &values {
            if v != NOT_AN_INDEX {
                start[v as usize + 1] += 1;
            }
        }
        for t in 0..n {
            start[t + 1] += start[t];
        }
        let mut fill = start.clone();
        let mut pre = alloc::vec![0u64; start[n]];
        for (i, &v) in values.iter().enumerate() {
            if v != NOT_AN_INDEX {
                pre[fill[v as usize]] = i as u64;
                fill[v as usize] += 1;
            }
        }
        let bound = (0..n).find(|&t| start[t] == start[t + 1]).unwrap_or(n);
        if chain.size().unsigned_abs() as usize >= bound {
            return Ok(chain);
        }
        let mut search = RightInverseSearch {
            layout: self,
            values: &values,
            start: &start,
            pre: &pre,
            bound,
            unique: (0..bound).all(|t| start[t + 1] - start[t] == 1),
            explored: alloc::vec![false; bound + 1],
            checks: 0,
            best: (chain.size().unsigned_abs() as usize, None),
        };
        let mut r = alloc::vec![0u64];
        search.extend(&mut r, &mut Vec::new())?;
        match search.best.1 {
            Some(modes) => flat(OP, &modes)?.coalesce(),
            None => Ok(chain),
        }
    }
    /// PyCuTe's chain right inverse (see [`Layout::<F2>::right_inverse`]).
    fn chain_right_inverse(&self) -> Layout<F2> {
        // Each leaf: (stride, extent, position in the domain).
        let mut pos = 1i64;
        let mut leaves: Vec<(u64, i64, Option<i64>)> = Vec::new();
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            leaves.push((d.0, s, pow2(pos).then_some(pos)));
            pos = pos.saturating_mul(s);
        }
        leaves.retain(|l| l.1 > 1 && l.0 != 0);
        leaves.sort_by_key(|l| l.0);
        let mut used = alloc::vec![false; leaves.len()];
        // The inverse built so far, as (extent, stride) modes of power-of-two extents while
        // n is a power of two.
        let mut modes: Vec<(i64, F2)> = Vec::new();
        let mut n: u64 = 1;
        loop {
            if !n.is_power_of_two() {
                break;
            }
            let Some(k) = (0..leaves.len()).find(|&k| !used[k] && (leaves[k].0 ^ n) < n) else {
                break;
            };
            let (d, s, p) = leaves[k];
            let Some(p) = p else { break };
            let r = d ^ n;
            let (top, pu) = ((s - 1) as u64, p as u64);
            // The leak test over the whole extent: the carry-less product's leading bit is the
            // sum of its factors' leading bits, so clmul(r, c) < n for every c < s exactly
            // when it holds at c = s - 1.
            if clmul(r, top) >= u128::from(n) {
                break;
            }
            // Inverse of the covered part at a value v < n (a GF(2)-linear map: the covered
            // extents are powers of two).
            let inv = |v: u64| -> u64 {
                let mut acc = 0u64;
                let mut rest = v;
                for &(e, f) in &modes {
                    let digit = rest % e as u64;
                    rest /= e as u64;
                    acc ^= u64::try_from(clmul(f.0, digit)).unwrap_or(u64::MAX);
                }
                acc
            };
            let shift_ok = (0..64 - top.leading_zeros())
                .all(|j| (r << j) < n && inv(r << j) == inv(r).checked_shl(j).unwrap_or(u64::MAX));
            let Some(next) = n.checked_mul(s as u64) else {
                break;
            };
            if r == 0 || shift_ok {
                let f = pu ^ inv(r);
                modes.push((s, F2(f)));
            } else if pow2(s) {
                let bits: Vec<u64> = (0..log2(s)).map(|j| (pu << j) ^ inv(r << j)).collect();
                modes.extend(bits.into_iter().map(|f| (2, F2(f))));
            } else {
                break;
            }
            used[k] = true;
            n = next;
        }
        let merged = {
            let l = flat("right_inverse", &modes);
            l.and_then(|l| l.coalesce())
        };
        // The modes are a chain of the input's extents with strides below its size: valid.
        merged.unwrap_or_else(|_| Layout {
            toks: Toks::from_slice(&[Tok::Leaf]),
            shape: Leaves::from_slice(&[1]),
            stride: Leaves::from_slice(&[F2::ZERO]),
        })
    }

    /// A left inverse of an injective F2 layout: `R` with `R(L(i)) == i` for every `i < size`,
    /// each `L(i)` inside `R`'s domain; an integer layout ([`F2LeftInverse::Layout`]) or an F2
    /// layout ([`F2LeftInverse::F2`]).
    ///
    /// Definition: the first of these that exists.
    /// 1. PyCuTe's chain: drop the stride-0 and extent-1 leaves and sort the rest by stride;
    ///    the first stride is 1 and each next stride is the previous one times its extent, a
    ///    power of two. `R` has the sorted extents as its shape and the leaves' domain positions
    ///    as its strides (an integer layout).
    /// 2. Where `L` is, as a function, an integer layout `I` (every leaf's carry-less products
    ///    are its integer products, and no two leaves reach a common bit; then `I` has `L`'s
    ///    shape and strides): CuTe's left inverse of `I` (an integer layout).
    /// 3. Where the map `L(i) -> i` is GF(2)-linear in the bits of the values (Gaussian
    ///    elimination of the pairs `(L(i), i)` finds no combination of values that XORs to 0
    ///    while the indices do not; always so for an injective `L` whose extents are powers of
    ///    two): the F2 layout `(2,...,2):(F2(r_0),...)` over the value bits, `r_b` the index
    ///    that value bit `b` stands for (0 for the free bits), coalesced.
    ///
    /// Every injective F2 layout whose extents are powers of two has one (case 3). With other
    /// extents the three cases are what is searched: a layout that none fits is refused.
    ///
    /// # Laws
    /// * `R.index_1d(L(i)) == i` for `0 <= i < size(L)`.
    ///
    /// # Errors
    /// * [`LayoutError::NotInjectiveF2`] where two indices have the same value (no left inverse
    ///   exists), naming them.
    /// * [`LayoutError::NotRepresentable`] where `L` is injective and none of the three cases
    ///   applies.
    /// * [`LayoutError::TooLarge`] where an extent is no power of two and the domain has more
    ///   than [`MAX_F2_POINTS`] points (injectivity and case 3 enumerate it).
    /// * [`LayoutError::Overflow`] where `R` would leave the layout invariant (values of 62 bits
    ///   or more for case 3).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(4,8):(F2(8),F2(1))".parse()?;
    /// assert_eq!(l.left_inverse()?.to_string(), "(8,4):(4,1)");
    /// assert_eq!("8:F2(2)".parse::<Layout<F2>>()?.left_inverse()?.to_string(), "(2,8):(0,1)");
    /// let sw: Layout<F2> = "(8,8):(F2(1),F2(9))".parse()?;
    /// assert_eq!(sw.left_inverse()?.to_string(), "(8,8):(F2(1),F2(9))");
    /// let e = "(4,2):(F2(1),F2(3))".parse::<Layout<F2>>()?.left_inverse().unwrap_err();
    /// assert_eq!(e.to_string(), "left_inverse: layout (4,2):(F2(1),F2(3)) is not injective: L(0) = L(7) = 0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn left_inverse(&self) -> Result<F2LeftInverse, LayoutError> {
        const OP: &str = "left_inverse";
        if let Some((i, j, value)) = self.collision(OP)? {
            return Err(LayoutError::NotInjectiveF2 {
                op: OP,
                layout: alloc::format!("{self}"),
                witness: Box::new((i, j, value)),
            });
        }
        if let Ok(r) = self.chain_left_inverse() {
            return Ok(F2LeftInverse::Layout(r));
        }
        if let Some(r) = self.integer_form().and_then(|l| l.left_inverse().ok()) {
            return Ok(F2LeftInverse::Layout(r));
        }
        match self.linear_left_inverse(OP)? {
            Some(r) => Ok(F2LeftInverse::F2(r)),
            None => Err(LayoutError::NotRepresentable {
                op: OP,
                what: alloc::format!(
                    "{self} is injective, but neither PyCuTe's chain, nor the integer layout of the same function, nor a GF(2)-linear map of the value bits inverts it"
                ),
            }),
        }
    }

    /// Two indices `i < j` with the same value, and that value: by the columns where every
    /// extent is a power of two (a nonzero index the layout maps to 0, against index 0), else
    /// by enumeration; `None` for an injective layout.
    fn collision(&self, op: &'static str) -> Result<Option<(i64, i64, u128)>, LayoutError> {
        if self.is_f2_linear() {
            return Ok(self.column_basis().1.map(|j| (0, j as i64, 0)));
        }
        let n = self.size();
        if n > MAX_F2_POINTS {
            return Err(LayoutError::TooLarge {
                op,
                what: alloc::format!("{self} has {n} points to enumerate"),
                limit: MAX_F2_POINTS,
            });
        }
        let mut seen: Vec<(u128, u64)> = (0..n.unsigned_abs())
            .map(|i| (self.value_wide(i), i))
            .collect();
        seen.sort_unstable();
        Ok(seen
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| (w[0].1 as i64, w[1].1 as i64, w[0].0)))
    }

    /// The integer layout with the same function, where there is one: every leaf `s:d` has
    /// `clmul(d, c) == d * c` for `c < s` (no two of the shifts `d << j` that a `c < s` combines
    /// overlap: `d & (d << k) == 0` for every `k >= 1` with `1 + 2^k <= s - 1`), and no two
    /// leaves reach a common bit (a leaf reaches the bits of `d << j` for `2^j <= s - 1`). Both
    /// conditions are also necessary, so `None` means no integer layout is this function.
    fn integer_form(&self) -> Option<Layout> {
        let mut taken = 0u128;
        for (&s, d) in self.shape.iter().zip(self.stride.iter()) {
            let (top, d) = ((s - 1).unsigned_abs(), u128::from(d.0));
            if top == 0 || d == 0 {
                continue;
            }
            let width = 64 - top.leading_zeros();
            if (1..width).any(|k| (1u64 << k) < top && d & (d << k) != 0) {
                return None;
            }
            let reach = (0..width).fold(0u128, |acc, j| acc | d << j);
            if reach & taken != 0 {
                return None;
            }
            taken |= reach;
        }
        let stride = self
            .stride
            .iter()
            .map(|d| i64::try_from(d.0).ok())
            .collect::<Option<Leaves<i64>>>()?;
        Layout::checked(
            "left_inverse",
            self.toks.clone(),
            self.shape.clone(),
            stride,
        )
        .ok()
    }

    /// Case 3 of [`Layout::<F2>::left_inverse`]: the GF(2)-linear left inverse over the value
    /// bits, `None` where the pairs `(L(i), i)` are not consistent with one.
    fn linear_left_inverse(&self, op: &'static str) -> Result<Option<Layout<F2>>, LayoutError> {
        // A basis of the pairs by the value's leading bit, then reduced so that no pair holds
        // another's leading bit.
        let mut basis: [Option<(u128, u64)>; 128] = [None; 128];
        let mut add = |v: u128, i: u64| -> bool {
            let (v, idx) = reduce(&basis, v, i);
            if v == 0 {
                return idx == 0;
            }
            basis[127 - v.leading_zeros() as usize] = Some((v, idx));
            true
        };
        let consistent = if self.is_f2_linear() {
            (0..log2(self.size())).all(|j| add(self.value_wide(1 << j), 1 << j))
        } else {
            let n = self.size();
            if n > MAX_F2_POINTS {
                return Err(LayoutError::TooLarge {
                    op,
                    what: alloc::format!("{self} has {n} points to enumerate"),
                    limit: MAX_F2_POINTS,
                });
            }
            (0..n.unsigned_abs()).all(|i| add(self.value_wide(i), i))
        };
        if !consistent {
            return Ok(None);
        }
        for b in 0..128 {
            let Some(mut e) = basis[b] else { continue };
            for lower in (0..b).rev() {
                if e.0 >> lower & 1 == 1 {
                    if let Some(l) = basis[lower] {
                        e = (e.0 ^ l.0, e.1 ^ l.1);
                    }
                }
            }
            basis[b] = Some(e);
        }
        // Value bits: up to the highest bit any value has.
        let width = (0..128)
            .rev()
            .find(|&b| basis[b].is_some())
            .map_or(0, |b| b + 1);
        if width > 62 {
            return Err(LayoutError::overflow(op));
        }
        let modes: Vec<(i64, F2)> = (0..width)
            .map(|b| (2, basis[b].map_or(F2::ZERO, |(_, idx)| F2(idx))))
            .collect();
        flat(op, &modes)?.coalesce().map(Some)
    }

    /// Case 1 of [`Layout::<F2>::left_inverse`], PyCuTe's chain; `NotRepresentable` where a gap
    /// is not 1 or an extent below the top of the chain is no power of two.
    fn chain_left_inverse(&self) -> Result<Layout, LayoutError> {
        let mut pos = 1i64;
        let mut leaves: Vec<(u64, i64, i64)> = Vec::new();
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            if s > 1 && d.0 != 0 {
                leaves.push((d.0, s, pos));
            }
            pos = pos.saturating_mul(s);
        }
        leaves.sort_by_key(|l| l.0);
        let mut want: u64 = 1;
        for (k, &(d, s, _)) in leaves.iter().enumerate() {
            if d != want {
                return Err(LayoutError::NotRepresentable {
                    op: "left_inverse",
                    what: alloc::format!(
                        "{self}: stride F2({d}) leaves a gap after F2({want}); F2's stride quotient is carry-less, so a gap is no extent"
                    ),
                });
            }
            if k + 1 < leaves.len() {
                if !pow2(s) {
                    return Err(LayoutError::NotRepresentable {
                        op: "left_inverse",
                        what: alloc::format!(
                            "{self}: extent {s} below the top of the chain is no power of two, so the F2 and integer digits differ"
                        ),
                    });
                }
                want = d << log2(s);
            }
        }
        let shape: Vec<i64> = leaves.iter().map(|l| l.1).collect();
        let stride: Vec<i64> = leaves.iter().map(|l| l.2).collect();
        if shape.is_empty() {
            return Layout::new(IntTuple::int(1), IntTuple::int(0));
        }
        let l = Layout::new(IntTuple::flat(shape), IntTuple::flat(stride))?;
        Ok(l.coalesce())
    }

    /// Whether every extent is a power of two: then the layout is linear over GF(2) in the bits
    /// of the 1-D index, and [`Layout::<F2>::f2_matrix`] describes it.
    pub fn is_f2_linear(&self) -> bool {
        self.shape.iter().all(|&s| pow2(s))
    }

    /// The layout as a matrix over GF(2): column `j` is the value at index `2^j`, for the
    /// `log2(size)` bits of the index; `L(i)` is the XOR of the columns of `i`'s set bits.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if an extent is not a power of two (the layout is not
    /// linear in the index bits).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(4,4):(F2(1),F2(5))".parse()?;
    /// assert_eq!(l.f2_matrix()?, [1, 2, 5, 10]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn f2_matrix(&self) -> Result<Vec<i64>, LayoutError> {
        if !self.is_f2_linear() {
            return Err(LayoutError::NotRepresentable {
                op: "f2_matrix",
                what: alloc::format!(
                    "{self} has an extent that is no power of two, so it is not linear over GF(2) in the index bits"
                ),
            });
        }
        (0..log2(self.size()))
            .map(|j| self.index_any(1i64 << j))
            .collect()
    }

    /// Whether no two points of the domain share a value: by the rank over GF(2) with
    /// power-of-two extents, else by enumeration (up to [`MAX_F2_POINTS`]).
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past [`MAX_F2_POINTS`] points with an extent that is no power
    /// of two; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// assert!("(8,8):(F2(1),F2(9))".parse::<Layout<F2>>()?.is_injective()?);
    /// assert!(!"(4,4):(F2(1),F2(1))".parse::<Layout<F2>>()?.is_injective()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_injective(&self) -> Result<bool, LayoutError> {
        if self.is_f2_linear() {
            let cols = self.f2_matrix()?;
            return Ok(gf2_rank(&cols) == cols.len());
        }
        let mut v = self.values("injective", MAX_F2_POINTS)?;
        v.sort_unstable();
        Ok(v.windows(2).all(|w| w[0] != w[1]))
    }

    /// Whether the layout is a bijection onto `[0, size)`.
    ///
    /// # Errors
    /// As [`Layout::<F2>::is_injective`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// assert!("(4,(4,3)):(F2(1),(F2(5),F2(16)))".parse::<Layout<F2>>()?.is_bijective()?);
    /// assert!(!"8:F2(3)".parse::<Layout<F2>>()?.is_bijective()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_bijective(&self) -> Result<bool, LayoutError> {
        let n = self.size();
        if self.is_f2_linear() {
            let cols = self.f2_matrix()?;
            return Ok(gf2_rank(&cols) == cols.len() && cols.iter().all(|&c| c < n));
        }
        let mut v = self.values("bijective", MAX_F2_POINTS)?;
        v.sort_unstable();
        Ok(v.iter().enumerate().all(|(i, &x)| x == i as i64))
    }

    /// Whether both layouts have the same size and the same value at every index of it.
    ///
    /// # Errors
    /// As [`Layout::<F2>::is_injective`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let a: Layout<F2> = "(4,4):(F2(3),F2(12))".parse()?;
    /// assert!(a.same_function(&"16:F2(3)".parse()?)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn same_function(&self, other: &Layout<F2>) -> Result<bool, LayoutError> {
        if self.size() != other.size() {
            return Ok(false);
        }
        if self.is_f2_linear() && other.is_f2_linear() {
            return Ok(self.f2_matrix()? == other.f2_matrix()?);
        }
        Ok(self.values("equal", MAX_F2_POINTS)? == other.values("equal", MAX_F2_POINTS)?)
    }

    /// The same function as a swizzle composed with an integer layout, CuTe C++'s form:
    /// `Sw<B,M,S> o 0 o I` with `I` the integer layout of the same shape, where one exists (the
    /// smallest `B`, then `M`, then `S`; `Sw<0,0,0>` when the layout is an integer layout
    /// already, its strides' bit fields disjoint).
    ///
    /// # Laws
    /// * `R.index_1d(i) == self.index_1d(i)` for every `i < size`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] if an extent is not a power of two or no swizzle does.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2, Layout};
    /// let l: Layout<F2> = "(8,8):(F2(1),F2(9))".parse()?;
    /// assert_eq!(l.to_swizzle()?.to_string(), "Sw<3,0,3> o 0 o (8,8):(1,8)");
    /// let l: Layout<F2> = "(4,8):(F2(1),F2(8))".parse()?;
    /// assert_eq!(l.to_swizzle()?.to_string(), "Sw<0,0,0> o 0 o (4,8):(1,8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_swizzle(&self) -> Result<ComposedLayout, LayoutError> {
        let none = || LayoutError::NotRepresentable {
            op: "to_swizzle",
            what: alloc::format!("no swizzle composed with an integer layout is {self}"),
        };
        if !self.is_f2_linear() {
            return Err(none());
        }
        let width = self
            .stride
            .iter()
            .zip(self.shape.iter())
            .map(|(d, &s)| 128 - clmul(d.0, (s - 1) as u64).leading_zeros())
            .max()
            .unwrap_or(0) as i64;
        let try_sw = |sw: &Swizzle| -> Option<Layout> {
            let mut taken = 0u64;
            let mut stride: Leaves<i64> = Leaves::new();
            for (&s, d) in self.shape.iter().zip(self.stride.iter()) {
                let e = sw.apply(i64::try_from(d.0).ok()?);
                for j in 0..log2(s) {
                    let col = sw.apply(i64::try_from(d.0.checked_shl(j)?).ok()?);
                    if col != e.checked_shl(j)? || col < 0 || (taken & col as u64) != 0 {
                        return None;
                    }
                    taken |= col as u64;
                }
                stride.push(if s == 1 { 0 } else { e });
            }
            Layout::checked("to_swizzle", self.toks.clone(), self.shape.clone(), stride).ok()
        };
        if let Some(l) = try_sw(&Swizzle::IDENTITY) {
            return ComposedLayout::new(Swizzle::IDENTITY, 0, l);
        }
        for b in 1..=width {
            for m in 0..=width - b {
                for abs_s in b..=(width - m - b) {
                    for s in [abs_s, -abs_s] {
                        let Ok(sw) = Swizzle::new(b, m, s) else {
                            continue;
                        };
                        if let Some(l) = try_sw(&sw) {
                            return ComposedLayout::new(sw, 0, l);
                        }
                    }
                }
            }
        }
        Err(none())
    }
}

impl Layout<F2Basis> {
    /// The layout of the strides along coordinate mode `axis` (the others 0), as F2 strides.
    fn along(&self, axis: usize) -> Layout<F2> {
        let stride = self
            .stride
            .iter()
            .map(|d| {
                if d.axis() == Some(axis) {
                    d.value
                } else {
                    F2::ZERO
                }
            })
            .collect();
        Layout {
            toks: self.toks.clone(),
            shape: self.shape.clone(),
            stride,
        }
    }

    /// The number of coordinate modes the strides reach (one past the largest mode index).
    fn axes(&self) -> usize {
        self.stride
            .iter()
            .filter(|d| d.value != F2::ZERO)
            .filter_map(|d| d.axis())
            .max()
            .map_or(0, |m| m + 1)
    }

    /// The coordinate at a 1-D, R-D or natural coordinate of the domain: mode `i` of the result
    /// is the XOR over the leaves along `i` of `clmul(d, c)` (a tuple as wide as the largest
    /// mode index used).
    ///
    /// # Errors
    /// As [`Layout::<F2>::value`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2Basis, Layout};
    /// let l: Layout<F2Basis> = "(8,8):(F2(1)@0,F2(1)@1)".parse()?;
    /// assert_eq!(l.value(&"13".parse()?)?.to_string(), "(5,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(&self, coord: &IntTuple) -> Result<IntTuple, LayoutError> {
        let mut modes = Vec::with_capacity(self.axes());
        for k in 0..self.axes() {
            modes.push(IntTuple::int(self.along(k).value(coord)?));
        }
        IntTuple::tuple(modes)
    }

    /// PyCuTe's right inverse of a layout with F2 basis strides: each coordinate mode `k` is
    /// inverted on its own ([`Layout::<F2>::right_inverse`] of the strides along `k`), and `R`
    /// is the tuple of those inverses, `R((x_0, x_1, ...)) = R_0(x_0) ^ R_1(x_1) ^ ...`, an
    /// index of the domain.
    ///
    /// # Laws
    /// * `R(L(R(i))) == R(i)` for every `i < size(R)`, `L(R(i))` a coordinate (PyCuTe's law for a
    ///   coordinate codomain); `rank(R)` is the number of coordinate modes.
    ///
    /// # Errors
    /// [`LayoutError::TooDeep`] or [`LayoutError::Overflow`] as [`Layout::from_modes`]; the errors of
    /// [`Layout::<F2>::right_inverse`] along each mode.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{F2Basis, Layout};
    /// let l: Layout<F2Basis> = "(8,8):(F2(1)@0,F2(1)@1)".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "(8,8):(F2(1),F2(8))");
    /// let l: Layout<F2Basis> = "4:F2(1)@0".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "(4):(F2(1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn right_inverse(&self) -> Result<Layout<F2>, LayoutError> {
        let modes = (0..self.axes())
            .map(|k| self.along(k).right_inverse())
            .collect::<Result<Vec<_>, _>>()?;
        Layout::from_modes(modes)
    }
}

/// The rank over GF(2) of the columns (bit patterns).
fn gf2_rank(cols: &[i64]) -> usize {
    let mut basis: Vec<i64> = Vec::new();
    for &c in cols {
        let mut v = c;
        for &b in &basis {
            v = v.min(v ^ b);
        }
        if v != 0 {
            basis.push(v);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    basis.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use proptest::prelude::*;

    fn f2(s: &str) -> Layout<F2> {
        s.parse().unwrap()
    }

    /// Every F2 layout of shapes up to rank 2 with extents 1..=8 and strides 0..32.
    fn small() -> impl Iterator<Item = Layout<F2>> {
        let mut out = Vec::new();
        for s0 in 1..=8i64 {
            for s1 in [1i64, 2, 3, 4] {
                for d0 in [0u64, 1, 2, 3, 5, 8, 9] {
                    for d1 in [0u64, 1, 4, 5, 8, 9, 12, 13, 16] {
                        let t = alloc::format!("({s0},{s1}):(F2({d0}),F2({d1}))");
                        out.push(f2(&t));
                    }
                }
            }
        }
        out.into_iter()
    }

    fn vals(l: &Layout<F2>) -> Vec<i64> {
        (0..l.size()).map(|i| l.index_any(i).unwrap()).collect()
    }

    #[test]
    fn text_round_trip_and_refusals() {
        for t in [
            "(4,8):(F2(1),F2(8))",
            "8:F2(3)",
            "(4,8):(F2(1),0)",
            "((2,2),3):((F2(1),F2(2)),F2(4))",
        ] {
            assert_eq!(f2(t).to_string(), t);
        }
        assert_eq!(f2("(2,2):(F2(0),0)").to_string(), "(2,2):(0,0)");
        assert!("8:1".parse::<Layout<F2>>().is_err());
        assert!("8:F2(-1)".parse::<Layout<F2>>().is_err());
        assert!("(2,2):F2(1)".parse::<Layout<F2>>().is_err());
        assert!("F2(5)".parse::<IntTuple>().is_err());
        assert_eq!(
            f2("8:F2(1)").index_any(-1).unwrap_err().kind(),
            "InvalidArgument"
        );
    }

    #[test]
    fn evaluation_is_xor_of_carry_less_products() {
        let l = f2("(4,8):(F2(1),F2(8))");
        for c0 in 0..4 {
            for c1 in 0..8 {
                let c: IntTuple = alloc::format!("({c0},{c1})").parse().unwrap();
                assert_eq!(l.value(&c).unwrap(), c0 ^ (8 * c1));
            }
        }
        assert_eq!(f2("(2,2):(F2(10),F2(12))").index_any(3).unwrap(), 6);
        assert_eq!(f2("(2,2):(F2(7),F2(7))").index_any(3).unwrap(), 0);
        assert_eq!(f2("2:F2(5)").index_any(1).unwrap() * 3, 15);
        assert_eq!(f2("4:F2(5)").index_any(3).unwrap(), 15); // clmul(5, 3)
        assert_eq!(f2("8:F2(13)").index_any(4).unwrap(), 0b110100);
    }

    #[test]
    fn coalesce_laws_on_the_small_domain() {
        for l in small() {
            let (c, z) = (l.coalesce().unwrap(), l.coalesce_z().unwrap());
            assert_eq!(vals(&c), vals(&l), "{l} -> {c}");
            assert_eq!(c.size(), l.size());
            assert!(c.depth() <= 1 && z.depth() <= 1);
            for i in 0..l.size() + 10 {
                assert_eq!(
                    z.index_any(i).unwrap(),
                    l.index_any(i).unwrap(),
                    "{l} -> {z} at {i}"
                );
            }
            assert_eq!(z.coalesce_z().unwrap(), z);
        }
    }

    /// The largest `n` with every `i < n` a value of `l` (no right inverse is larger).
    fn prefix_bound(l: &Layout<F2>) -> i64 {
        let mut seen: Vec<i64> = vals(l);
        seen.sort_unstable();
        seen.dedup();
        seen.iter()
            .enumerate()
            .take_while(|&(k, &v)| v == k as i64)
            .count() as i64
    }

    /// Seeded random F2 layouts (1 to 3 modes, extents 1..=8, strides below 64) against a
    /// brute-force bound: every right inverse is lawful, and where every extent is a power of
    /// two its size is the largest prefix of values (the largest any right inverse can have).
    #[test]
    fn right_inverse_is_the_largest_against_brute_force() {
        let mut state = 0x5eed_0034_u64;
        let mut next = move |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let (mut linear, mut shorter, mut total) = (0, 0, 0);
        for _ in 0..4000 {
            let n = 1 + next(3) as usize;
            let s: Vec<alloc::string::String> = (0..n).map(|_| (1 + next(8)).to_string()).collect();
            let d: Vec<alloc::string::String> =
                (0..n).map(|_| alloc::format!("F2({})", next(64))).collect();
            let l = f2(&alloc::format!("({}):({})", s.join(","), d.join(",")));
            let r = l.right_inverse().unwrap();
            for i in 0..r.size() {
                let j = r.index_any(i).unwrap();
                assert!(j >= 0 && j < l.size(), "{l}: R({i}) = {j}");
                assert_eq!(l.index_any(j).unwrap(), i, "{l} with R = {r} at {i}");
            }
            let bound = prefix_bound(&l);
            assert!(r.size() <= bound, "{l}: {r} past {bound}");
            total += 1;
            if l.is_f2_linear() {
                linear += 1;
                assert_eq!(
                    r.size(),
                    bound,
                    "{l}: {r}, but {bound} values form a prefix"
                );
            } else if r.size() < bound {
                shorter += 1;
            }
        }
        assert!(linear > 1000, "{linear} of {total} linear");
        // Non-power-of-two extents: the chain, below the bound for some layouts.
        assert!(shorter < total, "{shorter}");
        for (l, want) in [
            (
                "(8,8):(F2(1),F2(13))",
                "(8,2,2,2):(F2(1),F2(13),F2(31),F2(59))",
            ),
            ("(4,2):(F2(2),F2(3))", "(2,4):(F2(5),F2(1))"),
            ("(4,2):(F2(2),F2(5))", "(2,4):(F2(6),F2(1))"),
        ] {
            assert_eq!(f2(l).right_inverse().unwrap().to_string(), want, "{l}");
        }
    }

    #[test]
    fn right_inverse_laws_on_the_small_domain() {
        for l in small() {
            let r = l.right_inverse().unwrap();
            for i in 0..r.size() {
                let j = r.index_any(i).unwrap();
                assert!(j >= 0 && j < l.size(), "{l}: R({i}) = {j}");
                assert_eq!(l.index_any(j).unwrap(), i, "{l} with R = {r} at {i}");
            }
        }
        // PyCuTe's is-largest and residue cases: bijections the chain covers in full, and one
        // whose carried component leaks (a bijection too, but the chain stops at mode 0).
        for t in [
            "(8,8):(F2(1),F2(9))",
            "(8,8):(F2(9),F2(1))",
            "(4,4):(F2(1),F2(5))",
        ] {
            assert_eq!(
                f2(t).right_inverse().unwrap().size(),
                64.min(f2(t).size()),
                "{t}"
            );
        }
        // a bijection whose carried component leaks: the chain stops at 8, GF(2) gives 64
        assert_eq!(
            f2("(8,8):(F2(1),F2(13))").right_inverse().unwrap().size(),
            64
        );
        assert_eq!(
            f2("(4,(4,3)):(F2(1),(F2(5),F2(16)))")
                .right_inverse()
                .unwrap()
                .size(),
            48
        );
    }

    #[test]
    fn left_inverse_laws_on_the_small_domain() {
        for l in small() {
            let injective = l.is_injective().unwrap();
            let r = match l.left_inverse() {
                Ok(r) => r,
                Err(e) => {
                    let want = if injective {
                        "NotRepresentable"
                    } else {
                        "NotInjective"
                    };
                    assert_eq!(e.kind(), want, "{l}: {e}");
                    assert!(!injective || !l.is_f2_linear(), "{l}: {e}");
                    continue;
                }
            };
            assert!(injective, "{l}: {r}");
            for i in 0..l.size() {
                let y = l.index_any(i).unwrap();
                assert_eq!(r.index_1d(y), Some(i), "{l} with {r} at {i}");
            }
        }
        for (t, want) in [
            ("8:F2(2)", "(2,8):(0,1)"),
            ("(8,8):(F2(1),F2(9))", "(8,8):(F2(1),F2(9))"),
            ("(4,4):(F2(1),F2(5))", "(4,4):(F2(1),F2(5))"),
        ] {
            assert_eq!(f2(t).left_inverse().unwrap().to_string(), want, "{t}");
        }
        assert_eq!(
            f2("(4,2):(F2(1),0)").left_inverse().unwrap_err().kind(),
            "NotInjective"
        );
    }

    #[test]
    fn layout_add_laws() {
        let list = [
            "16:0",
            "16:F2(1)",
            "16:F2(8)",
            "16:F2(9)",
            "16:F2(64)",
            "(4,4):(F2(1),F2(4))",
            "(4,4):(F2(1),F2(8))",
            "(4,4):(F2(2),F2(8))",
        ];
        for a in list {
            for b in list {
                let (la, lb) = (f2(a), f2(b));
                let r = la.layout_add(&lb).unwrap();
                assert_eq!(r, lb.layout_add(&la).unwrap());
                let want: Vec<i64> = vals(&la)
                    .iter()
                    .zip(vals(&lb))
                    .map(|(x, y)| x ^ y)
                    .collect();
                assert_eq!(vals(&r), want, "{a} + {b} = {r}");
            }
            assert!(vals(&f2(a).layout_add(&f2(a)).unwrap())
                .iter()
                .all(|&v| v == 0));
        }
        assert_eq!(
            f2("12:F2(1)")
                .layout_add(&f2("(3,4):(F2(1),F2(3))"))
                .unwrap_err()
                .kind(),
            "NotRepresentable"
        );
    }

    #[test]
    fn predicates_and_swizzle_agree_with_the_values() {
        for l in small() {
            let v = vals(&l);
            let mut s = v.clone();
            s.sort_unstable();
            let inj = s.windows(2).all(|w| w[0] != w[1]);
            assert_eq!(l.is_injective().unwrap(), inj, "{l}");
            let bij = s.iter().enumerate().all(|(i, &x)| x == i as i64);
            assert_eq!(l.is_bijective().unwrap(), bij, "{l}");
            if let Ok(c) = l.to_swizzle() {
                let got: Vec<i64> = (0..l.size()).map(|i| c.index_1d(i).unwrap()).collect();
                assert_eq!(got, v, "{l} as {c}");
            }
            assert!(l.same_function(&l.coalesce().unwrap()).unwrap());
        }
        assert!(f2("(4,4):(F2(1),F2(5))").to_swizzle().is_ok());
    }

    #[test]
    fn f2_basis_right_inverse_laws() {
        for t in [
            "4:F2(1)@0",
            "(8,8):(F2(1)@0,F2(9)@0)",
            "(8,8):(F2(1)@0,F2(1)@1)",
            "(4,2):(F2(1)@1,F2(3)@0)",
        ] {
            let l: Layout<F2Basis> = t.parse().unwrap();
            assert_eq!(l.to_string(), t);
            let r = l.right_inverse().unwrap();
            assert_eq!(r.rank(), l.axes(), "{t}: {r}");
            for i in 0..r.size() {
                let y = r.index_any(i).unwrap();
                let c = l.value(&IntTuple::int(y)).unwrap();
                assert_eq!(r.value(&c).unwrap(), y, "{t}: {r} at {i}");
            }
        }
        assert!("(2,2):(F2(1)@0,F2(1))".parse::<Layout<F2Basis>>().is_err());
        assert!("2:F2(1)@0@1".parse::<Layout<F2Basis>>().is_err());
    }

    proptest! {
        #[test]
        fn prop_coalesce_and_inverse(
            s in proptest::collection::vec(1i64..9, 1..4),
            d in proptest::collection::vec(0u64..300, 3),
        ) {
            let shape = s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
            let stride = (0..s.len()).map(|k| alloc::format!("F2({})", d[k])).collect::<Vec<_>>().join(",");
            let l = f2(&alloc::format!("({shape}):({stride})"));
            let c = l.coalesce().unwrap();
            prop_assert_eq!(vals(&c), vals(&l));
            let r = l.right_inverse().unwrap();
            for i in 0..r.size() {
                prop_assert_eq!(l.index_any(r.index_any(i).unwrap()).unwrap(), i);
            }
            let a = l.layout_add(&l.coalesce().unwrap());
            if let Ok(a) = a {
                prop_assert!(vals(&a).iter().all(|&v| v == 0));
            }
        }
    }
}
